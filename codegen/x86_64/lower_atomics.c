/* The x86-64 lowering hooks of the atomics, Fence and Depend (codegen/x86_64/lower.h);
 * see docs/atomics.md.
 *
 *  - AtomicStrongCAS / AtomicWeakCAS: the expected value is moved to %rax,
 *    then `lock cmpxchg new, mem` leaves the old value in %rax and ZF set on
 *    success.  WeakCAS (0/1) is a strong CAS whose result is ZF.
 *    Equal/NotEqual(AtomicStrongCAS(e, n, p), e), Branch(AtomicWeakCAS),
 *    Branch(Equal/NotEqual(...)) and Branch(AtomicStrongCAS(0, n, p)) use ZF
 *    directly (setcc, or a BranchAtomicStrongCAS terminal) — no second cmp.
 *  - AtomicXchgAdd: lock xadd (XchgSub: of the negated value); AtomicXchg: xchg.
 *  - Add/Sub/And/Or/Xor whose old value is unused: lock add/sub/and/or/xor.
 *  - XchgAnd/Or/Xor whose old value is used: a CAS loop over Air blocks
 *    (load old into %rax; loop: new = old op v; lock cmpxchg; jne loop).
 *  - The old value of a narrow access (width below the type's) is sign-extended
 *    to the type, as the B3 reference says for 8- and 16-bit widths (and, the
 *    same way, for a 32-bit access of an Int64).
 *  - Fence: mfence unless its write range is empty (a store-store fence, which
 *    x86's TSO already gives).  Depend(x): x & 0, computed (never folded). */
#include <stdlib.h>

#include "codegen/x86_64/regs.h" /* the x86 lowering hooks, until they move to codegen/x86_64 */
#include "ir/effects.h"
#include "lower/lower_internal.h"

static const AirOpcode cas_ops[4] = {Air_AtomicStrongCAS8, Air_AtomicStrongCAS16, Air_AtomicStrongCAS32,
                                     Air_AtomicStrongCAS64};
static const AirOpcode branch_cas_ops[4] = {Air_BranchAtomicStrongCAS8, Air_BranchAtomicStrongCAS16,
                                            Air_BranchAtomicStrongCAS32, Air_BranchAtomicStrongCAS64};
static const AirOpcode xadd_ops[4] = {Air_AtomicXchgAdd8, Air_AtomicXchgAdd16, Air_AtomicXchgAdd32,
                                      Air_AtomicXchgAdd64};
static const AirOpcode xchg_ops[4] = {Air_AtomicXchg8, Air_AtomicXchg16, Air_AtomicXchg32, Air_AtomicXchg64};
static const AirOpcode lock_add_ops[4] = {Air_AtomicAdd8, Air_AtomicAdd16, Air_AtomicAdd32, Air_AtomicAdd64};
static const AirOpcode lock_sub_ops[4] = {Air_AtomicSub8, Air_AtomicSub16, Air_AtomicSub32, Air_AtomicSub64};
static const AirOpcode lock_and_ops[4] = {Air_AtomicAnd8, Air_AtomicAnd16, Air_AtomicAnd32, Air_AtomicAnd64};
static const AirOpcode lock_or_ops[4] = {Air_AtomicOr8, Air_AtomicOr16, Air_AtomicOr32, Air_AtomicOr64};
static const AirOpcode lock_xor_ops[4] = {Air_AtomicXor8, Air_AtomicXor16, Air_AtomicXor32, Air_AtomicXor64};
/* The plain load of the CAS loop (only the low bits matter). */
static const AirOpcode narrow_load_ops[4] = {Air_Load8, Air_Load16, Air_Move32, Air_Move};

/* The memory operand of an atomic: its pointer (the last child) plus offset,
 * folded into Addr/Index/Stack/Sym like a load's. */
static AirArg atomic_addr(Lower *L, B3Value *v) {
    return lower_addr_for(L, v->kids[v->nkids - 1], v->m.mem.offset);
}

static bool atomic_result_used(Lower *L, B3Value *v) { return (L->flags[lower_vid(L, v)] & F_NEEDED) != 0; }

/* ---- compare-and-swap ---------------------------------------------------------- */

/* Moves the expected value into %rax and emits the cmpxchg of cas: with
 * dst != AIR_NO_TMP the 5-arg form setting dst to cond; with branch the
 * BranchAtomicStrongCAS terminal on cond; else the plain form (old in %rax). */
static void emit_cas(Lower *L, B3Value *cas, AirCond cond, AirTmp dst, bool branch) {
    B3Type ty = (B3Type)lower_kid(cas, 0)->type;
    unsigned wi = lower_width_index(lower_atomic_bits(cas));
    AirArg m = atomic_addr(L, cas);
    AirArg nv = lower_vt_arg(L, lower_kid(cas, 1));
    /* %rax is written last, right before the cmpxchg, so it is live only across it. */
    lower_move_value_to(L, lower_kid(cas, 0), lower_tmp_arg(B3X_rax), ty);
    if (branch)
        EMIT_OP(L, branch_cas_ops[wi], air_rescond(cond), lower_tmp_arg(B3X_rax), nv, m);
    else if (dst != AIR_NO_TMP)
        EMIT_OP(L, cas_ops[wi], air_rescond(cond), lower_tmp_arg(B3X_rax), nv, m, lower_tmp_arg(dst));
    else
        EMIT_OP(L, cas_ops[wi], lower_tmp_arg(B3X_rax), nv, m);
}

