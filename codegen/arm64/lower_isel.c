/* arm64 instruction selection for the integer arithmetic and bit operations
 * (B3Backend.lower hooks; B3's LowerToAir on ARM64 is the model): operands
 * that AArch64 shifts or extends for free (add x0, x1, x2, lsl #3; add x0,
 * x1, w2, sxtw), multiply-accumulate (madd/msub/mneg: integers only, a float
 * Add(Mul) is never contracted), bic/orn/eon, and the bitfield moves
 * (ubfx/sbfx/ubfiz/bfi) for shift-and-mask patterns.  Each hook returns
 * false for what it does not match: the shared rules of lower/lower_to_air.c
 * then lower the value.  A fused operand must be single-use in this block
 * (lower_can_be_internal): its own value is then never computed. */
#include "codegen/arm64/arm64.h"
#include "codegen/arm64/asm.h"
#include "lower/lower_internal.h"

static unsigned width_of(B3Type ty) { return ty == B3_Int32 ? 32 : 64; }

static void fuse(Lower *L, B3Value *x) { L->flags[lower_vid(L, x)] |= F_INTERNAL; }

/* x = Shl/SShr/ZShr(y, k) (or RotR/RotL(y, k) when rot) with a constant k
 * (mod the width) that is not 0, fusable here: *y, *k and the shift kind
 * (0 lsl, 1 asr, 2 lsr, 3 ror: the order of the Air opcode rows). */
static bool fusable_shift(Lower *L, B3Value *x, B3Type ty, bool rot, B3Value **y, unsigned *k,
                          unsigned *kind) {
    int64_t c;
    bool is_rot = x->opcode == B3_RotR || x->opcode == B3_RotL;
    if ((x->opcode != B3_Shl && x->opcode != B3_SShr && x->opcode != B3_ZShr && !(rot && is_rot)) ||
        x->type != ty || !lower_int_const(x->kids[1], &c) || !lower_can_be_internal(L, x))
        return false;
    unsigned mask = width_of(ty) - 1, amt = (unsigned)(c & mask);
    if (!amt || lower_int_const(x->kids[0], &c))
        return false;
    *y = lower_kid(x, 0);
    *k = x->opcode == B3_RotL ? (0u - amt) & mask : amt; /* rol by k = ror by width - k */
    *kind = x->opcode == B3_Shl ? 0 : x->opcode == B3_SShr ? 1 : x->opcode == B3_ZShr ? 2 : 3;
    return true;
}

/* The shifted-operand opcodes by operation, shift kind and width. */
enum { SOp_Add, SOp_Sub, SOp_And, SOp_Or, SOp_Xor };
static const AirOpcode shifted_ops[5][4][2] = {
    {{Air_AddLeftShift32, Air_AddLeftShift64},
     {Air_AddRightShift32, Air_AddRightShift64},
     {Air_AddUnsignedRightShift32, Air_AddUnsignedRightShift64},
     {Air_Nop, Air_Nop}},
    {{Air_SubLeftShift32, Air_SubLeftShift64},
     {Air_SubRightShift32, Air_SubRightShift64},
     {Air_SubUnsignedRightShift32, Air_SubUnsignedRightShift64},
     {Air_Nop, Air_Nop}},
    {{Air_AndLeftShift32, Air_AndLeftShift64},
     {Air_AndRightShift32, Air_AndRightShift64},
     {Air_AndUnsignedRightShift32, Air_AndUnsignedRightShift64},
     {Air_AndRotateRight32, Air_AndRotateRight64}},
    {{Air_OrLeftShift32, Air_OrLeftShift64},
     {Air_OrRightShift32, Air_OrRightShift64},
     {Air_OrUnsignedRightShift32, Air_OrUnsignedRightShift64},
     {Air_OrRotateRight32, Air_OrRotateRight64}},
    {{Air_XorLeftShift32, Air_XorLeftShift64},
     {Air_XorRightShift32, Air_XorRightShift64},
     {Air_XorUnsignedRightShift32, Air_XorUnsignedRightShift64},
     {Air_XorRotateRight32, Air_XorRotateRight64}},
};

/* v = a op shift(b) (op commutative: either operand may be the shift). */
static bool try_shifted(Lower *L, B3Value *v, int sop, bool commutative) {
    B3Type ty = (B3Type)v->type;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1), *y;
    unsigned k, kind;
    int64_t c;
    if (lower_int_const(a, &c) || lower_int_const(b, &c))
        return false;          /* immediates are the shared rules' */
    bool rot = sop >= SOp_And; /* add/sub shift but never rotate */
    if (!fusable_shift(L, b, ty, rot, &y, &k, &kind)) {
        if (!commutative || !fusable_shift(L, a, ty, rot, &y, &k, &kind))
            return false;
        b = a;
        a = lower_kid(v, 1);
    }
    fuse(L, b);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, shifted_ops[sop][kind][ty == B3_Int64], lower_vt_arg(L, a), lower_vt_arg(L, y), air_imm(k),
            lower_tmp_arg(r));
    return true;
}

