/* Division by a constant as multiplication by a "magic" reciprocal
 * (opt/division_magic.h; B3's B3ComputeDivisionMagic.h does the same job). */
#include "opt/division_magic.h"

#include "ir/fold.h"

/* A new value op(a, b) (a, b may be NULL) where the quotient goes. */
static B3Value *add(const B3DivAt *at, B3Opcode op, B3Type t, B3Value *a, B3Value *b) {
    uint32_t n = b ? 2 : a ? 1 : 0;
    B3Value *v = b3_insertion_set_insert_new(at->ins, at->index, op, t, n, at->origin);
    if (a)
        v->kids[0] = a;
    if (b)
        v->kids[1] = b;
    return v;
}

static B3Value *add_int(const B3DivAt *at, B3Type t, int64_t x) {
    return b3_insertion_set_insert_int_const(at->ins, at->index, at->origin, t, x);
}

static B3Value *add_i32(const B3DivAt *at, int64_t x) { return add_int(at, B3_Int32, x); }

/* 2^p = q * d + rem for p < 128, d > 1: long division one bit at a time,
 * the quotient in two halves. */
static uint64_t pow2_divmod(unsigned p, uint64_t d, uint64_t *q_hi, uint64_t *rem) {
    uint64_t r = 1, hi = 0, lo = 0; /* the remainder so far: 2^0 */
    for (unsigned i = 0; i < p; i++) {
        bool carry = r >> 63;
        r <<= 1;
        hi = hi << 1 | lo >> 63;
        lo <<= 1;
        if (carry || r >= d) { /* the true 2r is below 2d, so one subtraction does */
            r -= d;
            lo |= 1;
        }
    }
    if (q_hi)
        *q_hi = hi;
    *rem = r;
    return lo;
}

/* floor(2^p / d) for p <= 64, d > 1 (the quotient fits 64 bits). */
static uint64_t pow2_div(unsigned p, uint64_t d) {
    uint64_t rem;
    return pow2_divmod(p, d, NULL, &rem);
}

/* n / d rounded toward zero for d = 2^k or -2^k (1 <= k < width; the
 * type's minimum is -2^(w-1)): bias a negative n by 2^k - 1, then shift. */
static B3Value *sdiv_pow2(const B3DivAt *at, B3Type t, B3Value *n, unsigned k, bool negative) {
    unsigned w = b3_type_bits(t);
    B3Value *sign = k == 1 ? n : add(at, B3_SShr, t, n, add_i32(at, k - 1));
    B3Value *bias = add(at, B3_ZShr, t, sign, add_i32(at, w - k));
    B3Value *q = add(at, B3_SShr, t, add(at, B3_Add, t, n, bias), add_i32(at, k));
    return negative ? add(at, B3_Neg, t, q, NULL) : q;
}

/* n / d (Int32, rounded toward zero) for |d| > 2 not a power of two:
 * with l = ceil(log2 |d|), p = 31 + l and m = ceil(2^p / |d|) < 2^32,
 * floor(n * m / 2^p) is floor(n / |d|) for every Int32 n (the error
 * n * (m |d| - 2^p) stays below 2^p), and adding 1 for a negative n
 * rounds toward zero instead.  The product fits in Int64. */
static B3Value *sdiv32_magic(const B3DivAt *at, B3Value *n, int64_t d) {
    uint64_t ad = d < 0 ? (uint64_t)-d : (uint64_t)d;
    unsigned l = b3_log2_floor(ad) + 1, p = 31 + l;
    uint64_t m = pow2_div(p, ad) + 1;
    B3Value *prod =
        add(at, B3_Mul, B3_Int64, add(at, B3_SExt32, B3_Int64, n, NULL), add_int(at, B3_Int64, (int64_t)m));
    B3Value *q0 = add(at, B3_Trunc, B3_Int32, add(at, B3_SShr, B3_Int64, prod, add_i32(at, p)), NULL);
    B3Value *q = add(at, B3_Add, B3_Int32, q0, add(at, B3_ZShr, B3_Int32, n, add_i32(at, 31)));
    return d < 0 ? add(at, B3_Neg, B3_Int32, q, NULL) : q;
}

/* n / d (unsigned Int32) for d > 2 not a power of two.  The smallest p >= 32
 * whose m = ceil(2^p / d) fits 32 bits and keeps the error
 * (2^32 - 1) * (m d - 2^p) below 2^p gives floor(n * m / 2^p); otherwise
 * p = 32 + ceil(log2 d) always works with a 33-bit m = 2^32 + m', and
 * n * m / 2^p is (n + n * m' / 2^32) / 2^(p - 32), all within 64 bits. */
static B3Value *udiv32_magic(const B3DivAt *at, B3Value *n, uint64_t d) {
    unsigned l = b3_log2_floor(d) + 1;
    B3Value *x = add(at, B3_ZExt32, B3_Int64, n, NULL);
    for (unsigned p = 32; p < 32 + l; p++) {
        uint64_t m = pow2_div(p, d) + 1;
        if (m > 0xffffffffull)
            break;
        if (0xffffffffull * (m * d - (1ull << p)) < (1ull << p)) {
            B3Value *prod = add(at, B3_Mul, B3_Int64, x, add_int(at, B3_Int64, (int64_t)m));
            return add(at, B3_Trunc, B3_Int32, add(at, B3_ZShr, B3_Int64, prod, add_i32(at, p)), NULL);
        }
    }
    uint64_t m = pow2_div(32 + l, d) + 1 - 0x100000000ull;
    B3Value *prod = add(at, B3_Mul, B3_Int64, x, add_int(at, B3_Int64, (int64_t)m));
    B3Value *hi = add(at, B3_ZShr, B3_Int64, prod, add_i32(at, 32));
    B3Value *sum = add(at, B3_Add, B3_Int64, hi, x);
    return add(at, B3_Trunc, B3_Int32, add(at, B3_ZShr, B3_Int64, sum, add_i32(at, l)), NULL);
}

