/* The LLVM-IR front end: reads the module (text or bitcode) through LLVM's
 * C API, makes a B3 symbol for every global, B3 data for every variable's
 * initializer, and hands each function body to llvm_func.c.  Diagnostics
 * name the C line of an instruction's !dbg location when there is one. */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/IRReader.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/llvm_internal.h"
#include "util/file.h"
#include "util/vec.h"

/* ---- pointer map ----------------------------------------------------------- */

static uint32_t ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (uint32_t)x;
}

void imp_map_init(ImpPtrMap *m, uint32_t expected) {
    uint32_t cap = (uint32_t)b3_vec_capacity(16, (size_t)expected * 2); /* at most half full */
    m->keys = b3_xcalloc("import", cap, sizeof *m->keys);
    m->vals = b3_xmalloc("import", cap * sizeof *m->vals);
    m->cap = cap;
    m->count = 0;
}

void imp_map_free(ImpPtrMap *m) {
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->count = 0;
}

uint32_t imp_map_get(const ImpPtrMap *m, const void *key) {
    for (uint32_t i = ptr_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key)
            return m->vals[i];
        if (!m->keys[i])
            return UINT32_MAX;
    }
}

void imp_map_put(ImpPtrMap *m, const void *key, uint32_t val) {
    if ((m->count + 1) * 2 > m->cap) {
        ImpPtrMap n;
        imp_map_init(&n, m->cap);
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                imp_map_put(&n, m->keys[i], m->vals[i]);
        imp_map_free(m);
        *m = n;
    }
    uint32_t i = ptr_hash(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        m->count++;
    m->keys[i] = key;
    m->vals[i] = val;
}

/* ---- diagnostics ----------------------------------------------------------- */

const char *imp_value_name(Imp *I, LLVMValueRef v) {
    size_t len = 0;
    const char *s = LLVMGetValueName2(v, &len);
    char *c = b3_arena_alloc(&I->m->arena, len + 1);
    memcpy(c, s, len);
    c[len] = 0;
    return c;
}

/* The .ll line that defines function or global fn ("define ... @name(",
 * "@name = ..."), or 0. */
static uint32_t ll_line_of_function(Imp *I, LLVMValueRef fn) {
    if (I->o->bitcode || !fn)
        return 0;
    size_t nlen = 0;
    const char *name = LLVMGetValueName2(fn, &nlen);
    const char *s = I->o->src, *end = s + I->o->len;
    uint32_t line = 1;
    for (const char *p = s; p < end; line++) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if (!LLVMIsAFunction(fn) && eol - p > (ptrdiff_t)nlen + 1 && p[0] == '@' &&
            !memcmp(p + 1, name, nlen) && (p[1 + nlen] == ' ' || p[1 + nlen] == '='))
            return line;
        if (eol - p > 7 && !memcmp(p, "define ", 7)) {
            for (const char *q = p; q + nlen + 2 <= eol; q++)
                if (q[0] == '@' && !memcmp(q + 1, name, nlen) && q[1 + nlen] == '(')
                    return line;
        }
        p = eol + 1;
    }
    return 0;
}

static void report(Imp *I, const char *msg) {
    I->errors++;
    LLVMValueRef at = I->inst;
    unsigned line = 0, col = 0, flen = 0, dlen = 0;
    const char *file = NULL, *dir = NULL;
    if (at) {
        line = LLVMGetDebugLocLine(at);
        col = LLVMGetDebugLocColumn(at);
        file = LLVMGetDebugLocFilename(at, &flen);
        dir = LLVMGetDebugLocDirectory(at, &dlen);
    }
    if ((!line || !file) && I->fn) {
        line = LLVMGetDebugLocLine(I->fn);
        col = 0;
        file = LLVMGetDebugLocFilename(I->fn, &flen);
        dir = LLVMGetDebugLocDirectory(I->fn, &dlen);
    }
    const char *fname = I->fn ? imp_value_name(I, I->fn) : NULL;
    char where[600] = "";
    if (fname)
        snprintf(where, sizeof where, "in function '%s': ", fname);
    else if (at && LLVMIsAGlobalVariable(at))
        snprintf(where, sizeof where, "in the initializer of '%s': ", imp_value_name(I, at));
    if (line && file && flen) {
        char shown[4096], path[8192];
        snprintf(shown, sizeof shown, "%.*s", (int)flen, file);
        if (shown[0] != '/' && dir && dlen)
            snprintf(path, sizeof path, "%.*s/%s", (int)dlen, dir, shown);
        else
            snprintf(path, sizeof path, "%s", shown);
        size_t len = 0;
        char *src = b3_read_file(path, &len);
        if (!src)
            src = b3_read_file(shown, &len);
        B3Diag d;
        b3_diag_init(&d, shown, src ? src : "", src ? len : 0);
        d.color = I->o->diag->color;
        b3_error(&d, (B3Loc){line, col ? col : 1, 0}, "%s%s", where, msg);
        b3_diag_free(&d);
        free(src);
        return;
    }
    uint32_t ll = ll_line_of_function(I, I->fn ? I->fn : I->inst);
    if (ll) {
        b3_error(I->o->diag, (B3Loc){ll, 1, 0}, "%s%s", where, msg);
        return;
    }
    fprintf(stderr, "%s: error: %s%s\n", I->o->input, where, msg);
}