/* x = Mul(p, q) of ty, fusable here.  A constant factor goes in a register
 * (mov #k; madd: the Mul's own mov #k; mul; add less one), except those
 * the shared rules multiply by without one (a power of two, 3, 5, 9, by
 * shifted adds). */
static bool fusable_mul(Lower *L, B3Value *x, B3Type ty) {
    int64_t c, d;
    if (x->opcode != B3_Mul || x->type != ty || !lower_can_be_internal(L, x))
        return false;
    bool c0 = lower_int_const(x->kids[0], &c), c1 = lower_int_const(x->kids[1], &d);
    if (c0 && c1)
        return false;
    if (!c0 && !c1)
        return true;
    uint64_t k = (uint64_t)(c0 ? c : d) & (ty == B3_Int32 ? 0xffffffffu : UINT64_MAX);
    return k && (k & (k - 1)) && k != 3 && k != 5 && k != 9;
}

/* An Int64 operand of a widening multiply: SExt32(y) (sign) or ZExt32(y),
 * or a constant that either extension of its low word gives.  *y: the
 * 32-bit value (a constant is a new Int32 tmp). */
static bool widening_operand(Lower *L, B3Value *x, bool sign, AirArg *y, B3Value **inner) {
    int64_t c;
    *inner = NULL;
    if (lower_int_const(x, &c)) {
        if (sign ? !b3_fits32(c) : (c < 0 || c > (int64_t)UINT32_MAX))
            return false;
        if (lower_const_elsewhere(L, lower_resolve(x), c)) {
            *y = lower_vt_arg(L, x); /* built before the loop: its low word */
            return true;
        }
        AirTmp t = lower_newtmp(L, AirGP);
        lower_move_int_const(L, B3_Int32, (int32_t)(uint32_t)c, lower_tmp_arg(t));
        *y = lower_tmp_arg(t);
        return true;
    }
    if (x->opcode != (sign ? B3_SExt32 : B3_ZExt32))
        return false;
    *inner = x;
    return true;
}

/* Mul(ext(a), ext(b)) of Int64 with both extensions alike (or a fitting
 * constant, not both): *sign.  Nothing is emitted. */
static bool widening_mul(B3Value *m, bool *sign) {
    int64_t c;
    B3Value *a = lower_kid(m, 0), *b = lower_kid(m, 1);
    if (m->type != B3_Int64 || (lower_int_const(a, &c) && lower_int_const(b, &c)))
        return false;
    for (int s = 1; s >= 0; s--) {
        B3Opcode ext = s ? B3_SExt32 : B3_ZExt32;
        bool ok = true;
        for (int k = 0; k < 2 && ok; k++) {
            B3Value *x = k ? b : a;
            if (lower_int_const(x, &c))
                ok = s ? b3_fits32(c) : c >= 0 && c <= (int64_t)UINT32_MAX;
            else
                ok = x->opcode == ext;
        }
        if (ok) {
            *sign = s;
            return true;
        }
    }
    return false;
}

/* The two 32-bit operands of a widening_mul m. */
static void widening_args(Lower *L, B3Value *m, bool sign, AirArg *x, AirArg *y) {
    B3Value *inner;
    for (int k = 0; k < 2; k++) {
        AirArg *out = k ? y : x;
        widening_operand(L, lower_kid(m, k), sign, out, &inner);
        if (inner)
            *out = lower_vt_arg(L, lower_kid(inner, 0));
    }
}

/* x = SExt32(y) or ZExt32(y), or Shl of one by 1..4, fusable here: the
 * extended-register operand (*y, *amount, *sign). */
static bool fusable_ext(Lower *L, B3Value *x, B3Value **y, unsigned *amount, bool *sign) {
    int64_t c;
    *amount = 0;
    if (x->opcode == B3_Shl && x->type == B3_Int64 && lower_int_const(x->kids[1], &c) && (c & 63) >= 1 &&
        (c & 63) <= 4 && lower_can_be_internal(L, x)) {
        B3Value *e = lower_kid(x, 0);
        if ((e->opcode == B3_SExt32 || e->opcode == B3_ZExt32) && lower_can_be_internal(L, e) &&
            !lower_int_const(e->kids[0], &c)) {
            fuse(L, x);
            fuse(L, e);
            *y = lower_kid(e, 0);
            *amount = (unsigned)(c & 63);
            *sign = e->opcode == B3_SExt32;
            return true;
        }
        return false;
    }
    if ((x->opcode != B3_SExt32 && x->opcode != B3_ZExt32) || !lower_can_be_internal(L, x) ||
        lower_int_const(x->kids[0], &c))
        return false;
    fuse(L, x);
    *y = lower_kid(x, 0);
    *sign = x->opcode == B3_SExt32;
    return true;
}

/* Int64 a +- extend(b) << k. */
static bool try_extended(Lower *L, B3Value *v, bool sub) {
    if (v->type != B3_Int64)
        return false;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1), *y;
    unsigned amount;
    bool sign;
    int64_t c;
    if (lower_int_const(a, &c) || lower_int_const(b, &c))
        return false;
    if (!fusable_ext(L, b, &y, &amount, &sign)) {
        if (sub || !fusable_ext(L, a, &y, &amount, &sign))
            return false;
        a = b;
    }
    AirOpcode op = sub ? (sign ? Air_SubSignExtend32To64 : Air_SubZeroExtend32To64)
                       : (sign ? Air_AddSignExtend32To64 : Air_AddZeroExtend32To64);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, a), lower_vt_arg(L, y), air_imm(amount), lower_tmp_arg(r));
    return true;
}

