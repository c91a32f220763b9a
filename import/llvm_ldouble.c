/* The LLVM-IR front end's long double: x86_fp80 on x86-64 (llvm_internal.h
 * says how its values are kept; docs/c-extensions.md, "Long double on
 * x86-64", the X87 opcode).  An operation stores its operands' parts in
 * the function's scratch slots, runs the X87 value on their addresses and
 * loads the result's parts back; B3 sees only memory, integers and the X87
 * values, which it never folds, so every result is the x87 unit's, as gcc
 * computes it at run time (clang folds constant expressions exactly in the
 * IR already). */
#include <stdio.h>
#include <string.h>

#include "import/llvm_internal.h"
#include "ir/x87.h"

bool imp_is_x87(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMX86_FP80TypeKind; }

/* ---- slots ------------------------------------------------------------------ */

static B3StackSlot *new_slot(Imp *I) { return imp_new_slot(I, "ld", 16, 16); }

static B3Value *slot_base(Imp *I, B3StackSlot *s) {
    B3Value *b = imp_emit(I, B3_SlotBase, B3_Int64, 0, NULL, NULL, NULL);
    b->m.slot = s;
    return b;
}

/* Scratch slot k (0: results, 1 and 2: operands) of the function. */
static B3Value *scratch(Imp *I, unsigned k) {
    if (!I->ld_scratch[k])
        I->ld_scratch[k] = new_slot(I);
    return slot_base(I, I->ld_scratch[k]);
}

static void store_parts(Imp *I, ImpVals v, B3Value *at) {
    if (v.n != 2)
        imp_fail(I, "a long double of %u parts", v.n);
    B3Value *lo = imp_emit(I, B3_Store, B3_Void, 2, v.v[0], at, NULL);
    lo->m.mem.offset = 0;
    B3Value *hi = imp_emit(I, B3_Store16, B3_Void, 2, imp_to32(I, v.v[1]), at, NULL);
    hi->m.mem.offset = 8;
}

ImpVals imp_ldouble_load(Imp *I, B3Value *addr, int64_t off) {
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = imp_emit(I, B3_Load, B3_Int64, 1, addr, NULL, NULL);
    r.v[0]->m.mem.offset = (int32_t)off;
    r.v[1] = imp_emit(I, B3_Load16Z, B3_Int32, 1, addr, NULL, NULL);
    r.v[1]->m.mem.offset = (int32_t)off + 8;
    return r;
}

/* v in scratch slot k; its address. */
static B3Value *put(Imp *I, unsigned k, ImpVals v) {
    B3Value *at = scratch(I, k);
    store_parts(I, v, at);
    return at;
}

B3Value *imp_ldouble_arg(Imp *I, ImpVals v) {
    B3Value *at = slot_base(I, new_slot(I));
    store_parts(I, v, at);
    return at;
}

static B3Value *x87(Imp *I, B3X87Op op, B3Value *a, B3Value *b, B3Value *c) {
    const B3X87Info *x = &b3_x87_info[op];
    B3Value *v = imp_emit(I, B3_X87, (B3Type)x->result, x->nkids, a, b, c);
    v->m.x87 = (uint8_t)op;
    return v;
}

/* ---- constants ---------------------------------------------------------------- */

void imp_ldouble_const(Imp *I, LLVMValueRef c, uint64_t *lo, uint64_t *hi) {
    /* The C API gives a constant only as a double: its exact bits are in
     * the printed form, 0xK followed by 20 hex digits (sign and exponent,
     * then the significand). */
    char *s = LLVMPrintValueToString(c);
    const char *k = strstr(s, "0xK");
    char digits[21] = {0};
    bool ok = k && strlen(k + 3) >= 20;
    if (ok)
        memcpy(digits, k + 3, 20);
    LLVMDisposeMessage(s);
    if (!ok)
        imp_fail(I, "a long double constant could not be read");
    uint64_t h = 0, l = 0;
    for (unsigned i = 0; i < 20; i++) {
        char ch = digits[i];
        unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') : (unsigned)((ch | 32) - 'a' + 10);
        if (i < 4)
            h = h << 4 | d;
        else
            l = l << 4 | d;
    }
    *lo = l;
    *hi = h;
}

