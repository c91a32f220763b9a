/* The LLVM-IR front end's function bodies: each reachable LLVM block becomes
 * a B3 block (in reverse post-order, so that every definition is imported
 * before its uses), each instruction one or more B3 values, each phi a B3
 * Phi per part with an Upsilon at the end of every predecessor. */
#include <stdlib.h>
#include <string.h>

#include "import/llvm_internal.h"
#include "util/vec.h"

/* ---- emission -------------------------------------------------------------- */

B3Value *imp_emit(Imp *I, B3Opcode op, B3Type t, uint32_t n, B3Value *a, B3Value *b, B3Value *c) {
    B3Value *v = b3_value_new(I->m, I->p, op, t, n, UINT32_MAX);
    B3Value *kids[3] = {a, b, c};
    for (uint32_t i = 0; i < n && i < 3; i++)
        v->kids[i] = kids[i];
    v->loc = v->type_loc = I->loc;
    b3_block_append(I->m, I->cur, v);
    return v;
}

B3Value *imp_const(Imp *I, B3Type t, int64_t x) {
    B3Value *v = imp_emit(I, t == B3_Int32 ? B3_Const32 : B3_Const64, t, 0, NULL, NULL, NULL);
    v->m.c.i = t == B3_Int32 ? (int32_t)x : x;
    return v;
}

B3Value *imp_fconst(Imp *I, B3Type t, double d) {
    B3Value *v = imp_emit(I, t == B3_Float ? B3_ConstFloat : B3_ConstDouble, t, 0, NULL, NULL, NULL);
    if (t == B3_Float)
        v->m.c.f = (float)d;
    else
        v->m.c.d = d;
    return v;
}

static B3Value *fconst_bits(Imp *I, B3Type t, uint64_t bits) {
    B3Value *v = imp_emit(I, t == B3_Float ? B3_ConstFloat : B3_ConstDouble, t, 0, NULL, NULL, NULL);
    if (t == B3_Float) {
        uint32_t b = (uint32_t)bits;
        memcpy(&v->m.c.f, &b, 4);
    } else {
        memcpy(&v->m.c.d, &bits, 8);
    }
    return v;
}

ImpVals imp_vals_new(Imp *I, uint32_t n) {
    ImpVals r = {b3_arena_alloc(&I->m->arena, (n ? n : 1) * sizeof(B3Value *)), n};
    return r;
}

static ImpVals one(Imp *I, B3Value *v) {
    ImpVals r = imp_vals_new(I, 1);
    r.v[0] = v;
    return r;
}

B3Block *imp_new_block(Imp *I) {
    I->cur = b3_block_new(I->m, I->p, UINT32_MAX);
    I->cur->loc = I->loc;
    return I->cur;
}

static void set_succs(Imp *I, B3Block *b, uint32_t n, B3Block **to) {
    b->succs = b3_arena_alloc(&I->m->arena, (n ? n : 1) * sizeof(B3Succ));
    b->nsuccs = n;
    for (uint32_t i = 0; i < n; i++)
        b->succs[i] = (B3Succ){to[i], B3Freq_Normal};
}

void imp_jump(Imp *I, B3Block *to) {
    B3Block *b = I->cur;
    imp_emit(I, B3_Jump, B3_Void, 0, NULL, NULL, NULL);
    set_succs(I, b, 1, &to);
}

void imp_branch(Imp *I, B3Value *cond, B3Block *yes, B3Block *no) {
    B3Block *b = I->cur;
    imp_emit(I, B3_Branch, B3_Void, 1, cond, NULL, NULL);
    set_succs(I, b, 2, (B3Block *[]){yes, no});
}

/* ---- integers -------------------------------------------------------------- */

static int64_t const_of(B3Value *v, bool *ok) {
    *ok = v->opcode == B3_Const32 || v->opcode == B3_Const64;
    return *ok ? v->m.c.i : 0;
}

/* Are v's bits above `bits` known to be zero? */
static bool known_zext(B3Value *v, unsigned bits) {
    if (b3_op_info[v->opcode].flags & B3OF_COMPARE)
        return true;
    switch (v->opcode) {
    case B3_Load8Z:
        return bits >= 8;
    case B3_Load16Z:
        return bits >= 16;
    case B3_Const32:
    case B3_Const64:
        return bits >= 64 || ((uint64_t)v->m.c.i >> bits) == 0;
    case B3_BitAnd: {
        bool ok;
        int64_t c = const_of(v->kids[1], &ok);
        return ok && (bits >= 64 || ((uint64_t)c >> bits) == 0);
    }
    case B3_ZShr: {
        bool ok;
        int64_t c = const_of(v->kids[1], &ok);
        unsigned w = v->type == B3_Int32 ? 32 : 64;
        return ok && (c & (w - 1)) >= (int64_t)(w - bits);
    }
    default:
        return false;
    }
}

B3Value *imp_zext_bits(Imp *I, B3Value *v, unsigned bits) {
    unsigned w = v->type == B3_Int32 ? 32 : 64;
    if (bits >= w || known_zext(v, bits))
        return v;
    if (w == 64 && bits == 32)
        return imp_op1(I, B3_ZExt32, B3_Int64, imp_op1(I, B3_Trunc, B3_Int32, v));
    return imp_op2(I, B3_BitAnd, v, imp_const(I, (B3Type)v->type, (int64_t)((1ull << bits) - 1)));
}

B3Value *imp_sext_bits(Imp *I, B3Value *v, unsigned bits) {
    unsigned w = v->type == B3_Int32 ? 32 : 64;
    if (bits >= w)
        return v;
    if (w == 32 && bits == 8)
        return imp_op1(I, B3_SExt8, B3_Int32, v);
    if (w == 32 && bits == 16)
        return imp_op1(I, B3_SExt16, B3_Int32, v);
    if (w == 64 && bits == 32)
        return imp_op1(I, B3_SExt32, B3_Int64, imp_op1(I, B3_Trunc, B3_Int32, v));
    B3Value *k = imp_const(I, B3_Int32, (int64_t)(w - bits));
    return imp_op2(I, B3_SShr, imp_op2(I, B3_Shl, v, k), k);
}

B3Value *imp_to64(Imp *I, B3Value *v, bool sign) {
    if (v->type == B3_Int64)
        return v;
    return imp_op1(I, sign ? B3_SExt32 : B3_ZExt32, B3_Int64, v);
}

B3Value *imp_to32(Imp *I, B3Value *v) { return v->type == B3_Int32 ? v : imp_op1(I, B3_Trunc, B3_Int32, v); }

/* A B3 value holding an iN value of b3 type t (Int32 for N <= 32), with
 * the low N bits kept from v (of either width). */
static B3Value *resize(Imp *I, B3Value *v, B3Type t, bool sign) {
    if (v->type == t)
        return v;
    return t == B3_Int32 ? imp_to32(I, v) : imp_to64(I, v, sign);
}

/* Is the value an i1 condition in bit 0 only?  Branch and Select test the
 * whole register, so a condition's upper bits are cleared first. */
static B3Value *cond_of(Imp *I, B3Value *v) { return imp_zext_bits(I, v, 1); }

/* ---- the value map --------------------------------------------------------- */

static void bind(Imp *I, LLVMValueRef v, ImpVals parts) {
    uint32_t k = I->nvals;
    B3_VEC_PUSH("import", I->vals, I->nvals, I->cap_vals, parts);
    imp_map_put(&I->val_map, v, k);
}

static ImpVals translate(Imp *I, LLVMValueRef v, LLVMOpcode op);

static ImpVals zero_parts(Imp *I, LLVMTypeRef t) {
    const ImpLeaves *L = imp_leaves(I, t);
    ImpVals r = imp_vals_new(I, L->n);
    for (uint32_t i = 0; i < L->n; i++) {
        B3Type bt = imp_leaf_type(&L->leaf[i]);
        r.v[i] = b3_type_is_float(bt) ? fconst_bits(I, bt, 0) : imp_const(I, bt, 0);
    }
    return r;
}