bool x86_lower_cas(Lower *L, B3Value *v) {
    if (v->opcode == B3_AtomicWeakCAS) {
        /* 1 when the exchange happened (a strong CAS never fails spuriously). */
        if (atomic_result_used(L, v))
            emit_cas(L, v, AirCond_Equal, lower_vt(L, v), false);
        else
            emit_cas(L, v, AirCond_Equal, AIR_NO_TMP, false);
        return true;
    }
    bool used = atomic_result_used(L, v);
    emit_cas(L, v, AirCond_Equal, AIR_NO_TMP, false);
    if (used)
        lower_extend_old(L, (B3Type)v->type, lower_atomic_bits(v), B3X_rax, lower_vt(L, v));
    return true;
}

/* Equal/NotEqual(AtomicStrongCAS(e, n, p), e) as a value: sete/setne after the cmpxchg. */
bool x86_lower_cas_compare(Lower *L, B3Value *v) {
    B3Value *cas = lower_fusable_cas_compare(L, v);
    if (!cas)
        return false;
    L->flags[lower_vid(L, cas)] |= F_INTERNAL;
    emit_cas(L, cas, v->opcode == B3_Equal ? AirCond_Equal : AirCond_NotEqual, lower_vt(L, v), false);
    return true;
}

/* Branch on a CAS outcome: a BranchAtomicStrongCAS terminal, no compare. */
bool x86_lower_cas_branch(Lower *L, B3Value *br) {
    AirCond cond;
    B3Value *cas = lower_cas_branch_match(L, br, &cond);
    if (!cas)
        return false;
    B3Block *b = L->blk;
    emit_cas(L, cas, cond, AIR_NO_TMP, true);
    lower_set_succs(L, L->ablock[b->pos], 2,
                    (AirSucc[]){lower_succ_of(L, b->succs[0]), lower_succ_of(L, b->succs[1])});
    return true;
}

/* ---- exchange and read-modify-write ------------------------------------------------ */

/* Appends inst to block b (struct copy: args stay where they are). */
static void push_inst(Lower *L, AirBlock *b, const AirInst *inst) {
    AirInst *n = air_append(L->c, b, (AirOpcode)inst->opcode, inst->origin, 0, NULL);
    *n = *inst;
}

/* Splits the current B3 block's Air code at the value being lowered: the insts
 * already selected for the values after it (every chunk but the current one)
 * are appended to `rest`, which takes over the block's successors.  The
 * caller ends the current Air block with a terminal of its own. */
static void split_block_into(Lower *L, AirBlock *rest) {
    if (L->sink)
        b3_internal_error_at("lower_to_air", L->cur, "cannot split a block while emitting into another");
    AirBlock *ab = L->ablock[L->blk->pos];
    uint32_t cur = L->chunks[L->nchunks - 1];
    /* Chunks were produced last value first: walk them back to get program order. */
    for (uint32_t k = L->nchunks - 1; k-- > 0;)
        for (uint32_t i = L->chunks[k]; i < L->chunks[k + 1]; i++)
            push_inst(L, rest, &L->buf[i]);
    rest->succs = ab->succs;
    rest->nsuccs = ab->nsuccs;
    ab->succs = NULL;
    ab->nsuccs = 0;
    if (L->nbuf > cur) /* L->buf may be NULL: no memmove of nothing from it */
        memmove(L->buf, L->buf + cur, (L->nbuf - cur) * sizeof *L->buf);
    L->nbuf -= cur;
    L->chunks[0] = 0;
    L->nchunks = 1;
    /* Check* branches lowered so far (all after this value) are in `rest` now:
     * split it at them here, as lower_block does for the block's first part. */
    lower_sm_split_block(L, rest);
}

/* XchgAnd/Or/Xor with a used result: a CAS loop.
 *     head:  load old -> %rax; Jump loop
 *     loop:  t = %rax; t op= value; BranchAtomicStrongCAS NotEqual %rax, t, mem -> loop, done
 *     done:  result = sext(%rax); ...the rest of the B3 block
 * (a failed cmpxchg reloads %rax with the current memory value). */