static ImpVals parts_of(Imp *I, uint64_t lo, uint64_t hi) {
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = imp_const(I, B3_Int64, (int64_t)lo);
    r.v[1] = imp_const(I, B3_Int32, (int32_t)hi);
    return r;
}

ImpVals imp_ldouble_const_parts(Imp *I, LLVMValueRef c) {
    uint64_t lo, hi;
    imp_ldouble_const(I, c, &lo, &hi);
    return parts_of(I, lo, hi);
}

/* 2^63 and 2^64 (unsigned 64-bit conversions). */
static ImpVals two_to(Imp *I, unsigned e) { return parts_of(I, 1ull << 63, 0x3FFF + e); }

/* ---- operations ------------------------------------------------------------------ */

static ImpVals binary(Imp *I, B3X87Op op, ImpVals a, ImpVals b) {
    B3Value *pa = put(I, 1, a), *pb = put(I, 2, b), *d = scratch(I, 0);
    x87(I, op, d, pa, pb);
    return imp_ldouble_load(I, d, 0);
}

static B3Value *compare(Imp *I, B3X87Op op, ImpVals a, ImpVals b) {
    B3Value *pa = put(I, 1, a), *pb = put(I, 2, b);
    return x87(I, op, pa, pb, NULL);
}

/* A B3 value of type t converted by op (fromi32/fromi64/fromfloat/fromdouble). */
static ImpVals from(Imp *I, B3X87Op op, B3Value *x) {
    B3Value *pa = scratch(I, 1), *d = scratch(I, 0);
    B3Value *st = imp_emit(I, B3_Store, B3_Void, 2, x, pa, NULL);
    st->m.mem.offset = 0;
    x87(I, op, d, pa, NULL);
    return imp_ldouble_load(I, d, 0);
}

/* a converted by op (toi64/tofloat/todouble) to a B3 value of type t. */
static B3Value *to(Imp *I, B3X87Op op, ImpVals a, B3Type t) {
    B3Value *pa = put(I, 1, a), *d = scratch(I, 0);
    x87(I, op, d, pa, NULL);
    B3Value *r = imp_emit(I, B3_Load, t, 1, d, NULL, NULL);
    r->m.mem.offset = 0;
    return r;
}

static ImpVals select_parts(Imp *I, B3Value *c, ImpVals a, ImpVals b) {
    ImpVals r = imp_vals_new(I, 2);
    for (unsigned i = 0; i < 2; i++)
        r.v[i] = imp_emit(I, B3_Select, (B3Type)a.v[i]->type, 3, c, a.v[i], b.v[i]);
    return r;
}

/* The sign bit is bit 15 of the high part. */
static ImpVals with_high(Imp *I, ImpVals a, B3Value *hi) {
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = a.v[0];
    r.v[1] = hi;
    return r;
}
static ImpVals negate(Imp *I, ImpVals a) {
    return with_high(I, a, imp_op2(I, B3_BitXor, imp_to32(I, a.v[1]), imp_const(I, B3_Int32, 0x8000)));
}
static ImpVals absolute(Imp *I, ImpVals a) {
    return with_high(I, a, imp_op2(I, B3_BitAnd, imp_to32(I, a.v[1]), imp_const(I, B3_Int32, 0x7FFF)));
}
static ImpVals copysign_of(Imp *I, ImpVals a, ImpVals b) {
    B3Value *mag = imp_op2(I, B3_BitAnd, imp_to32(I, a.v[1]), imp_const(I, B3_Int32, 0x7FFF));
    B3Value *sign = imp_op2(I, B3_BitAnd, imp_to32(I, b.v[1]), imp_const(I, B3_Int32, 0x8000));
    return with_high(I, a, imp_op2(I, B3_BitOr, mag, sign));
}

/* fcmp: each predicate as one X87 comparison (operands swapped or not), or
 * two combined (oeq: ordered and equal; une: unordered or unequal). */
