/* The LLVM-IR front end's fp128: C's long double on arm64 Linux (AAPCS64,
 * IEEE binary128), and __float128.  A value is two Int64 parts, the low and
 * high 64 bits (llvm_internal.h), so loads, stores, phis, selects and
 * aggregates are those of integers; the arithmetic, comparisons and
 * conversions are calls of libgcc's soft-float routines, the value passed
 * whole in a q register as a Float128 pair (docs/c-extensions.md, "Long
 * double on arm64 Linux"): `@lo:Float128, @hi` arguments, `float128 = 1`
 * results.  The sign is bit 63 of the high part. */
#include <stdio.h>
#include <string.h>

#include "import/llvm_internal.h"

bool imp_is_fp128(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMFP128TypeKind; }

/* The fp128 members of a type made only of them (an AAPCS64 homogeneous
 * aggregate: 1 for an fp128 itself); 0 if it has anything else. */
static unsigned members(LLVMTypeRef t) {
    switch (LLVMGetTypeKind(t)) {
    case LLVMFP128TypeKind:
        return 1;
    case LLVMArrayTypeKind: {
        unsigned e = members(LLVMGetElementType(t));
        return e * LLVMGetArrayLength(t);
    }
    case LLVMStructTypeKind: {
        unsigned n = 0, k = LLVMCountStructElementTypes(t);
        for (unsigned i = 0; i < k; i++) {
            unsigned e = members(LLVMStructGetTypeAtIndex(t, i));
            if (!e)
                return 0;
            n += e;
        }
        return n;
    }
    default:
        return 0;
    }
}

static bool has_fp128(LLVMTypeRef t) {
    switch (LLVMGetTypeKind(t)) {
    case LLVMFP128TypeKind:
        return true;
    case LLVMArrayTypeKind:
    case LLVMVectorTypeKind:
        return has_fp128(LLVMGetElementType(t));
    case LLVMStructTypeKind:
        for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++)
            if (has_fp128(LLVMStructGetTypeAtIndex(t, i)))
                return true;
        return false;
    default:
        return false;
    }
}

unsigned imp_fp128_arg_members(Imp *I, LLVMTypeRef t, unsigned nfp) {
    if (!has_fp128(t))
        return 0;
    unsigned n = members(t);
    if (!n || n > 4)
        imp_fail(I, "a long double in an aggregate passed by value is not supported (only up to four long "
                    "doubles alone)");
    if (n > 1 && nfp + n > I->desc->narg_fprs)
        return 0; /* in memory whole (imp_arg_place) */
    return n;
}

unsigned imp_fp128_hfa(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if ((k != LLVMArrayTypeKind && k != LLVMStructTypeKind) || !has_fp128(t))
        return 0;
    unsigned n = members(t);
    return n >= 2 && n <= 4 ? n : 0;
}

unsigned imp_fp128_result(Imp *I, LLVMTypeRef t) {
    if (!has_fp128(t))
        return 0;
    unsigned n = members(t);
    if (n != 1 && n != 2)
        imp_fail(I, "a result of three or four long doubles (q0-q3) or of a long double and other values is "
                    "not supported");
    return n;
}

/* ---- constants --------------------------------------------------------------- */

void imp_fp128_const(Imp *I, LLVMValueRef c, uint64_t *lo, uint64_t *hi) {
    /* The C API gives a constant only as a double: its exact bits are in the
     * printed form, 0xL followed by 32 hex digits, the low word first. */
    char *s = LLVMPrintValueToString(c);
    const char *k = strstr(s, "0xL");
    char digits[33] = {0};
    bool ok = k && strlen(k + 3) >= 32;
    if (ok)
        memcpy(digits, k + 3, 32);
    LLVMDisposeMessage(s);
    if (!ok)
        imp_fail(I, "an fp128 constant could not be read");
    uint64_t w[2] = {0, 0};
    for (unsigned i = 0; i < 32; i++) {
        char ch = digits[i];
        unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') : (unsigned)((ch | 32) - 'a' + 10);
        w[i / 16] = w[i / 16] << 4 | d;
    }
    *lo = w[0];
    *hi = w[1];
}

static ImpVals parts(Imp *I, B3Value *lo, B3Value *hi) {
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = lo;
    r.v[1] = hi;
    return r;
}

ImpVals imp_fp128_const_parts(Imp *I, LLVMValueRef c) {
    uint64_t lo, hi;
    imp_fp128_const(I, c, &lo, &hi);
    return parts(I, imp_const(I, B3_Int64, (int64_t)lo), imp_const(I, B3_Int64, (int64_t)hi));
}

/* ---- calls -------------------------------------------------------------------- */

