/* The LLVM-IR front end's intrinsics: what clang emits for C at -O0 to -O2,
 * each as B3 values, a libc/libm/libgcc call, or nothing (lifetime and
 * debug markers).  One table maps a name's prefix to its importer. */
#include <string.h>

#include "import/llvm_internal.h"

typedef struct {
    Imp *I;
    LLVMValueRef call;
    const char *name; /* the whole intrinsic name */
    size_t len;
    ImpVals *out;
} Call;

static B3Value *arg(Call *c, unsigned i) { return imp_scalar(c->I, LLVMGetOperand(c->call, i)); }
static unsigned arg_bits(Call *c, unsigned i) { return imp_int_bits(LLVMTypeOf(LLVMGetOperand(c->call, i))); }
static unsigned ret_bits(Call *c) { return imp_int_bits(LLVMTypeOf(c->call)); }
static void ret1(Call *c, B3Value *v) {
    *c->out = imp_vals_new(c->I, 1);
    c->out->v[0] = v;
}
static void ret2(Call *c, B3Value *a, B3Value *b) {
    *c->out = imp_vals_new(c->I, 2);
    c->out->v[0] = a;
    c->out->v[1] = b;
}
static B3Value *k32(Call *c, int64_t x) { return imp_const(c->I, B3_Int32, x); }
static B3Value *kt(Call *c, B3Type t, int64_t x) { return imp_const(c->I, t, x); }
static B3Value *op2(Call *c, B3Opcode op, B3Value *a, B3Value *b) { return imp_op2(c->I, op, a, b); }
static B3Value *cmp(Call *c, B3Opcode op, B3Value *a, B3Value *b) {
    return imp_emit(c->I, op, B3_Int32, 2, a, b, NULL);
}
static B3Value *sel(Call *c, B3Value *p, B3Value *a, B3Value *b) {
    return imp_emit(c->I, B3_Select, (B3Type)a->type, 3, p, a, b);
}

static void ignore(Call *c) { *c->out = imp_vals_new(c->I, 0); }

/* The largest constant length copied or set in line instead of calling. */
enum { INLINE_MEM_MAX = 64 };

/* Pieces of 8, 4, 2 and 1 bytes covering [0, n): returns how many, their
 * offsets and sizes in off[] and size[]. */
static unsigned mem_pieces(uint64_t n, uint32_t *off, uint8_t *size) {
    unsigned k = 0;
    uint64_t at = 0;
    for (unsigned w = 8; w; w /= 2)
        for (; n - at >= w; at += w, k++)
            off[k] = (uint32_t)at, size[k] = (uint8_t)w;
    return k;
}

static B3Value *piece_load(Imp *I, B3Value *p, uint32_t off, unsigned w) {
    B3Opcode op = w == 1 ? B3_Load8Z : w == 2 ? B3_Load16Z : B3_Load;
    B3Value *v = imp_emit(I, op, w == 8 ? B3_Int64 : B3_Int32, 1, p, NULL, NULL);
    v->m.mem.offset = (int32_t)off;
    return v;
}

static void piece_store(Imp *I, B3Value *x, B3Value *p, uint32_t off, unsigned w) {
    B3Opcode op = w == 1 ? B3_Store8 : w == 2 ? B3_Store16 : B3_Store;
    B3Value *v = imp_emit(I, op, B3_Void, 2, w == 8 ? x : imp_to32(I, x), p, NULL);
    v->m.mem.offset = (int32_t)off;
}

/* A memcpy, memmove or memset of a small constant length, not volatile:
 * loads and stores (every load before any store, so memmove's overlap is
 * right). */
static bool mem_inline(Call *c, const char *fn) {
    Imp *I = c->I;
    LLVMValueRef len = LLVMGetOperand(c->call, 2), vol = LLVMGetOperand(c->call, 3);
    if (!LLVMIsAConstantInt(len) || !LLVMIsAConstantInt(vol) || LLVMConstIntGetZExtValue(vol))
        return false;
    uint64_t n = LLVMConstIntGetZExtValue(len);
    if (n > INLINE_MEM_MAX)
        return false;
    uint32_t off[INLINE_MEM_MAX];
    uint8_t size[INLINE_MEM_MAX];
    unsigned k = mem_pieces(n, off, size);
    B3Value *dst = arg(c, 0);
    if (!strcmp(fn, "memset")) {
        B3Value *byte = imp_to64(I, imp_zext_bits(I, arg(c, 1), 8), false);
        B3Value *pat = imp_op2(I, B3_Mul, byte, imp_const(I, B3_Int64, 0x0101010101010101ll));
        for (unsigned i = 0; i < k; i++)
            piece_store(I, pat, dst, off[i], size[i]);
        return true;
    }
    B3Value *src = arg(c, 1);
    B3Value *v[INLINE_MEM_MAX];
    for (unsigned i = 0; i < k; i++)
        v[i] = piece_load(I, src, off[i], size[i]);
    for (unsigned i = 0; i < k; i++)
        piece_store(I, v[i], dst, off[i], size[i]);
    return true;
}