static const struct {
    uint8_t op, swap, op2, combine; /* combine: 0 none, 1 and, 2 or */
} fcmp_table[] = {
    [LLVMRealOEQ] = {B3X87_UEq, 0, B3X87_Ord, 1}, [LLVMRealOGT] = {B3X87_Gt, 0, 0, 0},
    [LLVMRealOGE] = {B3X87_Ge, 0, 0, 0},          [LLVMRealOLT] = {B3X87_Gt, 1, 0, 0},
    [LLVMRealOLE] = {B3X87_Ge, 1, 0, 0},          [LLVMRealONE] = {B3X87_One, 0, 0, 0},
    [LLVMRealORD] = {B3X87_Ord, 0, 0, 0},         [LLVMRealUNO] = {B3X87_Uno, 0, 0, 0},
    [LLVMRealUEQ] = {B3X87_UEq, 0, 0, 0},         [LLVMRealUGT] = {B3X87_ULt, 1, 0, 0},
    [LLVMRealUGE] = {B3X87_ULe, 1, 0, 0},         [LLVMRealULT] = {B3X87_ULt, 0, 0, 0},
    [LLVMRealULE] = {B3X87_ULe, 0, 0, 0},         [LLVMRealUNE] = {B3X87_One, 0, B3X87_Uno, 2},
};

static B3Value *fcmp(Imp *I, LLVMRealPredicate p, ImpVals a, ImpVals b) {
    if (p == LLVMRealPredicateFalse || p == LLVMRealPredicateTrue)
        return imp_const(I, B3_Int32, p == LLVMRealPredicateTrue);
    B3Value *r = fcmp_table[p].swap ? compare(I, fcmp_table[p].op, b, a) : compare(I, fcmp_table[p].op, a, b);
    if (fcmp_table[p].combine) {
        B3Value *r2 = compare(I, fcmp_table[p].op2, a, b);
        r = imp_op2(I, fcmp_table[p].combine == 1 ? B3_BitAnd : B3_BitOr, r, r2);
    }
    return r;
}

/* An integer of 65 to 128 bits to long double: libgcc's __floattixf or
 * __floatuntixf (the i128 in two registers, the result in st(0)). */
static ImpVals wide_to_ld(Imp *I, ImpVals x, unsigned bits, bool sign) {
    if (bits > 128)
        imp_fail(I, "converting an i%u to long double is not supported", bits);
    ImpVals w = imp_wide_ext(I, x, bits, sign);
    B3Value *d = scratch(I, 0);
    imp_call_named(I, sign ? "__floattixf" : "__floatuntixf", B3_Void, 2, w.v);
    return imp_ldouble_call_result(I, d);
}

/* Long double to an integer of 65 to 128 bits (truncated toward zero):
 * libgcc's __fixxfti or __fixunsxfti (the argument in memory, the result
 * in two registers). */
static ImpVals ld_to_wide(Imp *I, ImpVals a, unsigned bits, bool sign) {
    if (bits > 128)
        imp_fail(I, "converting a long double to i%u is not supported", bits);
    B3Value *at = imp_ldouble_arg(I, a);
    B3Value *lo = imp_call_named(I, sign ? "__fixxfti" : "__fixunsxfti", B3_Int64, 1, &at);
    B3CCallExtra *x = b3_arena_alloc(&I->m->arena, sizeof *x);
    memset(x, 0, sizeof *x);
    x->byval = b3_arena_alloc(&I->m->arena, 2 * sizeof *x->byval);
    memset(x->byval, 0, 2 * sizeof *x->byval);
    x->byval[1] = (B3ByVal){16, 16, 0};
    lo->m.ccall.extra = x;
    ImpVals r = imp_vals_new(I, 2);
    r.v[0] = lo;
    r.v[1] = imp_emit(I, B3_SecondResult, B3_Int64, 1, lo, NULL, NULL);
    return r;
}

/* An integer of `bits` bits (the low bits of x) to long double. */
static ImpVals int_to_ld(Imp *I, B3Value *x, unsigned bits, bool sign) {
    if (bits > 64)
        imp_fail(I, "converting an i%u to long double is not supported", bits);
    if (bits < 32 || (bits == 32 && sign))
        return from(I, B3X87_FromI32,
                    sign ? imp_sext_bits(I, imp_to32(I, x), bits) : imp_zext_bits(I, imp_to32(I, x), bits));
    if (bits < 64 || sign)
        return from(I, B3X87_FromI64,
                    sign ? imp_sext_bits(I, imp_to64(I, x, true), bits)
                         : imp_zext_bits(I, imp_to64(I, x, false), bits));
    /* A uint64 with the top bit set reads as x - 2^64: add 2^64 back. */
    ImpVals y = from(I, B3X87_FromI64, x);
    ImpVals z = binary(I, B3X87_Add, y, two_to(I, 64));
    B3Value *neg = imp_emit(I, B3_LessThan, B3_Int32, 2, x, imp_const(I, B3_Int64, 0), NULL);
    return select_parts(I, neg, z, y);
}

