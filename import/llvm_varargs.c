/* The LLVM-IR front end's variadic function definitions: the procedure's
 * `variadic(G, F, S)` from its named parameters, llvm.va_start as VaStart,
 * llvm.va_copy as a copy of the target's va_list, and the va_arg
 * instruction where clang leaves it to the back end (Apple arm64, whose
 * va_list is a pointer into the stack arguments).  llvm.va_end does
 * nothing (llvm_intrinsics.c).  See docs/c-extensions.md, "Variadic
 * procedures". */
#include "import/llvm_internal.h"

void imp_varargs_params(Imp *I, uint32_t n, const B3Reg *where, uint32_t stack_bytes) {
    B3Proc *p = I->p;
    p->variadic = true;
    p->va_gprs = p->va_fprs = 0;
    for (uint32_t i = 0; i < n; i++) {
        /* The halves of a Float128 pair share their register. */
        if (where[i] == B3_NO_REG || (i && where[i] == where[i - 1]))
            continue;
        if (b3_reg_is_fpr(where[i]))
            p->va_fprs++;
        else
            p->va_gprs++;
    }
    /* Variadic stack arguments take 8-byte slots (Apple arm64 packs the
     * named ones, so the first variadic one is at the next multiple of 8). */
    p->va_stack = (stack_bytes + 7) & ~7u;
}

void imp_va_start(Imp *I, B3Value *ap) { imp_emit(I, B3_VaStart, B3_Void, 1, ap, NULL, NULL); }

static B3Value *load_at(Imp *I, B3Opcode op, B3Type t, B3Value *ptr, int32_t off) {
    B3Value *v = imp_emit(I, op, t, 1, ptr, NULL, NULL);
    v->m.mem.offset = off;
    return v;
}

static void store_at(Imp *I, B3Value *x, B3Value *ptr, int32_t off) {
    B3Value *v = imp_emit(I, B3_Store, B3_Void, 2, x, ptr, NULL);
    v->m.mem.offset = off;
}

void imp_va_copy(Imp *I, B3Value *dst, B3Value *src) {
    /* Every target's va_list is a multiple of 8 bytes (24, 32, 8): all
     * loads first, so that copying a va_list onto itself is right. */
    B3Value *w[8];
    uint32_t n = I->desc->va_list_size / 8;
    for (uint32_t i = 0; i < n; i++)
        w[i] = load_at(I, B3_Load, B3_Int64, src, (int32_t)(8 * i));
    for (uint32_t i = 0; i < n; i++)
        store_at(I, w[i], dst, (int32_t)(8 * i));
}

/* A leaf of a va_arg's type, in its stack slot at cur + offset. */
static B3Value *load_leaf(Imp *I, const ImpLeaf *l, B3Value *cur) {
    int32_t off = (int32_t)l->off;
    switch (l->kind) {
    case LK_Int:
        if (l->bits <= 8)
            return load_at(I, B3_Load8Z, B3_Int32, cur, off);
        if (l->bits <= 16)
            return load_at(I, B3_Load16Z, B3_Int32, cur, off);
        return load_at(I, B3_Load, l->bits <= 32 ? B3_Int32 : B3_Int64, cur, off);
    case LK_Top:
    case LK_Ptr:
        return load_at(I, B3_Load, B3_Int64, cur, off);
    case LK_Float:
        return load_at(I, B3_Load, B3_Float, cur, off);
    default: /* LK_Double, LK_F32x2 */
        return load_at(I, B3_Load, B3_Double, cur, off);
    }
}

ImpVals imp_va_arg(Imp *I, LLVMValueRef inst) {
    if (I->desc->va_list_kind != B3VaList_StackPointer)
        imp_fail(I, "a va_arg instruction is not supported on %s (clang lowers va_arg in the IR there)",
                 I->desc->name);
    LLVMTypeRef t = LLVMTypeOf(inst);
    B3Value *ap = imp_scalar(I, LLVMGetOperand(inst, 0));
    B3Value *cur = load_at(I, B3_Load, B3_Int64, ap, 0);
    uint64_t align = LLVMABIAlignmentOfType(I->td, t), size = LLVMABISizeOfType(I->td, t);
    if (align > 8) /* a 16-byte aligned argument starts at a 16-byte boundary */
        cur = imp_op2(I, B3_BitAnd, imp_op2(I, B3_Add, cur, imp_const(I, B3_Int64, (int64_t)align - 1)),
                      imp_const(I, B3_Int64, -(int64_t)align));
    const ImpLeaves *L = imp_leaves(I, t);
    ImpVals r = imp_vals_new(I, L->n);
    for (uint32_t i = 0; i < L->n; i++)
        r.v[i] = load_leaf(I, &L->leaf[i], cur);
    store_at(I, imp_op2(I, B3_Add, cur, imp_const(I, B3_Int64, (int64_t)((size + 7) & ~7ull))), ap, 0);
    return r;
}