/* memcpy/memmove/memset(dst, src|val, len, volatile): in line for a small
 * constant length, else the libc call. */
static void mem_call(Call *c, const char *fn) {
    Imp *I = c->I;
    if (mem_inline(c, fn)) {
        ignore(c);
        return;
    }
    B3Value *a = arg(c, 0), *b = arg(c, 1), *n = arg(c, 2);
    if (!strcmp(fn, "memset"))
        b = imp_zext_bits(I, b, 8);
    n = imp_to64(I, imp_zext_bits(I, n, arg_bits(c, 2)), false);
    imp_call_named(I, fn, B3_Int64, 3, (B3Value *[]){a, b, n});
    ignore(c);
}
static void i_memcpy(Call *c) { mem_call(c, "memcpy"); }
static void i_memmove(Call *c) { mem_call(c, "memmove"); }
static void i_memset(Call *c) { mem_call(c, "memset"); }

static void i_expect(Call *c) { ret1(c, arg(c, 0)); }

static void i_trap(Call *c) {
    Imp *I = c->I;
    imp_emit(I, B3_Oops, B3_Void, 0, NULL, NULL, NULL);
    imp_new_block(I); /* unreachable: whatever follows goes here, and is dropped */
    ignore(c);
}

static void i_objectsize(Call *c) {
    /* Unknown size: -1 for the maximum, 0 for the minimum (arg 1). */
    LLVMValueRef min = LLVMGetOperand(c->call, 1);
    bool want_min = LLVMIsAConstantInt(min) && LLVMConstIntGetZExtValue(min);
    unsigned b = ret_bits(c);
    ret1(c, kt(c, b <= 32 ? B3_Int32 : B3_Int64, want_min ? 0 : -1));
}

static void i_is_constant(Call *c) { ret1(c, k32(c, 0)); }

/* Population count by the SWAR steps. */
static B3Value *popcount(Call *c, B3Value *x) {
    B3Type t = (B3Type)x->type;
    bool w64 = t == B3_Int64;
    B3Value *m1 = kt(c, t, w64 ? 0x5555555555555555ll : 0x55555555);
    B3Value *m2 = kt(c, t, w64 ? 0x3333333333333333ll : 0x33333333);
    B3Value *m4 = kt(c, t, w64 ? 0x0f0f0f0f0f0f0f0fll : 0x0f0f0f0f);
    B3Value *h = kt(c, t, w64 ? 0x0101010101010101ll : 0x01010101);
    x = op2(c, B3_Sub, x, op2(c, B3_BitAnd, op2(c, B3_ZShr, x, k32(c, 1)), m1));
    x = op2(c, B3_Add, op2(c, B3_BitAnd, x, m2), op2(c, B3_BitAnd, op2(c, B3_ZShr, x, k32(c, 2)), m2));
    x = op2(c, B3_BitAnd, op2(c, B3_Add, x, op2(c, B3_ZShr, x, k32(c, 4))), m4);
    return op2(c, B3_ZShr, op2(c, B3_Mul, x, h), k32(c, w64 ? 56 : 24));
}

static void i_ctpop(Call *c) {
    unsigned b = arg_bits(c, 0);
    if (b == 128) {
        ImpVals x = imp_operand(c->I, LLVMGetOperand(c->call, 0));
        ret2(c, op2(c, B3_Add, popcount(c, x.v[0]), popcount(c, x.v[1])), kt(c, B3_Int64, 0));
        return;
    }
    ret1(c, popcount(c, imp_zext_bits(c->I, arg(c, 0), b)));
}