/* Long double to an integer of `bits` bits (truncated toward zero). */
static B3Value *ld_to_int(Imp *I, ImpVals a, unsigned bits, bool sign) {
    if (bits > 64)
        imp_fail(I, "converting a long double to i%u is not supported", bits);
    B3Value *r;
    if (bits < 64 || sign) {
        r = to(I, B3X87_ToI64, a, B3_Int64);
    } else {
        /* At or above 2^63: convert x - 2^63 and set the top bit. */
        ImpVals big = two_to(I, 63);
        B3Value *ge = compare(I, B3X87_Ge, a, big);
        B3Value *low = to(I, B3X87_ToI64, a, B3_Int64);
        B3Value *high = to(I, B3X87_ToI64, binary(I, B3X87_Sub, a, two_to(I, 63)), B3_Int64);
        high = imp_op2(I, B3_BitXor, high, imp_const(I, B3_Int64, INT64_MIN));
        r = imp_emit(I, B3_Select, B3_Int64, 3, ge, high, low);
    }
    return bits <= 32 ? imp_to32(I, r) : r;
}

static ImpVals one_val(Imp *I, B3Value *v) {
    ImpVals r = imp_vals_new(I, 1);
    r.v[0] = v;
    return r;
}

/* A call to a libm (or libc) function of long double arguments and result. */
static ImpVals ld_call(Imp *I, const char *name, unsigned n, ImpVals *args) {
    B3Value *addr[3];
    for (unsigned i = 0; i < n; i++)
        addr[i] = imp_ldouble_arg(I, args[i]);
    B3Value *d = scratch(I, 0);
    B3Value *call = imp_call_named(I, name, B3_Void, n, addr);
    B3CCallExtra *x = b3_arena_alloc(&I->m->arena, sizeof *x);
    memset(x, 0, sizeof *x);
    x->byval = b3_arena_alloc(&I->m->arena, (n + 1) * sizeof *x->byval);
    memset(x->byval, 0, (n + 1) * sizeof *x->byval);
    for (unsigned i = 0; i < n; i++)
        x->byval[i + 1] = (B3ByVal){16, 16, 0};
    call->m.ccall.extra = x;
    return imp_ldouble_call_result(I, d);
}

B3Value *imp_ldouble_result_slot(Imp *I) { return scratch(I, 0); }

ImpVals imp_ldouble_call_result(Imp *I, B3Value *slot) {
    x87(I, B3X87_Result, slot, NULL, NULL);
    return imp_ldouble_load(I, slot, 0);
}

void imp_ldouble_return(Imp *I, ImpVals v) {
    B3Value *at = put(I, 1, v);
    x87(I, B3X87_Ret, at, NULL, NULL);
    imp_emit(I, B3_Return, B3_Void, 0, NULL, NULL, NULL);
}

bool imp_is_x87_pair(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMStructTypeKind && LLVMCountStructElementTypes(t) == 2 &&
           imp_is_x87(LLVMStructGetTypeAtIndex(t, 0)) && imp_is_x87(LLVMStructGetTypeAtIndex(t, 1));
}

/* A pair's four parts: the real part's two, then the imaginary part's. */
static ImpVals pair_parts(Imp *I, ImpVals re, ImpVals im) {
    ImpVals r = imp_vals_new(I, 4);
    r.v[0] = re.v[0];
    r.v[1] = re.v[1];
    r.v[2] = im.v[0];
    r.v[3] = im.v[1];
    return r;
}

ImpVals imp_ldouble_pair_call_result(Imp *I, B3Value *slot) {
    B3Value *im = scratch(I, 3);
    x87(I, B3X87_Result2, slot, im, NULL);
    return pair_parts(I, imp_ldouble_load(I, slot, 0), imp_ldouble_load(I, im, 0));
}

