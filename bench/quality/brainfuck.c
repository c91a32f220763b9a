/* A Brainfuck interpreter running a fixed program of nested counting loops
 * (n times 255 * 255 iterations of an inner loop adding 1, 2 and 3 to three
 * cells, printing the three cells after each outer iteration): see
 * brainfuck.b3. */
#include <stdint.h>

#define BF_LEN 39
static const uint8_t bf_program[BF_LEN + 1] = ",[>-[>-[>+>++>+++<<<-]<-]>>.>.>.<<<<<-]";

uint64_t kernel_brainfuck_c(int32_t n) {
    int32_t match[BF_LEN], stack[16];
    uint8_t tape[64];
    int32_t sp = 0;
    for (int32_t i = 0; i < BF_LEN; i++) {
        int32_t c = bf_program[i];
        if (c == '[') {
            stack[sp] = i;
            sp++;
        } else if (c == ']') {
            sp--;
            int32_t j = stack[sp];
            match[i] = j;
            match[j] = i;
        }
    }
    for (int32_t i = 0; i < 64; i++)
        tape[i] = 0;
    uint64_t sum = 0;
    int32_t p = 0, pc = 0;
    while (pc < BF_LEN) {
        switch (bf_program[pc]) {
        case '+':
            tape[p]++;
            break;
        case '-':
            tape[p]--;
            break;
        case '>':
            p++;
            break;
        case '<':
            p--;
            break;
        case '.':
            sum = sum * 31 + tape[p];
            break;
        case ',':
            tape[p] = (uint8_t)n;
            break;
        case '[':
            if (tape[p] == 0)
                pc = match[pc];
            break;
        case ']':
            if (tape[p] != 0)
                pc = match[pc];
            break;
        }
        pc++;
    }
    return sum;
}