static ImpVals constant(Imp *I, LLVMValueRef c) {
    LLVMTypeRef t = LLVMTypeOf(c);
    if (LLVMIsAGlobalValue(c)) {
        if (LLVMIsAGlobalIFunc(c))
            imp_fail(I, "ifuncs are not supported yet");
        if (LLVMGetIntrinsicID(c))
            imp_fail(I, "the address of an intrinsic is taken");
        B3Symbol *sym = imp_symbol(I, c);
        /* A thread-local's address is this thread's (docs/c-extensions.md). */
        B3Value *s =
            imp_emit(I, sym->tls ? B3_ThreadLocalAddress : B3_SymbolAddress, B3_Int64, 0, NULL, NULL, NULL);
        s->m.symbol.sym = sym;
        return one(I, s);
    }
    if (LLVMIsAConstantInt(c)) {
        unsigned bits = LLVMGetIntTypeWidth(t);
        if (bits <= 32)
            return one(I, imp_const(I, B3_Int32, LLVMConstIntGetSExtValue(c)));
        if (bits <= 64)
            return one(I, imp_const(I, B3_Int64, LLVMConstIntGetSExtValue(c)));
        uint64_t w[IMP_MAX_WORDS];
        unsigned k = imp_const_words(c, w);
        ImpVals r = imp_vals_new(I, k);
        for (unsigned i = 0; i < k; i++)
            r.v[i] = imp_const(I, B3_Int64, (int64_t)w[i]);
        return r;
    }
    if (LLVMIsAConstantFP(c)) {
        LLVMBool loses;
        double d = LLVMConstRealGetDouble(c, &loses);
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if (k == LLVMFloatTypeKind) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            return one(I, fconst_bits(I, B3_Float, b));
        }
        if (k == LLVMDoubleTypeKind) {
            uint64_t b;
            memcpy(&b, &d, 8);
            return one(I, fconst_bits(I, B3_Double, b));
        }
        if (k == LLVMX86_FP80TypeKind) {
            imp_leaves(I, t); /* reports a target without it */
            return imp_ldouble_const_parts(I, c);
        }
        if (k == LLVMFP128TypeKind) {
            imp_leaves(I, t); /* reports a target without it */
            return imp_fp128_const_parts(I, c);
        }
        imp_leaves(I, t); /* reports the type */
        imp_fail(I, "this floating-point constant is not supported");
    }
    if (LLVMIsAConstantPointerNull(c) || LLVMIsUndef(c) || LLVMIsAConstantAggregateZero(c) ||
        LLVMIsAConstantTokenNone(c))
        return zero_parts(I, t);
    if (LLVMIsAConstantExpr(c))
        return translate(I, c, LLVMGetConstOpcode(c));
    if (LLVMIsABlockAddress(c))
        return one(I, imp_const(I, B3_Int64, imp_block_address(I, c)));
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVectorTypeKind && imp_leaves(I, t)->leaf[0].kind == LK_F32x2) { /* packed in a Double */
        uint64_t bits = 0;
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, i);
            LLVMBool loses;
            float f = e && LLVMIsAConstantFP(e) ? (float)LLVMConstRealGetDouble(e, &loses) : 0.0f;
            uint32_t b;
            memcpy(&b, &f, 4);
            bits |= (uint64_t)b << (32 * i);
        }
        return one(I, fconst_bits(I, B3_Double, bits));
    }
    if (k == LLVMStructTypeKind || k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
        const ImpLeaves *L = imp_leaves(I, t);
        ImpVals r = imp_vals_new(I, L->n);
        unsigned n = k == LLVMStructTypeKind  ? LLVMCountStructElementTypes(t)
                     : k == LLVMArrayTypeKind ? LLVMGetArrayLength(t)
                                              : LLVMGetVectorSize(t);
        uint32_t at = 0;
        for (unsigned i = 0; i < n; i++) {
            ImpVals e = constant(I, LLVMGetAggregateElement(c, i));
            for (uint32_t j = 0; j < e.n && at < r.n; j++)
                r.v[at++] = e.v[j];
        }
        return r;
    }
    imp_fail(I, "this kind of constant is not supported");
}

ImpVals imp_operand(Imp *I, LLVMValueRef v) {
    uint32_t k = imp_map_get(&I->val_map, v);
    if (k != UINT32_MAX)
        return I->vals[k];
    if (LLVMIsConstant(v))
        return constant(I, v);
    imp_fail(I, "an operand is used before it is defined");
}

B3Value *imp_scalar(Imp *I, LLVMValueRef v) {
    ImpVals p = imp_operand(I, v);
    if (p.n != 1)
        imp_fail(I, "a value of %u parts is used as a scalar", p.n);
    return p.v[0];
}

B3Value *imp_call_named(Imp *I, const char *name, B3Type rt, uint32_t n, B3Value **args) {
    bool created;
    B3Symbol *s = b3_symbol_get(I->m, name, (uint32_t)strlen(name), &created);
    if (!s->declared) {
        s->declared = true;
        b3_module_add_item(I->m, B3Item_Extern, s);
    }
    B3Value *callee = imp_emit(I, B3_SymbolAddress, B3_Int64, 0, NULL, NULL, NULL);
    callee->m.symbol.sym = s;
    B3Value *v = b3_value_new(I->m, I->p, B3_CCall, rt, n + 1, UINT32_MAX);
    v->kids[0] = callee;
    for (uint32_t i = 0; i < n; i++)
        v->kids[i + 1] = args[i];
    v->loc = v->type_loc = I->loc;
    b3_block_append(I->m, I->cur, v);
    return v;
}

/* ---- memory ---------------------------------------------------------------- */

static B3Value *load_op(Imp *I, B3Opcode op, B3Type t, B3Value *ptr, int64_t off, bool vol, bool acquire) {
    if (off != (int32_t)off) {
        ptr = imp_op2(I, B3_Add, ptr, imp_const(I, B3_Int64, off));
        off = 0;
    }
    B3Value *v = imp_emit(I, op, t, 1, ptr, NULL, NULL);
    v->m.mem.offset = (int32_t)off;
    if (vol)
        v->kflags |= B3K_TRAPS;
    if (acquire)
        v->m.mem.fence_range = B3_HEAP_TOP;
    return v;
}

static void store_op(Imp *I, B3Opcode op, B3Value *x, B3Value *ptr, int64_t off, bool vol, bool release) {
    if (off != (int32_t)off) {
        ptr = imp_op2(I, B3_Add, ptr, imp_const(I, B3_Int64, off));
        off = 0;
    }
    B3Value *v = imp_emit(I, op, B3_Void, 2, x, ptr, NULL);
    v->m.mem.offset = (int32_t)off;
    if (vol)
        v->kflags |= B3K_TRAPS;
    if (release)
        v->m.mem.fence_range = B3_HEAP_TOP;
}

/* A leaf's bytes from memory (an integer of 3, 5, 6 or 7 bytes in pieces). */
static B3Value *load_leaf(Imp *I, const ImpLeaf *l, B3Value *ptr, int64_t off, bool vol, bool acq) {
    B3Type t = imp_leaf_type(l);
    if (l->kind == LK_Top) {
        ImpLeaf w = {LK_Int, l->bits, 0};
        return imp_to64(I, load_leaf(I, &w, ptr, off, vol, acq), false);
    }
    if (l->kind != LK_Int)
        return load_op(I, B3_Load, t, ptr, off, vol, acq);
    unsigned bytes = (l->bits + 7) / 8;
    switch (bytes) {
    case 1:
        return resize(I, load_op(I, B3_Load8Z, B3_Int32, ptr, off, vol, acq), t, false);
    case 2:
        return resize(I, load_op(I, B3_Load16Z, B3_Int32, ptr, off, vol, acq), t, false);
    case 4:
        return resize(I, load_op(I, B3_Load, B3_Int32, ptr, off, vol, acq), t, false);
    case 8:
        return load_op(I, B3_Load, B3_Int64, ptr, off, vol, acq);
    case 3: {
        B3Value *lo = load_op(I, B3_Load16Z, B3_Int32, ptr, off, vol, acq);
        B3Value *hi = load_op(I, B3_Load8Z, B3_Int32, ptr, off + 2, vol, acq);
        return imp_op2(I, B3_BitOr, lo, imp_op2(I, B3_Shl, hi, imp_const(I, B3_Int32, 16)));
    }
    default: { /* 5, 6, 7 */
        B3Value *lo = imp_to64(I, load_op(I, B3_Load, B3_Int32, ptr, off, vol, acq), false);
        ImpLeaf rest = {LK_Int, (uint8_t)(l->bits - 32), 0};
        B3Value *hi = imp_to64(I, load_leaf(I, &rest, ptr, off + 4, vol, acq), false);
        return imp_op2(I, B3_BitOr, lo, imp_op2(I, B3_Shl, hi, imp_const(I, B3_Int32, 32)));
    }
    }
}

static void store_leaf(Imp *I, const ImpLeaf *l, B3Value *x, B3Value *ptr, int64_t off, bool vol, bool rel) {
    if (l->kind != LK_Int && l->kind != LK_Top) {
        store_op(I, B3_Store, x, ptr, off, vol, rel);
        return;
    }
    unsigned bytes = (l->bits + 7) / 8;
    switch (bytes) {
    case 1:
        store_op(I, B3_Store8, imp_to32(I, x), ptr, off, vol, rel);
        return;
    case 2:
        store_op(I, B3_Store16, imp_to32(I, x), ptr, off, vol, rel);
        return;
    case 4:
        store_op(I, B3_Store, imp_to32(I, x), ptr, off, vol, rel);
        return;
    case 8:
        store_op(I, B3_Store, x, ptr, off, vol, rel);
        return;
    case 3: {
        B3Value *x32 = imp_to32(I, x);
        store_op(I, B3_Store16, x32, ptr, off, vol, rel);
        store_op(I, B3_Store8, imp_op2(I, B3_ZShr, x32, imp_const(I, B3_Int32, 16)), ptr, off + 2, vol, rel);
        return;
    }
    default: {
        store_op(I, B3_Store, imp_to32(I, x), ptr, off, vol, rel);
        ImpLeaf rest = {LK_Int, (uint8_t)(l->bits - 32), 0};
        store_leaf(I, &rest, imp_op2(I, B3_ZShr, x, imp_const(I, B3_Int32, 32)), ptr, off + 4, vol, rel);
        return;
    }
    }
}

static bool is_acquire(LLVMAtomicOrdering o) {
    return o == LLVMAtomicOrderingAcquire || o == LLVMAtomicOrderingAcquireRelease ||
           o == LLVMAtomicOrderingSequentiallyConsistent;
}
static bool is_release(LLVMAtomicOrdering o) {
    return o == LLVMAtomicOrderingRelease || o == LLVMAtomicOrderingAcquireRelease ||
           o == LLVMAtomicOrderingSequentiallyConsistent;
}

static ImpVals import_load(Imp *I, LLVMValueRef v) {
    const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(v));
    B3Value *ptr = imp_scalar(I, LLVMGetOperand(v, 0));
    bool vol = LLVMGetVolatile(v);
    LLVMAtomicOrdering ord = LLVMGetOrdering(v);
    bool acq = is_acquire(ord);
    ImpVals wide;
    if (ord != LLVMAtomicOrderingNotAtomic && imp_atomic128_load(I, v, &wide))
        return wide;
    if (ord != LLVMAtomicOrderingNotAtomic && L->n > 1)
        imp_fail(I, "an atomic load of this type is not supported");
    if (ord != LLVMAtomicOrderingNotAtomic && L->n == 1 && L->leaf[0].kind == LK_Int) {
        unsigned b = L->leaf[0].bits;
        if (b != 8 && b != 16 && b != 32 && b != 64)
            imp_fail(I, "an atomic load of i%u is not supported", b);
    }
    ImpVals r = imp_vals_new(I, L->n);
    for (uint32_t i = 0; i < L->n; i++)
        r.v[i] = load_leaf(I, &L->leaf[i], ptr, (int64_t)L->leaf[i].off, vol, acq);
    return r;
}

