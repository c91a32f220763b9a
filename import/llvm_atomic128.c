/* The LLVM-IR front end's 128-bit atomics: `load atomic`, `store atomic`,
 * `cmpxchg` and `atomicrmw` of an i128 (C's _Atomic __int128, and on arm64
 * Linux _Atomic long double, which clang makes an i128).  B3's atomics are
 * at most 64 bits wide, so these are calls of libatomic's sized functions,
 * as gcc compiles them (the program links -latomic):
 *
 *   __int128 __atomic_load_16(const void *p, int order)
 *   void __atomic_store_16(void *p, __int128 v, int order)
 *   bool __atomic_compare_exchange_16(void *p, void *expected, __int128 desired,
 *                                     int success, int failure)
 *
 * An atomicrmw is a compare-and-swap loop around the last.  An i128
 * argument is two Int64 children; AAPCS64 puts it in an even register
 * pair, so __atomic_store_16 gets a pad argument there. */
#include <stdio.h>
#include <string.h>

#include "import/llvm_internal.h"

/* C's memory_order of an LLVM ordering (relaxed 0, acquire 2, release 3,
 * acq_rel 4, seq_cst 5). */
static B3Value *order(Imp *I, LLVMAtomicOrdering o) {
    int c = 5;
    switch (o) {
    case LLVMAtomicOrderingUnordered:
    case LLVMAtomicOrderingMonotonic:
        c = 0;
        break;
    case LLVMAtomicOrderingAcquire:
        c = 2;
        break;
    case LLVMAtomicOrderingRelease:
        c = 3;
        break;
    case LLVMAtomicOrderingAcquireRelease:
        c = 4;
        break;
    default:
        break;
    }
    return imp_const(I, B3_Int32, c);
}

static ImpVals two(Imp *I, B3Value *lo, B3Value *hi) {
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = lo;
    r.v[1] = hi;
    return r;
}

static ImpVals load16(Imp *I, B3Value *ptr, LLVMAtomicOrdering o) {
    B3Value *args[2] = {ptr, order(I, o)};
    B3Value *lo = imp_call_named(I, "__atomic_load_16", B3_Int64, 2, args);
    return two(I, lo, imp_emit(I, B3_SecondResult, B3_Int64, 1, lo, NULL, NULL));
}

/* A 16-byte, 16-aligned slot of the function for a compare-and-swap's
 * expected value. */
static B3Value *expected_slot(Imp *I) {
    B3StackSlot *s = imp_new_slot(I, "cas", 16, 16);
    B3Value *b = imp_emit(I, B3_SlotBase, B3_Int64, 0, NULL, NULL, NULL);
    b->m.slot = s;
    return b;
}

static void store_two(Imp *I, ImpVals v, B3Value *at) {
    for (uint32_t i = 0; i < 2; i++) {
        B3Value *st = imp_emit(I, B3_Store, B3_Void, 2, v.v[i], at, NULL);
        st->m.mem.offset = 8 * (int32_t)i;
    }
}

static ImpVals load_two(Imp *I, B3Value *at) {
    ImpVals r = imp_vals_new(I, 2);
    for (uint32_t i = 0; i < 2; i++) {
        r.v[i] = imp_emit(I, B3_Load, B3_Int64, 1, at, NULL, NULL);
        r.v[i]->m.mem.offset = 8 * (int32_t)i;
    }
    return r;
}

/* __atomic_compare_exchange_16: Int32 1 if *ptr was e (then it is n),
 * else 0; *slot then holds what *ptr held. */
static B3Value *cas16(Imp *I, B3Value *ptr, B3Value *slot, ImpVals e, ImpVals n, LLVMAtomicOrdering ok,
                      LLVMAtomicOrdering fail) {
    store_two(I, e, slot);
    B3Value *args[6] = {ptr, slot, n.v[0], n.v[1], order(I, ok), order(I, fail)};
    B3Value *r = imp_call_named(I, "__atomic_compare_exchange_16", B3_Int32, 6, args);
    return imp_zext_bits(I, r, 8); /* a C bool: the upper bits are unspecified */
}

bool imp_atomic128_load(Imp *I, LLVMValueRef v, ImpVals *out) {
    if (imp_int_bits(LLVMTypeOf(v)) != 128)
        return false;
    *out = load16(I, imp_scalar(I, LLVMGetOperand(v, 0)), LLVMGetOrdering(v));
    return true;
}

