/* Air X87 / X87Compare -> x86-64 x87 instructions (docs/c-extensions.md,
 * "Long double on x86-64").  Each operation loads its operands from their
 * 16-byte slots onto the x87 register stack, computes, and stores or pops
 * its result, so the x87 stack is empty between insts, as the C convention
 * wants it at calls, except from a `ret` to the procedure's return and from
 * a call to its `result`, where st(0) holds the long double result:
 *
 *   add/sub/mul/div  dst, a, b   fldt a; fldt b; faddp/fsubrp/fmulp/fdivrp; fstpt dst
 *   neg/abs          dst, a      fldt a; fchs/fabs; fstpt dst
 *   fromi32/i64/float/double     fildl/fildll/flds/fldl a; fstpt dst
 *   toi64            dst, a      fldt a; fnstcw 8(dst); fnstcw 10(dst);
 *                                orw $0xc00, 10(dst); fldcw 10(dst);
 *                                fistpll dst; fldcw 8(dst)   (round toward zero)
 *   tofloat/todouble dst, a      fldt a; fstps/fstpl dst
 *   compare          a, b, d     fldt b; fldt a; fucomip; fstp %st(0); setcc d; movzbl
 *   ret              a           fldt a
 *   result           dst         fstpt dst
 *   ret2             a, b        fldt b; fldt a        (st(0) = *a, st(1) = *b)
 *   result2          dst, dst2   fstpt dst; fstpt dst2
 *
 * The operand accessors are emit.c's (emit_operands.h). */
#include "codegen/x86_64/emit.h"
#include "codegen/x86_64/emit_operands.h"
#include "ir/x87.h"

static X86Mem slot(const AirInst *inst, unsigned i, int32_t disp) { return x86_mem(gpr(inst, i), disp); }

static unsigned operation(const AirInst *inst) {
    const AirArg *a = arg(inst, 0);
    if (a->kind != AirArg_Imm || a->value < 0 || a->value >= B3_NUM_X87_OPS)
        bad(inst, "expected an X87 operation");
    return (unsigned)a->value;
}

static void load(X86Emitter *e, X86X87Mem op, const AirInst *inst, unsigned i) {
    X86Mem m = slot(inst, i, 0);
    x86_x87_mem(e->a, op, &m);
}

/* The condition code of each comparison after fucomip of a (st0) with b,
 * whose flags are ucomisd's: unordered sets ZF, PF and CF. */
static unsigned compare_cc(unsigned op) {
    switch (op) {
    case B3X87_Gt:
        return X86_CC_A;
    case B3X87_Ge:
        return X86_CC_AE;
    case B3X87_ULt:
        return X86_CC_B;
    case B3X87_ULe:
        return X86_CC_BE;
    case B3X87_UEq:
        return X86_CC_E;
    case B3X87_One:
        return X86_CC_NE;
    case B3X87_Uno:
        return X86_CC_P;
    case B3X87_Ord:
        return X86_CC_NP;
    default:
        return ~0u;
    }
}

void x86_op_x87_compare(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p,
                        unsigned size) {
    (void)b, (void)next, (void)p, (void)size;
    unsigned cc = compare_cc(operation(inst));
    if (cc == ~0u)
        bad(inst, "not an X87 comparison");
    load(e, X87_Fldt, inst, 2);
    load(e, X87_Fldt, inst, 1);
    x86_x87(e->a, X87_Fucomip);
    x86_x87(e->a, X87_Fpop);
    X86RM d = x86_rm_reg(gpr(inst, 3));
    x86_setcc(e->a, cc, &d);
    x86_movx(e->a, X86Ext_Movzbl, &d, gpr(inst, 3));
}

void x86_op_x87(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size) {
    (void)b, (void)next, (void)p, (void)size;
    unsigned op = operation(inst);
    X86Mem dst = slot(inst, 1, 0);
    switch (op) {
    case B3X87_Add:
    case B3X87_Sub:
    case B3X87_Mul:
    case B3X87_Div: {
        static const X86X87Reg arith[] = {[B3X87_Add] = X87_Faddp,
                                          [B3X87_Sub] = X87_Fsubp,
                                          [B3X87_Mul] = X87_Fmulp,
                                          [B3X87_Div] = X87_Fdivp};
        load(e, X87_Fldt, inst, 2);
        load(e, X87_Fldt, inst, 3);
        x86_x87(e->a, arith[op]);
        break;
    }
    case B3X87_Neg:
    case B3X87_Abs:
        load(e, X87_Fldt, inst, 2);
        x86_x87(e->a, op == B3X87_Neg ? X87_Fchs : X87_Fabs);
        break;
    case B3X87_FromI32:
        load(e, X87_Fildl, inst, 2);
        break;
    case B3X87_FromI64:
        load(e, X87_Fildll, inst, 2);
        break;
    case B3X87_FromFloat:
        load(e, X87_Flds, inst, 2);
        break;
    case B3X87_FromDouble:
        load(e, X87_Fldl, inst, 2);
        break;
    case B3X87_ToI64: {
        /* C truncates: the control word's rounding field (bits 10-11) set
         * to 11 for the store, then put back. */
        X86Mem saved = slot(inst, 1, 8), trunc = slot(inst, 1, 10);
        X86RM trunc_rm = x86_rm_mem(trunc);
        load(e, X87_Fldt, inst, 2);
        x86_x87_mem(e->a, X87_Fnstcw, &saved);
        x86_x87_mem(e->a, X87_Fnstcw, &trunc);
        x86_alu_imm(e->a, X86Alu_Or, 2, 0xC00, &trunc_rm);
        x86_x87_mem(e->a, X87_Fldcw, &trunc);
        x86_x87_mem(e->a, X87_Fistpll, &dst);
        x86_x87_mem(e->a, X87_Fldcw, &saved);
        return;
    }
    case B3X87_ToFloat:
        load(e, X87_Fldt, inst, 2);
        x86_x87_mem(e->a, X87_Fstps, &dst);
        return;
    case B3X87_ToDouble:
        load(e, X87_Fldt, inst, 2);
        x86_x87_mem(e->a, X87_Fstpl, &dst);
        return;
    case B3X87_Ret:
        load(e, X87_Fldt, inst, 1);
        return;
    case B3X87_Result:
        break;
    case B3X87_Ret2:
        load(e, X87_Fldt, inst, 2);
        load(e, X87_Fldt, inst, 1);
        return;
    case B3X87_Result2: {
        X86Mem dst2 = slot(inst, 2, 0);
        x86_x87_mem(e->a, X87_Fstpt, &dst);
        x86_x87_mem(e->a, X87_Fstpt, &dst2);
        return;
    }
    default:
        bad(inst, "not an X87 operation of memory");
    }
    x86_x87_mem(e->a, X87_Fstpt, &dst);
}