static void import_store(Imp *I, LLVMValueRef v) {
    LLVMValueRef val = LLVMGetOperand(v, 0);
    const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(val));
    ImpVals x = imp_operand(I, val);
    B3Value *ptr = imp_scalar(I, LLVMGetOperand(v, 1));
    bool vol = LLVMGetVolatile(v);
    LLVMAtomicOrdering ord = LLVMGetOrdering(v);
    if (ord != LLVMAtomicOrderingNotAtomic && imp_atomic128_store(I, v))
        return;
    if (ord != LLVMAtomicOrderingNotAtomic && L->n > 1)
        imp_fail(I, "an atomic store of this type is not supported");
    for (uint32_t i = 0; i < L->n; i++)
        store_leaf(I, &L->leaf[i], x.v[i], ptr, (int64_t)L->leaf[i].off, vol, is_release(ord));
    if (ord == LLVMAtomicOrderingSequentiallyConsistent)
        imp_emit(I, B3_Fence, B3_Void, 0, NULL, NULL, NULL);
}

/* base + the offsets a getelementptr (instruction or constant) adds. */
static B3Value *import_gep(Imp *I, LLVMValueRef v) {
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind)
        imp_fail(I, "a vector getelementptr is not supported");
    B3Value *addr = imp_scalar(I, LLVMGetOperand(v, 0));
    LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    int64_t off = 0;
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(v, i);
        if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            unsigned f = (unsigned)LLVMConstIntGetZExtValue(ix);
            off += (int64_t)LLVMOffsetOfElement(I->td, t, f);
            t = LLVMStructGetTypeAtIndex(t, f);
            continue;
        }
        if (i > 1)
            t = LLVMGetElementType(t);
        if (LLVMIsAConstantInt(ix)) { /* (a zero index, the most common, needs no size) */
            int64_t k = LLVMConstIntGetSExtValue(ix);
            if (k)
                off += k * (int64_t)LLVMABISizeOfType(I->td, t);
            continue;
        }
        uint64_t stride = LLVMABISizeOfType(I->td, t);
        unsigned bits = imp_int_bits(LLVMTypeOf(ix));
        if (!bits || bits > 64)
            imp_fail(I, "a getelementptr index of this type is not supported");
        B3Value *x = imp_to64(I, imp_sext_bits(I, imp_scalar(I, ix), bits), true);
        if (stride == 0)
            continue;
        if ((stride & (stride - 1)) == 0) {
            unsigned sh = 0;
            while ((1ull << sh) < stride)
                sh++;
            if (sh)
                x = imp_op2(I, B3_Shl, x, imp_const(I, B3_Int32, sh));
        } else {
            x = imp_op2(I, B3_Mul, x, imp_const(I, B3_Int64, (int64_t)stride));
        }
        addr = imp_op2(I, B3_Add, addr, x);
    }
    if (off)
        addr = imp_op2(I, B3_Add, addr, imp_const(I, B3_Int64, off));
    return addr;
}

B3StackSlot *imp_new_slot(Imp *I, const char *prefix, uint64_t size, uint32_t align) {
    /* PREFIX and the slot's number (snprintf's cost is most of a slot's). */
    size_t plen = strlen(prefix);
    char digits[10], *d = digits + sizeof digits;
    uint32_t k = I->p->nslots;
    do
        *--d = (char)('0' + k % 10);
    while (k /= 10);
    size_t ndig = (size_t)(digits + sizeof digits - d);
    char *name = b3_arena_alloc(&I->m->arena, plen + ndig + 1);
    memcpy(name, prefix, plen);
    memcpy(name + plen, d, ndig);
    B3StackSlot *s = b3_slot_new(I->m, I->p, name, size);
    s->align = align;
    s->has_align = true;
    s->loc = I->loc;
    return s;
}

static ImpVals import_alloca(Imp *I, LLVMValueRef v) {
    LLVMValueRef count = LLVMGetOperand(v, 0);
    /* A frame slot is aligned to 16 at most: a more aligned one is made at
     * run time, as are those of a run-time size or outside the entry block. */
    if (!LLVMIsAConstantInt(count) || LLVMGetInstructionParent(v) != LLVMGetEntryBasicBlock(I->fn) ||
        LLVMGetAlignment(v) > 16)
        return one(I, imp_alloca_dynamic(I, v));
    uint64_t size = LLVMABISizeOfType(I->td, LLVMGetAllocatedType(v)) * LLVMConstIntGetZExtValue(count);
    unsigned align = LLVMGetAlignment(v);
    B3StackSlot *s = imp_new_slot(I, "stack", size ? size : 1, align ? align : 1);
    B3Value *b = imp_emit(I, B3_SlotBase, B3_Int64, 0, NULL, NULL, NULL);
    b->m.slot = s;
    return one(I, b);
}

/* ---- arithmetic ------------------------------------------------------------ */

static ImpVals int128_binary(Imp *I, unsigned bits, LLVMOpcode op, ImpVals a, ImpVals b, LLVMValueRef rhs);

static ImpVals import_binary(Imp *I, LLVMValueRef v, LLVMOpcode op) {
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVectorTypeKind)
        imp_fail(I, "vector arithmetic is not supported");
    ImpVals a = imp_operand(I, LLVMGetOperand(v, 0)), b = imp_operand(I, LLVMGetOperand(v, 1));
    if (k != LLVMIntegerTypeKind) {
        B3Value *x = a.v[0], *y = b.v[0];
        B3Type ft = (B3Type)x->type;
        switch (op) {
        case LLVMFAdd:
            return one(I, imp_op2(I, B3_Add, x, y));
        case LLVMFSub:
            return one(I, imp_op2(I, B3_Sub, x, y));
        case LLVMFMul:
            return one(I, imp_op2(I, B3_Mul, x, y));
        case LLVMFDiv:
            return one(I, imp_op2(I, B3_Div, x, y));
        case LLVMFRem:
            return one(I, imp_call_named(I, ft == B3_Float ? "fmodf" : "fmod", ft, 2, (B3Value *[]){x, y}));
        default:
            imp_fail(I, "this floating-point operation is not supported");
        }
    }
    unsigned bits = LLVMGetIntTypeWidth(t);
    if (bits > 64)
        return int128_binary(I, bits, op, a, b, LLVMGetOperand(v, 1));
    B3Value *x = a.v[0], *y = b.v[0];
    B3Type it = (B3Type)x->type;
    switch (op) {
    case LLVMAdd:
        return one(I, imp_op2(I, B3_Add, x, y));
    case LLVMSub:
        return one(I, imp_op2(I, B3_Sub, x, y));
    case LLVMMul:
        return one(I, imp_op2(I, B3_Mul, x, y));
    case LLVMAnd:
        return one(I, imp_op2(I, B3_BitAnd, x, y));
    case LLVMOr:
        return one(I, imp_op2(I, B3_BitOr, x, y));
    case LLVMXor:
        return one(I, imp_op2(I, B3_BitXor, x, y));
    case LLVMShl:
        return one(I, imp_op2(I, B3_Shl, x, imp_to32(I, y)));
    case LLVMLShr:
        return one(I, imp_op2(I, B3_ZShr, imp_zext_bits(I, x, bits), imp_to32(I, y)));
    case LLVMAShr:
        return one(I, imp_op2(I, B3_SShr, imp_sext_bits(I, x, bits), imp_to32(I, y)));
    case LLVMUDiv:
        return one(I, imp_op2(I, B3_UDiv, imp_zext_bits(I, x, bits), imp_zext_bits(I, y, bits)));
    case LLVMURem:
        return one(I, imp_op2(I, B3_UMod, imp_zext_bits(I, x, bits), imp_zext_bits(I, y, bits)));
    case LLVMSDiv:
        return one(I, imp_op2(I, B3_Div, imp_sext_bits(I, x, bits), imp_sext_bits(I, y, bits)));
    case LLVMSRem:
        return one(I, imp_op2(I, B3_Mod, imp_sext_bits(I, x, bits), imp_sext_bits(I, y, bits)));
    default:
        break;
    }
    (void)it;
    imp_fail(I, "this integer operation is not supported");
}

static B3Opcode icmp_opcode(LLVMIntPredicate p) {
    switch (p) {
    case LLVMIntEQ:
        return B3_Equal;
    case LLVMIntNE:
        return B3_NotEqual;
    case LLVMIntUGT:
        return B3_Above;
    case LLVMIntUGE:
        return B3_AboveEqual;
    case LLVMIntULT:
        return B3_Below;
    case LLVMIntULE:
        return B3_BelowEqual;
    case LLVMIntSGT:
        return B3_GreaterThan;
    case LLVMIntSGE:
        return B3_GreaterEqual;
    case LLVMIntSLT:
        return B3_LessThan;
    default:
        return B3_LessEqual;
    }
}

static bool pred_signed(LLVMIntPredicate p) { return p >= LLVMIntSGT && p <= LLVMIntSLE; }

static ImpVals import_icmp(Imp *I, LLVMValueRef v) {
    LLVMValueRef l = LLVMGetOperand(v, 0);
    LLVMTypeRef t = LLVMTypeOf(l);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        imp_fail(I, "a vector comparison is not supported");
    LLVMIntPredicate pred = LLVMGetICmpPredicate(v);
    ImpVals a = imp_operand(I, l), b = imp_operand(I, LLVMGetOperand(v, 1));
    unsigned bits = imp_int_bits(t);
    if (bits > 64)
        return one(I, imp_wide_compare(I, bits, icmp_opcode(pred), pred_signed(pred), a, b));
    B3Value *x = a.v[0], *y = b.v[0];
    if (bits && bits != 32 && bits != 64) {
        bool s = pred_signed(pred);
        x = s ? imp_sext_bits(I, x, bits) : imp_zext_bits(I, x, bits);
        y = s ? imp_sext_bits(I, y, bits) : imp_zext_bits(I, y, bits);
    }
    return one(I, imp_emit(I, icmp_opcode(pred), B3_Int32, 2, x, y, NULL));
}