static void vreport(Imp *I, const char *fmt, va_list ap) {
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    report(I, msg);
}

void imp_error(Imp *I, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(I, fmt, ap);
    va_end(ap);
}

_Noreturn void imp_fail(Imp *I, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(I, fmt, ap);
    va_end(ap);
    longjmp(I->fail, 1);
}

/* ---- types ---------------------------------------------------------------- */

unsigned imp_int_bits(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

typedef struct {
    ImpLeaf *a;
    uint32_t n, cap;
} LeafVec;

static void leaf_push(LeafVec *v, ImpLeaf l) { B3_VEC_PUSH("import", v->a, v->n, v->cap, l); }

static void collect_leaves(Imp *I, LLVMTypeRef t, uint64_t off, LeafVec *out) {
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind:
        return;
    case LLVMIntegerTypeKind: {
        unsigned bits = LLVMGetIntTypeWidth(t);
        if (bits <= 64) {
            leaf_push(out, (ImpLeaf){LK_Int, (uint8_t)bits, off});
        } else if (bits <= IMP_MAX_WORDS * 64) { /* words, the lowest first */
            unsigned k = (bits + 63) / 64;
            for (unsigned i = 0; i + 1 < k; i++)
                leaf_push(out, (ImpLeaf){LK_Int, 64, off + 8 * i});
            leaf_push(out, (ImpLeaf){LK_Top, (uint8_t)(bits - 64 * (k - 1)), off + 8 * (k - 1)});
        } else {
            imp_fail(I, "the integer type i%u is not supported (at most %u bits)", bits, IMP_MAX_WORDS * 64);
        }
        return;
    }
    case LLVMPointerTypeKind:
        leaf_push(out, (ImpLeaf){LK_Ptr, 64, off});
        return;
    case LLVMFloatTypeKind:
        leaf_push(out, (ImpLeaf){LK_Float, 32, off});
        return;
    case LLVMDoubleTypeKind:
        leaf_push(out, (ImpLeaf){LK_Double, 64, off});
        return;
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        for (unsigned i = 0; i < n; i++)
            collect_leaves(I, LLVMStructGetTypeAtIndex(t, i), off + LLVMOffsetOfElement(I->td, t, i), out);
        return;
    }
    case LLVMVectorTypeKind:
        if (LLVMGetVectorSize(t) == 2 && LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMFloatTypeKind) {
            leaf_push(out, (ImpLeaf){LK_F32x2, 64, off});
            return;
        }
        /* other vectors are taken as arrays */
        /* fall through */
    case LLVMArrayTypeKind: {
        LLVMTypeRef e = LLVMGetElementType(t);
        unsigned n = LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMGetArrayLength(t) : LLVMGetVectorSize(t);
        uint64_t stride = LLVMABISizeOfType(I->td, e);
        if ((uint64_t)n * 1 > 4096)
            imp_fail(I, "an aggregate of %u elements as a value is not supported", n);
        for (unsigned i = 0; i < n; i++)
            collect_leaves(I, e, off + i * stride, out);
        return;
    }
    case LLVMX86_FP80TypeKind: /* llvm_ldouble.c */
        if (!I->desc->has_x87)
            imp_fail(I, "long double (x86_fp80) needs the x87 unit of an x86-64 target");
        leaf_push(out, (ImpLeaf){LK_Int, 64, off});
        leaf_push(out, (ImpLeaf){LK_Int, 16, off + 8});
        return;
    case LLVMFP128TypeKind: /* llvm_fp128.c */
        if (!I->desc->float128_pairs)
            imp_fail(I,
                     "fp128 (__float128, arm64 Linux's long double) is supported only on aarch64-linux-gnu");
        leaf_push(out, (ImpLeaf){LK_Int, 64, off});
        leaf_push(out, (ImpLeaf){LK_Int, 64, off + 8});
        return;
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
        imp_fail(I, "half-precision floating point is not supported");
    default: {
        char *s = LLVMPrintTypeToString(t);
        char buf[200];
        snprintf(buf, sizeof buf, "%s", s);
        LLVMDisposeMessage(s);
        imp_fail(I, "values of type %s are not supported", buf);
    }
    }
}