/* Marks the CCall's children k, k + 1 as a Float128 pair. */
static void mark_pair(Imp *I, B3Value *call, uint32_t k) {
    B3CCallExtra *x = call->m.ccall.extra;
    if (!x) {
        x = b3_arena_alloc(&I->m->arena, sizeof *x);
        memset(x, 0, sizeof *x);
        call->m.ccall.extra = x;
    }
    if (!x->byval) {
        x->byval = b3_arena_alloc(&I->m->arena, call->nkids * sizeof *x->byval);
        memset(x->byval, 0, call->nkids * sizeof *x->byval);
    }
    x->byval[k].f128 = B3F128_Low;
    x->byval[k + 1].f128 = B3F128_High;
}

ImpVals imp_fp128_call_result(Imp *I, B3Value *call, unsigned npairs) {
    B3CCallExtra *x = call->m.ccall.extra;
    if (!x) {
        x = b3_arena_alloc(&I->m->arena, sizeof *x);
        memset(x, 0, sizeof *x);
        call->m.ccall.extra = x;
    }
    x->float128 = true;
    ImpVals r = parts(I, call, imp_emit(I, B3_SecondResult, B3_Int64, 1, call, NULL, NULL));
    if (npairs < 2)
        return r;
    /* The second pair (q1): Result index = 2 and 3. */
    ImpVals q = imp_vals_new(I, 4);
    q.v[0] = r.v[0];
    q.v[1] = r.v[1];
    for (unsigned i = 2; i < 4; i++) {
        q.v[i] = imp_emit(I, B3_Result, B3_Int64, 1, call, NULL, NULL);
        q.v[i]->m.result_index = i;
    }
    return q;
}

/* A call of a runtime function: n fp128 arguments first (each a pair),
 * then `extra` other children; an fp128 result (rt Void) or one of rt. */
static B3Value *rt_call(Imp *I, const char *name, B3Type rt, unsigned n, const ImpVals *a, unsigned nextra,
                        B3Value **extra, ImpVals *res) {
    B3Value *kids[8];
    uint32_t k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (a[i].n != 2)
            imp_fail(I, "an fp128 of %u parts", a[i].n);
        kids[k++] = a[i].v[0];
        kids[k++] = a[i].v[1];
    }
    for (unsigned i = 0; i < nextra; i++)
        kids[k++] = extra[i];
    B3Value *call = imp_call_named(I, name, rt == B3_Void ? B3_Int64 : rt, k, kids);
    for (unsigned i = 0; i < n; i++)
        mark_pair(I, call, 1 + 2 * i);
    if (rt == B3_Void)
        *res = imp_fp128_call_result(I, call, 1);
    return call;
}

static ImpVals call_f(Imp *I, const char *name, unsigned n, const ImpVals *a) {
    ImpVals r;
    rt_call(I, name, B3_Void, n, a, 0, NULL, &r);
    return r;
}

/* ---- parameters and return ------------------------------------------------------- */

ImpVals imp_fp128_param(Imp *I, B3Reg where, uint32_t stack_off) {
    if (where == B3_NO_REG) {
        B3Value *fp = imp_emit(I, B3_FramePointer, B3_Int64, 0, NULL, NULL, NULL);
        B3Value *lo = imp_emit(I, B3_Load, B3_Int64, 1, fp, NULL, NULL);
        lo->m.mem.offset = 16 + (int32_t)stack_off;
        B3Value *hi = imp_emit(I, B3_Load, B3_Int64, 1, fp, NULL, NULL);
        hi->m.mem.offset = 24 + (int32_t)stack_off;
        return parts(I, lo, hi);
    }
    B3Value *d = imp_emit(I, B3_ArgumentReg, B3_Double, 0, NULL, NULL, NULL);
    d->m.reg = where;
    B3Value *hi = imp_emit(I, B3_ArgumentRegHigh, B3_Int64, 0, NULL, NULL, NULL);
    hi->m.reg = where;
    return parts(I, imp_op1(I, B3_BitwiseCast, B3_Int64, d), hi);
}

void imp_fp128_return(Imp *I, ImpVals v) {
    if (v.n != 2 && v.n != 4)
        imp_fail(I, "an fp128 result of %u parts", v.n);
    B3Value *r = b3_value_new(I->m, I->p, B3_Return, B3_Void, v.n, UINT32_MAX);
    for (uint32_t i = 0; i < v.n; i++)
        r->kids[i] = v.v[i];
    r->loc = r->type_loc = I->loc;
    b3_block_append(I->m, I->cur, r);
    r->m.float128 = true;
}

/* ---- operations ------------------------------------------------------------------- */

