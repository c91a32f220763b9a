/* Air atomics -> x86-64 (docs/atomics.md).
 *
 *   AtomicStrongCAS{8,16,32,64}  %rax, new, mem          lock cmpxchg new, mem
 *                                cond, %rax, new, mem, d  ... then setcc cond, d; movzbl
 *   BranchAtomicStrongCAS*       cond, %rax, new, mem     ... then jcc (a terminal)
 *   AtomicXchgAdd*               reg, mem                 lock xadd reg, mem
 *   AtomicXchg*                  reg, mem                 xchg reg, mem (locked by itself)
 *   AtomicAdd/Sub/And/Or/Xor*    src, mem                 lock add/sub/and/or/xor src, mem
 *
 * Every one of them is a full barrier on x86.  The operand accessors are
 * emit.c's (emit_operands.h). */
#include "codegen/x86_64/emit.h"
#include "codegen/x86_64/emit_operands.h"
#include "ir/diag.h"

/* The memory operand: never a GOT symbol. */
static X86Mem atomic_mem(const AirInst *inst, unsigned i) {
    const AirArg *a = arg(inst, i);
    if (a->kind == AirArg_Sym && a->got)
        bad(inst, "GOT symbol operand of an atomic");
    return mem_of(inst, i, false);
}

static void need_rax(const AirInst *inst, unsigned i) {
    if (gpr(inst, i) != B3X_rax)
        bad(inst, "the expected value must be in %rax");
}

/* Terminal branch on the flags: to succs[0] if cc holds, else succs[1]; falls
 * through to `next` when it is one of them. */
static void branch_on(X86Emitter *e, const AirBlock *b, const AirInst *inst, const AirBlock *next, unsigned cc) {
    if (b->nsuccs != 2)
        bad(inst, "a branch needs two successors");
    uint32_t taken = e->block_label[b->succs[0].block->index];
    uint32_t not_taken = e->block_label[b->succs[1].block->index];
    if (b->succs[0].block == next && b->succs[1].block != next) {
        x86_jcc(e->a, cc ^ 1, not_taken);
        return;
    }
    x86_jcc(e->a, cc, taken);
    if (b->succs[1].block != next)
        x86_jmp(e->a, not_taken);
}

/* With a condition: (cond, %rax, new, mem[, dst]); without: (%rax, new, mem). */
static void cmpxchg(X86Emitter *e, AirInst *inst, unsigned size) {
    unsigned first = inst->nargs == 3 ? 0 : 1;
    need_rax(inst, first);
    X86RM m = x86_rm_mem(atomic_mem(inst, first + 2));
    x86_lock(e->a);
    x86_cmpxchg(e->a, size, gpr(inst, first + 1), &m);
}

void x86_op_cas(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size) {
    (void)b, (void)next, (void)p;
    cmpxchg(e, inst, size);
    if (inst->nargs == 5) {
        B3Reg d = gpr(inst, 4);
        X86RM rd = x86_rm_reg(d);
        x86_setcc(e->a, cond_of(inst, 0, AirArg_ResCond), &rd);
        x86_movx(e->a, X86Ext_Movzbl, &rd, d);
    } else if (inst->nargs != 3) {
        bad(inst, "wrong number of arguments");
    }
}

void x86_op_branch_cas(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size) {
    (void)p;
    cmpxchg(e, inst, size);
    branch_on(e, b, inst, next, cond_of(inst, 0, AirArg_ResCond));
}

void x86_op_xadd(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size) {
    (void)b, (void)next, (void)p;
    X86RM m = x86_rm_mem(atomic_mem(inst, 1));
    x86_lock(e->a);
    x86_xadd(e->a, size, gpr(inst, 0), &m);
}

void x86_op_xchg(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size) {
    (void)b, (void)next, (void)p;
    X86Mem m = atomic_mem(inst, 1);
    x86_xchg(e->a, size, gpr(inst, 0), &m);
}

void x86_op_atomic_alu(X86Emitter *e, AirBlock *b, AirInst *inst, AirBlock *next, unsigned p, unsigned size) {
    (void)b, (void)next;
    X86Asm *a = e->a;
    X86RM m = x86_rm_mem(atomic_mem(inst, 1));
    const AirArg *src = arg(inst, 0);
    if (src->kind == AirArg_Imm) {
        /* 8/16/32-bit operations take the low bits; 64-bit ones a sign-extended 32-bit value. */
        bool ok = (src->value >= INT32_MIN && src->value <= INT32_MAX) ||
                  (size <= 4 && src->value >= 0 && src->value <= (int64_t)UINT32_MAX);
        if (!ok)
            bad(inst, "immediate does not fit 32 bits");
        x86_lock(a);
        x86_alu_imm(a, (X86AluOp)p, size, (int32_t)(uint32_t)src->value, &m);
    } else {
        X86RM r = x86_rm_reg(gpr(inst, 0));
        x86_lock(a);
        x86_alu(a, (X86AluOp)p, size, &r, &m);
    }
}
