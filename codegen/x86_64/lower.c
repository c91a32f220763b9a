/* The x86-64 lowering hooks (B3Backend.lower): the B3 opcodes whose
 * selection is x86's own — shifts by %cl, division and the high multiply
 * through %rax/%rdx, clz by bsr, the unsigned and saturating float
 * conversions built from cvtsi2sd/cvttsd2si, and (lower_atomics.c) the
 * atomics, fences and Depend.  Everything else is the shared rules of
 * lower/lower_to_air.c. */
#include "codegen/x86_64/lower.h"

#include "codegen/x86_64/regs.h"

/* Shifts and rotates by a constant or by %cl. */
static void lower_shift(Lower *L, B3Value *v, AirOpcode op32, AirOpcode op64) {
    B3Type ty = (B3Type)v->type;
    AirOpcode op = ty == B3_Int32 ? op32 : op64;
    B3Value *a = lower_kid(v, 0), *amt = lower_kid(v, 1);
    AirTmp r = lower_vt(L, v);
    int64_t c;
    if (lower_int_const(amt, &c)) {
        c &= ty == B3_Int32 ? 31 : 63;
        lower_move_value_to(L, a, lower_tmp_arg(r), ty);
        if (c)
            EMIT_OP(L, op, air_imm(c), lower_tmp_arg(r));
        return;
    }
    /* Variable amounts live in %cl; x86 masks them by 31/63 like B3.  Every
     * operand is computed before %rcx is written. */
    AirArg sa = lower_vt_arg(L, amt);
    bool a_const = lower_int_const(a, &c);
    AirArg src = a_const ? air_imm(0) : lower_vt_arg(L, a);
    EMIT(L, Move, sa, lower_tmp_arg(B3X_rcx));
    if (a_const)
        lower_move_int_const(L, ty, c, lower_tmp_arg(r));
    else
        EMIT_OP(L, lower_move_op(ty), src, lower_tmp_arg(r));
    EMIT_OP(L, op, lower_tmp_arg(B3X_rcx), lower_tmp_arg(r));
}

/* idiv/div: dividend in %rax (and %rdx), quotient in %rax, remainder in %rdx. */
static void lower_div(Lower *L, B3Value *v, bool is_signed, bool want_rem) {
    B3Type ty = (B3Type)v->type;
    bool is32 = ty == B3_Int32;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    AirOpcode div = is_signed ? (is32 ? Air_X86Div32 : Air_X86Div64) : (is32 ? Air_X86UDiv32 : Air_X86UDiv64);
    AirTmp r = lower_vt(L, v);
    AirArg divisor;
    if (lower_can_fuse_load(L, b, B3_Load, ty) && VALID(L, div, AirArg_Tmp, AirArg_Tmp, AirArg_Addr))
        divisor = lower_commit_load(L, b);
    else
        divisor = lower_vt_arg(L, b);
    int64_t c;
    bool a_const = lower_int_const(a, &c);
    AirArg src = a_const ? air_imm(0) : lower_vt_arg(L, a);
    AirArg rax = lower_tmp_arg(B3X_rax), rdx = lower_tmp_arg(B3X_rdx);
    if (a_const)
        lower_move_int_const(L, ty, c, rax);
    else
        EMIT_OP(L, lower_move_op(ty), src, rax);
    if (is_signed)
        EMIT_OP(L, is32 ? Air_X86ConvertToDoubleWord32 : Air_X86ConvertToQuadWord64, rax, rdx);
    else
        EMIT(L, Move32, air_imm(0), rdx);
    EMIT_OP(L, div, rax, rdx, divisor);
    EMIT_OP(L, lower_move_op(ty), want_rem ? rdx : rax, lower_tmp_arg(r));
}

/* MulHigh/UMulHigh: the one-operand mul/imul, rdx:rax = rax * src. */
static void lower_mul_high(Lower *L, B3Value *v, bool is_signed) {
    B3Type ty = (B3Type)v->type;
    bool is32 = ty == B3_Int32;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    AirOpcode op = is_signed ? (is32 ? Air_X86MulHigh32 : Air_X86MulHigh64)
                             : (is32 ? Air_X86UMulHigh32 : Air_X86UMulHigh64);
    AirTmp r = lower_vt(L, v);
    AirArg src;
    if (lower_can_fuse_load(L, b, B3_Load, ty) && VALID(L, op, AirArg_Tmp, AirArg_Tmp, AirArg_Addr))
        src = lower_commit_load(L, b);
    else
        src = lower_vt_arg(L, b);
    AirArg rax = lower_tmp_arg(B3X_rax), rdx = lower_tmp_arg(B3X_rdx);
    lower_move_value_to(L, a, rax, ty);
    EMIT_OP(L, op, rax, rdx, src);
    EMIT_OP(L, lower_move_op(ty), rdx, lower_tmp_arg(r));
}