static B3Value *not1(Imp *I, B3Value *c) { return imp_op2(I, B3_BitXor, c, imp_const(I, B3_Int32, 1)); }

static ImpVals import_fcmp(Imp *I, LLVMValueRef v) {
    B3Value *x = imp_scalar(I, LLVMGetOperand(v, 0)), *y = imp_scalar(I, LLVMGetOperand(v, 1));
#define CMP(op, a, b) imp_emit(I, B3_##op, B3_Int32, 2, (a), (b), NULL)
    B3Value *r;
    switch (LLVMGetFCmpPredicate(v)) {
    case LLVMRealPredicateFalse:
        r = imp_const(I, B3_Int32, 0);
        break;
    case LLVMRealPredicateTrue:
        r = imp_const(I, B3_Int32, 1);
        break;
    case LLVMRealOEQ:
        r = CMP(Equal, x, y);
        break;
    case LLVMRealOGT:
        r = CMP(GreaterThan, x, y);
        break;
    case LLVMRealOGE:
        r = CMP(GreaterEqual, x, y);
        break;
    case LLVMRealOLT:
        r = CMP(LessThan, x, y);
        break;
    case LLVMRealOLE:
        r = CMP(LessEqual, x, y);
        break;
    case LLVMRealONE:
        r = imp_op2(I, B3_BitOr, CMP(LessThan, x, y), CMP(GreaterThan, x, y));
        break;
    case LLVMRealORD:
        r = imp_op2(I, B3_BitAnd, CMP(Equal, x, x), CMP(Equal, y, y));
        break;
    case LLVMRealUNO:
        r = imp_op2(I, B3_BitOr, CMP(NotEqual, x, x), CMP(NotEqual, y, y));
        break;
    case LLVMRealUEQ:
        r = CMP(EqualOrUnordered, x, y);
        break;
    case LLVMRealUNE:
        r = CMP(NotEqual, x, y);
        break;
    case LLVMRealUGT:
        r = not1(I, CMP(LessEqual, x, y));
        break;
    case LLVMRealUGE:
        r = not1(I, CMP(LessThan, x, y));
        break;
    case LLVMRealULT:
        r = not1(I, CMP(GreaterEqual, x, y));
        break;
    default:
        r = not1(I, CMP(GreaterThan, x, y));
        break; /* ULE */
    }
#undef CMP
    return one(I, r);
}

static ImpVals pair(Imp *I, B3Value *lo, B3Value *hi) {
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = lo;
    r.v[1] = hi;
    return r;
}

static B3Value *second_result(Imp *I, B3Value *call, B3Type t) {
    return imp_emit(I, B3_SecondResult, t, 1, call, NULL, NULL);
}

static ImpVals int128_call(Imp *I, const char *fn, ImpVals a, ImpVals b) {
    B3Value *r = imp_call_named(I, fn, B3_Int64, 4, (B3Value *[]){a.v[0], a.v[1], b.v[0], b.v[1]});
    return pair(I, r, second_result(I, r, B3_Int64));
}

static ImpVals int128_binary(Imp *I, unsigned bits, LLVMOpcode op, ImpVals a, ImpVals b, LLVMValueRef rhs) {
    switch (op) {
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMURem:
    case LLVMSRem: {
        if (bits > 128)
            imp_fail(I, "division of i%u is not supported", bits);
        bool s = op == LLVMSDiv || op == LLVMSRem;
        a = imp_wide_ext(I, a, bits, s);
        b = imp_wide_ext(I, b, bits, s);
        static const char *const fn[] = {"__udivti3", "__divti3", "__umodti3", "__modti3"};
        return int128_call(I, fn[(op == LLVMURem || op == LLVMSRem) * 2 + s], a, b);
    }
    default:
        return imp_wide_binary(I, bits, op, a, b, rhs);
    }
}

/* ---- casts ----------------------------------------------------------------- */

static ImpVals import_cast(Imp *I, LLVMValueRef v, LLVMOpcode op) {
    LLVMValueRef src = LLVMGetOperand(v, 0);
    LLVMTypeRef st = LLVMTypeOf(src), dt = LLVMTypeOf(v);
    if (LLVMGetTypeKind(st) == LLVMVectorTypeKind || LLVMGetTypeKind(dt) == LLVMVectorTypeKind)
        imp_fail(I, "vector casts are not supported");
    ImpVals a = imp_operand(I, src);
    unsigned sb = imp_int_bits(st), db = imp_int_bits(dt);
    const ImpLeaves *DL = imp_leaves(I, dt);
    B3Type d = DL->n ? imp_leaf_type(&DL->leaf[0]) : B3_Void;
    B3Value *x = a.v[0];
    switch (op) {
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt: {
        bool sg = op == LLVMSExt;
        if (sb > 64 || db > 64)
            return imp_wide_resize(I, a, sb, db, op == LLVMTrunc ? false : sg, op == LLVMTrunc);
        if (op != LLVMTrunc)
            x = sg ? imp_sext_bits(I, x, sb) : imp_zext_bits(I, x, sb);
        return one(I, resize(I, x, d, sg));
    }
    case LLVMFPToSI:
    case LLVMFPToUI:
        if (db > 64) {
            const char *fn = op == LLVMFPToSI ? (x->type == B3_Float ? "__fixsfti" : "__fixdfti")
                                              : (x->type == B3_Float ? "__fixunssfti" : "__fixunsdfti");
            B3Value *r = imp_call_named(I, fn, B3_Int64, 1, &x);
            return pair(I, r, second_result(I, r, B3_Int64));
        }
        if (db < 32) { /* in range by definition: convert to i32 */
            return one(I, imp_op1(I, op == LLVMFPToSI ? B3_DToI : B3_DToU, d, x));
        }
        return one(I, imp_op1(I, op == LLVMFPToSI ? B3_DToI : B3_DToU, d, x));
    case LLVMSIToFP:
    case LLVMUIToFP: {
        bool s = op == LLVMSIToFP;
        if (sb > 64) {
            if (sb > 128)
                imp_fail(I, "converting i%u to floating point is not supported", sb);
            a = imp_wide_ext(I, a, sb, s);
            const char *fn = s ? (d == B3_Float ? "__floattisf" : "__floattidf")
                               : (d == B3_Float ? "__floatuntisf" : "__floatuntidf");
            return one(I, imp_call_named(I, fn, d, 2, (B3Value *[]){a.v[0], a.v[1]}));
        }
        x = s ? imp_sext_bits(I, x, sb) : imp_zext_bits(I, x, sb);
        B3Opcode o = d == B3_Float ? (s ? B3_IToF : B3_UToF) : (s ? B3_IToD : B3_UToD);
        return one(I, imp_op1(I, o, d, x));
    }
    case LLVMFPTrunc:
        if (x->type != B3_Double || d != B3_Float)
            imp_fail(I, "this floating-point truncation is not supported");
        return one(I, imp_op1(I, B3_DoubleToFloat, B3_Float, x));
    case LLVMFPExt:
        if (x->type != B3_Float || d != B3_Double)
            imp_fail(I, "this floating-point extension is not supported");
        return one(I, imp_op1(I, B3_FloatToDouble, B3_Double, x));
    case LLVMPtrToInt:
        if (db > 64)
            return imp_wide_resize(I, a, 64, db, false, false);
        return one(I, resize(I, x, d, false));
    case LLVMIntToPtr:
        return one(I, imp_to64(I, imp_zext_bits(I, x, sb), false));
    case LLVMAddrSpaceCast:
        return a;
    case LLVMBitCast: {
        if (a.n != DL->n)
            imp_fail(I, "this bitcast is not supported");
        ImpVals r = imp_vals_new(I, a.n);
        for (uint32_t i = 0; i < a.n; i++) {
            B3Type want = imp_leaf_type(&DL->leaf[i]);
            r.v[i] = a.v[i]->type == want ? a.v[i] : imp_op1(I, B3_BitwiseCast, want, a.v[i]);
        }
        return r;
    }
    default:
        imp_fail(I, "this cast is not supported");
    }
}

/* ---- aggregates -------------------------------------------------------------- */

/* The leaves [*first, *first + *count) of aggregate type t that the index
 * path idx[0..n) selects. */
static void leaf_range(Imp *I, LLVMTypeRef t, const unsigned *idx, unsigned n, uint32_t *first,
                       uint32_t *count) {
    uint32_t at = 0;
    for (unsigned k = 0; k < n; k++) {
        LLVMTypeKind kind = LLVMGetTypeKind(t);
        LLVMTypeRef et;
        if (kind == LLVMStructTypeKind) {
            for (unsigned j = 0; j < idx[k]; j++)
                at += imp_leaves(I, LLVMStructGetTypeAtIndex(t, j))->n;
            et = LLVMStructGetTypeAtIndex(t, idx[k]);
        } else {
            et = LLVMGetElementType(t);
            at += idx[k] * imp_leaves(I, et)->n;
        }
        t = et;
    }
    *first = at;
    *count = imp_leaves(I, t)->n;
}

static ImpVals import_extractvalue(Imp *I, LLVMValueRef v) {
    LLVMValueRef agg = LLVMGetOperand(v, 0);
    ImpVals a = imp_operand(I, agg);
    uint32_t first, count;
    leaf_range(I, LLVMTypeOf(agg), LLVMGetIndices(v), LLVMGetNumIndices(v), &first, &count);
    ImpVals r = imp_vals_new(I, count);
    for (uint32_t i = 0; i < count; i++)
        r.v[i] = a.v[first + i];
    return r;
}