static bool try_cinc(Lower *L, B3Value *v);

/* Add: madd, cinc, then shifted and extended operands. */
static bool hook_add(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (!b3_type_is_int(ty))
        return false;
    if (try_cinc(L, v))
        return true;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    if (!lower_int_const(a, &c) && !lower_int_const(b, &c)) {
        B3Value *m = b->opcode == B3_Mul && lower_can_be_internal(L, b)   ? b
                     : a->opcode == B3_Mul && lower_can_be_internal(L, a) ? a
                                                                          : NULL;
        bool sign;
        AirOpcode op = ty == B3_Int32 ? Air_MultiplyAdd32 : Air_MultiplyAdd64;
        if (m && ty == B3_Int64 && widening_mul(m, &sign)) {
            /* c + ext(x) * ext(y), also with a constant k: smaddl/umaddl (a[i] of a struct array) */
            fuse(L, m);
            AirTmp r = lower_vt(L, v);
            AirArg x, y;
            widening_args(L, m, sign, &x, &y);
            EMIT_OP(L, sign ? Air_MultiplyAddSignExtend32 : Air_MultiplyAddZeroExtend32, x, y,
                    lower_vt_arg(L, m == b ? a : b), lower_tmp_arg(r));
            return true;
        }
        if (m && fusable_mul(L, m, ty)) {
            fuse(L, m);
            AirTmp r = lower_vt(L, v);
            EMIT_OP(L, op, lower_vt_arg(L, lower_kid(m, 0)), lower_vt_arg(L, lower_kid(m, 1)),
                    lower_vt_arg(L, m == b ? a : b), lower_tmp_arg(r));
            return true;
        }
    }
    return try_extended(L, v, false) || try_shifted(L, v, SOp_Add, true);
}

/* Sub: msub, mneg for 0 - Mul, then shifted and extended operands. */
static bool hook_sub(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (!b3_type_is_int(ty))
        return false;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    if (fusable_mul(L, b, ty) && (lower_is_const_zero(a) || !lower_int_const(a, &c))) {
        fuse(L, b);
        AirTmp r = lower_vt(L, v);
        AirArg x = lower_vt_arg(L, lower_kid(b, 0)), y = lower_vt_arg(L, lower_kid(b, 1));
        if (lower_is_const_zero(a))
            EMIT_OP(L, ty == B3_Int32 ? Air_MultiplyNeg32 : Air_MultiplyNeg64, x, y, lower_tmp_arg(r));
        else
            EMIT_OP(L, ty == B3_Int32 ? Air_MultiplySub32 : Air_MultiplySub64, x, y, lower_vt_arg(L, a),
                    lower_tmp_arg(r));
        return true;
    }
    return try_extended(L, v, true) || try_shifted(L, v, SOp_Sub, false);
}

/* Integer Neg(Mul(x, y)): mneg. */
bool b3_arm64_lower_neg_mul(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    B3Value *m = lower_kid(v, 0);
    if (!b3_type_is_int(ty) || !fusable_mul(L, m, ty))
        return false;
    fuse(L, m);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, ty == B3_Int32 ? Air_MultiplyNeg32 : Air_MultiplyNeg64, lower_vt_arg(L, lower_kid(m, 0)),
            lower_vt_arg(L, lower_kid(m, 1)), lower_tmp_arg(r));
    return true;
}

/* x = BitXor(y, -1), fusable here: ~y. */
static bool fusable_not(Lower *L, B3Value *x, B3Type ty, B3Value **y) {
    int64_t c;
    if (x->opcode != B3_BitXor || x->type != ty || !lower_can_be_internal(L, x))
        return false;
    uint64_t all = ty == B3_Int32 ? 0xffffffffu : UINT64_MAX;
    for (int k = 0; k < 2; k++) {
        if (lower_int_const(x->kids[k], &c) && ((uint64_t)c & all) == all &&
            !lower_int_const(x->kids[1 - k], &c)) {
            *y = lower_kid(x, 1 - k);
            return true;
        }
    }
    return false;
}

/* a op ~b: bic, orn, eon. */
static bool try_not_operand(Lower *L, B3Value *v, AirOpcode op32, AirOpcode op64) {
    B3Type ty = (B3Type)v->type;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1), *y;
    int64_t c;
    if (lower_int_const(a, &c) || lower_int_const(b, &c))
        return false;
    if (!fusable_not(L, b, ty, &y)) {
        if (!fusable_not(L, a, ty, &y))
            return false;
        b = a;
        a = lower_kid(v, 1);
    }
    fuse(L, b);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, ty == B3_Int32 ? op32 : op64, lower_vt_arg(L, a), lower_vt_arg(L, y), lower_tmp_arg(r));
    return true;
}