/* lzcnt-less clz: bsr with a scratch (CountLeadingZeros's third arg). */
static void lower_clz(Lower *L, B3Value *v) {
    bool is32 = v->type == B3_Int32;
    AirTmp r = lower_vt(L, v);
    AirArg a = lower_vt_arg(L, lower_kid(v, 0));
    EMIT_OP(L, is32 ? Air_CountLeadingZeros32 : Air_CountLeadingZeros64, a, lower_tmp_arg(r),
            lower_tmp_arg(lower_newtmp(L, AirGP)));
}

/* Unsigned integer to Double/Float, rounded once.  Int32: zero-extend and
 * convert as Int64.  Int64: values >= 2^63 are halved keeping the lost bit
 * sticky ((x >> 1) | (x & 1)), converted, then doubled (exactly), which rounds
 * like a direct conversion would. */
static void lower_utofp(Lower *L, B3Value *v) {
    bool dbl = v->type == B3_Double;
    B3Value *a = lower_kid(v, 0);
    AirTmp r = lower_vt(L, v);
    AirOpcode cvt = dbl ? Air_ConvertInt64ToDouble : Air_ConvertInt64ToFloat;
    AirTmp x = lower_vt(L, a);
    if (a->type == B3_Int32) {
        AirTmp z = lower_newtmp(L, AirGP);
        EMIT(L, Move32, lower_tmp_arg(x), lower_tmp_arg(z));
        EMIT_OP(L, cvt, lower_tmp_arg(z), lower_tmp_arg(r));
        return;
    }
    AirTmp h = lower_newtmp(L, AirGP), lo = lower_newtmp(L, AirGP), s = lower_newtmp(L, AirGP);
    EMIT(L, Move, lower_tmp_arg(x), lower_tmp_arg(h));
    EMIT(L, Urshift64, air_imm(1), lower_tmp_arg(h));
    EMIT(L, Move, lower_tmp_arg(x), lower_tmp_arg(lo));
    EMIT(L, And64, air_imm(1), lower_tmp_arg(lo));
    EMIT(L, Or64, lower_tmp_arg(lo), lower_tmp_arg(h));
    EMIT(L, Move, lower_tmp_arg(x), lower_tmp_arg(s));
    EMIT(L, MoveConditionallyTest64, air_rescond(AirCond_Signed), lower_tmp_arg(x), lower_tmp_arg(x),
         lower_tmp_arg(h), lower_tmp_arg(s));
    EMIT_OP(L, cvt, lower_tmp_arg(s), lower_tmp_arg(r));
    /* Scale by 2.0 when halved, 1.0 otherwise (chosen in a GP register). */
    AirTmp k = lower_newtmp(L, AirGP), k2 = lower_newtmp(L, AirGP), f = lower_newtmp(L, AirFP);
    if (dbl) {
        EMIT(L, Move, air_bigimm(0x3ff0000000000000ll), lower_tmp_arg(k));
        EMIT(L, Move, air_bigimm(0x4000000000000000ll), lower_tmp_arg(k2));
    } else {
        EMIT(L, Move32, air_imm(0x3f800000), lower_tmp_arg(k));
        EMIT(L, Move32, air_imm(0x40000000), lower_tmp_arg(k2));
    }
    EMIT(L, MoveConditionallyTest64, air_rescond(AirCond_Signed), lower_tmp_arg(x), lower_tmp_arg(x),
         lower_tmp_arg(k2), lower_tmp_arg(k));
    if (dbl) {
        EMIT(L, Move64ToDouble, lower_tmp_arg(k), lower_tmp_arg(f));
        EMIT(L, MulDouble, lower_tmp_arg(f), lower_tmp_arg(r));
    } else {
        EMIT(L, Move32ToFloat, lower_tmp_arg(k), lower_tmp_arg(f));
        EMIT(L, MulFloat, lower_tmp_arg(f), lower_tmp_arg(r));
    }
}

/* Saturating float -> integer conversions (NaN -> 0, out of range -> the
 * nearest bound), from the truncating instructions and conditional moves. */