static ImpVals import_insertvalue(Imp *I, LLVMValueRef v) {
    LLVMValueRef agg = LLVMGetOperand(v, 0);
    ImpVals a = imp_operand(I, agg), x = imp_operand(I, LLVMGetOperand(v, 1));
    uint32_t first, count;
    leaf_range(I, LLVMTypeOf(agg), LLVMGetIndices(v), LLVMGetNumIndices(v), &first, &count);
    ImpVals r = imp_vals_new(I, a.n);
    memcpy(r.v, a.v, a.n * sizeof *r.v);
    for (uint32_t i = 0; i < count && i < x.n; i++)
        r.v[first + i] = x.v[i];
    return r;
}

static ImpVals import_select(Imp *I, LLVMValueRef v) {
    if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(v, 0))) == LLVMVectorTypeKind)
        imp_fail(I, "a vector select is not supported");
    B3Value *c = cond_of(I, imp_scalar(I, LLVMGetOperand(v, 0)));
    ImpVals a = imp_operand(I, LLVMGetOperand(v, 1)), b = imp_operand(I, LLVMGetOperand(v, 2));
    ImpVals r = imp_vals_new(I, a.n);
    for (uint32_t i = 0; i < a.n; i++)
        r.v[i] = imp_emit(I, B3_Select, (B3Type)a.v[i]->type, 3, c, a.v[i], b.v[i]);
    return r;
}

/* ---- atomics ---------------------------------------------------------------- */

static ImpVals import_cmpxchg(Imp *I, LLVMValueRef v) {
    B3Value *ptr = imp_scalar(I, LLVMGetOperand(v, 0));
    LLVMValueRef ev = LLVMGetOperand(v, 1);
    unsigned bits = imp_int_bits(LLVMTypeOf(ev));
    ImpVals wide;
    if (imp_atomic128_cmpxchg(I, v, &wide))
        return wide;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        imp_fail(I, "cmpxchg of this type is not supported");
    B3Value *e = imp_scalar(I, ev), *n = imp_scalar(I, LLVMGetOperand(v, 2));
    if (bits < 32)
        e = imp_sext_bits(I, e, bits); /* the returned old value is sign-extended */
    B3Value *old = imp_emit(I, B3_AtomicStrongCAS, (B3Type)e->type, 3, e, n, ptr);
    old->m.mem.width = (uint8_t)bits;
    old->m.mem.has_width = true;
    B3Value *ok = imp_emit(I, B3_Equal, B3_Int32, 2, old, e, NULL);
    return pair(I, old, ok);
}

static ImpVals import_atomicrmw(Imp *I, LLVMValueRef v) {
    B3Value *ptr = imp_scalar(I, LLVMGetOperand(v, 0));
    LLVMValueRef xv = LLVMGetOperand(v, 1);
    unsigned bits = imp_int_bits(LLVMTypeOf(xv));
    ImpVals wide;
    if (imp_atomic128_rmw(I, v, &wide))
        return wide;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        imp_fail(I, "atomicrmw of this type is not supported");
    B3Value *x = imp_scalar(I, xv);
    B3Type t = (B3Type)x->type;
    B3Opcode op = B3_Nop;
    LLVMAtomicRMWBinOp rop = LLVMGetAtomicRMWBinOp(v);
    switch (rop) {
    case LLVMAtomicRMWBinOpXchg:
        op = B3_AtomicXchg;
        break;
    case LLVMAtomicRMWBinOpAdd:
        op = B3_AtomicXchgAdd;
        break;
    case LLVMAtomicRMWBinOpSub:
        op = B3_AtomicXchgSub;
        break;
    case LLVMAtomicRMWBinOpAnd:
        op = B3_AtomicXchgAnd;
        break;
    case LLVMAtomicRMWBinOpOr:
        op = B3_AtomicXchgOr;
        break;
    case LLVMAtomicRMWBinOpXor:
        op = B3_AtomicXchgXor;
        break;
    default:
        break;
    }
    if (op != B3_Nop) {
        B3Value *r = imp_emit(I, op, t, 2, x, ptr, NULL);
        r->m.mem.width = (uint8_t)bits;
        r->m.mem.has_width = true;
        return one(I, r);
    }
    /* nand, min, max, umin, umax: a compare-and-swap loop. */
    if (rop != LLVMAtomicRMWBinOpNand && rop != LLVMAtomicRMWBinOpMax && rop != LLVMAtomicRMWBinOpMin &&
        rop != LLVMAtomicRMWBinOpUMax && rop != LLVMAtomicRMWBinOpUMin)
        imp_fail(I, "this atomicrmw operation is not supported");
    static const B3Opcode narrow_load[] = {B3_Load8S, B3_Load16S};
    B3Value *init = bits < 32 ? load_op(I, narrow_load[bits == 16], B3_Int32, ptr, 0, false, false)
                              : load_op(I, B3_Load, t, ptr, 0, false, false);
    B3Value *phi = b3_value_new(I->m, I->p, B3_Phi, t, 0, UINT32_MAX);
    phi->loc = phi->type_loc = I->loc;
    B3Value *up = imp_emit(I, B3_Upsilon, B3_Void, 1, init, NULL, NULL);
    up->m.phi = phi;
    B3Block *loop = b3_block_new(I->m, I->p, UINT32_MAX);
    imp_jump(I, loop);
    I->cur = loop;
    b3_block_append(I->m, loop, phi);
    B3Value *nv;
    if (rop == LLVMAtomicRMWBinOpNand) {
        nv = imp_op2(I, B3_BitXor, imp_op2(I, B3_BitAnd, phi, x), imp_const(I, t, -1));
    } else {
        bool s = rop == LLVMAtomicRMWBinOpMax || rop == LLVMAtomicRMWBinOpMin;
        B3Value *a = s ? imp_sext_bits(I, phi, bits) : imp_zext_bits(I, phi, bits);
        B3Value *b = s ? imp_sext_bits(I, x, bits) : imp_zext_bits(I, x, bits);
        B3Opcode cmp = rop == LLVMAtomicRMWBinOpMax    ? B3_GreaterThan
                       : rop == LLVMAtomicRMWBinOpMin  ? B3_LessThan
                       : rop == LLVMAtomicRMWBinOpUMax ? B3_Above
                                                       : B3_Below;
        B3Value *c = imp_emit(I, cmp, B3_Int32, 2, a, b, NULL);
        nv = imp_emit(I, B3_Select, t, 3, c, phi, x);
    }
    B3Value *got = imp_emit(I, B3_AtomicStrongCAS, t, 3, phi, nv, ptr);
    got->m.mem.width = (uint8_t)bits;
    got->m.mem.has_width = true;
    B3Value *up2 = imp_emit(I, B3_Upsilon, B3_Void, 1, got, NULL, NULL);
    up2->m.phi = phi;
    B3Value *done_c = imp_emit(I, B3_Equal, B3_Int32, 2, got, phi, NULL);
    B3Block *done = b3_block_new(I->m, I->p, UINT32_MAX);
    imp_branch(I, done_c, done, loop);
    I->cur = done;
    return one(I, phi);
}

/* ---- calls ----------------------------------------------------------------- */

static B3ByVal byval_of(Imp *I, LLVMAttributeRef attr, LLVMAttributeRef align);

static bool has_attr(LLVMValueRef call, unsigned idx, unsigned kind) {
    return kind && LLVMGetCallSiteEnumAttribute(call, idx, kind) != NULL;
}

