/* Control the C language has beyond branches and switches: computed goto
 * (`blockaddress`, `indirectbr`), calls that return twice (setjmp), and the
 * stack pointer moving (variable-length arrays, alloca).
 *
 * A block address is a small integer, not a code address: the position
 * (from 1) of the block among the blocks of its function whose address is
 * taken.  `indirectbr` becomes a B3 Switch over the numbers of its
 * destinations, which are dense from 0 (with 0, undefined, going to the
 * default), so the Switch is a jump table with no subtraction.  That is all C lets a program do with a
 * label's address (GNU C, "Labels as Values"): keep it in a pointer or a
 * table (a static table's initializer holds the numbers as integers),
 * compare it with another label's address of the same function (distinct
 * blocks have distinct numbers) or with NULL (never 0), take differences
 * and add them back (`&&a - &&b`, the relative tables the GCC manual
 * recommends for shared libraries: integer arithmetic on the numbers gives
 * the same numbers back), and `goto *p` with p one of them.  Jumping to a
 * label of another function, or calling one, is undefined. */
#include <string.h>

#include "import/llvm_internal.h"

/* Is b's address taken (a blockaddress constant uses it)? */
static bool address_taken(LLVMBasicBlockRef b) {
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(b)); u; u = LLVMGetNextUse(u))
        if (LLVMIsABlockAddress(LLVMGetUser(u)))
            return true;
    return false;
}

static int64_t block_number(Imp *I, LLVMValueRef fn, LLVMBasicBlockRef target) {
    int64_t k = 1;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        if (b == target)
            return k;
        k += address_taken(b);
    }
    imp_fail(I, "a block address names a block outside its function");
}

int64_t imp_block_address(Imp *I, LLVMValueRef ba) {
    return block_number(I, LLVMGetOperand(ba, 0), LLVMValueAsBasicBlock(LLVMGetOperand(ba, 1)));
}

/* Whether s is one of indirectbr t's destinations. */
static bool is_destination(LLVMValueRef t, LLVMBasicBlockRef s) {
    for (unsigned i = 0; i < LLVMGetNumSuccessors(t); i++)
        if (LLVMGetSuccessor(t, i) == s)
            return true;
    return false;
}

/* The index into a constant table of this function's block addresses that
 * indirectbr t's address is loaded from (`goto *table[i]`, an interpreter's
 * dispatch), with the table's initializer; NULL if the address comes from
 * anywhere else.  The table must be internal (nothing else can change it) and
 * name only destinations of t. */
static LLVMValueRef dispatch_table_index(Imp *I, LLVMValueRef t, LLVMValueRef *init) {
    LLVMValueRef load = LLVMGetOperand(t, 0);
    if (!LLVMIsALoadInst(load) || LLVMGetVolatile(load))
        return NULL;
    LLVMValueRef gep = LLVMGetOperand(load, 0);
    if (!LLVMIsAGetElementPtrInst(gep))
        return NULL;
    LLVMValueRef table = LLVMGetOperand(gep, 0);
    if (!LLVMIsAGlobalVariable(table) || !LLVMIsGlobalConstant(table) || !LLVMGetInitializer(table) ||
        (LLVMGetLinkage(table) != LLVMInternalLinkage && LLVMGetLinkage(table) != LLVMPrivateLinkage))
        return NULL;
    LLVMTypeRef src = LLVMGetGEPSourceElementType(gep);
    LLVMValueRef index;
    if (LLVMGetNumOperands(gep) == 3 && LLVMGetTypeKind(src) == LLVMArrayTypeKind &&
        LLVMIsAConstantInt(LLVMGetOperand(gep, 1)) && !LLVMConstIntGetZExtValue(LLVMGetOperand(gep, 1)))
        index = LLVMGetOperand(gep, 2);
    else if (LLVMGetNumOperands(gep) == 2 && LLVMGetTypeKind(src) == LLVMPointerTypeKind)
        index = LLVMGetOperand(gep, 1);
    else
        return NULL;
    if (LLVMGetTypeKind(LLVMTypeOf(index)) != LLVMIntegerTypeKind || imp_int_bits(LLVMTypeOf(index)) > 64)
        return NULL;
    LLVMValueRef c = LLVMGetInitializer(table);
    if (!LLVMIsAConstantArray(c))
        return NULL;
    unsigned n = LLVMGetNumOperands(c);
    if (!n || n > 65536)
        return NULL;
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef e = LLVMGetOperand(c, k);
        if (!LLVMIsABlockAddress(e) || LLVMGetOperand(e, 0) != I->fn ||
            !is_destination(t, LLVMValueAsBasicBlock(LLVMGetOperand(e, 1))))
            return NULL;
    }
    *init = c;
    return index;
}

/* `goto *table[i]` with a table as dispatch_table_index finds: a Switch on i
 * itself, case k going where the table's element k does, so the dispatch
 * loads no address (the load is left to dead code elimination).  An index
 * past the table is undefined: it goes to the first destination. */