static void lower_fptoint(Lower *L, B3Value *v, bool is_signed) {
    B3Value *a = lower_kid(v, 0);
    bool dbl = a->type == B3_Double, res64 = v->type == B3_Int64;
    AirOpcode cmov = dbl ? Air_MoveConditionallyDouble : Air_MoveConditionallyFloat;
    AirTmp x = lower_vt(L, a);
    AirTmp r = lower_vt(L, v);
    /* 2^31, 2^32, 2^63, 2^64 as double and float bits. */
    const uint64_t p31 = dbl ? 0x41e0000000000000ull : 0x4f000000u;
    const uint64_t p32 = dbl ? 0x41f0000000000000ull : 0x4f800000u;
    const uint64_t p63 = dbl ? 0x43e0000000000000ull : 0x5f000000u;
    const uint64_t p64 = dbl ? 0x43f0000000000000ull : 0x5f800000u;
    AirOpcode trunc64 = dbl ? Air_TruncateDoubleToInt64 : Air_TruncateFloatToInt64;
    if (is_signed) {
        /* cvtt gives INT_MIN for NaN and out of range: right for the low side. */
        AirOpcode trunc = res64 ? trunc64 : (dbl ? Air_TruncateDoubleToInt32 : Air_TruncateFloatToInt32);
        EMIT_OP(L, trunc, lower_tmp_arg(x), lower_tmp_arg(r));
        AirTmp lim = lower_fp_const_tmp(L, res64 ? p63 : p31, dbl);
        AirTmp mx = lower_newtmp(L, AirGP);
        if (res64)
            EMIT(L, Move, air_bigimm(INT64_MAX), lower_tmp_arg(mx));
        else
            EMIT(L, Move32, air_imm(INT32_MAX), lower_tmp_arg(mx));
        EMIT_OP(L, cmov, air_dcond(AirDCond_GreaterThanOrEqual), lower_tmp_arg(x), lower_tmp_arg(lim),
                lower_tmp_arg(mx), lower_tmp_arg(r));
        AirTmp z = lower_newtmp(L, AirGP);
        EMIT(L, Move32, air_imm(0), lower_tmp_arg(z));
        EMIT_OP(L, cmov, air_dcond(AirDCond_NotEqualOrUnordered), lower_tmp_arg(x), lower_tmp_arg(x),
                lower_tmp_arg(z), lower_tmp_arg(r));
        return;
    }
    EMIT_OP(L, trunc64, lower_tmp_arg(x), lower_tmp_arg(r)); /* exact for -1 < x < 2^63 */
    if (res64) {
        /* [2^63, 2^64): convert x - 2^63, then put the top bit back. */
        AirTmp lim = lower_fp_const_tmp(L, p63, dbl);
        AirTmp y = lower_newtmp(L, AirFP), t = lower_newtmp(L, AirGP), k = lower_newtmp(L, AirGP);
        EMIT_OP(L, dbl ? Air_MoveDouble : Air_MoveFloat, lower_tmp_arg(x), lower_tmp_arg(y));
        EMIT_OP(L, dbl ? Air_SubDouble : Air_SubFloat, lower_tmp_arg(lim), lower_tmp_arg(y));
        EMIT_OP(L, trunc64, lower_tmp_arg(y), lower_tmp_arg(t));
        EMIT(L, Move, air_bigimm(INT64_MIN), lower_tmp_arg(k));
        EMIT(L, Xor64, lower_tmp_arg(k), lower_tmp_arg(t));
        EMIT_OP(L, cmov, air_dcond(AirDCond_GreaterThanOrEqual), lower_tmp_arg(x), lower_tmp_arg(lim),
                lower_tmp_arg(t), lower_tmp_arg(r));
    }
    AirTmp top = lower_fp_const_tmp(L, res64 ? p64 : p32, dbl);
    AirTmp mx = lower_newtmp(L, AirGP);
    EMIT(L, Move, air_imm(-1), lower_tmp_arg(mx));
    EMIT_OP(L, cmov, air_dcond(AirDCond_GreaterThanOrEqual), lower_tmp_arg(x), lower_tmp_arg(top),
            lower_tmp_arg(mx), lower_tmp_arg(r));
    AirTmp zf = lower_fp_const_tmp(L, 0, dbl);
    AirTmp z = lower_newtmp(L, AirGP);
    EMIT(L, Move32, air_imm(0), lower_tmp_arg(z));
    EMIT_OP(L, cmov, air_dcond(AirDCond_LessThanOrUnordered), lower_tmp_arg(x), lower_tmp_arg(zf),
            lower_tmp_arg(z), lower_tmp_arg(r));
}