static void lower_cas_loop(Lower *L, B3Value *v, AirOpcode op32, AirOpcode op64) {
    B3Type ty = (B3Type)v->type;
    unsigned bits = lower_atomic_bits(v), wi = lower_width_index(bits);
    AirArg m = atomic_addr(L, v);
    B3Value *x = lower_kid(v, 0);
    int64_t c;
    AirArg src = lower_imm_const(x, &c) ? air_imm(c) : lower_vt_arg(L, x);
    AirTmp r = lower_vt(L, v);

    AirBlock *head = L->ablock[L->blk->pos], *loop = lower_new_block(L), *done = lower_new_block(L);
    L->sink = done;
    lower_extend_old(L, ty, bits, B3X_rax, r);
    L->sink = NULL;
    split_block_into(L, done);

    EMIT_OP(L, narrow_load_ops[wi], m, lower_tmp_arg(B3X_rax));
    EMIT0(L, Jump);
    lower_set_succs(L, head, 1, (AirSucc[]){{loop, B3Freq_Normal}});

    L->sink = loop;
    AirTmp t = lower_newtmp(L, AirGP);
    EMIT_OP(L, bits == 64 ? Air_Move : Air_Move32, lower_tmp_arg(B3X_rax), lower_tmp_arg(t));
    EMIT_OP(L, bits == 64 ? op64 : op32, src, lower_tmp_arg(t));
    EMIT_OP(L, branch_cas_ops[wi], air_rescond(AirCond_NotEqual), lower_tmp_arg(B3X_rax), lower_tmp_arg(t),
            m);
    L->sink = NULL;
    lower_set_succs(L, loop, 2, (AirSucc[]){{loop, B3Freq_Normal}, {done, B3Freq_Normal}});
}

/* lock xadd (negate: of -value) or xchg; the register gets the old value. */
static void lower_xadd_xchg(Lower *L, B3Value *v, bool xchg, bool negate) {
    B3Type ty = (B3Type)v->type;
    unsigned bits = lower_atomic_bits(v);
    bool used = atomic_result_used(L, v);
    AirArg m = atomic_addr(L, v);
    B3Value *x = lower_kid(v, 0);
    AirTmp r = used ? lower_vt(L, v) : AIR_NO_TMP;
    AirTmp t = used && bits == (ty == B3_Int64 ? 64u : 32u) ? r : lower_newtmp(L, AirGP);
    int64_t c;
    if (negate && lower_int_const(x, &c)) {
        lower_move_int_const(L, ty,
                             ty == B3_Int32 ? (int32_t)(0u - (uint32_t)c) : (int64_t)(0ull - (uint64_t)c),
                             lower_tmp_arg(t));
    } else {
        lower_move_value_to(L, x, lower_tmp_arg(t), ty);
        if (negate)
            EMIT_OP(L, ty == B3_Int64 ? Air_Neg64 : Air_Neg32, lower_tmp_arg(t));
    }
    EMIT_OP(L, xchg ? xchg_ops[lower_width_index(bits)] : xadd_ops[lower_width_index(bits)], lower_tmp_arg(t),
            m);
    if (used)
        lower_extend_old(L, ty, bits, t, r);
}

/* lock op value, mem: the old value is not needed. */
static void lower_lock_op(Lower *L, B3Value *v, const AirOpcode *ops) {
    AirOpcode op = ops[lower_width_index(lower_atomic_bits(v))];
    AirArg m = atomic_addr(L, v);
    B3Value *x = lower_kid(v, 0);
    int64_t c;
    if (lower_imm_const(x, &c))
        EMIT_OP(L, op, air_imm(c), m);
    else
        EMIT_OP(L, op, lower_vt_arg(L, x), m);
}

bool x86_lower_atomic_rmw(Lower *L, B3Value *v) {
    bool used = atomic_result_used(L, v);
    switch (v->opcode) {
    case B3_AtomicXchgAdd:
        if (used)
            lower_xadd_xchg(L, v, false, false);
        else
            lower_lock_op(L, v, lock_add_ops);
        return true;
    case B3_AtomicXchgSub:
        if (used)
            lower_xadd_xchg(L, v, false, true);
        else
            lower_lock_op(L, v, lock_sub_ops);
        return true;
    case B3_AtomicXchgAnd:
        if (used)
            lower_cas_loop(L, v, Air_And32, Air_And64);
        else
            lower_lock_op(L, v, lock_and_ops);
        return true;
    case B3_AtomicXchgOr:
        if (used)
            lower_cas_loop(L, v, Air_Or32, Air_Or64);
        else
            lower_lock_op(L, v, lock_or_ops);
        return true;
    case B3_AtomicXchgXor:
        if (used)
            lower_cas_loop(L, v, Air_Xor32, Air_Xor64);
        else
            lower_lock_op(L, v, lock_xor_ops);
        return true;
    case B3_AtomicXchg:
        lower_xadd_xchg(L, v, true, false);
        return true;
    default:
        b3_internal_error_at("lower_to_air", v, "is not an atomic read-modify-write");
    }
    return true;
}

/* ---- fences and dependencies ------------------------------------------------------- */

bool x86_lower_fence(Lower *L, B3Value *v) {
    /* An empty write range is a store-store fence: x86 keeps stores in order. */
    if (!b3_heap_is_bottom(v->m.fence.write))
        EMIT0(L, MemoryFence);
    return true;
}

/* Depend(x) is zero, computed from x (x & 0) so the value stays data-dependent
 * on x; x86 orders loads anyway, so any zero would do, but it is never folded. */
bool x86_lower_depend(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    AirTmp r = lower_vt(L, v);
    lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(r), ty);
    EMIT_OP(L, ty == B3_Int64 ? Air_And64 : Air_And32, air_imm(0), lower_tmp_arg(r));
    return true;
}