/* n / d (Int64, rounded toward zero) for |d| > 2 not a power of two: as
 * sdiv32_magic, with MulHigh giving floor(n * m / 2^64).  p = 63 + l always
 * works, with 2^63 <= m < 2^64; as a signed number m is then m - 2^64, so
 * MulHigh(n, m) is n * m / 2^64 - n, and adding n back gives the product's
 * high half, which fits. */
static B3Value *sdiv64_magic(const B3DivAt *at, B3Value *n, int64_t d) {
    uint64_t ad = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d, rem, m;
    unsigned l = b3_log2_floor(ad) + 1, p;
    B3Value *t = NULL;
    /* A smaller p whose m stays below 2^63 (with error below 2^(p - 63))
     * needs no correction: SShr(MulHigh(n, m), p - 64), as for /10. */
    for (p = 64; p < 63 + l && !t; p++) {
        m = pow2_divmod(p, ad, NULL, &rem) + 1;
        if (m >> 63)
            break;
        if (ad - rem < 1ull << (p - 63))
            t = add(at, B3_MulHigh, B3_Int64, n, add_int(at, B3_Int64, (int64_t)m));
    }
    if (!t) {
        p = 63 + l;
        m = pow2_divmod(p, ad, NULL, &rem) + 1;
        t = add(at, B3_Add, B3_Int64, add(at, B3_MulHigh, B3_Int64, n, add_int(at, B3_Int64, b3_s64(m))), n);
    } else {
        p--;
    }
    B3Value *q0 = p > 64 ? add(at, B3_SShr, B3_Int64, t, add_i32(at, p - 64)) : t;
    B3Value *q = add(at, B3_Add, B3_Int64, q0, add(at, B3_ZShr, B3_Int64, n, add_i32(at, 63)));
    return d < 0 ? add(at, B3_Neg, B3_Int64, q, NULL) : q;
}

/* n / d (unsigned Int64) for d > 2 not a power of two, as udiv32_magic with
 * the high half of a 128-bit product: the smallest p >= 64 whose
 * m = ceil(2^p / d) fits 64 bits with error m d - 2^p <= 2^(p - 64) gives
 * UMulHigh(n, m) >> (p - 64); otherwise p = 64 + l with m = 2^64 + m', and
 * (n + UMulHigh(n, m')) >> l computed as (t + ((n - t) >> 1)) >> (l - 1)
 * so that nothing overflows. */
static B3Value *udiv64_magic(const B3DivAt *at, B3Value *n, uint64_t d) {
    unsigned l = b3_log2_floor(d) + 1;
    uint64_t hi, rem, q;
    for (unsigned p = 64; p < 64 + l; p++) {
        q = pow2_divmod(p, d, &hi, &rem);
        if (hi || q == UINT64_MAX)
            break; /* m = q + 1 no longer fits; it only grows with p */
        if (d - rem <= 1ull << (p - 64)) {
            B3Value *t = add(at, B3_UMulHigh, B3_Int64, n, add_int(at, B3_Int64, b3_s64(q + 1)));
            return p > 64 ? add(at, B3_ZShr, B3_Int64, t, add_i32(at, p - 64)) : t;
        }
    }
    q = pow2_divmod(64 + l, d, &hi, &rem); /* 2^64 <= q + 1 < 2^65: m' = q + 1 - 2^64 */
    B3Value *t = add(at, B3_UMulHigh, B3_Int64, n, add_int(at, B3_Int64, b3_s64(q + 1)));
    B3Value *half = add(at, B3_ZShr, B3_Int64, add(at, B3_Sub, B3_Int64, n, t), add_i32(at, 1));
    B3Value *sum = add(at, B3_Add, B3_Int64, t, half);
    return l > 1 ? add(at, B3_ZShr, B3_Int64, sum, add_i32(at, l - 1)) : sum;
}

B3Value *b3_div_by_const(const B3DivAt *at, B3Type t, B3Value *n, int64_t d, bool is_signed) {
    uint64_t ud = (uint64_t)d & b3_int_mask(t);
    if (!is_signed) {
        if (b3_is_pow2(ud))
            return add(at, B3_ZShr, t, n, add_i32(at, b3_log2_floor(ud)));
        return t == B3_Int32 ? udiv32_magic(at, n, ud) : udiv64_magic(at, n, ud);
    }
    uint64_t ad = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d; /* 2^(w-1) for the minimum */
    ad &= b3_int_mask(t);
    if (b3_is_pow2(ad))
        return sdiv_pow2(at, t, n, b3_log2_floor(ad), d < 0);
    return t == B3_Int32 ? sdiv32_magic(at, n, d) : sdiv64_magic(at, n, d);
}
