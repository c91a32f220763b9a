/* The parts of the C convention that clang's IR leaves to the back end and
 * B3's word-by-word argument placement cannot say by itself:
 *
 * - results of three or four values (AAPCS64 returns a homogeneous
 *   floating-point aggregate of up to four members in v0-v3):
 *   Return(@a, @b, @c, @d), and at a call SecondResult and Result(@call,
 *   index = N) (docs/c-extensions.md);
 * - arguments that go on the stack whole rather than split between the last
 *   registers and the stack: an i128 (x86-64 System V and AAPCS64: in memory,
 *   16-byte aligned, when both words do not fit in registers; AAPCS64 takes
 *   an even register pair and then gives no further integer argument a
 *   register) and an AAPCS64 homogeneous floating-point aggregate that does
 *   not fit in the remaining vector registers (in memory in its own layout,
 *   and no further floating-point argument gets a register).  Such an
 *   argument is passed as a ByVal copy of its bytes (ByVal(16, 16) for an
 *   i128), which the classifier places as the convention says; registers the
 *   convention leaves unused take pad arguments. */
#include <string.h>

#include "import/llvm_internal.h"

/* An AAPCS64 homogeneous floating-point aggregate: an array or struct of 2
 * to 4 leaves, all float or all double (clang passes [N x float] or
 * [N x double]).  Returns the member count (0: not one). */
static unsigned hfa_members(Imp *I, LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k != LLVMArrayTypeKind && k != LLVMStructTypeKind)
        return 0;
    const ImpLeaves *L = imp_leaves(I, t);
    if (L->n < 2 || L->n > 4)
        return 0;
    for (uint32_t i = 0; i < L->n; i++)
        if (L->leaf[i].kind != L->leaf[0].kind ||
            (L->leaf[i].kind != LK_Float && L->leaf[i].kind != LK_Double))
            return 0;
    return L->n;
}

ImpArgPlace imp_arg_place(Imp *I, LLVMTypeRef t, uint32_t nint, uint32_t nfp) {
    ImpArgPlace pl = {0, 0, {0, 0, 0}};
    const B3TargetDesc *d = I->desc;
    bool arm64 = I->m->target.arch == B3Arch_ARM64;
    if (imp_int_bits(t) == 128) {
        if (arm64 && nint < d->narg_gprs && nint % 2 == 1)
            pl.pad_int = 1; /* an even-numbered pair */
        if (nint + pl.pad_int + 2 > d->narg_gprs)
            pl.memory = (B3ByVal){16, 16, 0};
        return pl;
    }
    unsigned n = arm64 ? hfa_members(I, t) : 0;
    if (!n && arm64)
        n = imp_fp128_hfa(t); /* long doubles: their parts are Int64 leaves */
    if (n && nfp + n > d->narg_fprs) {
        if (nfp < d->narg_fprs)
            pl.pad_fp = (uint8_t)(d->narg_fprs - nfp);
        pl.memory = (B3ByVal){(uint32_t)LLVMABISizeOfType(I->td, t), LLVMABIAlignmentOfType(I->td, t), 0};
    }
    return pl;
}

ImpVals imp_arg_placed(Imp *I, LLVMTypeRef t, ImpVals p, const ImpArgPlace *pl) {
    uint32_t npad = pl->pad_int + pl->pad_fp;
    ImpVals q = imp_vals_new(I, npad + (pl->memory.size ? 1 : p.n));
    uint32_t k = 0;
    for (uint32_t i = 0; i < pl->pad_int; i++)
        q.v[k++] = imp_const(I, B3_Int64, 0);
    for (uint32_t i = 0; i < pl->pad_fp; i++)
        q.v[k++] = imp_fconst(I, B3_Double, 0);
    if (!pl->memory.size) {
        for (uint32_t i = 0; i < p.n; i++)
            q.v[k++] = p.v[i];
        return q;
    }
    const ImpLeaves *L = imp_leaves(I, t);
    B3Value *base = imp_emit(I, B3_SlotBase, B3_Int64, 0, NULL, NULL, NULL);
    base->m.slot = imp_new_slot(I, "arg", pl->memory.size, pl->memory.align);
    for (uint32_t i = 0; i < p.n; i++) {
        B3Value *st = imp_emit(I, B3_Store, B3_Void, 2, p.v[i], base, NULL);
        st->m.mem.offset = (int32_t)L->leaf[i].off;
    }
    q.v[k++] = base;
    return q;
}

ImpVals imp_arg_from_memory(Imp *I, LLVMTypeRef t, B3Value *addr) {
    const ImpLeaves *L = imp_leaves(I, t);
    ImpVals p = imp_vals_new(I, L->n);
    for (uint32_t i = 0; i < L->n; i++) {
        B3Value *ld = imp_emit(I, B3_Load, imp_leaf_type(&L->leaf[i]), 1, addr, NULL, NULL);
        ld->m.mem.offset = (int32_t)L->leaf[i].off;
        p.v[i] = ld;
    }
    return p;
}

void imp_check_results(Imp *I, uint32_t n, const B3Value *const *vals, const ImpLeaves *L) {
    if (n <= 1)
        return;
    uint8_t types[B3_MAX_RESULTS];
    B3Reg regs[B3_MAX_RESULTS];
    bool ok = n <= B3_MAX_RESULTS;
    for (uint32_t i = 0; ok && i < n; i++) {
        types[i] = vals ? vals[i]->type : (uint8_t)imp_leaf_type(&L->leaf[i]);
        /* Three or four values: all of one bank (Result reads register N of it). */
        ok = i < 2 || b3_type_is_float((B3Type)types[i]) == b3_type_is_float((B3Type)types[0]);
    }
    if (!ok || !b3_target_result_regs(I->desc, n, types, regs))
        imp_fail(I, "a result of %u values is not supported on %s", n, I->desc->name);
}

ImpVals imp_call_results(Imp *I, B3Value *call, const ImpLeaves *RL) {
    ImpVals r = imp_vals_new(I, RL->n);
    if (!RL->n)
        return r;
    r.v[0] = call;
    for (uint32_t i = 1; i < RL->n; i++) {
        r.v[i] = imp_emit(I, i == 1 ? B3_SecondResult : B3_Result, imp_leaf_type(&RL->leaf[i]), 1, call, NULL,
                          NULL);
        if (i > 1)
            r.v[i]->m.result_index = i;
    }
    return r;
}