/* The run of ones in m: m = (2^w - 1) << lsb with w >= 1. */
static bool ones_run(uint64_t m, unsigned *lsb, unsigned *w) {
    if (!m)
        return false;
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t s = m >> l;
    if (s & (s + 1))
        return false;
    *lsb = l;
    *w = s == UINT64_MAX ? 64 : (unsigned)__builtin_ctzll(s + 1);
    return true;
}

/* BitAnd(ZShr/SShr(x, k), 2^w - 1): ubfx (sbfx is no better: the mask
 * clears the sign bits anyway); BitAnd(Shl(x, k), (2^w - 1) << k): ubfiz. */
static bool try_bitfield_and(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    unsigned bits = width_of(ty);
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c, k;
    if (lower_int_const(a, &c)) {
        B3Value *t = a;
        a = b;
        b = t;
    }
    if (!lower_int_const(b, &c) || lower_int_const(a, &k))
        return false;
    uint64_t m = (uint64_t)c & (ty == B3_Int32 ? 0xffffffffu : UINT64_MAX);
    unsigned lsb, w;
    if (!ones_run(m, &lsb, &w) || (a->opcode != B3_ZShr && a->opcode != B3_SShr && a->opcode != B3_Shl) ||
        !lower_int_const(a->kids[1], &k) || !lower_can_be_internal(L, a))
        return false;
    unsigned sh = (unsigned)(k & (bits - 1));
    if (!sh)
        return false;
    AirOpcode op;
    if (a->opcode != B3_Shl) {
        /* bits lsb .. lsb+w-1 of x >> sh are bits sh+lsb .. of x, when inside it */
        if (lsb != 0 || sh + w > bits)
            return false;
        op = ty == B3_Int32 ? Air_ExtractUnsignedBitfield32 : Air_ExtractUnsignedBitfield64;
        lsb = sh;
    } else {
        if (lsb != sh || lsb + w > bits)
            return false;
        op = ty == B3_Int32 ? Air_InsertUnsignedBitfieldInZero32 : Air_InsertUnsignedBitfieldInZero64;
    }
    fuse(L, a);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, lower_kid(a, 0)), air_imm(lsb), air_imm(w), lower_tmp_arg(r));
    return true;
}

/* a op c with c a logical immediate (and x0, x1, #0xff00ff00ff00ff00),
 * any 64-bit one too: no register for the constant, no copy of a. */
static bool try_logical_imm(Lower *L, B3Value *v, AirOpcode op32, AirOpcode op64) {
    B3Type ty = (B3Type)v->type;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c, k;
    lower_imm_to_right(&a, &b);
    if (!lower_int_const(b, &c) || lower_int_const(a, &k))
        return false;
    bool is64 = ty == B3_Int64;
    uint64_t u = (uint64_t)c & (is64 ? UINT64_MAX : 0xffffffffu);
    uint32_t enc;
    if (!arm64_logical_imm_encode(u, is64, &enc))
        return false;
    /* (and with 0xff, 0xffff, 0xffffffff: the shared rule's uxtb/uxth/mov w.) */
    if (v->opcode == B3_BitAnd && (u == 0xff || u == 0xffff || (u == 0xffffffffu && is64)))
        return false;
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, is64 ? op64 : op32, lower_vt_arg(L, a), b3_fits32(c) ? air_imm(c) : air_bigimm(c),
            lower_tmp_arg(r));
    return true;
}

/* SShr/ZShr(Shl(x, l), r) with constant amounts: the bits that survive
 * both shifts, as one sbfx/ubfx (r >= l) or sbfiz/ubfiz (r < l). */
bool b3_arm64_lower_shift_pair(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    unsigned bits = width_of(ty);
    B3Value *x = lower_kid(v, 0);
    int64_t l, r, k;
    if ((v->opcode != B3_SShr && v->opcode != B3_ZShr) || x->opcode != B3_Shl || x->type != ty ||
        !lower_int_const(v->kids[1], &r) || !lower_int_const(x->kids[1], &l) ||
        !lower_can_be_internal(L, x) || lower_int_const(x->kids[0], &k))
        return false;
    unsigned lu = (unsigned)(l & (bits - 1)), ru = (unsigned)(r & (bits - 1));
    if (!lu || !ru)
        return false;
    bool sign = v->opcode == B3_SShr;
    AirOpcode op;
    /* r >= l: bits r-l .. W-l-1 of x; r < l: x's low W-l bits at l-r. */
    unsigned lsb, w = bits - (ru >= lu ? ru : lu);
    if (ru >= lu) {
        op = sign ? (ty == B3_Int32 ? Air_ExtractSignedBitfield32 : Air_ExtractSignedBitfield64)
                  : (ty == B3_Int32 ? Air_ExtractUnsignedBitfield32 : Air_ExtractUnsignedBitfield64);
        lsb = ru - lu;
    } else {
        if (sign)
            return false; /* sbfiz: not an Air form here */
        op = ty == B3_Int32 ? Air_InsertUnsignedBitfieldInZero32 : Air_InsertUnsignedBitfieldInZero64;
        lsb = lu - ru;
    }
    fuse(L, x);
    AirTmp res = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, lower_kid(x, 0)), air_imm(lsb), air_imm(w), lower_tmp_arg(res));
    return true;
}

