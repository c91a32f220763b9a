/* The LLVM-IR front end's integers wider than 64 bits: i128 (__int128, wide
 * multiplications) and the odd widths clang gives a run of bit-fields
 * (i96, i152, ...), as words of Int64, the lowest first. */
#include <stdlib.h>
#include <string.h>

#include "import/llvm_internal.h"

unsigned imp_const_words(LLVMValueRef c, uint64_t *w) {
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(c));
    unsigned k = (bits + 63) / 64;
    memset(w, 0, k * sizeof *w);
    char *s = LLVMPrintValueToString(c); /* "i152 -12345" */
    const char *p = strchr(s, ' ');
    p = p ? p + 1 : s;
    bool neg = *p == '-';
    p += neg;
    for (; *p >= '0' && *p <= '9'; p++) { /* w = w * 10 + digit */
        unsigned __int128 carry = (unsigned)(*p - '0');
        for (unsigned i = 0; i < k; i++) {
            unsigned __int128 x = (unsigned __int128)w[i] * 10 + carry;
            w[i] = (uint64_t)x;
            carry = x >> 64;
        }
    }
    LLVMDisposeMessage(s);
    if (neg) { /* two's complement: invert, add one */
        unsigned carry = 1;
        for (unsigned i = 0; i < k; i++) {
            w[i] = ~w[i] + carry;
            carry = carry && w[i] == 0;
        }
    }
    return k;
}

static unsigned top_bits(unsigned bits) { return bits - 64 * ((bits + 63) / 64 - 1); }
static B3Value *k32(Imp *I, int64_t x) { return imp_const(I, B3_Int32, x); }
static B3Value *k64(Imp *I, int64_t x) { return imp_const(I, B3_Int64, x); }
static B3Value *op(Imp *I, B3Opcode o, B3Value *a, B3Value *b) { return imp_op2(I, o, a, b); }
static B3Value *cmp(Imp *I, B3Opcode o, B3Value *a, B3Value *b) {
    return imp_emit(I, o, B3_Int32, 2, a, b, NULL);
}
static B3Value *bit64(Imp *I, B3Value *c) { return imp_to64(I, c, false); }

ImpVals imp_wide_ext(Imp *I, ImpVals a, unsigned bits, bool sign) {
    unsigned t = top_bits(bits);
    if (t == 64)
        return a;
    ImpVals r = imp_vals_new(I, a.n);
    memcpy(r.v, a.v, a.n * sizeof *r.v);
    r.v[a.n - 1] = sign ? imp_sext_bits(I, a.v[a.n - 1], t) : imp_zext_bits(I, a.v[a.n - 1], t);
    return r;
}

/* Word i of a shifted left by c bits (c < 64 * n). */
static B3Value *shl_word(Imp *I, ImpVals a, unsigned q, unsigned r, unsigned i) {
    B3Value *hi = i >= q ? a.v[i - q] : NULL, *lo = i >= q + 1 ? a.v[i - q - 1] : NULL;
    if (!hi)
        return k64(I, 0);
    B3Value *x = r ? op(I, B3_Shl, hi, k32(I, r)) : hi;
    if (r && lo)
        x = op(I, B3_BitOr, x, op(I, B3_ZShr, lo, k32(I, 64 - r)));
    return x;
}

/* Word i of a shifted right by 64 q + r bits, the words above a's being
 * `fill` (zero, or copies of the sign). */
static B3Value *shr_word(Imp *I, ImpVals a, B3Value *fill, unsigned q, unsigned r, unsigned i) {
    unsigned n = a.n;
    if (i + q >= n)
        return fill;
    B3Value *lo = a.v[i + q], *hi = i + q + 1 < n ? a.v[i + q + 1] : fill;
    if (!r)
        return lo;
    B3Value *x = op(I, B3_ZShr, lo, k32(I, r));
    if (hi->opcode != B3_Const64 || hi->m.c.i)
        x = op(I, B3_BitOr, x, op(I, B3_Shl, hi, k32(I, 64 - r)));
    return x;
}