static ImpVals with_high(Imp *I, ImpVals a, B3Value *hi) { return parts(I, a.v[0], hi); }
static B3Value *k64(Imp *I, uint64_t x) { return imp_const(I, B3_Int64, (int64_t)x); }
static ImpVals negate(Imp *I, ImpVals a) {
    return with_high(I, a, imp_op2(I, B3_BitXor, a.v[1], k64(I, 1ull << 63)));
}
static ImpVals absolute(Imp *I, ImpVals a) {
    return with_high(I, a, imp_op2(I, B3_BitAnd, a.v[1], k64(I, ~(1ull << 63))));
}
static ImpVals copysign_of(Imp *I, ImpVals a, ImpVals b) {
    B3Value *mag = imp_op2(I, B3_BitAnd, a.v[1], k64(I, ~(1ull << 63)));
    B3Value *sign = imp_op2(I, B3_BitAnd, b.v[1], k64(I, 1ull << 63));
    return with_high(I, a, imp_op2(I, B3_BitOr, mag, sign));
}

/* fcmp: libgcc's comparison routine and how its int result compares with
 * 0; unordered operands make __lttf2/__letf2 return 1, __gttf2/__getf2 -1,
 * __eqtf2/__netf2 nonzero, __unordtf2 nonzero.  one and ueq are two calls
 * (ordered and unequal; unordered or equal). */
static const struct {
    const char *fn;
    uint16_t cmp; /* B3 opcode against 0 */
} fcmp_table[] = {
    [LLVMRealOEQ] = {"__eqtf2", B3_Equal},        [LLVMRealOGT] = {"__gttf2", B3_GreaterThan},
    [LLVMRealOGE] = {"__getf2", B3_GreaterEqual}, [LLVMRealOLT] = {"__lttf2", B3_LessThan},
    [LLVMRealOLE] = {"__letf2", B3_LessEqual},    [LLVMRealORD] = {"__unordtf2", B3_Equal},
    [LLVMRealUNO] = {"__unordtf2", B3_NotEqual},  [LLVMRealUGT] = {"__letf2", B3_GreaterThan},
    [LLVMRealUGE] = {"__lttf2", B3_GreaterEqual}, [LLVMRealULT] = {"__getf2", B3_LessThan},
    [LLVMRealULE] = {"__gttf2", B3_LessEqual},    [LLVMRealUNE] = {"__netf2", B3_NotEqual},
};

static B3Value *compare(Imp *I, const char *fn, B3Opcode cmp, ImpVals a, ImpVals b) {
    ImpVals ab[2] = {a, b};
    B3Value *r = rt_call(I, fn, B3_Int32, 2, ab, 0, NULL, NULL);
    return imp_emit(I, cmp, B3_Int32, 2, r, imp_const(I, B3_Int32, 0), NULL);
}

static B3Value *fcmp(Imp *I, LLVMRealPredicate p, ImpVals a, ImpVals b) {
    if (p == LLVMRealPredicateFalse || p == LLVMRealPredicateTrue)
        return imp_const(I, B3_Int32, p == LLVMRealPredicateTrue);
    if (p == LLVMRealONE || p == LLVMRealUEQ) {
        bool one = p == LLVMRealONE;
        B3Value *ord = compare(I, "__unordtf2", one ? B3_Equal : B3_NotEqual, a, b);
        B3Value *ne = compare(I, "__eqtf2", one ? B3_NotEqual : B3_Equal, a, b);
        return imp_op2(I, one ? B3_BitAnd : B3_BitOr, ord, ne);
    }
    return compare(I, fcmp_table[p].fn, (B3Opcode)fcmp_table[p].cmp, a, b);
}

/* An integer of `bits` bits (the low bits of x) to fp128. */
static ImpVals int_to_f128(Imp *I, ImpVals x, unsigned bits, bool sign) {
    ImpVals r;
    if (bits > 128)
        imp_fail(I, "converting an i%u to long double is not supported", bits);
    if (bits > 64) {
        ImpVals w = imp_wide_ext(I, x, bits, sign);
        rt_call(I, sign ? "__floattitf" : "__floatuntitf", B3_Void, 0, NULL, 2, w.v, &r);
        return r;
    }
    B3Value *v = x.v[0];
    if (bits <= 32) {
        v = sign ? imp_sext_bits(I, imp_to32(I, v), bits) : imp_zext_bits(I, imp_to32(I, v), bits);
        rt_call(I, sign || bits < 32 ? "__floatsitf" : "__floatunsitf", B3_Void, 0, NULL, 1, &v, &r);
    } else {
        v = sign ? imp_sext_bits(I, imp_to64(I, v, true), bits)
                 : imp_zext_bits(I, imp_to64(I, v, false), bits);
        rt_call(I, sign || bits < 64 ? "__floatditf" : "__floatunditf", B3_Void, 0, NULL, 1, &v, &r);
    }
    return r;
}

