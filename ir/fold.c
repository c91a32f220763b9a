/* Constant evaluation (ir/fold.h). */
#include "ir/fold.h"

#include <math.h>
#include <string.h>

/* ---- integers of a type ---- */

bool b3_int_add_in(B3Type t, int64_t a, int64_t b, int64_t *r) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return false;
    *r = a + b;
    return *r >= b3_int_min(t) && *r <= b3_int_max(t);
}

bool b3_int_sub_in(B3Type t, int64_t a, int64_t b, int64_t *r) {
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return false;
    *r = a - b;
    return *r >= b3_int_min(t) && *r <= b3_int_max(t);
}

bool b3_int_mul_in(B3Type t, int64_t a, int64_t b, int64_t *r) {
    if (a && b) {
        bool ovf = a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                         : (b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a);
        if (ovf)
            return false;
    }
    *r = a * b;
    return *r >= b3_int_min(t) && *r <= b3_int_max(t);
}

/* ---- constants ---- */

/* A Float or Double constant's value (exact: every float is a double). */
static double fp_of(const B3Value *v) { return v->opcode == B3_ConstFloat ? (double)v->m.c.f : v->m.c.d; }

bool b3_value_is_nan_const(const B3Value *v) {
    return (v->opcode == B3_ConstFloat || v->opcode == B3_ConstDouble) && isnan(fp_of(v));
}

/* ---- evaluation ---- */

/* The high half of the double-width product of a and b (of type t). */
static uint64_t mul_high(B3Type t, bool is_signed, uint64_t a, uint64_t b) {
    if (t == B3_Int32) {
        if (is_signed)
            return (uint64_t)b3_ashr(b3_int_norm(B3_Int32, a) * b3_int_norm(B3_Int32, b), 32);
        return (a * b) >> 32;
    }
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t lo = al * bl, m1 = ah * bl, m2 = al * bh;
    uint64_t mid = (lo >> 32) + (m1 & 0xffffffffu) + (m2 & 0xffffffffu);
    uint64_t hi = ah * bh + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
    if (is_signed) /* a negative operand read as unsigned was 2^64 too large */
        hi -= (a >> 63 ? b : 0) + (b >> 63 ? a : 0);
    return hi;
}

/* op(a, b) for integers of type t (a, b normalized); false where B3 leaves
 * the result undefined and the value may fault (not Chill). */
bool b3_fold_int(B3Opcode op, B3Type t, bool chill, int64_t a, int64_t b, int64_t *out) {
    unsigned w = b3_type_bits(t), s = (unsigned)((uint64_t)b & (w - 1));
    uint64_t m = b3_int_mask(t), ua = (uint64_t)a & m, ub = (uint64_t)b & m, r;
    switch (op) {
    case B3_Add:
        r = ua + ub;
        break;
    case B3_Sub:
        r = ua - ub;
        break;
    case B3_Mul:
        r = ua * ub;
        break;
    case B3_MulHigh:
    case B3_UMulHigh:
        r = mul_high(t, op == B3_MulHigh, ua, ub);
        break;
    case B3_Div:
    case B3_Mod:
        if (b == 0 || (b == -1 && a == b3_int_min(t))) {
            if (!chill)
                return false;
            r = op == B3_Div && b ? (uint64_t)a : 0; /* x/0 = 0, MIN/-1 = MIN, x%0 = MIN%-1 = 0 */
            break;
        }
        r = (uint64_t)(op == B3_Div ? a / b : a % b);
        break;
    case B3_UDiv:
    case B3_UMod:
        if (!ub)
            return false;
        r = op == B3_UDiv ? ua / ub : ua % ub;
        break;
    case B3_BitAnd:
        r = ua & ub;
        break;
    case B3_BitOr:
        r = ua | ub;
        break;
    case B3_BitXor:
        r = ua ^ ub;
        break;
    case B3_Shl:
        r = ua << s;
        break;
    case B3_SShr:
        r = (uint64_t)b3_ashr(a, s);
        break;
    case B3_ZShr:
        r = ua >> s;
        break;
    case B3_RotR:
        r = s ? (ua >> s) | (ua << (w - s)) : ua;
        break;
    case B3_RotL:
        r = s ? (ua << s) | (ua >> (w - s)) : ua;
        break;
    default:
        return false;
    }
    *out = b3_int_norm(t, r);
    return true;
}