static bool hook_and(Lower *L, B3Value *v) {
    if (!b3_type_is_int((B3Type)v->type))
        return false;
    return try_bitfield_and(L, v) || try_logical_imm(L, v, Air_And32, Air_And64) ||
           try_not_operand(L, v, Air_AndNot32, Air_AndNot64) || try_shifted(L, v, SOp_And, true);
}

/* x = BitAnd(y, m) fusable here with the constant m: *y and m. */
static bool fusable_and_const(Lower *L, B3Value *x, B3Type ty, B3Value **y, uint64_t *m) {
    int64_t c;
    if (x->opcode != B3_BitAnd || x->type != ty || !lower_can_be_internal(L, x))
        return false;
    for (int k = 0; k < 2; k++) {
        if (lower_int_const(x->kids[k], &c) && !lower_int_const(x->kids[1 - k], &c)) {
            lower_int_const(x->kids[k], &c);
            *y = lower_kid(x, 1 - k);
            *m = (uint64_t)c & (ty == B3_Int32 ? 0xffffffffu : UINT64_MAX);
            return true;
        }
    }
    return false;
}

/* The field side of a bfi into mask m = (2^w - 1) << lsb: BitAnd(Shl(b,
 * lsb), m), Shl(BitAnd(b, 2^w - 1), lsb), or BitAnd(b, m) when lsb is 0.
 * Returns b, marking what it fuses, or NULL. */
static B3Value *bfi_field(Lower *L, B3Value *x, B3Type ty, unsigned lsb, unsigned w) {
    unsigned bits = width_of(ty);
    uint64_t low = w == 64 ? UINT64_MAX : (1ull << w) - 1, m;
    int64_t k;
    B3Value *y;
    if (fusable_and_const(L, x, ty, &y, &m)) {
        if (m != low << lsb)
            return NULL;
        if (!lsb) {
            fuse(L, x);
            return y;
        }
        if (y->opcode == B3_Shl && y->type == ty && lower_int_const(y->kids[1], &k) &&
            (unsigned)(k & (bits - 1)) == lsb && lower_can_be_internal(L, y) &&
            !lower_int_const(y->kids[0], &k)) {
            fuse(L, x);
            fuse(L, y);
            return lower_kid(y, 0);
        }
        return NULL;
    }
    if (x->opcode == B3_Shl && x->type == ty && lower_int_const(x->kids[1], &k) &&
        (unsigned)(k & (bits - 1)) == lsb && lsb && lower_can_be_internal(L, x) &&
        fusable_and_const(L, lower_kid(x, 0), ty, &y, &m) && m == low) {
        fuse(L, x);
        fuse(L, lower_kid(x, 0));
        return y;
    }
    return NULL;
}

/* BitOr(BitAnd(a, ~m), field(b)) with m a run of ones: a copy of a, then bfi. */
static bool try_bfi(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    uint64_t all = ty == B3_Int32 ? 0xffffffffu : UINT64_MAX;
    for (int side = 0; side < 2; side++) {
        B3Value *keep = lower_kid(v, side), *field = lower_kid(v, 1 - side), *a;
        uint64_t notm;
        unsigned lsb, w;
        if (!fusable_and_const(L, keep, ty, &a, &notm) || !ones_run(~notm & all, &lsb, &w) ||
            w == width_of(ty))
            continue;
        B3Value *b = bfi_field(L, field, ty, lsb, w);
        if (!b)
            continue;
        fuse(L, keep);
        AirTmp r = lower_vt(L, v);
        AirArg src = lower_vt_arg(L, b);
        lower_move_value_to(L, a, lower_tmp_arg(r), ty);
        EMIT_OP(L, ty == B3_Int32 ? Air_InsertBitField32 : Air_InsertBitField64, src, air_imm(lsb),
                air_imm(w), lower_tmp_arg(r));
        return true;
    }
    return false;
}

static bool hook_or(Lower *L, B3Value *v) {
    if (!b3_type_is_int((B3Type)v->type))
        return false;
    return try_bfi(L, v) || try_logical_imm(L, v, Air_Or32, Air_Or64) ||
           try_not_operand(L, v, Air_OrNot32, Air_OrNot64) || try_shifted(L, v, SOp_Or, true);
}

static bool hook_xor(Lower *L, B3Value *v) {
    if (!b3_type_is_int((B3Type)v->type))
        return false;
    return try_logical_imm(L, v, Air_Xor32, Air_Xor64) || try_not_operand(L, v, Air_XorNot32, Air_XorNot64) ||
           try_shifted(L, v, SOp_Xor, true);
}

/* Mul(x, 2^s + 1) for s > 3 (3, 5, 9 are the shared lea rule's, the same
 * add): add x, x, x, lsl #s. */