static void indirectbr_of_table(Imp *I, LLVMValueRef t, LLVMValueRef index, LLVMValueRef init) {
    B3Block *b = I->cur;
    unsigned n = LLVMGetNumOperands(init);
    B3Value *key = imp_zext_bits(I, imp_scalar(I, index), imp_int_bits(LLVMTypeOf(index)));
    B3Value *sw = imp_emit(I, B3_Switch, B3_Void, 1, key, NULL, NULL);
    sw->m.sw.cases = b3_arena_alloc(&I->m->arena, n * sizeof(int64_t));
    sw->m.sw.ncases = n;
    b->succs = b3_arena_alloc(&I->m->arena, (n + 1) * sizeof(B3Succ));
    b->nsuccs = n + 1;
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef e = LLVMGetOperand(init, k);
        sw->m.sw.cases[k] = k;
        b->succs[k] = (B3Succ){imp_block_of(I, LLVMValueAsBasicBlock(LLVMGetOperand(e, 1))), B3Freq_Normal};
    }
    b->succs[n] = (B3Succ){imp_block_of(I, LLVMGetSuccessor(t, 0)), B3Freq_Normal};
}

/* indirectbr: a Switch on the address's number over the distinct
 * destinations; an address that is none of them is undefined, so the first
 * destination is the default and needs no case; 0 (NULL) goes there too,
 * so that the cases start at 0. */
void imp_indirectbr(Imp *I, LLVMValueRef t) {
    unsigned ns = LLVMGetNumSuccessors(t);
    B3Block *b = I->cur;
    if (ns == 0) {
        imp_emit(I, B3_Oops, B3_Void, 0, NULL, NULL, NULL);
        return;
    }
    LLVMValueRef init, index = dispatch_table_index(I, t, &init);
    if (index) {
        indirectbr_of_table(I, t, index, init);
        return;
    }
    B3Value *addr = imp_to64(I, imp_scalar(I, LLVMGetOperand(t, 0)), false);
    B3Block **to = b3_arena_alloc(&I->m->arena, (ns + 1) * sizeof *to);
    int64_t *cases = b3_arena_alloc(&I->m->arena, (ns + 1) * sizeof *cases);
    LLVMBasicBlockRef first = LLVMGetSuccessor(t, 0);
    uint32_t n = 0;
    cases[n] = 0;
    to[n++] = imp_block_of(I, first);
    for (unsigned i = 1; i < ns; i++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, i);
        bool seen = s == first;
        for (unsigned j = 1; j < i && !seen; j++)
            seen = LLVMGetSuccessor(t, j) == s;
        if (seen)
            continue;
        cases[n] = block_number(I, I->fn, s);
        to[n++] = imp_block_of(I, s);
    }
    to[n] = imp_block_of(I, first);
    if (n == 1) {
        imp_jump(I, to[0]);
        return;
    }
    B3Value *sw = imp_emit(I, B3_Switch, B3_Void, 1, addr, NULL, NULL);
    sw->m.sw.cases = cases;
    sw->m.sw.ncases = n;
    b->succs = b3_arena_alloc(&I->m->arena, (n + 1) * sizeof(B3Succ));
    b->nsuccs = n + 1;
    for (uint32_t i = 0; i <= n; i++)
        b->succs[i] = (B3Succ){to[i], B3Freq_Normal};
}

/* ---- setjmp ---- */

bool imp_call_returns_twice(Imp *I, LLVMValueRef call) {
    unsigned k = I->attr_returns_twice;
    if (!k)
        return false;
    if (LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, k))
        return true;
    LLVMValueRef callee = LLVMGetCalledValue(call);
    return LLVMIsAFunction(callee) && LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, k);
}

/* ---- the stack pointer ---- */

B3Value *imp_alloca_dynamic(Imp *I, LLVMValueRef alloca) {
    LLVMValueRef count = LLVMGetOperand(alloca, 0);
    uint64_t elem = LLVMABISizeOfType(I->td, LLVMGetAllocatedType(alloca));
    B3Value *n = imp_to64(I, imp_zext_bits(I, imp_scalar(I, count), imp_int_bits(LLVMTypeOf(count))), false);
    B3Value *size = elem == 1 ? n : imp_op2(I, B3_Mul, n, imp_const(I, B3_Int64, (int64_t)elem));
    unsigned align = LLVMGetAlignment(alloca);
    if (align > 4096)
        imp_fail(I, "a stack object aligned to %u bytes is not supported (at most 4096)", align);
    B3Value *p = imp_emit(I, B3_AllocaDynamic, B3_Int64, 1, size, NULL, NULL);
    p->m.align = align > 16 ? align : 0;
    return p;
}

bool imp_stack_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out) {
    if (len == 14 && !memcmp(name, "llvm.stacksave", 14)) {
        *out = imp_vals_new(I, 1);
        out->v[0] = imp_emit(I, B3_StackSave, B3_Int64, 0, NULL, NULL, NULL);
        return true;
    }
    if (len == 17 && !memcmp(name, "llvm.stackrestore", 17)) {
        imp_emit(I, B3_StackRestore, B3_Void, 1, imp_scalar(I, LLVMGetOperand(call, 0)), NULL, NULL);
        *out = imp_vals_new(I, 0);
        return true;
    }
    return false;
}