static ImpVals import_call(Imp *I, LLVMValueRef v) {
    LLVMValueRef callee = LLVMGetCalledValue(v);
    if (LLVMIsAInlineAsm(callee))
        imp_fail(I, "inline assembly is not supported");
    if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee)) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(callee, &len);
        ImpVals r = {0};
        if (imp_stack_intrinsic(I, v, name, len, &r) || imp_ldouble_intrinsic(I, v, name, len, &r) ||
            imp_fp128_intrinsic(I, v, name, len, &r))
            return r;
        if (!imp_intrinsic(I, v, name, len, &r))
            imp_fail(I, "the intrinsic %.*s is not supported", (int)len, name);
        return r;
    }
    LLVMTypeRef fty = LLVMGetCalledFunctionType(v);
    bool twice = imp_call_returns_twice(I, v);
    unsigned nargs = LLVMGetNumArgOperands(v);
    unsigned nparams = LLVMCountParamTypes(fty);
    bool vararg = LLVMIsFunctionVarArg(fty);
    unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
    B3Value *target = imp_scalar(I, callee);
    /* Children: the callee, then every argument's parts (a byval
     * argument: its address, copied by the call). */
    ImpVals *args = b3_arena_alloc(&I->m->arena, (nargs + 1) * sizeof *args);
    ImpArgPlace *place = b3_arena_alloc(&I->m->arena, (nargs + 1) * sizeof *place);
    uint32_t nk = 1, nint = 0, nfp = 0;
    int32_t nfixed = -1;
    bool sret = false, any_byval = false;
    for (unsigned i = 0; i < nargs; i++) {
        LLVMValueRef a = LLVMGetOperand(v, i);
        if (has_attr(v, i + 1, I->attr_sret)) {
            if (i)
                imp_fail(I, "an sret argument after the first is not supported");
            sret = true;
        }
        /* A long double goes in memory too (llvm_ldouble.c): like byval, no register. */
        bool byval = has_attr(v, i + 1, I->attr_byval) || imp_is_x87(LLVMTypeOf(a));
        unsigned nq = imp_fp128_arg_members(I, LLVMTypeOf(a), nfp); /* Float128 pairs */
        any_byval |= byval || nq;
        ImpVals p = imp_operand(I, a);
        if (imp_is_x87(LLVMTypeOf(a))) { /* in memory, 16-byte aligned (llvm_ldouble.c) */
            ImpVals q = imp_vals_new(I, 1);
            q.v[0] = imp_ldouble_arg(I, p);
            p = q;
        }
        unsigned bits = imp_int_bits(LLVMTypeOf(a));
        if (p.n == 1 && bits && bits < 32 &&
            (has_attr(v, i + 1, I->attr_signext) || has_attr(v, i + 1, I->attr_zeroext))) {
            ImpVals e = imp_vals_new(I, 1);
            e.v[0] = has_attr(v, i + 1, I->attr_signext) ? imp_sext_bits(I, p.v[0], bits)
                                                         : imp_zext_bits(I, p.v[0], bits);
            p = e;
        }
        place[i] = byval ? (ImpArgPlace){0, 0, {0, 0, 0}} : imp_arg_place(I, LLVMTypeOf(a), nint, nfp);
        if (place[i].pad_int || place[i].pad_fp || place[i].memory.size) {
            p = imp_arg_placed(I, LLVMTypeOf(a), p, &place[i]);
            any_byval |= place[i].memory.size != 0;
        }
        /* The registers it takes (an aggregate in memory takes none, an
         * fp128 one q register). */
        nfp += nq;
        for (uint32_t j = 0; j < p.n && !nq; j++)
            if (!byval && (!place[i].memory.size || j + 1 < p.n))
                *(b3_type_is_int((B3Type)p.v[j]->type) ? &nint : &nfp) += 1;
        args[i] = p;
        nk += p.n;
    }
    LLVMTypeRef rt = LLVMGetReturnType(fty);
    const ImpLeaves *RL = imp_leaves(I, rt);
    bool ld_pair = imp_is_x87_pair(rt);         /* in st(0) and st(1) */
    bool ld_result = imp_is_x87(rt) || ld_pair; /* in st(0) */
    B3Value *ld_slot = ld_result ? imp_ldouble_result_slot(I) : NULL;
    if (ld_result)
        RL = imp_leaves(I, LLVMVoidTypeInContext(I->ctx));
    unsigned q_result = imp_fp128_result(I, rt); /* in q0 (and q1: llvm_fp128.c) */
    if (!q_result)
        imp_check_results(I, RL->n, NULL, RL);
    B3Type t0 = RL->n ? imp_leaf_type(&RL->leaf[0]) : B3_Void;
    B3Value *call = b3_value_new(I->m, I->p, B3_CCall, t0, nk, UINT32_MAX);
    B3CCallExtra *extra = NULL;
    if (sret || any_byval || twice) {
        extra = b3_arena_alloc(&I->m->arena, sizeof *extra);
        memset(extra, 0, sizeof *extra);
        extra->sret = sret;
        extra->returns_twice = twice;
        if (any_byval) {
            extra->byval = b3_arena_alloc(&I->m->arena, nk * sizeof *extra->byval);
            memset(extra->byval, 0, nk * sizeof *extra->byval);
        }
    }
    uint32_t k = 0;
    call->kids[k++] = target;
    for (unsigned i = 0; i < nargs; i++) {
        if (vararg && i == nparams)
            nfixed = (int32_t)(k - 1);
        if (any_byval && has_attr(v, i + 1, I->attr_byval))
            extra->byval[k] = byval_of(I, LLVMGetCallSiteEnumAttribute(v, i + 1, I->attr_byval),
                                       LLVMGetCallSiteEnumAttribute(v, i + 1, align_kind));
        if (place[i].memory.size) /* after its pads */
            extra->byval[k + args[i].n - 1] = place[i].memory;
        if (imp_is_x87(LLVMTypeOf(LLVMGetOperand(v, i))))
            extra->byval[k] = (B3ByVal){16, 16, 0};
        /* Each fp128 whole in a q register (llvm_fp128.c). */
        LLVMTypeRef at = LLVMTypeOf(LLVMGetOperand(v, i));
        unsigned nq = place[i].memory.size ? 0 : imp_fp128_arg_members(I, at, 0);
        for (unsigned q = 0; q < nq; q++) {
            extra->byval[k + 2 * q].f128 = B3F128_Low;
            extra->byval[k + 2 * q + 1].f128 = B3F128_High;
        }
        for (uint32_t j = 0; j < args[i].n; j++)
            call->kids[k++] = args[i].v[j];
    }
    if (vararg && nfixed < 0)
        nfixed = (int32_t)(k - 1);
    call->m.ccall.variadic = nfixed;
    call->m.ccall.extra = extra;
    call->loc = call->type_loc = I->loc;
    b3_block_append(I->m, I->cur, call);
    if (ld_pair)
        return imp_ldouble_pair_call_result(I, ld_slot);
    if (ld_result)
        return imp_ldouble_call_result(I, ld_slot);
    if (q_result)
        return imp_fp128_call_result(I, call, q_result);
    return imp_call_results(I, call, RL);
}

/* extractelement / insertelement of a <2 x float> (LK_F32x2) at a
 * constant index; other vector operations are not supported. */
/* Word k (0 or 1) of a packed <2 x float> as an Int32 in an Int64. */
static B3Value *f32x2_word(Imp *I, B3Value *packed, unsigned k) {
    B3Value *bits = imp_op1(I, B3_BitwiseCast, B3_Int64, packed);
    B3Value *w = k ? imp_op2(I, B3_ZShr, bits, imp_const(I, B3_Int32, 32)) : bits;
    return imp_to64(I, imp_to32(I, w), false);
}

/* shufflevector of two <2 x float> with a constant mask: the chosen words
 * packed again (an undefined element is zero). */
static ImpVals import_f32x2_shuffle(Imp *I, LLVMValueRef v) {
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
    const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(v));
    if (L->n != 1 || L->leaf[0].kind != LK_F32x2 || imp_leaves(I, LLVMTypeOf(a))->leaf[0].kind != LK_F32x2)
        imp_fail(I, "vector operations are not supported (compile with -fno-vectorize -fno-slp-vectorize)");
    B3Value *r = NULL;
    for (unsigned i = 0; i < 2; i++) {
        int m = LLVMGetMaskValue(v, i);
        if (m < 0 || m > 3)
            continue;
        B3Value *w = f32x2_word(I, imp_scalar(I, m < 2 ? a : b), (unsigned)m & 1);
        if (i)
            w = imp_op2(I, B3_Shl, w, imp_const(I, B3_Int32, 32));
        r = r ? imp_op2(I, B3_BitOr, r, w) : w;
    }
    if (!r)
        r = imp_const(I, B3_Int64, 0);
    return one(I, imp_op1(I, B3_BitwiseCast, B3_Double, r));
}

static ImpVals import_f32x2_element(Imp *I, LLVMValueRef v, LLVMOpcode op) {
    LLVMValueRef vec = LLVMGetOperand(v, 0), ix = LLVMGetOperand(v, op == LLVMExtractElement ? 1 : 2);
    const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(vec));
    if (L->n != 1 || L->leaf[0].kind != LK_F32x2 || !LLVMIsAConstantInt(ix))
        imp_fail(I, "vector operations are not supported (compile with -fno-vectorize -fno-slp-vectorize)");
    unsigned k = (unsigned)LLVMConstIntGetZExtValue(ix) & 1;
    B3Value *bits = imp_op1(I, B3_BitwiseCast, B3_Int64, imp_scalar(I, vec));
    if (op == LLVMExtractElement) {
        B3Value *w = k ? imp_op2(I, B3_ZShr, bits, imp_const(I, B3_Int32, 32)) : bits;
        return one(I, imp_op1(I, B3_BitwiseCast, B3_Float, imp_to32(I, w)));
    }
    B3Value *e =
        imp_to64(I, imp_op1(I, B3_BitwiseCast, B3_Int32, imp_scalar(I, LLVMGetOperand(v, 1))), false);
    B3Value *keep = imp_op2(I, B3_BitAnd, bits,
                            imp_const(I, B3_Int64, k ? 0xffffffffll : (int64_t)0xffffffff00000000ull));
    B3Value *put = k ? imp_op2(I, B3_Shl, e, imp_const(I, B3_Int32, 32)) : e;
    return one(I, imp_op1(I, B3_BitwiseCast, B3_Double, imp_op2(I, B3_BitOr, keep, put)));
}

/* ---- one instruction ------------------------------------------------------- */

/* The instructions that llvm_ldouble.c and llvm_fp128.c translate when an
 * operand or the result is an x87 long double or an fp128 (each of their
 * imp_*_inst switches cases these and no other). */
static bool may_be_wide_float(LLVMOpcode op) {
    static const bool wide[LLVMFreeze + 1] = {
        [LLVMFAdd] = true,    [LLVMFSub] = true,    [LLVMFMul] = true,   [LLVMFDiv] = true,
        [LLVMFRem] = true,    [LLVMFNeg] = true,    [LLVMFCmp] = true,   [LLVMFPExt] = true,
        [LLVMFPTrunc] = true, [LLVMSIToFP] = true,  [LLVMUIToFP] = true, [LLVMFPToSI] = true,
        [LLVMFPToUI] = true,  [LLVMBitCast] = true,
    };
    return (unsigned)op <= LLVMFreeze && wide[op];
}