/* Leading zeros of the low b bits of x; b for zero. */
static B3Value *clz_bits(Call *c, B3Value *x, unsigned b) {
    unsigned w = x->type == B3_Int32 ? 32 : 64;
    B3Value *r = imp_op1(c->I, B3_Clz, (B3Type)x->type, imp_zext_bits(c->I, x, b));
    return w == b ? r : op2(c, B3_Sub, r, kt(c, (B3Type)x->type, w - b));
}

/* Trailing zeros of the low b bits; b for zero. */
static B3Value *ctz_bits(Call *c, B3Value *x, unsigned b) {
    B3Type t = (B3Type)x->type;
    unsigned w = t == B3_Int32 ? 32 : 64;
    x = imp_zext_bits(c->I, x, b);
    /* x & -x isolates the lowest set bit: w - 1 - clz of it; b when x is 0. */
    B3Value *low = op2(c, B3_BitAnd, x, imp_op1(c->I, B3_Neg, t, x));
    B3Value *r = op2(c, B3_Sub, kt(c, t, w - 1), imp_op1(c->I, B3_Clz, t, low));
    return sel(c, cmp(c, B3_Equal, x, kt(c, t, 0)), kt(c, t, b), r);
}

static void i_ctlz(Call *c) {
    unsigned b = arg_bits(c, 0);
    if (b == 128) {
        ImpVals x = imp_operand(c->I, LLVMGetOperand(c->call, 0));
        B3Value *hz = imp_op1(c->I, B3_Clz, B3_Int64, x.v[1]);
        B3Value *lz = op2(c, B3_Add, imp_op1(c->I, B3_Clz, B3_Int64, x.v[0]), kt(c, B3_Int64, 64));
        ret2(c, sel(c, cmp(c, B3_Equal, x.v[1], kt(c, B3_Int64, 0)), lz, hz), kt(c, B3_Int64, 0));
        return;
    }
    ret1(c, clz_bits(c, arg(c, 0), b));
}

static void i_cttz(Call *c) {
    unsigned b = arg_bits(c, 0);
    if (b == 128) {
        ImpVals x = imp_operand(c->I, LLVMGetOperand(c->call, 0));
        B3Value *lz = ctz_bits(c, x.v[0], 64);
        B3Value *hz = op2(c, B3_Add, ctz_bits(c, x.v[1], 64), kt(c, B3_Int64, 64));
        ret2(c, sel(c, cmp(c, B3_Equal, x.v[0], kt(c, B3_Int64, 0)), hz, lz), kt(c, B3_Int64, 0));
        return;
    }
    ret1(c, ctz_bits(c, arg(c, 0), b));
}

static void i_bswap(Call *c) {
    unsigned b = arg_bits(c, 0);
    B3Value *x = arg(c, 0);
    B3Type t = (B3Type)x->type;
    if (b == 16) {
        x = imp_zext_bits(c->I, x, 16);
        ret1(c, op2(c, B3_BitOr, op2(c, B3_ZShr, x, k32(c, 8)),
                    op2(c, B3_BitAnd, op2(c, B3_Shl, x, k32(c, 8)), k32(c, 0xff00))));
        return;
    }
    if (b != 32 && b != 64)
        imp_fail(c->I, "llvm.bswap of i%u is not supported", b);
    /* Swap bytes, then 16-bit halves, then 32-bit halves (rotates). */
    B3Value *m8 = kt(c, t, b == 64 ? 0x00ff00ff00ff00ffll : 0x00ff00ff);
    x = op2(c, B3_BitOr, op2(c, B3_BitAnd, op2(c, B3_ZShr, x, k32(c, 8)), m8),
            op2(c, B3_Shl, op2(c, B3_BitAnd, x, m8), k32(c, 8)));
    if (b == 32) {
        ret1(c, op2(c, B3_RotR, x, k32(c, 16)));
        return;
    }
    B3Value *m16 = kt(c, t, 0x0000ffff0000ffffll);
    x = op2(c, B3_BitOr, op2(c, B3_BitAnd, op2(c, B3_ZShr, x, k32(c, 16)), m16),
            op2(c, B3_Shl, op2(c, B3_BitAnd, x, m16), k32(c, 16)));
    ret1(c, op2(c, B3_RotR, x, k32(c, 32)));
}

/* bitreverse of an iN (N <= 64): the whole 32- or 64-bit register reversed
 * by swapping ever wider fields, then the low N bits' image shifted down
 * (what stood above them, whatever it was, leaves on the right).  Clang
 * emits it for __builtin_bitreverse*, and its optimizer for bit tricks on
 * booleans (llvm.bitreverse.i1, which is the identity). */
