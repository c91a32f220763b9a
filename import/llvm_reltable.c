/* Relative lookup tables: at -O2 with -fPIC, LLVM turns a constant table of
 * pointers that a function only indexes (a switch's or an array's of
 * strings) into an i32 table of offsets from the table itself,
 *   @reltable.f = [N x i32] [i32 trunc (sub (ptrtoint @x, ptrtoint @reltable.f)), ...]
 * read by llvm.load.relative(@reltable.f, 4 * i).  B3 data has no 32-bit
 * relative item, so the import turns such a table back into N pointers
 * (Addr items, relocated by the linker) and each llvm.load.relative of it
 * into a load of the pointer at 8 * i. */
#include <string.h>

#include "import/llvm_internal.h"

/* The X of one element trunc (sub (ptrtoint X, ptrtoint table)) to i32, or NULL. */
static LLVMValueRef rel_target(LLVMValueRef e, LLVMValueRef table) {
    if (!e || !LLVMIsAConstantExpr(e) || LLVMGetConstOpcode(e) != LLVMTrunc)
        return NULL;
    LLVMValueRef s = LLVMGetOperand(e, 0);
    if (!LLVMIsAConstantExpr(s) || LLVMGetConstOpcode(s) != LLVMSub)
        return NULL;
    LLVMValueRef x = LLVMGetOperand(s, 0), b = LLVMGetOperand(s, 1);
    if (!LLVMIsAConstantExpr(x) || LLVMGetConstOpcode(x) != LLVMPtrToInt || !LLVMIsAConstantExpr(b) ||
        LLVMGetConstOpcode(b) != LLVMPtrToInt || LLVMGetOperand(b, 0) != table)
        return NULL;
    return LLVMGetOperand(x, 0);
}

bool imp_reltable(LLVMValueRef g) {
    if (!g || !LLVMIsAGlobalVariable(g) || !LLVMIsGlobalConstant(g) || LLVMIsDeclaration(g))
        return false;
    LLVMLinkage l = LLVMGetLinkage(g);
    if (l != LLVMPrivateLinkage && l != LLVMInternalLinkage)
        return false; /* only the module itself can read it */
    LLVMTypeRef t = LLVMGlobalGetValueType(g);
    if (LLVMGetTypeKind(t) != LLVMArrayTypeKind || imp_int_bits(LLVMGetElementType(t)) != 32)
        return false;
    LLVMValueRef init = LLVMGetInitializer(g);
    unsigned n = LLVMGetArrayLength(t);
    if (!init || !n)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (!rel_target(LLVMGetAggregateElement(init, i), g))
            return false;
    return true;
}

LLVMValueRef imp_reltable_target(LLVMValueRef g, unsigned i) {
    return rel_target(LLVMGetAggregateElement(LLVMGetInitializer(g), i), g);
}