const ImpLeaves *imp_leaves(Imp *I, LLVMTypeRef t) {
    uint32_t k = imp_map_get(&I->type_map, t);
    if (k != UINT32_MAX)
        return &I->types[k];
    LeafVec v = {0};
    collect_leaves(I, t, 0, &v);
    B3_VEC_RESERVE("import", I->types, I->cap_types, I->ntypes + 1);
    ImpLeaves *l = &I->types[I->ntypes];
    l->n = v.n;
    l->leaf = b3_arena_alloc(&I->m->arena, (v.n ? v.n : 1) * sizeof *l->leaf);
    if (v.n)
        memcpy(l->leaf, v.a, v.n * sizeof *v.a);
    free(v.a);
    imp_map_put(&I->type_map, t, I->ntypes);
    return &I->types[I->ntypes++];
}

/* ---- symbols --------------------------------------------------------------- */

B3Symbol *imp_symbol(Imp *I, LLVMValueRef g) {
    uint32_t k = imp_map_get(&I->sym_map, g);
    if (k != UINT32_MAX)
        return I->syms[k];
    size_t len = 0;
    const char *name = LLVMGetValueName2(g, &len);
    char buf[64];
    if (len && name[0] == 1) { /* "\01name": the name exactly as written */
        name++;
        len--;
    }
    if (!len) { /* an unnamed global (@0): a name of our own */
        snprintf(buf, sizeof buf, "__b3c_unnamed_%u", I->nsyms);
        name = buf;
        len = strlen(buf);
    }
    char *copy = b3_arena_alloc(&I->m->arena, len + 1);
    memcpy(copy, name, len);
    copy[len] = 0;
    bool created;
    B3Symbol *s = b3_symbol_get(I->m, copy, (uint32_t)len, &created);
    k = I->nsyms;
    B3_VEC_PUSH("import", I->syms, I->nsyms, I->cap_syms, s);
    imp_map_put(&I->sym_map, g, k);
    return s;
}

static bool is_local_linkage(LLVMLinkage l) { return l == LLVMInternalLinkage || l == LLVMPrivateLinkage; }

void imp_definition_linkage(LLVMValueRef g, B3Symbol *s) {
    LLVMLinkage link = LLVMGetLinkage(g);
    s->internal = is_local_linkage(link);
    /* A definition another object may replace (C's weak, inline functions'
     * linkonce_odr, -fcommon's tentative definitions) is weak. */
    s->weak = link == LLVMWeakAnyLinkage || link == LLVMWeakODRLinkage || link == LLVMLinkOnceAnyLinkage ||
              link == LLVMLinkOnceODRLinkage || link == LLVMCommonLinkage;
    s->hidden = !s->internal && LLVMGetVisibility(g) == LLVMHiddenVisibility;
}

/* Declares g in the module: an extern, or a definition to be filled. */
static void declare_global(Imp *I, LLVMValueRef g, bool is_fn) {
    B3Symbol *s = imp_symbol(I, g);
    LLVMLinkage link = LLVMGetLinkage(g);
    bool decl = LLVMIsDeclaration(g) || link == LLVMAvailableExternallyLinkage;
    if (s->declared)
        return;
    s->declared = true;
    if (decl) {
        s->weak_ref = link == LLVMExternalWeakLinkage;
        b3_module_add_item(I->m, B3Item_Extern, s);
        return;
    }
    s->defined = true;
    imp_definition_linkage(g, s);
    if (is_fn) {
        s->kind = B3Sym_Proc;
        s->def.proc = b3_proc_new(I->m, s);
        b3_module_add_item(I->m, B3Item_Proc, s);
    } else {
        s->kind = B3Sym_Data;
        s->def.data = b3_arena_alloc(&I->m->arena, sizeof(B3Data));
        b3_module_add_item(I->m, B3Item_Data, s);
    }
}

/* ---- data ------------------------------------------------------------------ */

typedef struct {
    B3DataItem *a;
    uint32_t n, cap;
    uint64_t off; /* bytes laid out so far */
} DataBuf;

static void item_push(DataBuf *d, B3DataItem it) { B3_VEC_PUSH("import", d->a, d->n, d->cap, it); }