static bool hook_mul(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (!b3_type_is_int(ty))
        return false;
    bool sign;
    if (widening_mul(v, &sign)) {
        /* Mul(ext(x), ext(y)): smull/umull */
        AirTmp r = lower_vt(L, v);
        AirArg x, y;
        widening_args(L, v, sign, &x, &y);
        EMIT_OP(L, sign ? Air_MultiplySignExtend32 : Air_MultiplyZeroExtend32, x, y, lower_tmp_arg(r));
        return true;
    }
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c, k;
    lower_imm_to_right(&a, &b);
    if (!lower_int_const(b, &c) || lower_int_const(a, &k))
        return false;
    uint64_t m = ((uint64_t)c - 1) & (ty == B3_Int32 ? 0xffffffffu : UINT64_MAX);
    if (m < 16 || (m & (m - 1)))
        return false;
    unsigned s = (unsigned)__builtin_ctzll(m);
    AirTmp r = lower_vt(L, v);
    AirArg x = lower_vt_arg(L, a);
    EMIT_OP(L, ty == B3_Int32 ? Air_AddLeftShift32 : Air_AddLeftShift64, x, x, air_imm(s), lower_tmp_arg(r));
    return true;
}

bool b3_arm64_lower_add(Lower *L, B3Value *v) { return hook_add(L, v); }
bool b3_arm64_lower_sub(Lower *L, B3Value *v) { return hook_sub(L, v); }
bool b3_arm64_lower_mul(Lower *L, B3Value *v) { return hook_mul(L, v); }
bool b3_arm64_lower_bit_and(Lower *L, B3Value *v) { return hook_and(L, v); }
bool b3_arm64_lower_bit_or(Lower *L, B3Value *v) { return hook_or(L, v); }
bool b3_arm64_lower_bit_xor(Lower *L, B3Value *v) { return hook_xor(L, v); }

/* ---- csinc/csinv/csneg for Select, cset+add, csetm; shifted compares ---- */

/* The width of the condition lower_build_cond makes of c (it looks through
 * the same Equal/NotEqual(x, 0) levels): 32 or 64, 0 when it is a float
 * relation or a constant.  The select-and-operate forms compare at their
 * result's width, so a hook checks this before fusing anything. */
static unsigned cond_width(Lower *L, B3Value *c) {
    c = lower_resolve(c);
    while ((c->opcode == B3_Equal || c->opcode == B3_NotEqual) &&
           b3_type_is_int((B3Type)lower_kid(c, 0)->type) && lower_can_be_internal(L, c)) {
        if (lower_is_const_zero(c->kids[1]))
            c = lower_kid(c, 0);
        else if (lower_is_const_zero(c->kids[0]))
            c = lower_kid(c, 1);
        else
            break;
    }
    int64_t k;
    if (lower_int_const(c, &k))
        return 0;
    B3Type ty = (B3Type)c->type;
    if ((b3_op_info[c->opcode].flags & B3OF_COMPARE) && c->owner == L->blk)
        ty = (B3Type)lower_kid(c, 0)->type;
    return b3_type_is_int(ty) ? width_of(ty) : 0;
}

/* The Select{Increment,Invert,Negate} opcodes by operation (csinc, csinv,
 * csneg), then by condition kind (CK_Rel32 .. CK_Test64). */
enum { CS_Inc, CS_Inv, CS_Neg };
static const AirOpcode csel_ops[3][CK_NUM] = {
    {Air_SelectIncrement32, Air_SelectIncrement64, Air_SelectIncrementTest32, Air_SelectIncrementTest64,
     Air_Nop, Air_Nop},
    {Air_SelectInvert32, Air_SelectInvert64, Air_SelectInvertTest32, Air_SelectInvertTest64, Air_Nop,
     Air_Nop},
    {Air_SelectNegate32, Air_SelectNegate64, Air_SelectNegateTest32, Air_SelectNegateTest64, Air_Nop,
     Air_Nop},
};

/* An operand of a select-and-operate: 0 (or NULL) is the zero register (Imm 0). */
static AirArg csel_arg(Lower *L, B3Value *x) {
    return !x || lower_is_const_zero(x) ? air_imm(0) : lower_vt_arg(L, x);
}

/* dst = c ? a : op(b) (a or b NULL: 0).  c's width was checked. */
static void emit_csel_op(Lower *L, B3Value *v, B3Value *c, bool invert, int op, B3Value *a, B3Value *b) {
    AirTmp r = lower_vt(L, v);
    Cond cd;
    lower_build_cond(L, c, csel_ops[op], 3, &cd);
    if (cd.kind == CK_Const || cd.kind >= CK_Double)
        b3_internal_error("lower_to_air", "arm64 select: unexpected condition kind");
    if (invert)
        cd.cond.cond = (uint8_t)air_cond_invert((AirCond)cd.cond.cond);
    AirArg aa = csel_arg(L, a), bb = csel_arg(L, b);
    EMIT_OP(L, csel_ops[op][cd.kind], cd.cond, cd.left, cd.right, aa, bb, lower_tmp_arg(r));
}

/* e as op(b) for a select-and-operate of ty, fusable here: Add(b, 1) and
 * the constant 1 (csinc), BitXor(b, -1) and -1 (csinv), Neg(b) (csneg).
 * *b NULL: op(0); *fused: e itself is to be fused. */