/* X87 (docs/c-extensions.md): the operation and the addresses of its
 * slots; an operation of fewer children repeats its last. */
static void lower_x87(Lower *L, B3Value *v) {
    AirArg a[4] = {air_imm(v->m.x87)};
    for (uint32_t i = 0; i < 3; i++) {
        if (i < v->nkids) {
            AirTmp t = lower_newtmp(L, AirGP);
            lower_move_value_to(L, lower_kid(v, i), lower_tmp_arg(t), B3_Int64);
            a[i + 1] = lower_tmp_arg(t);
        } else {
            a[i + 1] = a[i];
        }
    }
    if (v->type == B3_Int32)
        EMIT(L, X87Compare, a[0], a[1], a[2], lower_vt_arg(L, v));
    else
        EMIT(L, X87, a[0], a[1], a[2], a[3]);
}

/* ---- the hooks ------------------------------------------------------------ */

static bool hook_shift(Lower *L, B3Value *v) {
    switch (v->opcode) {
    case B3_Shl:
        lower_shift(L, v, Air_Lshift32, Air_Lshift64);
        break;
    case B3_SShr:
        lower_shift(L, v, Air_Rshift32, Air_Rshift64);
        break;
    case B3_ZShr:
        lower_shift(L, v, Air_Urshift32, Air_Urshift64);
        break;
    case B3_RotR:
        lower_shift(L, v, Air_RotateRight32, Air_RotateRight64);
        break;
    default:
        lower_shift(L, v, Air_RotateLeft32, Air_RotateLeft64);
        break;
    }
    return true;
}

/* Integer Div/Mod (not Chill: b3_lower_macros expanded those); float ones
 * are the shared rules'. */
static bool hook_div(Lower *L, B3Value *v) {
    if (b3_type_is_float((B3Type)v->type) || (v->kflags & B3K_CHILL))
        return false;
    bool is_signed = v->opcode == B3_Div || v->opcode == B3_Mod;
    lower_div(L, v, is_signed, v->opcode == B3_Mod || v->opcode == B3_UMod);
    return true;
}

static bool hook_mul_high(Lower *L, B3Value *v) {
    lower_mul_high(L, v, v->opcode == B3_MulHigh);
    return true;
}

static bool hook_clz(Lower *L, B3Value *v) {
    lower_clz(L, v);
    return true;
}

static bool hook_utofp(Lower *L, B3Value *v) {
    lower_utofp(L, v);
    return true;
}

static bool hook_x87(Lower *L, B3Value *v) {
    lower_x87(L, v);
    return true;
}

static bool hook_fptoint(Lower *L, B3Value *v) {
    lower_fptoint(L, v, v->opcode == B3_DToI);
    return true;
}

B3LowerHook *const b3_x86_64_lower_hooks[B3_NUM_OPCODES] = {
    [B3_Shl] = hook_shift,
    [B3_SShr] = hook_shift,
    [B3_ZShr] = hook_shift,
    [B3_RotR] = hook_shift,
    [B3_RotL] = hook_shift,
    [B3_Div] = hook_div,
    [B3_Mod] = hook_div,
    [B3_UDiv] = hook_div,
    [B3_UMod] = hook_div,
    [B3_MulHigh] = hook_mul_high,
    [B3_X87] = hook_x87,
    [B3_UMulHigh] = hook_mul_high,
    [B3_Clz] = hook_clz,
    [B3_UToD] = hook_utofp,
    [B3_UToF] = hook_utofp,
    [B3_DToI] = hook_fptoint,
    [B3_DToU] = hook_fptoint,
    /* lower_atomics.c: Equal/NotEqual of a CAS and a Branch on one use its
     * flags (or leave the value to the shared rules). */
    [B3_Equal] = x86_lower_cas_compare,
    [B3_NotEqual] = x86_lower_cas_compare,
    [B3_Branch] = x86_lower_cas_branch,
    [B3_AtomicWeakCAS] = x86_lower_cas,
    [B3_AtomicStrongCAS] = x86_lower_cas,
    [B3_AtomicXchgAdd] = x86_lower_atomic_rmw,
    [B3_AtomicXchgAnd] = x86_lower_atomic_rmw,
    [B3_AtomicXchgOr] = x86_lower_atomic_rmw,
    [B3_AtomicXchgSub] = x86_lower_atomic_rmw,
    [B3_AtomicXchgXor] = x86_lower_atomic_rmw,
    [B3_AtomicXchg] = x86_lower_atomic_rmw,
    [B3_Fence] = x86_lower_fence,
    [B3_Depend] = x86_lower_depend,
};