static void pad_to(DataBuf *d, uint64_t off) {
    if (off > d->off) {
        B3DataItem z = {.kind = B3Data_Zero};
        z.u.zero = off - d->off;
        item_push(d, z);
        d->off = off;
    }
}

/* bytes little-endian bytes of x at off (as Bytes when not naturally aligned
 * for an item of that size, or of no item's size). */
static void put_int(Imp *I, DataBuf *d, uint64_t off, uint64_t x, unsigned bytes) {
    pad_to(d, off);
    static const uint8_t kind_of[9] = {0, B3Data_Int8, B3Data_Int16, 0, B3Data_Int32, 0, 0, 0, B3Data_Int64};
    if (bytes <= 8 && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8) && off % bytes == 0) {
        B3DataItem it = {.kind = kind_of[bytes]};
        it.u.bits = bytes == 8 ? x : x & ((1ull << (8 * bytes)) - 1);
        item_push(d, it);
    } else {
        uint8_t *b = b3_arena_alloc(&I->m->arena, bytes);
        for (unsigned i = 0; i < bytes; i++)
            b[i] = (uint8_t)(i < 8 ? x >> (8 * i) : 0);
        B3DataItem it = {.kind = B3Data_Bytes};
        it.u.str.bytes = b;
        it.u.str.len = bytes;
        item_push(d, it);
    }
    d->off = off + bytes;
}

/* A constant address: symbol + offset (sym NULL: a plain integer). */
typedef struct {
    B3Symbol *sym;
    int64_t off;
} ConstAddr;

static bool const_addr(Imp *I, LLVMValueRef c, ConstAddr *out) {
    if (LLVMIsAGlobalValue(c)) {
        if (LLVMIsAGlobalIFunc(c))
            imp_fail(I, "ifuncs are not supported yet");
        if (LLVMIsAGlobalVariable(c) && LLVMIsThreadLocal(c))
            imp_fail(I, "the address of the thread-local variable '%s' is not a constant",
                     imp_value_name(I, c));
        out->sym = imp_symbol(I, c);
        out->off = 0;
        return true;
    }
    if (LLVMIsAConstantPointerNull(c) || LLVMIsUndef(c) || LLVMIsAConstantAggregateZero(c)) {
        out->sym = NULL;
        out->off = 0;
        return true;
    }
    if (LLVMIsAConstantInt(c)) {
        out->sym = NULL;
        out->off = LLVMConstIntGetSExtValue(c);
        return true;
    }
    if (LLVMIsABlockAddress(c)) { /* a number (llvm_control.c) */
        out->sym = NULL;
        out->off = imp_block_address(I, c);
        return true;
    }
    if (!LLVMIsAConstantExpr(c))
        return false;
    switch (LLVMGetConstOpcode(c)) {
    case LLVMTrunc: /* of a plain integer: `&&a - &&b` in an int table */
    {
        unsigned bits = imp_int_bits(LLVMTypeOf(c));
        if (!bits || bits > 64 || !const_addr(I, LLVMGetOperand(c, 0), out) || out->sym)
            return false;
        out->off = (int64_t)((uint64_t)out->off & (~0ull >> (64 - bits)));
        return true;
    }
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMIntToPtr:
    case LLVMPtrToInt:
        return const_addr(I, LLVMGetOperand(c, 0), out);
    case LLVMGetElementPtr: {
        if (!const_addr(I, LLVMGetOperand(c, 0), out))
            return false;
        LLVMTypeRef t = LLVMGetGEPSourceElementType(c);
        unsigned n = (unsigned)LLVMGetNumOperands(c);
        for (unsigned i = 1; i < n; i++) {
            LLVMValueRef ix = LLVMGetOperand(c, i);
            if (!LLVMIsAConstantInt(ix))
                return false;
            int64_t k = LLVMConstIntGetSExtValue(ix);
            if (i == 1) {
                out->off += k * (int64_t)LLVMABISizeOfType(I->td, t);
            } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
                out->off += (int64_t)LLVMOffsetOfElement(I->td, t, (unsigned)k);
                t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
            } else {
                t = LLVMGetElementType(t);
                out->off += k * (int64_t)LLVMABISizeOfType(I->td, t);
            }
        }
        return true;
    }
    case LLVMAdd:
    case LLVMSub: {
        ConstAddr a, b;
        if (!const_addr(I, LLVMGetOperand(c, 0), &a) || !const_addr(I, LLVMGetOperand(c, 1), &b) || b.sym)
            return false;
        out->sym = a.sym;
        out->off = LLVMGetConstOpcode(c) == LLVMAdd ? a.off + b.off : a.off - b.off;
        return true;
    }
    default:
        return false;
    }
}