/* A two-word shift by a variable amount s (Int32, < 128), branch-free. */
static ImpVals shift2(Imp *I, LLVMOpcode o, ImpVals a, B3Value *s) {
    B3Value *lo = a.v[0], *hi = a.v[1];
    B3Value *big = op(I, B3_BitAnd, s, k32(I, 64)); /* s >= 64 */
    B3Value *m = op(I, B3_BitAnd, s, k32(I, 63));
    B3Value *zero = k64(I, 0);
    /* x >> (64 - m) without a shift by 64 when m == 0: (x >> 1) >> (63 - m). */
    B3Value *inv = op(I, B3_Sub, k32(I, 63), m);
    ImpVals r = imp_vals_new(I, 2);
    if (o == LLVMShl) {
        B3Value *nhi =
            op(I, B3_BitOr, op(I, B3_Shl, hi, m), op(I, B3_ZShr, op(I, B3_ZShr, lo, k32(I, 1)), inv));
        B3Value *nlo = op(I, B3_Shl, lo, m);
        r.v[0] = imp_emit(I, B3_Select, B3_Int64, 3, big, zero, nlo);
        r.v[1] = imp_emit(I, B3_Select, B3_Int64, 3, big, nlo, nhi);
        return r;
    }
    B3Opcode hop = o == LLVMAShr ? B3_SShr : B3_ZShr;
    B3Value *nlo = op(I, B3_BitOr, op(I, B3_ZShr, lo, m), op(I, B3_Shl, op(I, B3_Shl, hi, k32(I, 1)), inv));
    B3Value *nhi = op(I, hop, hi, m);
    B3Value *fill = o == LLVMAShr ? op(I, B3_SShr, hi, k32(I, 63)) : zero;
    r.v[0] = imp_emit(I, B3_Select, B3_Int64, 3, big, nhi, nlo);
    r.v[1] = imp_emit(I, B3_Select, B3_Int64, 3, big, fill, nhi);
    return r;
}

ImpVals imp_wide_binary(Imp *I, unsigned bits, LLVMOpcode o, ImpVals a, ImpVals b, LLVMValueRef rhs) {
    unsigned n = a.n;
    ImpVals r = imp_vals_new(I, n);
    switch (o) {
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor: {
        B3Opcode bo = o == LLVMAnd ? B3_BitAnd : o == LLVMOr ? B3_BitOr : B3_BitXor;
        for (unsigned i = 0; i < n; i++)
            r.v[i] = op(I, bo, a.v[i], b.v[i]);
        return r;
    }
    case LLVMAdd: {
        B3Value *carry = NULL;
        for (unsigned i = 0; i < n; i++) {
            B3Value *s = op(I, B3_Add, a.v[i], b.v[i]);
            if (!carry) {
                r.v[i] = s;
                carry = cmp(I, B3_Below, s, a.v[i]);
                continue;
            }
            B3Value *c1 = cmp(I, B3_Below, s, a.v[i]);
            r.v[i] = op(I, B3_Add, s, bit64(I, carry));
            if (i + 1 < n)
                carry = op(I, B3_BitOr, c1, cmp(I, B3_Below, r.v[i], s));
        }
        return r;
    }
    case LLVMSub: {
        B3Value *borrow = NULL;
        for (unsigned i = 0; i < n; i++) {
            B3Value *d = op(I, B3_Sub, a.v[i], b.v[i]);
            if (!borrow) {
                r.v[i] = d;
                borrow = cmp(I, B3_Below, a.v[i], b.v[i]);
                continue;
            }
            B3Value *b1 = cmp(I, B3_Below, a.v[i], b.v[i]);
            B3Value *bw = bit64(I, borrow);
            r.v[i] = op(I, B3_Sub, d, bw);
            if (i + 1 < n)
                borrow = op(I, B3_BitOr, b1, cmp(I, B3_Below, d, bw));
        }
        return r;
    }
    case LLVMMul:
        if (n != 2)
            imp_fail(I, "multiplication of i%u is not supported", bits);
        r.v[0] = op(I, B3_Mul, a.v[0], b.v[0]);
        r.v[1] =
            op(I, B3_Add, op(I, B3_Add, op(I, B3_UMulHigh, a.v[0], b.v[0]), op(I, B3_Mul, a.v[0], b.v[1])),
               op(I, B3_Mul, a.v[1], b.v[0]));
        return r;
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr: {
        if (o != LLVMShl)
            a = imp_wide_ext(I, a, bits, o == LLVMAShr);
        if (!LLVMIsAConstantInt(rhs)) {
            if (n != 2)
                imp_fail(I, "a shift of i%u by a variable amount is not supported", bits);
            return shift2(I, o, a, imp_to32(I, b.v[0]));
        }
        uint64_t w[IMP_MAX_WORDS];
        imp_const_words(rhs, w);
        uint64_t c = w[0];
        for (unsigned i = 1; i < n; i++)
            if (w[i])
                c = UINT64_MAX;
        if (c >= bits) /* poison: any value */
            c = 0;
        unsigned q = (unsigned)(c / 64), rr = (unsigned)(c % 64);
        if (o == LLVMShl) {
            for (unsigned i = 0; i < n; i++)
                r.v[i] = shl_word(I, a, q, rr, i);
            return r;
        }
        B3Value *fill = o == LLVMAShr ? op(I, B3_SShr, a.v[n - 1], k32(I, 63)) : k64(I, 0);
        for (unsigned i = 0; i < n; i++)
            r.v[i] = shr_word(I, a, fill, q, rr, i);
        return r;
    }
    default:
        imp_fail(I, "this operation on i%u is not supported", bits);
    }
}