/* fp128 to an integer of `bits` bits (truncated toward zero). */
static ImpVals f128_to_int(Imp *I, ImpVals a, unsigned bits, bool sign) {
    if (bits > 128)
        imp_fail(I, "converting a long double to i%u is not supported", bits);
    ImpVals r;
    if (bits > 64) {
        B3Value *lo = rt_call(I, sign ? "__fixtfti" : "__fixunstfti", B3_Int64, 1, &a, 0, NULL, NULL);
        return parts(I, lo, imp_emit(I, B3_SecondResult, B3_Int64, 1, lo, NULL, NULL));
    }
    r = imp_vals_new(I, 1);
    if (bits <= 32)
        r.v[0] = rt_call(I, sign || bits < 32 ? "__fixtfsi" : "__fixunstfsi", B3_Int32, 1, &a, 0, NULL, NULL);
    else
        r.v[0] = rt_call(I, sign || bits < 64 ? "__fixtfdi" : "__fixunstfdi", B3_Int64, 1, &a, 0, NULL, NULL);
    return r;
}

static ImpVals one_val(Imp *I, B3Value *v) {
    ImpVals r = imp_vals_new(I, 1);
    r.v[0] = v;
    return r;
}

bool imp_fp128_inst(Imp *I, LLVMValueRef v, LLVMOpcode op, ImpVals *out) {
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef x = LLVMGetNumOperands(v) ? LLVMGetOperand(v, 0) : NULL;
    bool res = imp_is_fp128(t), arg = x && imp_is_fp128(LLVMTypeOf(x));
    if (!res && !arg)
        return false;
    switch (op) {
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv:
    case LLVMFRem: {
        static const char *const fns[] = {[LLVMFAdd] = "__addtf3",
                                          [LLVMFSub] = "__subtf3",
                                          [LLVMFMul] = "__multf3",
                                          [LLVMFDiv] = "__divtf3",
                                          [LLVMFRem] = "fmodl"};
        ImpVals ab[2] = {imp_operand(I, x), imp_operand(I, LLVMGetOperand(v, 1))};
        *out = call_f(I, fns[op], 2, ab);
        return true;
    }
    case LLVMFNeg:
        *out = negate(I, imp_operand(I, x));
        return true;
    case LLVMFCmp:
        *out = one_val(
            I, fcmp(I, LLVMGetFCmpPredicate(v), imp_operand(I, x), imp_operand(I, LLVMGetOperand(v, 1))));
        return true;
    case LLVMFPExt: {
        B3Value *s = imp_scalar(I, x);
        rt_call(I, s->type == B3_Float ? "__extendsftf2" : "__extenddftf2", B3_Void, 0, NULL, 1, &s, out);
        return true;
    }
    case LLVMFPTrunc: {
        bool f = LLVMGetTypeKind(t) == LLVMFloatTypeKind;
        if (!f && LLVMGetTypeKind(t) != LLVMDoubleTypeKind)
            return false;
        ImpVals a = imp_operand(I, x);
        *out = one_val(I, rt_call(I, f ? "__trunctfsf2" : "__trunctfdf2", f ? B3_Float : B3_Double, 1, &a, 0,
                                  NULL, NULL));
        return true;
    }
    case LLVMSIToFP:
    case LLVMUIToFP:
        if (!res)
            return false;
        *out = int_to_f128(I, imp_operand(I, x), imp_int_bits(LLVMTypeOf(x)), op == LLVMSIToFP);
        return true;
    case LLVMFPToSI:
    case LLVMFPToUI:
        *out = f128_to_int(I, imp_operand(I, x), imp_int_bits(t), op == LLVMFPToSI);
        return true;
    case LLVMBitCast: { /* to or from i128: the same two words */
        ImpVals a = imp_operand(I, x);
        if (a.n != 2)
            return false;
        *out = a;
        return true;
    }
    default:
        return false;
    }
}

/* ---- intrinsics ------------------------------------------------------------------- */

bool imp_fp128_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out) {
    if (len < 11 || memcmp(name + len - 5, ".f128", 5) || memcmp(name, "llvm.", 5))
        return false;
    const char *base = name + 5;
    size_t blen = len - 10;
    unsigned n = LLVMGetNumArgOperands(call);
    ImpVals a[3];
    for (unsigned i = 0; i < n && i < 3; i++)
        a[i] = imp_operand(I, LLVMGetOperand(call, i));
#define IS(s) (blen == sizeof s - 1 && !memcmp(base, s, blen))
    if (IS("fabs") && n == 1) {
        *out = absolute(I, a[0]);
        return true;
    }
    if (IS("copysign") && n == 2) {
        *out = copysign_of(I, a[0], a[1]);
        return true;
    }
    if (IS("fmuladd") && n == 3) { /* as gcc: a multiplication, then an addition */
        ImpVals m[2] = {call_f(I, "__multf3", 2, a), a[2]};
        *out = call_f(I, "__addtf3", 2, m);
        return true;
    }
    const char *fn = imp_long_double_libm(base, blen, n);
    if (fn) {
        *out = call_f(I, fn, n, a);
        return true;
    }
#undef IS
    return false;
}