void imp_ldouble_pair_return(Imp *I, ImpVals v) {
    if (v.n != 4)
        imp_fail(I, "a pair of long doubles of %u parts", v.n);
    ImpVals re = imp_vals_new(I, 2), im = imp_vals_new(I, 2);
    re.v[0] = v.v[0];
    re.v[1] = v.v[1];
    im.v[0] = v.v[2];
    im.v[1] = v.v[3];
    B3Value *a = put(I, 1, re), *b = put(I, 2, im);
    x87(I, B3X87_Ret2, a, b, NULL);
    imp_emit(I, B3_Return, B3_Void, 0, NULL, NULL, NULL);
}

bool imp_ldouble_inst(Imp *I, LLVMValueRef v, LLVMOpcode op, ImpVals *out) {
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef x = LLVMGetNumOperands(v) ? LLVMGetOperand(v, 0) : NULL;
    bool res = imp_is_x87(t), arg = x && imp_is_x87(LLVMTypeOf(x));
    if (!res && !arg)
        return false;
    switch (op) {
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv: {
        static const uint8_t ops[] = {
            [LLVMFAdd] = B3X87_Add, [LLVMFSub] = B3X87_Sub, [LLVMFMul] = B3X87_Mul, [LLVMFDiv] = B3X87_Div};
        *out = binary(I, ops[op], imp_operand(I, x), imp_operand(I, LLVMGetOperand(v, 1)));
        return true;
    }
    case LLVMFRem: {
        ImpVals args[2] = {imp_operand(I, x), imp_operand(I, LLVMGetOperand(v, 1))};
        *out = ld_call(I, "fmodl", 2, args);
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
        *out = from(I, s->type == B3_Float ? B3X87_FromFloat : B3X87_FromDouble, s);
        return true;
    }
    case LLVMFPTrunc: {
        bool f = LLVMGetTypeKind(t) == LLVMFloatTypeKind;
        if (!f && LLVMGetTypeKind(t) != LLVMDoubleTypeKind)
            return false;
        *out = one_val(
            I, to(I, f ? B3X87_ToFloat : B3X87_ToDouble, imp_operand(I, x), f ? B3_Float : B3_Double));
        return true;
    }
    case LLVMSIToFP:
    case LLVMUIToFP:
        if (!res)
            return false;
        if (imp_int_bits(LLVMTypeOf(x)) > 64)
            *out = wide_to_ld(I, imp_operand(I, x), imp_int_bits(LLVMTypeOf(x)), op == LLVMSIToFP);
        else
            *out = int_to_ld(I, imp_scalar(I, x), imp_int_bits(LLVMTypeOf(x)), op == LLVMSIToFP);
        return true;
    case LLVMFPToSI:
    case LLVMFPToUI:
        if (imp_int_bits(t) > 64)
            *out = ld_to_wide(I, imp_operand(I, x), imp_int_bits(t), op == LLVMFPToSI);
        else
            *out = one_val(I, ld_to_int(I, imp_operand(I, x), imp_int_bits(t), op == LLVMFPToSI));
        return true;
    case LLVMBitCast: { /* to or from i80: the same words, the high one as wide as its type */
        ImpVals a = imp_operand(I, x);
        if (a.n != 2)
            return false;
        ImpVals r = imp_vals_new(I, 2);
        r.v[0] = a.v[0];
        r.v[1] = res ? imp_to32(I, a.v[1]) : imp_to64(I, a.v[1], false);
        *out = r;
        return true;
    }
    default:
        return false;
    }
}

/* ---- intrinsics ------------------------------------------------------------------- */

bool imp_ldouble_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out) {
    if (len < 10 || memcmp(name + len - 4, ".f80", 4) || memcmp(name, "llvm.", 5))
        return false;
    const char *base = name + 5;
    size_t blen = len - 9;
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
    if (IS("fmuladd") && n == 3) {
        *out = binary(I, B3X87_Add, binary(I, B3X87_Mul, a[0], a[1]), a[2]);
        return true;
    }
    const char *fn = imp_long_double_libm(base, blen, n);
    if (fn) {
        *out = ld_call(I, fn, n, a);
        return true;
    }
#undef IS
    return false;
}