B3Value *imp_wide_compare(Imp *I, unsigned bits, B3Opcode c, bool sign, ImpVals a, ImpVals b) {
    a = imp_wide_ext(I, a, bits, sign);
    b = imp_wide_ext(I, b, bits, sign);
    unsigned n = a.n;
    if (c == B3_Equal || c == B3_NotEqual) {
        B3Value *d = NULL;
        for (unsigned i = 0; i < n; i++) {
            B3Value *x = op(I, B3_BitXor, a.v[i], b.v[i]);
            d = d ? op(I, B3_BitOr, d, x) : x;
        }
        return cmp(I, c, d, k64(I, 0));
    }
    /* Lexicographic from the top word: the top one by the comparison's
     * signedness, the others unsigned; strict above the lowest word. */
    B3Opcode strict_u, strict_top, last;
    switch (c) {
    case B3_Above:
    case B3_GreaterThan:
        strict_u = B3_Above, strict_top = c, last = B3_Above;
        break;
    case B3_AboveEqual:
    case B3_GreaterEqual:
        strict_u = B3_Above, strict_top = sign ? B3_GreaterThan : B3_Above, last = B3_AboveEqual;
        break;
    case B3_Below:
    case B3_LessThan:
        strict_u = B3_Below, strict_top = c, last = B3_Below;
        break;
    default:
        strict_u = B3_Below, strict_top = sign ? B3_LessThan : B3_Below, last = B3_BelowEqual;
        break;
    }
    B3Value *res = cmp(I, last, a.v[0], b.v[0]);
    for (unsigned i = 1; i < n; i++) {
        B3Opcode s = i + 1 == n ? strict_top : strict_u;
        res = op(I, B3_BitOr, cmp(I, s, a.v[i], b.v[i]),
                 op(I, B3_BitAnd, cmp(I, B3_Equal, a.v[i], b.v[i]), res));
    }
    return res;
}

ImpVals imp_wide_resize(Imp *I, ImpVals a, unsigned from, unsigned to, bool sign, bool trunc) {
    unsigned nt = (to + 63) / 64;
    if (trunc) {
        if (to <= 64) {
            ImpVals r = imp_vals_new(I, 1);
            r.v[0] = to <= 32 ? imp_to32(I, a.v[0]) : a.v[0];
            return r;
        }
        ImpVals r = imp_vals_new(I, nt);
        memcpy(r.v, a.v, nt * sizeof *r.v);
        return r;
    }
    /* Extend: normalize the source's top bits, then fill whole words. */
    ImpVals x;
    if (from <= 64) {
        B3Value *v = sign ? imp_sext_bits(I, a.v[0], from) : imp_zext_bits(I, a.v[0], from);
        x = imp_vals_new(I, 1);
        x.v[0] = imp_to64(I, v, sign);
    } else {
        x = imp_wide_ext(I, a, from, sign);
    }
    ImpVals r = imp_vals_new(I, nt);
    B3Value *fill = sign ? op(I, B3_SShr, x.v[x.n - 1], k32(I, 63)) : k64(I, 0);
    for (unsigned i = 0; i < nt; i++)
        r.v[i] = i < x.n ? x.v[i] : fill;
    return r;
}