static void i_bitreverse(Call *c) {
    unsigned b = arg_bits(c, 0);
    if (b > 64)
        imp_fail(c->I, "llvm.bitreverse of i%u is not supported", b);
    B3Value *x = arg(c, 0);
    B3Type t = (B3Type)x->type;
    unsigned w = t == B3_Int32 ? 32 : 64;
    static const long long masks[] = {0x5555555555555555ll, 0x3333333333333333ll, 0x0f0f0f0f0f0f0f0fll,
                                      0x00ff00ff00ff00ffll, 0x0000ffff0000ffffll};
    for (unsigned k = 0, sh = 1; sh < w / 2; k++, sh *= 2) {
        B3Value *m = kt(c, t, w == 64 ? masks[k] : (long long)(uint32_t)masks[k]);
        x = op2(c, B3_BitOr, op2(c, B3_BitAnd, op2(c, B3_ZShr, x, k32(c, (int)sh)), m),
                op2(c, B3_Shl, op2(c, B3_BitAnd, x, m), k32(c, (int)sh)));
    }
    x = op2(c, B3_RotR, x, k32(c, (int)(w / 2)));
    ret1(c, b == w ? x : op2(c, B3_ZShr, x, k32(c, (int)(w - b))));
}

/* fshl(a, b, s): the high half of (a:b) << (s mod w); fshr: the low half of (a:b) >> (s mod w). */
static void funnel(Call *c, bool left) {
    unsigned b = arg_bits(c, 0);
    Imp *I = c->I;
    LLVMValueRef av = LLVMGetOperand(c->call, 0), bv = LLVMGetOperand(c->call, 1);
    B3Value *a = arg(c, 0), *x = arg(c, 1);
    B3Type t = (B3Type)a->type;
    B3Value *s = imp_to32(I, arg(c, 2));
    if (b == 32 || b == 64) {
        if (av == bv) {
            ret1(c, op2(c, left ? B3_RotL : B3_RotR, a, s));
            return;
        }
        s = op2(c, B3_BitAnd, s, k32(c, b - 1));
    } else {
        if (b > 64)
            imp_fail(I, "funnel shifts of i%u are not supported", b);
        s = imp_op2(I, B3_UMod, imp_zext_bits(I, s, b < 32 ? b : 32), k32(c, b));
        x = imp_zext_bits(I, x, b);
    }
    /* The shift by w - s is split in two, so that s == 0 shifts by w - 1 and 1. */
    B3Value *inv = op2(c, B3_Sub, k32(c, b - 1), s);
    B3Value *r;
    if (left)
        r = op2(c, B3_BitOr, op2(c, B3_Shl, a, s), op2(c, B3_ZShr, op2(c, B3_ZShr, x, k32(c, 1)), inv));
    else
        r = op2(c, B3_BitOr, op2(c, B3_ZShr, x, s), op2(c, B3_Shl, op2(c, B3_Shl, a, k32(c, 1)), inv));
    (void)t;
    ret1(c, r);
}
static void i_fshl(Call *c) { funnel(c, true); }
static void i_fshr(Call *c) { funnel(c, false); }

static void i_abs(Call *c) {
    unsigned b = arg_bits(c, 0);
    B3Value *x = imp_sext_bits(c->I, arg(c, 0), b);
    B3Type t = (B3Type)x->type;
    ret1(c, sel(c, cmp(c, B3_LessThan, x, kt(c, t, 0)), imp_op1(c->I, B3_Neg, t, x), x));
}

static void minmax(Call *c, B3Opcode op, bool sign) {
    unsigned b = arg_bits(c, 0);
    B3Value *x = arg(c, 0), *y = arg(c, 1);
    B3Value *xn = sign ? imp_sext_bits(c->I, x, b) : imp_zext_bits(c->I, x, b);
    B3Value *yn = sign ? imp_sext_bits(c->I, y, b) : imp_zext_bits(c->I, y, b);
    ret1(c, sel(c, cmp(c, op, xn, yn), x, y));
}
static void i_smin(Call *c) { minmax(c, B3_LessThan, true); }
static void i_smax(Call *c) { minmax(c, B3_GreaterThan, true); }
static void i_umin(Call *c) { minmax(c, B3_Below, false); }
static void i_umax(Call *c) { minmax(c, B3_Above, false); }