bool imp_atomic128_store(Imp *I, LLVMValueRef v) {
    LLVMValueRef val = LLVMGetOperand(v, 0);
    if (imp_int_bits(LLVMTypeOf(val)) != 128)
        return false;
    ImpVals x = imp_operand(I, val);
    B3Value *args[5];
    uint32_t k = 0;
    args[k++] = imp_scalar(I, LLVMGetOperand(v, 1));
    if (I->m->target.arch == B3Arch_ARM64) /* the i128 in an even pair: x2, x3 */
        args[k++] = imp_const(I, B3_Int64, 0);
    args[k++] = x.v[0];
    args[k++] = x.v[1];
    args[k++] = order(I, LLVMGetOrdering(v));
    imp_call_named(I, "__atomic_store_16", B3_Void, k, args);
    return true;
}

bool imp_atomic128_cmpxchg(Imp *I, LLVMValueRef v, ImpVals *out) {
    if (imp_int_bits(LLVMTypeOf(LLVMGetOperand(v, 1))) != 128)
        return false;
    B3Value *ptr = imp_scalar(I, LLVMGetOperand(v, 0));
    ImpVals e = imp_operand(I, LLVMGetOperand(v, 1)), n = imp_operand(I, LLVMGetOperand(v, 2));
    B3Value *slot = expected_slot(I);
    B3Value *ok =
        cas16(I, ptr, slot, e, n, LLVMGetCmpXchgSuccessOrdering(v), LLVMGetCmpXchgFailureOrdering(v));
    ImpVals old = load_two(I, slot);
    ImpVals r = imp_vals_new(I, 3); /* { i128, i1 } */
    r.v[0] = old.v[0];
    r.v[1] = old.v[1];
    r.v[2] = ok;
    *out = r;
    return true;
}

bool imp_atomic128_rmw(Imp *I, LLVMValueRef v, ImpVals *out) {
    LLVMValueRef xv = LLVMGetOperand(v, 1);
    if (imp_int_bits(LLVMTypeOf(xv)) != 128)
        return false;
    LLVMAtomicRMWBinOp rop = LLVMGetAtomicRMWBinOp(v);
    static const LLVMOpcode ops[] = {[LLVMAtomicRMWBinOpAdd] = LLVMAdd, [LLVMAtomicRMWBinOpSub] = LLVMSub,
                                     [LLVMAtomicRMWBinOpAnd] = LLVMAnd, [LLVMAtomicRMWBinOpNand] = LLVMAnd,
                                     [LLVMAtomicRMWBinOpOr] = LLVMOr,   [LLVMAtomicRMWBinOpXor] = LLVMXor};
    bool xchg = rop == LLVMAtomicRMWBinOpXchg;
    if (!xchg && ((unsigned)rop >= sizeof ops / sizeof ops[0] || !ops[rop]))
        imp_fail(I, "this atomicrmw operation of an i128 is not supported");
    B3Value *ptr = imp_scalar(I, LLVMGetOperand(v, 0));
    ImpVals x = imp_operand(I, xv);
    LLVMAtomicOrdering o = LLVMGetOrdering(v);
    B3Value *slot = expected_slot(I);
    ImpVals init = load16(I, ptr, LLVMAtomicOrderingMonotonic);
    /* loop: old = phi(init, what the failed exchange found) */
    B3Value *phi[2];
    for (uint32_t i = 0; i < 2; i++) {
        phi[i] = b3_value_new(I->m, I->p, B3_Phi, B3_Int64, 0, UINT32_MAX);
        phi[i]->loc = phi[i]->type_loc = I->loc;
        B3Value *up = imp_emit(I, B3_Upsilon, B3_Void, 1, init.v[i], NULL, NULL);
        up->m.phi = phi[i];
    }
    B3Block *loop = b3_block_new(I->m, I->p, UINT32_MAX);
    imp_jump(I, loop);
    I->cur = loop;
    for (uint32_t i = 0; i < 2; i++)
        b3_block_append(I->m, loop, phi[i]);
    ImpVals old = two(I, phi[0], phi[1]), nv = x;
    if (!xchg) {
        nv = imp_wide_binary(I, 128, ops[rop], old, x, xv);
        if (rop == LLVMAtomicRMWBinOpNand)
            for (uint32_t i = 0; i < 2; i++)
                nv.v[i] = imp_op2(I, B3_BitXor, nv.v[i], imp_const(I, B3_Int64, -1));
    }
    B3Value *ok = cas16(I, ptr, slot, old, nv, o, LLVMAtomicOrderingMonotonic);
    ImpVals seen = load_two(I, slot);
    for (uint32_t i = 0; i < 2; i++) {
        B3Value *up = imp_emit(I, B3_Upsilon, B3_Void, 1, seen.v[i], NULL, NULL);
        up->m.phi = phi[i];
    }
    B3Block *done = b3_block_new(I->m, I->p, UINT32_MAX);
    imp_branch(I, ok, done, loop);
    I->cur = done;
    *out = old;
    return true;
}