bool imp_const_addr(Imp *I, LLVMValueRef c, B3Symbol **sym, int64_t *off) {
    ConstAddr a;
    if (!const_addr(I, c, &a))
        return false;
    *sym = a.sym;
    *off = a.off;
    return true;
}

static void put_const(Imp *I, DataBuf *d, LLVMValueRef c, LLVMTypeRef t, uint64_t off) {
    if (LLVMIsUndef(c) || LLVMIsAConstantAggregateZero(c) || LLVMIsAConstantPointerNull(c))
        return; /* zeros: the padding before the next item gives them */
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (LLVMIsAConstantInt(c)) {
        unsigned bits = LLVMGetIntTypeWidth(t);
        unsigned bytes = (unsigned)LLVMStoreSizeOfType(I->td, t);
        if (bits <= 64) {
            put_int(I, d, off, LLVMConstIntGetZExtValue(c), bytes);
        } else if (bits <= IMP_MAX_WORDS * 64) {
            uint64_t w[IMP_MAX_WORDS];
            unsigned k = imp_const_words(c, w);
            for (unsigned i = 0; i < k; i++)
                put_int(I, d, off + 8 * i, w[i], i + 1 < k ? 8 : bytes - 8 * i);
        } else {
            imp_fail(I, "an i%u initializer is not supported", bits);
        }
        return;
    }
    if (LLVMIsAConstantFP(c)) {
        LLVMBool loses;
        double x = LLVMConstRealGetDouble(c, &loses);
        if (k == LLVMFloatTypeKind) {
            float f = (float)x;
            uint32_t b;
            memcpy(&b, &f, 4);
            put_int(I, d, off, b, 4);
        } else if (k == LLVMDoubleTypeKind) {
            uint64_t b;
            memcpy(&b, &x, 8);
            put_int(I, d, off, b, 8);
        } else if (k == LLVMX86_FP80TypeKind) {
            uint64_t lo, hi;
            imp_ldouble_const(I, c, &lo, &hi);
            put_int(I, d, off, lo, 8);
            put_int(I, d, off + 8, hi, 2);
        } else if (k == LLVMFP128TypeKind) {
            uint64_t lo, hi;
            imp_fp128_const(I, c, &lo, &hi);
            put_int(I, d, off, lo, 8);
            put_int(I, d, off + 8, hi, 8);
        } else {
            imp_fail(I, "this floating-point initializer type is not supported yet");
        }
        return;
    }
    if (LLVMIsAConstantDataSequential(c) && LLVMIsConstantString(c)) {
        size_t len = 0;
        const char *s = LLVMGetAsString(c, &len);
        pad_to(d, off);
        uint8_t *b = b3_arena_alloc(&I->m->arena, len ? len : 1);
        memcpy(b, s, len);
        B3DataItem it = {.kind = B3Data_Bytes};
        it.u.str.bytes = b;
        it.u.str.len = (uint32_t)len;
        if (len)
            item_push(d, it);
        d->off = off + len;
        return;
    }
    if (k == LLVMStructTypeKind || k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
        unsigned n = k == LLVMStructTypeKind  ? LLVMCountStructElementTypes(t)
                     : k == LLVMArrayTypeKind ? LLVMGetArrayLength(t)
                                              : LLVMGetVectorSize(t);
        LLVMTypeRef et = k == LLVMStructTypeKind ? NULL : LLVMGetElementType(t);
        uint64_t stride = et ? LLVMABISizeOfType(I->td, et) : 0;
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, i);
            if (!e)
                imp_fail(I, "an aggregate initializer could not be read");
            if (k == LLVMStructTypeKind)
                put_const(I, d, e, LLVMStructGetTypeAtIndex(t, i), off + LLVMOffsetOfElement(I->td, t, i));
            else
                put_const(I, d, e, et, off + i * stride);
        }
        return;
    }
    ConstAddr a;
    if (const_addr(I, c, &a)) {
        unsigned bytes = (unsigned)LLVMStoreSizeOfType(I->td, t);
        if (!a.sym) {
            put_int(I, d, off, (uint64_t)a.off, bytes);
            return;
        }
        if (bytes != 8 || off % 8)
            imp_fail(I, "an address in an initializer must be a pointer-sized, aligned field");
        pad_to(d, off);
        B3DataItem it = {.kind = B3Data_Addr};
        it.u.addr.sym = a.sym;
        it.u.addr.addend = a.off;
        item_push(d, it);
        d->off = off + 8;
        return;
    }
    imp_fail(I, "this constant initializer is not supported");
}