bool b3_fold_int_compare(B3Opcode op, B3Type t, int64_t a, int64_t b, int *out) {
    uint64_t m = b3_int_mask(t), ua = (uint64_t)a & m, ub = (uint64_t)b & m;
    switch (op) {
    case B3_Equal:
        *out = a == b;
        return true;
    case B3_NotEqual:
        *out = a != b;
        return true;
    case B3_LessThan:
        *out = a < b;
        return true;
    case B3_GreaterThan:
        *out = a > b;
        return true;
    case B3_LessEqual:
        *out = a <= b;
        return true;
    case B3_GreaterEqual:
        *out = a >= b;
        return true;
    case B3_Above:
        *out = ua > ub;
        return true;
    case B3_Below:
        *out = ua < ub;
        return true;
    case B3_AboveEqual:
        *out = ua >= ub;
        return true;
    case B3_BelowEqual:
        *out = ua <= ub;
        return true;
    default:
        return false;
    }
}

/* IEEE comparisons: false with a NaN, except NotEqual and EqualOrUnordered. */
static bool eval_fp_compare(B3Opcode op, double a, double b, int *out) {
    switch (op) {
    case B3_Equal:
        *out = a == b;
        return true;
    case B3_NotEqual:
        *out = !(a == b);
        return true;
    case B3_LessThan:
        *out = a < b;
        return true;
    case B3_GreaterThan:
        *out = a > b;
        return true;
    case B3_LessEqual:
        *out = a <= b;
        return true;
    case B3_GreaterEqual:
        *out = a >= b;
        return true;
    case B3_EqualOrUnordered:
        *out = isnan(a) || isnan(b) || a == b;
        return true;
    default:
        return false;
    }
}

/* wasm min/max of two non-NaN numbers: -0 is below +0. */
static double fminmax(bool min, double a, double b) {
    if (a == b)
        return (signbit(a) != 0) == min ? a : b;
    return (a < b) == min ? a : b;
}

/* op(a, b) in Double precision; false unless every operand and the result
 * are numbers (NaN bits are the hardware's choice). */
static bool eval_double(B3Opcode op, double a, double b, bool binary, double *out) {
    double r;
    switch (op) {
    case B3_Add:
        r = a + b;
        break;
    case B3_Sub:
        r = a - b;
        break;
    case B3_Mul:
        r = a * b;
        break;
    case B3_Div:
        r = a / b;
        break;
    case B3_Mod:
        r = fmod(a, b);
        break;
    case B3_Ceil:
        r = ceil(a);
        break;
    case B3_Floor:
        r = floor(a);
        break;
    case B3_Sqrt:
        r = sqrt(a);
        break;
    case B3_FMin:
        r = fminmax(true, a, b);
        break;
    case B3_FMax:
        r = fminmax(false, a, b);
        break;
    default:
        return false;
    }
    if (isnan(a) || (binary && isnan(b)) || isnan(r))
        return false;
    *out = r;
    return true;
}

/* The same in Float precision. Widening both operands, computing in double
 * and rounding once gives the float result exactly: double has more than
 * 2*24+2 significand bits, so Add/Sub/Mul/Div/Sqrt are not double-rounded,
 * and Mod, Ceil, Floor, FMin, FMax are exact. */
static bool eval_float(B3Opcode op, float a, float b, bool binary, float *out) {
    double r;
    if (!eval_double(op, a, b, binary, &r))
        return false;
    *out = (float)r;
    return true;
}

/* DToI/DToU of d to type t, when the truncated value is in range. */
static bool eval_fp_to_int(bool is_signed, B3Type t, double d, int64_t *out) {
    if (isnan(d))
        return false;
    double x = trunc(d);
    if (is_signed) {
        double lo = t == B3_Int32 ? -2147483648.0 : -9223372036854775808.0;
        double hi = t == B3_Int32 ? 2147483648.0 : 9223372036854775808.0;
        if (!(x >= lo && x < hi))
            return false;
        *out = (int64_t)x;
        return true;
    }
    if (!(x >= 0 && x < (t == B3_Int32 ? 4294967296.0 : 18446744073709551616.0)))
        return false;
    *out = b3_int_norm(t, (uint64_t)x);
    return true;
}

static bool as_int(B3Folded *out, int64_t x) {
    out->kind = B3Folded_Int;
    out->i = x;
    return true;
}

static bool as_bits(B3Folded *out, uint64_t bits) {
    out->kind = B3Folded_Bits;
    out->bits = bits;
    return true;
}

static bool as_float(B3Folded *out, float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return as_bits(out, b);
}

static bool as_double(B3Folded *out, double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return as_bits(out, b);
}