static ImpVals translate(Imp *I, LLVMValueRef v, LLVMOpcode op) {
    ImpVals ld;
    if (may_be_wide_float(op) && (imp_ldouble_inst(I, v, op, &ld) || imp_fp128_inst(I, v, op, &ld)))
        return ld;
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMURem:
    case LLVMSRem:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv:
    case LLVMFRem:
        return import_binary(I, v, op);
    case LLVMFNeg: {
        B3Value *x = imp_scalar(I, LLVMGetOperand(v, 0));
        return one(I, imp_op1(I, B3_Neg, (B3Type)x->type, x));
    }
    case LLVMICmp:
        return import_icmp(I, v);
    case LLVMFCmp:
        return import_fcmp(I, v);
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMFPToUI:
    case LLVMFPToSI:
    case LLVMUIToFP:
    case LLVMSIToFP:
    case LLVMFPTrunc:
    case LLVMFPExt:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
        return import_cast(I, v, op);
    case LLVMGetElementPtr:
        return one(I, import_gep(I, v));
    case LLVMSelect:
        return import_select(I, v);
    case LLVMExtractValue:
        return import_extractvalue(I, v);
    case LLVMInsertValue:
        return import_insertvalue(I, v);
    case LLVMFreeze:
        return imp_operand(I, LLVMGetOperand(v, 0));
    case LLVMLoad:
        return import_load(I, v);
    case LLVMStore:
        import_store(I, v);
        return imp_vals_new(I, 0);
    case LLVMAlloca:
        return import_alloca(I, v);
    case LLVMCall:
        return import_call(I, v);
    case LLVMFence:
        imp_emit(I, B3_Fence, B3_Void, 0, NULL, NULL, NULL);
        return imp_vals_new(I, 0);
    case LLVMAtomicCmpXchg:
        return import_cmpxchg(I, v);
    case LLVMAtomicRMW:
        return import_atomicrmw(I, v);
    case LLVMVAArg:
        return imp_va_arg(I, v);
    case LLVMExtractElement:
    case LLVMInsertElement:
        return import_f32x2_element(I, v, op);
    case LLVMShuffleVector:
        return import_f32x2_shuffle(I, v);
    case LLVMInvoke:
    case LLVMLandingPad:
    case LLVMResume:
    case LLVMCleanupPad:
    case LLVMCatchPad:
    case LLVMCatchSwitch:
    case LLVMCatchRet:
    case LLVMCleanupRet:
        imp_fail(I, "exceptions (invoke, landingpad) are not supported: b3c compiles C");
    case LLVMCallBr:
        imp_fail(I, "asm goto is not supported");
    default:
        imp_fail(I, "this instruction is not supported");
    }
}

/* ---- blocks, phis and terminators -------------------------------------------- */

static B3Block *block_of(Imp *I, LLVMBasicBlockRef b) {
    uint32_t k = imp_map_get(&I->block_map, b);
    return k == UINT32_MAX ? NULL : I->blocks[k];
}

B3Block *imp_block_of(Imp *I, LLVMBasicBlockRef b) { return block_of(I, b); }

/* Upsilons for the phis of `to` on the edge from `from` (LLVM blocks). */
static void upsilons(Imp *I, LLVMBasicBlockRef from, LLVMBasicBlockRef to) {
    for (LLVMValueRef phi = LLVMGetFirstInstruction(to); phi && LLVMGetInstructionOpcode(phi) == LLVMPHI;
         phi = LLVMGetNextInstruction(phi)) {
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned i = 0; i < n; i++) {
            if (LLVMGetIncomingBlock(phi, i) != from)
                continue;
            ImpVals x = imp_operand(I, LLVMGetIncomingValue(phi, i));
            ImpVals ph = I->vals[imp_map_get(&I->val_map, phi)];
            for (uint32_t k = 0; k < ph.n && k < x.n; k++) {
                B3Value *u = imp_emit(I, B3_Upsilon, B3_Void, 1, x.v[k], NULL, NULL);
                u->m.phi = ph.v[k];
            }
            break;
        }
    }
}

static void import_ret(Imp *I, LLVMValueRef v) {
    if (LLVMGetNumOperands(v) == 0) {
        if (I->sret_ptr)
            imp_emit(I, B3_Return, B3_Void, 1, I->sret_ptr, NULL, NULL);
        else
            imp_emit(I, B3_Return, B3_Void, 0, NULL, NULL, NULL);
        return;
    }
    LLVMValueRef x = LLVMGetOperand(v, 0);
    ImpVals p = imp_operand(I, x);
    if (imp_is_x87(LLVMTypeOf(x))) {
        imp_ldouble_return(I, p);
        return;
    }
    if (imp_is_x87_pair(LLVMTypeOf(x))) {
        imp_ldouble_pair_return(I, p);
        return;
    }
    if (imp_fp128_result(I, LLVMTypeOf(x))) {
        imp_fp128_return(I, p);
        return;
    }
    unsigned bits = imp_int_bits(LLVMTypeOf(x));
    if (p.n == 1 && bits && bits < 32) {
        if (LLVMGetEnumAttributeAtIndex(I->fn, LLVMAttributeReturnIndex, I->attr_signext))
            p.v[0] = imp_sext_bits(I, p.v[0], bits);
        else if (LLVMGetEnumAttributeAtIndex(I->fn, LLVMAttributeReturnIndex, I->attr_zeroext))
            p.v[0] = imp_zext_bits(I, p.v[0], bits);
    }
    imp_check_results(I, p.n, (const B3Value *const *)p.v, NULL);
    B3Value *r = imp_emit(I, B3_Return, B3_Void, p.n, NULL, NULL, NULL);
    for (uint32_t i = 0; i < p.n; i++)
        r->kids[i] = p.v[i];
}

static void import_terminator(Imp *I, LLVMBasicBlockRef lb, LLVMValueRef t) {
    LLVMOpcode op = LLVMGetInstructionOpcode(t);
    unsigned ns = LLVMGetNumSuccessors(t);
    /* Upsilons first, once per distinct successor (with phis: a switch's
     * many successors mostly have none). */
    for (unsigned i = 0; i < ns; i++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, i);
        LLVMValueRef first = LLVMGetFirstInstruction(s);
        if (!first || LLVMGetInstructionOpcode(first) != LLVMPHI)
            continue;
        bool seen = false;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = LLVMGetSuccessor(t, j) == s;
        if (!seen)
            upsilons(I, lb, s);
    }
    switch (op) {
    case LLVMRet:
        import_ret(I, t);
        return;
    case LLVMUnreachable:
        imp_emit(I, B3_Oops, B3_Void, 0, NULL, NULL, NULL);
        return;
    case LLVMBr:
        if (!LLVMIsConditional(t) || LLVMGetSuccessor(t, 0) == LLVMGetSuccessor(t, 1)) {
            imp_jump(I, block_of(I, LLVMGetSuccessor(t, 0)));
        } else {
            B3Value *c = cond_of(I, imp_scalar(I, LLVMGetCondition(t)));
            imp_branch(I, c, block_of(I, LLVMGetSuccessor(t, 0)), block_of(I, LLVMGetSuccessor(t, 1)));
        }
        return;
    case LLVMSwitch: {
        LLVMValueRef cv = LLVMGetOperand(t, 0);
        unsigned bits = imp_int_bits(LLVMTypeOf(cv));
        if (bits > 64)
            imp_fail(I, "a switch on i%u is not supported", bits);
        B3Value *c = imp_zext_bits(I, imp_scalar(I, cv), bits);
        unsigned ncases = ns - 1;
        B3Block *b = I->cur;
        B3Value *sw = imp_emit(I, B3_Switch, B3_Void, 1, c, NULL, NULL);
        sw->m.sw.cases = b3_arena_alloc(&I->m->arena, (ncases ? ncases : 1) * sizeof(int64_t));
        sw->m.sw.ncases = ncases;
        B3Block **to = b3_arena_alloc(&I->m->arena, ns * sizeof *to);
        for (unsigned i = 0; i < ncases; i++) {
            LLVMValueRef cs = LLVMGetOperand(t, 2 + 2 * i);
            uint64_t x = LLVMConstIntGetZExtValue(cs);
            sw->m.sw.cases[i] = bits == 64 ? (int64_t)x : bits == 32 ? (int32_t)x : (int64_t)x;
            to[i] = block_of(I, LLVMGetSuccessor(t, i + 1));
        }
        to[ncases] = block_of(I, LLVMGetSuccessor(t, 0));
        set_succs(I, b, ns, to);
        return;
    }
    case LLVMIndirectBr:
        imp_indirectbr(I, t);
        return;
    default:
        translate(I, t, op);
        return;
    }
}

/* ---- parameters -------------------------------------------------------------- */

static B3Value *arg_in(Imp *I, B3Type t, B3Reg where, uint32_t stack_off) {
    if (where == B3_NO_REG) {
        B3Value *fp = imp_emit(I, B3_FramePointer, B3_Int64, 0, NULL, NULL, NULL);
        return load_op(I, B3_Load, t, fp, 16 + (int64_t)stack_off, false, false);
    }
    bool fpr = b3_reg_is_fpr(where);
    B3Value *r = imp_emit(I, B3_ArgumentReg, fpr ? B3_Double : B3_Int64, 0, NULL, NULL, NULL);
    r->m.reg = where;
    if (t == B3_Int32 || t == B3_Float)
        r = imp_op1(I, B3_Trunc, t, r);
    return r;
}

/* The type and alignment of a byval parameter or argument (attribute
 * index idx of fn or call), or size 0 if it is not one. */
static B3ByVal byval_of(Imp *I, LLVMAttributeRef attr, LLVMAttributeRef align) {
    if (!attr)
        return (B3ByVal){0, 0, 0};
    LLVMTypeRef t = LLVMGetTypeAttributeValue(attr);
    uint32_t a = align ? (uint32_t)LLVMGetEnumAttributeValue(align) : LLVMABIAlignmentOfType(I->td, t);
    return (B3ByVal){(uint32_t)LLVMABISizeOfType(I->td, t), a ? a : 1, 0};
}

/* Parameters: registers and stack slots by the target's C convention; an
 * sret pointer in the target's indirect-result register (or as the first
 * argument); a byval aggregate's address in the caller's argument area. */
