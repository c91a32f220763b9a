/* A bytecode interpreter: a stack machine with 15 opcodes dispatched by a
 * switch in a loop, its operand stack and registers in local arrays, running
 * a fixed program of 16-bit code units (a loop of n iterations, 17
 * instructions each) from a global table.  Returns what the program leaves on the stack: see
 * interp.b3. */
#include <stdint.h>

enum { HALT, PUSH, LOAD, STORE, ADD, SUB, MUL, LT, JZ, JMP, XOR, SHR, MOD, DUP, INC };

static const uint16_t interp_program[] = {
    PUSH, 0, STORE, 1,         /*  0: i = 0 */
    PUSH, 0, STORE, 2,         /*  4: acc = 0 */
    LOAD, 1, LOAD, 0, LT,      /*  8: loop: while (i < n) */
    JZ, 42,                    /* 13 */
    LOAD, 2, PUSH, 33, MUL,    /* 15: acc * 33 */
    LOAD, 1, DUP, MUL,         /* 20: i * i */
    PUSH, 7, MOD, ADD,         /* 24: % 7, + */
    LOAD, 1, SHR, 3, XOR,      /* 28: ^ (i >> 3) */
    LOAD, 1, SUB,              /* 33: - i */
    STORE, 2,                  /* 36: acc = ... */
    INC, 1,                    /* 38: i++ */
    JMP, 8,                    /* 40 */
    LOAD, 2, HALT,             /* 42: return acc */
};

uint64_t kernel_interp_c(int64_t n)
{
    uint64_t stack[64], regs[8];
    int32_t sp = 0, pc = 0;
    for (int32_t i = 0; i < 8; i++)
        regs[i] = 0;
    regs[0] = (uint64_t)n;
    for (;;) {
        int32_t op = interp_program[pc];
        switch (op) {
        case HALT:
            return stack[sp - 1];
        case PUSH:
            stack[sp] = (uint64_t)(int64_t)interp_program[pc + 1];
            sp++;
            pc += 2;
            break;
        case LOAD:
            stack[sp] = regs[interp_program[pc + 1]];
            sp++;
            pc += 2;
            break;
        case STORE:
            sp--;
            regs[interp_program[pc + 1]] = stack[sp];
            pc += 2;
            break;
        case ADD:
            sp--;
            stack[sp - 1] = stack[sp - 1] + stack[sp];
            pc++;
            break;
        case SUB:
            sp--;
            stack[sp - 1] = stack[sp - 1] - stack[sp];
            pc++;
            break;
        case MUL:
            sp--;
            stack[sp - 1] = stack[sp - 1] * stack[sp];
            pc++;
            break;
        case LT:
            sp--;
            stack[sp - 1] = stack[sp - 1] < stack[sp];
            pc++;
            break;
        case JZ:
            sp--;
            if (stack[sp] == 0)
                pc = interp_program[pc + 1];
            else
                pc += 2;
            break;
        case JMP:
            pc = interp_program[pc + 1];
            break;
        case XOR:
            sp--;
            stack[sp - 1] = stack[sp - 1] ^ stack[sp];
            pc++;
            break;
        case SHR:
            stack[sp - 1] = stack[sp - 1] >> interp_program[pc + 1];
            pc += 2;
            break;
        case MOD:
            sp--;
            stack[sp - 1] = stack[sp - 1] % stack[sp];
            pc++;
            break;
        case DUP:
            stack[sp] = stack[sp - 1];
            sp++;
            pc++;
            break;
        case INC:
            regs[interp_program[pc + 1]]++;
            pc += 2;
            break;
        default:
            return ~(uint64_t)0;
        }
    }
}