static void fp1(Call *c, B3Opcode op) {
    B3Value *x = arg(c, 0);
    ret1(c, imp_op1(c->I, op, (B3Type)x->type, x));
}
static void i_fabs(Call *c) { fp1(c, B3_Abs); }
static void i_sqrt(Call *c) { fp1(c, B3_Sqrt); }
static void i_floor(Call *c) { fp1(c, B3_Floor); }
static void i_ceil(Call *c) { fp1(c, B3_Ceil); }

/* A libm function of the argument type: name, or name "f" for float. */
static void libm(Call *c, const char *name, unsigned nargs) {
    B3Value *a[3];
    for (unsigned i = 0; i < nargs; i++)
        a[i] = arg(c, i);
    B3Type t = (B3Type)a[0]->type;
    char fn[32];
    snprintf(fn, sizeof fn, "%s%s", name, t == B3_Float ? "f" : "");
    ret1(c, imp_call_named(c->I, fn, t, nargs, a));
}
static void i_trunc(Call *c) { libm(c, "trunc", 1); }
static void i_round(Call *c) { libm(c, "round", 1); }
static void i_rint(Call *c) { libm(c, "rint", 1); }
static void i_nearbyint(Call *c) { libm(c, "nearbyint", 1); }
static void i_roundeven(Call *c) { libm(c, "roundeven", 1); }
static void i_fma(Call *c) { libm(c, "fma", 3); }
static void i_pow(Call *c) { libm(c, "pow", 2); }
static void i_exp(Call *c) { libm(c, "exp", 1); }
static void i_exp2(Call *c) { libm(c, "exp2", 1); }
static void i_log(Call *c) { libm(c, "log", 1); }
static void i_log2(Call *c) { libm(c, "log2", 1); }
static void i_log10(Call *c) { libm(c, "log10", 1); }
static void i_sin(Call *c) { libm(c, "sin", 1); }
static void i_cos(Call *c) { libm(c, "cos", 1); }
static void i_minnum(Call *c) { libm(c, "fmin", 2); }
static void i_maxnum(Call *c) { libm(c, "fmax", 2); }
static void i_lround(Call *c) {
    B3Value *x = arg(c, 0);
    unsigned b = ret_bits(c);
    B3Type rt = b <= 32 ? B3_Int32 : B3_Int64;
    const char *fn = x->type == B3_Float ? "lroundf" : "lround";
    B3Value *r = imp_call_named(c->I, fn, B3_Int64, 1, &x);
    ret1(c, rt == B3_Int32 ? imp_to32(c->I, r) : r);
}
static void i_lrint(Call *c) {
    B3Value *x = arg(c, 0);
    unsigned b = ret_bits(c);
    const char *fn = x->type == B3_Float ? "lrintf" : "lrint";
    B3Value *r = imp_call_named(c->I, fn, B3_Int64, 1, &x);
    ret1(c, b <= 32 ? imp_to32(c->I, r) : r);
}

/* fmuladd: a * b + c, rounded twice (no contraction). */
static void i_fmuladd(Call *c) {
    B3Value *a = arg(c, 0), *b = arg(c, 1), *x = arg(c, 2);
    ret1(c, op2(c, B3_Add, op2(c, B3_Mul, a, b), x));
}

static void i_copysign(Call *c) {
    B3Value *a = arg(c, 0), *b = arg(c, 1);
    bool f = a->type == B3_Float;
    B3Type it = f ? B3_Int32 : B3_Int64;
    int64_t sign = f ? (int64_t)0x80000000 : INT64_MIN;
    B3Value *ai = imp_op1(c->I, B3_BitwiseCast, it, a), *bi = imp_op1(c->I, B3_BitwiseCast, it, b);
    B3Value *r =
        op2(c, B3_BitOr, op2(c, B3_BitAnd, ai, kt(c, it, ~sign)), op2(c, B3_BitAnd, bi, kt(c, it, sign)));
    ret1(c, imp_op1(c->I, B3_BitwiseCast, (B3Type)a->type, r));
}