static void import_params(Imp *I, LLVMValueRef fn) {
    unsigned n = LLVMCountParams(fn);
    unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
    uint32_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += imp_leaves(I, LLVMTypeOf(LLVMGetParam(fn, i)))->n;
    /* Room for each parameter's parts and its pads (ImpArgPlace). */
    total += n * (1 + I->desc->narg_fprs) + 1;
    uint8_t *types = b3_arena_alloc(&I->m->arena, total);
    B3Reg *where = b3_arena_alloc(&I->m->arena, total * sizeof *where);
    uint32_t *off = b3_arena_alloc(&I->m->arena, total * sizeof *off);
    B3ByVal *byval = b3_arena_alloc(&I->m->arena, total * sizeof *byval);
    ImpArgPlace *place = b3_arena_alloc(&I->m->arena, (n + 1) * sizeof *place);
    bool any_byval = false;
    uint32_t k = 0, nint = 0, nfp = 0;
    B3Value *sret_in_reg = NULL;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef prm = LLVMGetParam(fn, i);
        if (LLVMGetEnumAttributeAtIndex(fn, i + 1, I->attr_sret) && I->desc->sret_reg != B3_NO_REG) {
            if (i)
                imp_fail(I, "an sret parameter after the first is not supported");
            sret_in_reg = arg_in(I, B3_Int64, I->desc->sret_reg, 0);
            continue;
        }
        B3ByVal bv = byval_of(I, LLVMGetEnumAttributeAtIndex(fn, i + 1, I->attr_byval),
                              LLVMGetEnumAttributeAtIndex(fn, i + 1, align_kind));
        if (imp_is_x87(LLVMTypeOf(prm))) /* in memory, 16-byte aligned */
            bv = (B3ByVal){16, 16, 0};
        if (bv.size) {
            byval[k] = bv;
            any_byval = true;
            types[k++] = B3_Int64;
            continue;
        }
        const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(prm));
        unsigned nq = imp_fp128_arg_members(I, LLVMTypeOf(prm), nfp);
        for (unsigned q = 0; q < nq; q++) { /* Float128 pairs: a q register each */
            byval[k] = (B3ByVal){0, 0, B3F128_Low};
            byval[k + 1] = (B3ByVal){0, 0, B3F128_High};
            any_byval = true;
            types[k++] = B3_Int64;
            types[k++] = B3_Int64;
            nfp++;
        }
        if (nq)
            continue;
        ImpArgPlace *pl = &place[i];
        *pl = imp_arg_place(I, LLVMTypeOf(prm), nint, nfp);
        for (uint32_t j = 0; j < pl->pad_int; j++)
            types[k++] = B3_Int64;
        for (uint32_t j = 0; j < pl->pad_fp; j++)
            types[k++] = B3_Double;
        nint += pl->pad_int;
        nfp += pl->pad_fp;
        if (pl->memory.size) {
            byval[k] = pl->memory;
            any_byval = true;
            types[k++] = B3_Int64;
            continue;
        }
        for (uint32_t j = 0; j < L->n; j++) {
            types[k++] = (uint8_t)imp_leaf_type(&L->leaf[j]);
            *(b3_type_is_int((B3Type)types[k - 1]) ? &nint : &nfp) += 1;
        }
    }
    uint32_t area = I->desc->classify_args(I->desc, k, types, any_byval ? byval : NULL, -1, where, off);
    if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
        imp_varargs_params(I, k, where, area);
    k = 0;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef prm = LLVMGetParam(fn, i);
        bool sret = LLVMGetEnumAttributeAtIndex(fn, i + 1, I->attr_sret) != NULL;
        if (sret && sret_in_reg) {
            bind(I, prm, one(I, sret_in_reg));
            continue;
        }
        k += place[i].pad_int + place[i].pad_fp;
        if (byval[k].size && imp_is_x87(LLVMTypeOf(prm))) {
            B3Value *fp = imp_emit(I, B3_FramePointer, B3_Int64, 0, NULL, NULL, NULL);
            bind(I, prm, imp_ldouble_load(I, fp, 16 + (int64_t)off[k]));
            k++;
            continue;
        }
        if (byval[k].size) { /* the aggregate's address in the caller's frame */
            B3Value *fp = imp_emit(I, B3_FramePointer, B3_Int64, 0, NULL, NULL, NULL);
            B3Value *at = imp_op2(I, B3_Add, fp, imp_const(I, B3_Int64, 16 + (int64_t)off[k]));
            bind(I, prm, place[i].memory.size ? imp_arg_from_memory(I, LLVMTypeOf(prm), at) : one(I, at));
            k++;
            continue;
        }
        unsigned nq = imp_fp128_arg_members(I, LLVMTypeOf(prm), 0);
        if (nq) {
            ImpVals p = imp_vals_new(I, 2 * nq);
            for (unsigned q = 0; q < nq; q++, k += 2) {
                ImpVals h = imp_fp128_param(I, where[k], off[k]);
                p.v[2 * q] = h.v[0];
                p.v[2 * q + 1] = h.v[1];
            }
            bind(I, prm, p);
            continue;
        }
        const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(prm));
        ImpVals p = imp_vals_new(I, L->n);
        for (uint32_t j = 0; j < L->n; j++, k++)
            p.v[j] = arg_in(I, (B3Type)types[k], where[k], off[k]);
        if (sret) /* x86-64: the callee returns the address it was given */
            I->sret_ptr = p.v[0];
        bind(I, prm, p);
    }
}

/* ---- the function ------------------------------------------------------------ */

static void set_loc(Imp *I, LLVMValueRef inst) {
    I->inst = inst;
    I->loc = imp_inst_debug_loc(I, inst, I->loc);
}

void imp_function(Imp *I, LLVMValueRef fn, B3Symbol *sym) {
    I->fn = fn;
    I->inst = NULL;
    I->p = sym->def.proc;
    I->loc = imp_debug_loc(I, fn, LLVMGetDebugLocLine(fn), 0);
    I->p->loc = I->loc;
    I->sret_ptr = NULL;
    memset(I->ld_scratch, 0, sizeof I->ld_scratch);
    I->nvals = 0;
    unsigned nb = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *lbs = b3_xmalloc("import", (nb + 1) * sizeof *lbs);
    LLVMBasicBlockRef *order = b3_xmalloc("import", (nb + 1) * sizeof *order);
    uint32_t *stack = b3_xmalloc("import", (nb + 1) * sizeof *stack * 2);
    uint8_t *state = b3_xcalloc("import", nb + 1, 1);
    LLVMGetBasicBlocks(fn, lbs);
    /* The value map holds the parameters and the instructions (sized to
     * them: a table of a big function's size per function costs its
     * clearing). */
    uint32_t ninsts = LLVMCountParams(fn);
    for (unsigned i = 0; i < nb; i++)
        for (LLVMValueRef inst = LLVMGetFirstInstruction(lbs[i]); inst; inst = LLVMGetNextInstruction(inst))
            ninsts++;
    imp_map_init(&I->val_map, ninsts);
    imp_map_init(&I->block_map, nb);
    I->blocks = b3_xcalloc("import", nb + 1, sizeof *I->blocks);
    I->nblocks = nb;
    if (setjmp(I->fail))
        goto out;
    ImpPtrMap idx;
    imp_map_init(&idx, nb);
    for (unsigned i = 0; i < nb; i++)
        imp_map_put(&idx, lbs[i], i);
    /* Reverse post-order of the reachable blocks (iterative DFS). */
    uint32_t norder = 0, sp = 0;
    stack[sp++] = 0;
    state[0] = 1;
    uint32_t *next_succ = b3_xcalloc("import", nb + 1, sizeof *next_succ);
    while (sp) {
        uint32_t b = stack[sp - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(lbs[b]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if (next_succ[b] < ns) {
            uint32_t s = imp_map_get(&idx, LLVMGetSuccessor(term, next_succ[b]++));
            if (!state[s]) {
                state[s] = 1;
                stack[sp++] = s;
            }
            continue;
        }
        sp--;
        order[norder++] = lbs[b];
    }
    free(next_succ);
    imp_map_free(&idx);
    for (uint32_t i = 0; i < norder / 2; i++) {
        LLVMBasicBlockRef t = order[i];
        order[i] = order[norder - 1 - i];
        order[norder - 1 - i] = t;
    }
    for (uint32_t i = 0; i < norder; i++) {
        I->blocks[i] = b3_block_new(I->m, I->p, UINT32_MAX);
        imp_map_put(&I->block_map, order[i], i);
    }
    /* Phis first, one B3 Phi per part, at the top of their blocks. */
    for (uint32_t i = 0; i < norder; i++) {
        for (LLVMValueRef phi = LLVMGetFirstInstruction(order[i]);
             phi && LLVMGetInstructionOpcode(phi) == LLVMPHI; phi = LLVMGetNextInstruction(phi)) {
            set_loc(I, phi);
            const ImpLeaves *L = imp_leaves(I, LLVMTypeOf(phi));
            ImpVals p = imp_vals_new(I, L->n);
            for (uint32_t k = 0; k < L->n; k++) {
                p.v[k] = b3_value_new(I->m, I->p, B3_Phi, imp_leaf_type(&L->leaf[k]), 0, UINT32_MAX);
                p.v[k]->loc = p.v[k]->type_loc = I->loc;
                b3_block_append(I->m, I->blocks[i], p.v[k]);
            }
            bind(I, phi, p);
        }
    }
    I->cur = I->blocks[0];
    I->inst = NULL;
    import_params(I, fn);
    for (uint32_t i = 0; i < norder; i++) {
        I->cur = I->blocks[i];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(order[i]);
        for (LLVMValueRef inst = LLVMGetFirstInstruction(order[i]); inst && inst != term;
             inst = LLVMGetNextInstruction(inst)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(inst);
            if (op == LLVMPHI)
                continue;
            set_loc(I, inst);
            ImpVals r = translate(I, inst, op);
            if (LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMVoidTypeKind)
                bind(I, inst, r);
        }
        if (!term)
            imp_fail(I, "a block has no terminator");
        set_loc(I, term);
        import_terminator(I, order[i], term);
    }
    b3_proc_compute_preds(I->m, I->p);
    b3_proc_remove_unreachable(I->m, I->p);
out:
    I->fn = NULL;
    I->inst = NULL;
    free(lbs);
    free(order);
    free(stack);
    free(state);
    free(I->blocks);
    I->blocks = NULL;
    free(I->vals);
    I->vals = NULL;
    I->cap_vals = I->nvals = 0;
    imp_map_free(&I->val_map);
    imp_map_free(&I->block_map);
}