/* The data of a defined global variable from its initializer. */
static void define_data(Imp *I, LLVMValueRef g) {
    B3Symbol *s = imp_symbol(I, g);
    B3Data *data = s->def.data;
    LLVMTypeRef t = LLVMGlobalGetValueType(g);
    uint64_t size = LLVMABISizeOfType(I->td, t);
    DataBuf d = {0};
    LLVMValueRef init = LLVMGetInitializer(g);
    if (imp_reltable(g)) { /* kept as pointers (llvm_reltable.c) */
        unsigned n = LLVMGetArrayLength(t);
        LLVMTypeRef pt = LLVMPointerTypeInContext(LLVMGetModuleContext(I->mod), 0);
        for (unsigned i = 0; i < n; i++)
            put_const(I, &d, imp_reltable_target(g, i), pt, 8 * (uint64_t)i);
        size = 8 * (uint64_t)n;
    } else if (init) {
        put_const(I, &d, init, t, 0);
    }
    pad_to(&d, size);
    data->readonly = LLVMIsGlobalConstant(g);
    data->size = d.off;
    unsigned align = LLVMGetAlignment(g);
    if (!align)
        align = LLVMPreferredAlignmentOfGlobal(I->td, g);
    uint32_t natural = 1;
    for (uint32_t i = 0; i < d.n; i++) {
        unsigned a =
            d.a[i].kind == B3Data_Int16                                                                 ? 2
            : d.a[i].kind == B3Data_Int32 || d.a[i].kind == B3Data_Float                                ? 4
            : d.a[i].kind == B3Data_Int64 || d.a[i].kind == B3Data_Double || d.a[i].kind == B3Data_Addr ? 8
                                                                                                        : 1;
        if (a > natural)
            natural = a;
    }
    data->has_align = align > natural;
    data->align = align > natural ? align : natural;
    /* One line per run of items of one kind. */
    uint32_t nlines = 0;
    for (uint32_t i = 0; i < d.n; i++)
        if (i == 0 || d.a[i].kind != d.a[i - 1].kind)
            nlines++;
    data->lines = b3_arena_alloc(&I->m->arena, (nlines ? nlines : 1) * sizeof(B3DataLine));
    data->nlines = nlines;
    B3DataItem *items = b3_arena_alloc(&I->m->arena, (d.n ? d.n : 1) * sizeof(B3DataItem));
    if (d.n)
        memcpy(items, d.a, d.n * sizeof *items);
    uint32_t l = 0;
    for (uint32_t i = 0; i < d.n; i++) {
        if (i == 0 || d.a[i].kind != d.a[i - 1].kind) {
            data->lines[l].kind = d.a[i].kind;
            data->lines[l].items = &items[i];
            data->lines[l].nitems = 0;
            l++;
        }
        data->lines[l - 1].nitems++;
    }
    free(d.a);
}

/* define_data, or an error that stops only this global. */
static void define_data_guarded(Imp *I, LLVMValueRef g) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(g, &len);
    if ((len > 5 && !memcmp(name, "llvm.", 5)) || LLVMIsDeclaration(g) ||
        LLVMGetLinkage(g) == LLVMAvailableExternallyLinkage)
        return;
    I->inst = g; /* messages name the variable's line (its !dbg) */
    if (!setjmp(I->fail))
        define_data(I, g);
    I->inst = NULL;
}

/* ---- the module ------------------------------------------------------------ */

static char *bitcode_error;
static void diag_handler(LLVMDiagnosticInfoRef info, void *ctx) {
    (void)ctx;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError)
        return;
    char *s = LLVMGetDiagInfoDescription(info);
    if (!bitcode_error)
        bitcode_error = strdup(s);
    LLVMDisposeMessage(s);
}

/* LLVM's readers end the process on some inputs (a module with debug
 * info that its verifier rejects, while reading it: "Broken module found"),
 * by abort() unless a handler is installed.  The input's name, for it. */
static const char *fatal_input;
static bool fatal_bitcode; /* a function body's reading error comes here */
static void fatal_handler(const char *reason) {
    const char *what = fatal_bitcode ? "bitcode" : "IR";
    fprintf(stderr, "%s: error: invalid LLVM %s: %s\n", fatal_input ? fatal_input : "<input>", what, reason);
    exit(1); /* nothing is written yet: the output file is made after the import */
}