/* {s,u}{add,sub,mul}.with.overflow: { result, overflow bit }. */
static void overflow(Call *c, B3Opcode op, bool sign) {
    Imp *I = c->I;
    unsigned b = arg_bits(c, 0);
    if (b > 64)
        imp_fail(I, "overflow intrinsics on i%u are not supported", b);
    B3Value *x = arg(c, 0), *y = arg(c, 1);
    B3Type t = (B3Type)x->type;
    unsigned w = t == B3_Int32 ? 32 : 64;
    if (b < w) {
        /* Exact in the wider register; overflow when it does not fit b bits. */
        B3Value *xn = sign ? imp_sext_bits(I, x, b) : imp_zext_bits(I, x, b);
        B3Value *yn = sign ? imp_sext_bits(I, y, b) : imp_zext_bits(I, y, b);
        if (op == B3_Mul && b > w / 2) { /* the product needs more than w bits */
            xn = imp_to64(I, xn, sign);
            yn = imp_to64(I, yn, sign);
            if (b > 32)
                imp_fail(I, "mul.with.overflow on i%u is not supported", b);
        }
        B3Value *r = op2(c, op, xn, yn);
        B3Value *fit = sign ? imp_sext_bits(I, r, b) : imp_zext_bits(I, r, b);
        B3Value *o = cmp(c, B3_NotEqual, fit, r);
        ret2(c, r->type == t ? r : imp_to32(I, r), o);
        return;
    }
    B3Value *r = op2(c, op, x, y), *o;
    B3Value *zero = kt(c, t, 0);
    switch (op) {
    case B3_Add:
        o = sign ? cmp(c, B3_LessThan, op2(c, B3_BitAnd, op2(c, B3_BitXor, x, r), op2(c, B3_BitXor, y, r)),
                       zero)
                 : cmp(c, B3_Below, r, x);
        break;
    case B3_Sub:
        o = sign ? cmp(c, B3_LessThan, op2(c, B3_BitAnd, op2(c, B3_BitXor, x, y), op2(c, B3_BitXor, x, r)),
                       zero)
                 : cmp(c, B3_Below, x, y);
        break;
    default: /* Mul */
        if (sign)
            o = cmp(c, B3_NotEqual, op2(c, B3_MulHigh, x, y), op2(c, B3_SShr, r, k32(c, w - 1)));
        else
            o = cmp(c, B3_NotEqual, op2(c, B3_UMulHigh, x, y), zero);
        break;
    }
    ret2(c, r, o);
}
static void i_sadd_o(Call *c) { overflow(c, B3_Add, true); }
static void i_uadd_o(Call *c) { overflow(c, B3_Add, false); }
static void i_ssub_o(Call *c) { overflow(c, B3_Sub, true); }
static void i_usub_o(Call *c) { overflow(c, B3_Sub, false); }
static void i_smul_o(Call *c) { overflow(c, B3_Mul, true); }
static void i_umul_o(Call *c) { overflow(c, B3_Mul, false); }

/* {u,s}{add,sub}.sat: the sum or difference clamped to the type's range. */
static void saturating(Call *c, B3Opcode op, bool sign) {
    Imp *I = c->I;
    unsigned b = arg_bits(c, 0);
    if (b > 64)
        imp_fail(I, "saturating intrinsics on i%u are not supported", b);
    B3Value *x = arg(c, 0), *y = arg(c, 1);
    B3Type t = (B3Type)x->type;
    unsigned w = t == B3_Int32 ? 32 : 64;
    int64_t max = b == 64 ? INT64_MAX : sign ? (int64_t)((1ull << (b - 1)) - 1) : (int64_t)((1ull << b) - 1);
    int64_t min = b == 64 ? INT64_MIN : sign ? -(int64_t)(1ull << (b - 1)) : 0;
    if (b < w) {
        /* Exact in the wider register, then clamped. */
        B3Value *xn = sign ? imp_sext_bits(I, x, b) : imp_zext_bits(I, x, b);
        B3Value *yn = sign ? imp_sext_bits(I, y, b) : imp_zext_bits(I, y, b);
        B3Value *r = op2(c, op, xn, yn);
        B3Value *lo = kt(c, t, min), *hi = kt(c, t, max);
        if (!sign) {
            ret1(c, op == B3_Add ? sel(c, cmp(c, B3_Above, r, hi), hi, r)
                                 : sel(c, cmp(c, B3_Below, xn, yn), lo, r));
            return;
        }
        r = sel(c, cmp(c, B3_GreaterThan, r, hi), hi, r);
        ret1(c, sel(c, cmp(c, B3_LessThan, r, lo), lo, r));
        return;
    }
    B3Value *r = op2(c, op, x, y), *zero = kt(c, t, 0);
    if (!sign) {
        /* Unsigned: a carry gives all ones, a borrow zero. */
        if (op == B3_Add)
            ret1(c, sel(c, cmp(c, B3_Below, r, x), kt(c, t, -1), r));
        else
            ret1(c, sel(c, cmp(c, B3_Below, x, y), zero, r));
        return;
    }
    /* Signed overflow (as in overflow()) saturates toward x's sign. */
    B3Value *o = op == B3_Add ? op2(c, B3_BitAnd, op2(c, B3_BitXor, x, r), op2(c, B3_BitXor, y, r))
                              : op2(c, B3_BitAnd, op2(c, B3_BitXor, x, y), op2(c, B3_BitXor, x, r));
    int64_t tmax = w == 32 ? INT32_MAX : INT64_MAX, tmin = w == 32 ? INT32_MIN : INT64_MIN;
    B3Value *clamp = sel(c, cmp(c, B3_LessThan, x, zero), kt(c, t, tmin), kt(c, t, tmax));
    ret1(c, sel(c, cmp(c, B3_LessThan, o, zero), clamp, r));
}
static void i_uadd_sat(Call *c) { saturating(c, B3_Add, false); }
static void i_usub_sat(Call *c) { saturating(c, B3_Sub, false); }
static void i_sadd_sat(Call *c) { saturating(c, B3_Add, true); }
static void i_ssub_sat(Call *c) { saturating(c, B3_Sub, true); }