static bool csel_else(Lower *L, B3Value *e, B3Type ty, int *op, B3Value **b, bool *fused) {
    int64_t c;
    uint64_t all = ty == B3_Int32 ? 0xffffffffu : UINT64_MAX;
    *b = NULL;
    *fused = false;
    if (e->type != ty)
        return false;
    if (lower_int_const(e, &c)) {
        if (((uint64_t)c & all) == 1)
            *op = CS_Inc;
        else if (((uint64_t)c & all) == all)
            *op = CS_Inv;
        else
            return false;
        return true;
    }
    if (!lower_can_be_internal(L, e))
        return false;
    *fused = true;
    if (e->opcode == B3_Neg) {
        *op = CS_Neg;
        *b = lower_kid(e, 0);
        return true;
    }
    if (e->opcode == B3_Add || e->opcode == B3_BitXor) {
        uint64_t want = e->opcode == B3_Add ? 1 : all;
        for (int k = 0; k < 2; k++)
            if (lower_int_const(e->kids[k], &c) && ((uint64_t)c & all) == want &&
                !lower_int_const(e->kids[1 - k], &c)) {
                *op = e->opcode == B3_Add ? CS_Inc : CS_Inv;
                *b = lower_kid(e, 1 - k);
                return true;
            }
    }
    return false;
}

/* Select(c, a, op(b)) of an integer: csinc/csinv/csneg (with the condition
 * negated when op(b) is the then input); Select(c, 0, 1) is cset,
 * Select(c, -1, 0) csetm, Select(c, Neg(x), x) cneg. */
bool b3_arm64_lower_select(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (!b3_type_is_int(ty) || cond_width(L, v->kids[0]) != width_of(ty))
        return false;
    for (int side = 0; side < 2; side++) {
        B3Value *a = lower_kid(v, 1 + side), *e = lower_kid(v, 2 - side), *b;
        int op;
        bool fused;
        if (!csel_else(L, e, ty, &op, &b, &fused))
            continue;
        if (fused)
            fuse(L, e);
        emit_csel_op(L, v, v->kids[0], side == 1, op, a, b);
        return true;
    }
    return false;
}

/* x (of ty) is a condition's 0/1 that one select-and-operate can compute:
 * a compare (Int64: ZExt32 of one) used only here.  *c: the compare. */
static bool fusable_flag(Lower *L, B3Value *x, B3Type ty, B3Value **c) {
    if (ty == B3_Int64) {
        if (x->opcode != B3_ZExt32 || !lower_can_be_internal(L, x))
            return false;
        x = lower_kid(x, 0);
    }
    if (!(b3_op_info[x->opcode].flags & B3OF_COMPARE) || x->owner != L->blk || !lower_can_be_internal(L, x) ||
        cond_width(L, x) != width_of(ty))
        return false;
    *c = x;
    return true;
}

/* Add(a, cmp) (count += x < y): cinc, i.e. csinc r, a, a, !cond. */
static bool try_cinc(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    for (int k = 0; k < 2; k++) {
        B3Value *x = lower_kid(v, k), *a = lower_kid(v, 1 - k), *c;
        int64_t n;
        if (lower_int_const(a, &n) || !fusable_flag(L, x, ty, &c))
            continue;
        if (x != c)
            fuse(L, x); /* the ZExt32 */
        emit_csel_op(L, v, c, true, CS_Inc, a, a);
        return true;
    }
    return false;
}

/* Integer Neg(cmp): csetm, i.e. csinv r, zr, zr, !cond. */
bool b3_arm64_lower_csetm(Lower *L, B3Value *v) {
    B3Value *x = lower_kid(v, 0), *c;
    if (!b3_type_is_int((B3Type)v->type) || !fusable_flag(L, x, (B3Type)v->type, &c))
        return false;
    if (x != c)
        fuse(L, x);
    emit_csel_op(L, v, c, true, CS_Inv, NULL, NULL);
    return true;
}

/* Branch(cmp(a, shift(b, k))) with the shift single-use: cmp a, b, lsl #k;
 * Branch(BitAnd(a, shift(b, k))) (also under Equal/NotEqual(.., 0)):
 * tst a, b, lsl #k; Branch(Equal/NotEqual(a, Neg(b or shift(b, k)))):
 * cmn a, b {, lsl #k}.  (Only branches: the compare forms are shared by
 * every condition user; see docs/backend.md, "arm64 instruction selection".) */
static const AirOpcode branch_shift_ops[3][3][2] = {
    {{Air_BranchCompareLeftShift32, Air_BranchCompareLeftShift64},
     {Air_BranchCompareRightShift32, Air_BranchCompareRightShift64},
     {Air_BranchCompareUnsignedRightShift32, Air_BranchCompareUnsignedRightShift64}},
    {{Air_BranchTestLeftShift32, Air_BranchTestLeftShift64},
     {Air_BranchTestRightShift32, Air_BranchTestRightShift64},
     {Air_BranchTestUnsignedRightShift32, Air_BranchTestUnsignedRightShift64}},
    {{Air_BranchCompareNegatedLeftShift32, Air_BranchCompareNegatedLeftShift64},
     {Air_BranchCompareNegatedRightShift32, Air_BranchCompareNegatedRightShift64},
     {Air_BranchCompareNegatedUnsignedRightShift32, Air_BranchCompareNegatedUnsignedRightShift64}},
};