bool b3_fold(const B3Value *v, B3Folded *out) {
    uint16_t flags = b3_op((B3Opcode)v->opcode)->flags;
    if (!(flags & B3OF_FOLDABLE) || !v->nkids)
        return false;
    B3Opcode op = (B3Opcode)v->opcode;
    const B3Value *a = v->kids[0], *b = v->nkids > 1 ? v->kids[1] : NULL;
    int64_t ia = 0, ib = 0, r;
    if (op == B3_Select) {
        if (!b3_value_int_const(a, &ia))
            return false;
        out->kind = B3Folded_Kid;
        out->kid = ia ? 1 : 2;
        return true;
    }
    for (uint32_t i = 0; i < v->nkids; i++)
        if (!b3_value_is_const(v->kids[i]))
            return false;
    B3Type t = (B3Type)v->type, at = (B3Type)a->type;
    bool a_int = b3_value_int_const(a, &ia), b_int = b && b3_value_int_const(b, &ib);
    uint64_t ua = (uint64_t)ia & b3_int_mask(at);
    if (flags & B3OF_COMPARE) {
        int c;
        bool ok =
            a_int ? b3_fold_int_compare(op, at, ia, ib, &c) : eval_fp_compare(op, fp_of(a), fp_of(b), &c);
        return ok && as_int(out, c);
    }
    switch (op) {
    case B3_Neg:
        if (a_int)
            return as_int(out, b3_s64(0 - ua));
        /* a sign flip, NaN or not (the backend xors the sign bit) */
        return as_bits(out, b3_const_bits(a) ^ (t == B3_Float ? 0x80000000ull : 0x8000000000000000ull));
    case B3_Abs:
        return as_bits(out, b3_const_bits(a) & (t == B3_Float ? 0x7fffffffull : 0x7fffffffffffffffull));
    case B3_Clz: {
        unsigned w = b3_type_bits(t), n = 0;
        while (n < w && !((ua >> (w - 1 - n)) & 1))
            n++;
        return as_int(out, n);
    }
    case B3_SExt8:
        return as_int(out, (int64_t)(ua & 0xff) - (ua & 0x80 ? 0x100 : 0));
    case B3_SExt16:
        return as_int(out, (int64_t)(ua & 0xffff) - (ua & 0x8000 ? 0x10000 : 0));
    case B3_SExt32:
        return as_int(out, ia);
    case B3_ZExt32:
        return as_int(out, (int64_t)ua);
    case B3_Trunc:
        if (a_int)
            return as_int(out, b3_int_norm(B3_Int32, ua));
        /* Double -> Float: the low 32 bits */
        return as_bits(out, b3_const_bits(a) & 0xffffffffull);
    case B3_BitwiseCast:
        if (a_int)
            return as_bits(out, ua);
        return as_int(out, b3_s64(b3_const_bits(a)));
    case B3_IToD:
        return as_double(out, (double)ia);
    case B3_IToF:
        return as_float(out, (float)ia);
    case B3_UToD:
        return as_double(out, (double)ua);
    case B3_UToF:
        return as_float(out, (float)ua);
    case B3_FloatToDouble:
        if (isnan(fp_of(a)))
            return false; /* a signaling NaN comes out quiet */
        return as_double(out, fp_of(a));
    case B3_DoubleToFloat:
        if (isnan(fp_of(a)))
            return false;
        return as_float(out, (float)fp_of(a));
    case B3_DToI:
    case B3_DToU:
        if (!eval_fp_to_int(op == B3_DToI, t, fp_of(a), &r))
            return false;
        return as_int(out, r);
    default:
        break;
    }
    if (b3_type_is_int(t)) {
        if (!a_int || !b_int || !b3_fold_int(op, t, (v->kflags & B3K_CHILL) != 0, ia, ib, &r))
            return false;
        return as_int(out, r);
    }
    if (op == B3_BitAnd || op == B3_BitOr || op == B3_BitXor) { /* on bit patterns */
        uint64_t x = b3_const_bits(a), y = b3_const_bits(b);
        return as_bits(out, op == B3_BitAnd ? x & y : op == B3_BitOr ? x | y : x ^ y);
    }
    if (t == B3_Float) {
        float f;
        if (!eval_float(op, a->m.c.f, b ? b->m.c.f : 0.0f, b != NULL, &f))
            return false;
        return as_float(out, f);
    }
    double d;
    if (!eval_double(op, a->m.c.d, b ? b->m.c.d : 0.0, b != NULL, &d))
        return false;
    return as_double(out, d);
}