/* load.relative(p, off): p plus the i32 at p + off.  Only of a relative
 * lookup table, which the import keeps as pointers: the one at p + 2 * off. */
static void i_load_relative(Call *c) {
    Imp *I = c->I;
    if (!imp_reltable(LLVMGetOperand(c->call, 0)))
        imp_fail(I, "llvm.load.relative of anything but a relative lookup table is not supported");
    B3Value *off = imp_to64(I, arg(c, 1), true);
    B3Value *p = op2(c, B3_Add, arg(c, 0), op2(c, B3_Shl, off, k32(c, 1)));
    ret1(c, imp_emit(I, B3_Load, B3_Int64, 1, p, NULL, NULL));
}

static void i_passthrough(Call *c) { ret1(c, arg(c, 0)); }

/* Variadic functions (llvm_varargs.c); llvm.va_end does nothing. */
static void i_va_start(Call *c) {
    imp_va_start(c->I, arg(c, 0));
    ignore(c);
}
static void i_va_copy(Call *c) {
    imp_va_copy(c->I, arg(c, 0), arg(c, 1));
    ignore(c);
}

typedef struct {
    const char *prefix; /* matches the name up to its type suffixes */
    void (*fn)(Call *c);
} Intrinsic;

/* Every intrinsic the front end knows, by name prefix (an exact name or a
 * prefix ending in '.'). */