static AirCond rel_of(B3Opcode op) {
    switch (op) {
    case B3_Equal:
        return AirCond_Equal;
    case B3_NotEqual:
        return AirCond_NotEqual;
    case B3_LessThan:
        return AirCond_LessThan;
    case B3_GreaterThan:
        return AirCond_GreaterThan;
    case B3_LessEqual:
        return AirCond_LessThanOrEqual;
    case B3_GreaterEqual:
        return AirCond_GreaterThanOrEqual;
    case B3_Above:
        return AirCond_Above;
    case B3_Below:
        return AirCond_Below;
    case B3_AboveEqual:
        return AirCond_AboveOrEqual;
    case B3_BelowEqual:
        return AirCond_BelowOrEqual;
    default:
        return AirCond_NUM;
    }
}

/* a R b <=> b R' a. */
static AirCond swap_rel(AirCond c) {
    switch (c) {
    case AirCond_LessThan:
        return AirCond_GreaterThan;
    case AirCond_GreaterThan:
        return AirCond_LessThan;
    case AirCond_LessThanOrEqual:
        return AirCond_GreaterThanOrEqual;
    case AirCond_GreaterThanOrEqual:
        return AirCond_LessThanOrEqual;
    case AirCond_Below:
        return AirCond_Above;
    case AirCond_Above:
        return AirCond_Below;
    case AirCond_BelowOrEqual:
        return AirCond_AboveOrEqual;
    case AirCond_AboveOrEqual:
        return AirCond_BelowOrEqual;
    default:
        return c;
    }
}

bool b3_arm64_lower_shifted_branch(Lower *L, B3Value *br) {
    B3Value *c = lower_kid(br, 0), *a, *b, *y;
    bool test = false, negate = false;
    AirCond cond = AirCond_NonZero;
    int64_t n;
    /* Equal/NotEqual(BitAnd, 0): the test, negated for Equal. */
    if ((c->opcode == B3_Equal || c->opcode == B3_NotEqual) && lower_is_const_zero(c->kids[1]) &&
        lower_kid(c, 0)->opcode == B3_BitAnd && c->owner == L->blk && lower_can_be_internal(L, c)) {
        negate = c->opcode == B3_Equal;
        B3Value *and = lower_kid(c, 0);
        if (and->owner != L->blk || !lower_can_be_internal(L, and))
            return false;
        test = true;
        c = and;
    } else if (c->opcode == B3_BitAnd) {
        if (c->owner != L->blk || !lower_can_be_internal(L, c))
            return false;
        test = true;
    } else if ((cond = rel_of((B3Opcode)c->opcode)) == AirCond_NUM || c->owner != L->blk ||
               !b3_type_is_int((B3Type)lower_kid(c, 0)->type) || !lower_can_be_internal(L, c)) {
        return false;
    }
    B3Type ty = (B3Type)lower_kid(c, 0)->type;
    a = lower_kid(c, 0);
    b = lower_kid(c, 1);
    if (lower_int_const(a, &n) || lower_int_const(b, &n))
        return false;
    unsigned k = 0, kind = 0, op = test;
    B3Value *neg = NULL, *shift = NULL;
    /* a ==/!= Neg(x): cmn a, x (the flags of a + x; only for equality, as
     * cmp a, -x overflows differently), x possibly shifted. */
    if (!test && (cond == AirCond_Equal || cond == AirCond_NotEqual)) {
        neg = b->opcode == B3_Neg ? b : a->opcode == B3_Neg ? a : NULL;
        if (neg &&
            (neg->type != ty || !lower_can_be_internal(L, neg) || lower_int_const(lower_kid(neg, 0), &n)))
            neg = NULL;
    }
    if (neg) {
        op = 2;
        a = neg == b ? a : b;
        y = lower_kid(neg, 0);
        if (fusable_shift(L, y, ty, false, &y, &k, &kind))
            shift = lower_kid(neg, 0);
    } else if (fusable_shift(L, b, ty, false, &y, &k, &kind)) {
        shift = b;
    } else if (fusable_shift(L, a, ty, false, &y, &k, &kind)) {
        shift = a;
        a = b;
        if (!test)
            cond = swap_rel(cond);
    } else {
        return false;
    }
    if (test)
        cond = negate ? AirCond_Zero : AirCond_NonZero;
    if (c != lower_kid(br, 0))
        fuse(L, lower_kid(br, 0)); /* the Equal/NotEqual(.., 0) */
    fuse(L, c);
    if (neg)
        fuse(L, neg);
    if (shift)
        fuse(L, shift);
    AirArg ca = test ? air_rescond(cond) : air_relcond(cond);
    B3Block *blk = L->blk;
    EMIT_OP(L, branch_shift_ops[op][kind][ty == B3_Int64], ca, lower_vt_arg(L, a), lower_vt_arg(L, y),
            air_imm(k));
    lower_set_succs(L, L->ablock[blk->pos], 2,
                    (AirSucc[]){lower_succ_of(L, blk->succs[0]), lower_succ_of(L, blk->succs[1])});
    return true;
}