static bool parse_module(Imp *I);
static bool read_module(Imp *I) {
    fatal_input = I->o->input;
    fatal_bitcode = I->o->bitcode;
    LLVMInstallFatalErrorHandler(fatal_handler);
    bool ok = parse_module(I);
    LLVMResetFatalErrorHandler();
    return ok;
}

/* Bitcode is read lazily and every function body then materialized by a
 * function pass manager without passes.  Reading it whole
 * (LLVMParseBitcodeInContext2) ends in LLVM's UpgradeDebugInfo, which runs the
 * verifier over the module whenever it carries debug information: a seventh of
 * a -O0 compile of clang's -g output, for a check of what the compiler that
 * wrote the bitcode verified.  The bodies are all read before the import since
 * a global's initializer may name a function's block (blockaddress).  False
 * when the debug metadata is of another version than this LLVM's, which only
 * the whole-module read upgrades. */
static bool materialize_functions(Imp *I) {
    unsigned v = LLVMGetModuleDebugMetadataVersion(I->mod);
    if (v && v != LLVMDebugMetadataVersion())
        return false;
    LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(I->mod);
    for (LLVMValueRef f = LLVMGetFirstFunction(I->mod); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMRunFunctionPassManager(fpm, f); /* reading errors end in fatal_handler */
    LLVMDisposePassManager(fpm);
    return true;
}

static bool parse_module(Imp *I) {
    B3ImportOptions *o = I->o;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(o->src, o->len, o->input);
    if (o->bitcode) {
        LLVMContextSetDiagnosticHandler(I->ctx, diag_handler, NULL);
        /* The module takes the buffer; on an error LLVM leaves it to us. */
        bool bad = LLVMGetBitcodeModuleInContext2(I->ctx, buf, &I->mod);
        if (bad)
            LLVMDisposeMemoryBuffer(buf);
        else if (!materialize_functions(I)) {
            /* Debug metadata of another version: LLVM's whole-module read upgrades or drops it. */
            LLVMDisposeModule(I->mod);
            I->mod = NULL;
            buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(o->src, o->len, o->input);
            bad = LLVMParseBitcodeInContext2(I->ctx, buf, &I->mod);
            LLVMDisposeMemoryBuffer(buf);
        }
        if (bad) {
            fprintf(stderr, "%s: error: invalid LLVM bitcode: %s\n", o->input,
                    bitcode_error ? bitcode_error : "unreadable");
            free(bitcode_error);
            bitcode_error = NULL;
            return false;
        }
        return true;
    }
    char *msg = NULL;
    if (LLVMParseIRInContext(I->ctx, buf, &I->mod, &msg)) { /* (takes the buffer) */
        /* LLVM's message is FILE:LINE:COL: error: ..., the line and a caret. */
        fprintf(stderr, "%s\n", msg ? msg : "error: invalid LLVM IR");
        LLVMDisposeMessage(msg);
        return false;
    }
    return true;
}

/* The import trusts what LLVM's verifier checks (types, dominance,
 * terminators): a module that fails it is refused with its message.  Only
 * LLVM text is verified: bitcode was verified by the compiler that wrote it,
 * and the bitcode reader checks its structure and types (what it does not
 * check, dominance, the import and the B3 validator still reject; the
 * verifier is a tenth of a -O0 compile). */
static bool verify_module(Imp *I) {
    if (I->o->bitcode)
        return true;
    char *msg = NULL;
    if (!LLVMVerifyModule(I->mod, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    size_t n = msg ? strlen(msg) : 0;
    while (n && msg[n - 1] == '\n')
        msg[--n] = 0;
    fprintf(stderr, "%s: error: invalid LLVM IR: %s\n", I->o->input, msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
}

/* Does the module's triple name the target b3c compiles for? */
static bool target_matches(Imp *I) {
    const char *triple = LLVMGetTarget(I->mod);
    if (!triple || !*triple)
        return true;
    bool arm = !strncmp(triple, "aarch64", 7) || !strncmp(triple, "arm64", 5);
    bool x86 = !strncmp(triple, "x86_64", 6);
    bool apple = strstr(triple, "apple") != NULL;
    B3Target t = I->m->target;
    bool want_arm = t.arch == B3Arch_ARM64, want_apple = t.os == B3OS_MacOS;
    if ((arm || x86) && arm == want_arm && apple == want_apple)
        return true;
    fprintf(stderr, "%s: error: the module is for %s, not for the target %s (pass --target=)\n", I->o->input,
            triple, b3_target_name(t));
    return false;
}

/* Built with AddressSanitizer (gcc says so by a macro, clang by a feature):
 * LeakSanitizer checks the exit, so LLVM's module is freed even when the
 * caller would leave it (B3ImportOptions.leave_llvm). */
#if defined(__SANITIZE_ADDRESS__)
#define LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEAK_CHECKED 1
#endif
#endif
#ifndef LEAK_CHECKED
#define LEAK_CHECKED 0
#endif

static bool skip_global(Imp *I, LLVMValueRef g) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(g, &len);
    if (len > 5 && !memcmp(name, "llvm.", 5)) {
        if ((len == 9 && !memcmp(name, "llvm.used", 9)) ||
            (len == 22 && !memcmp(name, "llvm.compiler.used", 18)) || !memcmp(name, "llvm.compiler.used", 18))
            return true;
        if (imp_is_structors(name, len))
            return true; /* imp_structors, once the functions are declared */
        imp_error(I, "the special global '%.*s' is not supported yet", (int)len, name);
        return true;
    }
    return false;
}

bool b3_import_llvm(B3Module *m, B3ImportOptions *o) {
    Imp I = {.m = m, .o = o};
    I.ctx = LLVMContextCreate();
    I.desc = b3_target_desc(m->target);
    bool ok = read_module(&I) && verify_module(&I) && target_matches(&I);
    if (!ok) {
        if (I.mod)
            LLVMDisposeModule(I.mod);
        LLVMContextDispose(I.ctx);
        return false;
    }
    I.td = LLVMGetModuleDataLayout(I.mod);
    imp_map_init(&I.type_map, 64);
    imp_map_init(&I.sym_map, 256);
    static const char *const attrs[] = {"signext", "zeroext", "byval", "sret", "noreturn", "returns_twice"};
    unsigned *kinds[] = {&I.attr_signext, &I.attr_zeroext,  &I.attr_byval,
                         &I.attr_sret,    &I.attr_noreturn, &I.attr_returns_twice};
    for (unsigned i = 0; i < 6; i++)
        *kinds[i] = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));

    if (!setjmp(I.fail)) {
        size_t asm_len = 0;
        LLVMGetModuleInlineAsm(I.mod, &asm_len);
        if (asm_len)
            imp_error(&I, "module-level inline assembly is not supported");
        /* Symbols first (in the module's order), then data, then code. */
        for (LLVMValueRef g = LLVMGetFirstGlobal(I.mod); g; g = LLVMGetNextGlobal(g)) {
            if (skip_global(&I, g))
                continue;
            declare_global(&I, g, false);
            imp_tls_symbol(&I, g, imp_symbol(&I, g));
            imp_check_section(&I, g);
        }
        for (LLVMValueRef f = LLVMGetFirstFunction(I.mod); f; f = LLVMGetNextFunction(f))
            if (!LLVMGetIntrinsicID(f)) {
                declare_global(&I, f, true);
                imp_check_section(&I, f);
            }
        imp_structors(&I);
        imp_used(&I);
        imp_aliases(&I);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(I.mod); g; g = LLVMGetNextGlobal(g))
        define_data_guarded(&I, g);
    for (LLVMValueRef f = LLVMGetFirstFunction(I.mod); f; f = LLVMGetNextFunction(f)) {
        if (LLVMGetIntrinsicID(f) || LLVMIsDeclaration(f) ||
            LLVMGetLinkage(f) == LLVMAvailableExternallyLinkage)
            continue;
        if (!o->source_file) { /* the C file, with its directory when relative */
            unsigned flen = 0, dlen = 0;
            const char *file = LLVMGetDebugLocFilename(f, &flen);
            const char *dir = LLVMGetDebugLocDirectory(f, &dlen);
            if (file && flen) {
                bool rel = file[0] != '/' && dir && dlen;
                size_t n = (rel ? dlen + 1 : 0) + flen;
                char *c = b3_arena_alloc(&m->arena, n + 1);
                snprintf(c, n + 1, "%.*s%s%.*s", rel ? (int)dlen : 0, rel ? dir : "", rel ? "/" : "",
                         (int)flen, file);
                o->source_file = c;
            }
        }
        imp_function(&I, f, imp_symbol(&I, f));
    }
    imp_map_free(&I.type_map);
    imp_map_free(&I.sym_map);
    free(I.types);
    free(I.syms);
    if (!o->leave_llvm || LEAK_CHECKED) {
        LLVMDisposeModule(I.mod);
        LLVMContextDispose(I.ctx);
    }
    return I.errors == 0;
}