static const Intrinsic intrinsics[] = {
    {"llvm.memcpy.", i_memcpy},
    {"llvm.memcpy.inline.", i_memcpy},
    {"llvm.memmove.", i_memmove},
    {"llvm.memset.", i_memset},
    {"llvm.memset.inline.", i_memset},
    {"llvm.lifetime.", ignore},
    {"llvm.va_start", i_va_start},
    {"llvm.va_copy", i_va_copy},
    {"llvm.va_end", ignore},
    {"llvm.dbg.", ignore},
    {"llvm.assume", ignore},
    {"llvm.experimental.noalias.scope.decl", ignore},
    {"llvm.invariant.", ignore},
    {"llvm.prefetch.", ignore},
    {"llvm.sideeffect", ignore},
    {"llvm.donothing", ignore},
    {"llvm.pseudoprobe", ignore},
    {"llvm.var.annotation.", ignore},
    {"llvm.expect.", i_expect},
    {"llvm.expect.with.probability.", i_expect},
    {"llvm.launder.invariant.group.", i_passthrough},
    {"llvm.threadlocal.address.", i_passthrough}, /* the operand is a ThreadLocalAddress already */
    {"llvm.strip.invariant.group.", i_passthrough},
    {"llvm.ptr.annotation.", i_passthrough},
    {"llvm.annotation.", i_passthrough},
    {"llvm.trap", i_trap},
    {"llvm.debugtrap", i_trap},
    {"llvm.ubsantrap", i_trap},
    {"llvm.objectsize.", i_objectsize},
    {"llvm.is.constant.", i_is_constant},
    {"llvm.bswap.", i_bswap},
    {"llvm.bitreverse.", i_bitreverse},
    {"llvm.ctpop.", i_ctpop},
    {"llvm.ctlz.", i_ctlz},
    {"llvm.cttz.", i_cttz},
    {"llvm.fshl.", i_fshl},
    {"llvm.fshr.", i_fshr},
    {"llvm.abs.", i_abs},
    {"llvm.smin.", i_smin},
    {"llvm.smax.", i_smax},
    {"llvm.umin.", i_umin},
    {"llvm.umax.", i_umax},
    {"llvm.fabs.", i_fabs},
    {"llvm.copysign.", i_copysign},
    {"llvm.sqrt.", i_sqrt},
    {"llvm.floor.", i_floor},
    {"llvm.ceil.", i_ceil},
    {"llvm.trunc.", i_trunc},
    {"llvm.round.", i_round},
    {"llvm.roundeven.", i_roundeven},
    {"llvm.rint.", i_rint},
    {"llvm.nearbyint.", i_nearbyint},
    {"llvm.lround.", i_lround},
    {"llvm.llround.", i_lround},
    {"llvm.lrint.", i_lrint},
    {"llvm.llrint.", i_lrint},
    {"llvm.fma.", i_fma},
    {"llvm.fmuladd.", i_fmuladd},
    {"llvm.pow.", i_pow},
    {"llvm.exp.", i_exp},
    {"llvm.exp2.", i_exp2},
    {"llvm.log.", i_log},
    {"llvm.log2.", i_log2},
    {"llvm.log10.", i_log10},
    {"llvm.sin.", i_sin},
    {"llvm.cos.", i_cos},
    {"llvm.minnum.", i_minnum},
    {"llvm.maxnum.", i_maxnum},
    {"llvm.sadd.with.overflow.", i_sadd_o},
    {"llvm.uadd.with.overflow.", i_uadd_o},
    {"llvm.ssub.with.overflow.", i_ssub_o},
    {"llvm.usub.with.overflow.", i_usub_o},
    {"llvm.smul.with.overflow.", i_smul_o},
    {"llvm.umul.with.overflow.", i_umul_o},
    {"llvm.load.relative.", i_load_relative},
    {"llvm.uadd.sat.", i_uadd_sat},
    {"llvm.usub.sat.", i_usub_sat},
    {"llvm.sadd.sat.", i_sadd_sat},
    {"llvm.ssub.sat.", i_ssub_sat},
};

bool imp_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out) {
    const Intrinsic *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof intrinsics / sizeof intrinsics[0]; i++) {
        const char *p = intrinsics[i].prefix;
        /* Every prefix is "llvm." and more, as every intrinsic's name: one
         * that differs at the sixth character matches neither way. */
        if (len <= 5 || p[5] != name[5])
            continue;
        size_t n = strlen(p);
        bool match = p[n - 1] == '.' ? len >= n && !memcmp(name, p, n) : len == n && !memcmp(name, p, n);
        if (match && n > best_len) {
            best = &intrinsics[i];
            best_len = n;
        }
    }
    if (!best)
        return false;
    Call c = {I, call, name, len, out};
    best->fn(&c);
    return true;
}

/* llvm.NAME.f80 / llvm.NAME.f128 that are libm's NAMEl, by argument count. */
static const struct {
    const char *name;
    const char *fn;
    uint8_t nargs;
} long_double_libm[] = {
    {"floor", "floorl", 1},
    {"ceil", "ceill", 1},
    {"trunc", "truncl", 1},
    {"rint", "rintl", 1},
    {"nearbyint", "nearbyintl", 1},
    {"round", "roundl", 1},
    {"roundeven", "roundevenl", 1},
    {"sqrt", "sqrtl", 1},
    {"sin", "sinl", 1},
    {"cos", "cosl", 1},
    {"exp", "expl", 1},
    {"exp2", "exp2l", 1},
    {"log", "logl", 1},
    {"log2", "log2l", 1},
    {"log10", "log10l", 1},
    {"pow", "powl", 2},
    {"minnum", "fminl", 2},
    {"maxnum", "fmaxl", 2},
    {"fma", "fmal", 3},
};

const char *imp_long_double_libm(const char *base, size_t blen, unsigned nargs) {
    for (size_t i = 0; i < sizeof long_double_libm / sizeof long_double_libm[0]; i++)
        if (strlen(long_double_libm[i].name) == blen && !memcmp(base, long_double_libm[i].name, blen) &&
            nargs == long_double_libm[i].nargs)
            return long_double_libm[i].fn;
    return NULL;
}
