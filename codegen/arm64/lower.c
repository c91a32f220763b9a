/* The arm64 lowering hooks (B3Backend.lower): the B3 opcodes whose
 * selection differs from the shared rules of lower/lower_to_air.c on
 * AArch64 — three-operand shifts taking the count in any register (and
 * rotate left as a rotate right by the negated count), sdiv/udiv with msub
 * for the remainder, smulh/umulh and smull/umull for the high multiplies,
 * clz, ucvtf, the saturating fcvtzs/fcvtzu (exactly B3's semantics, so no
 * fix-up), fneg/fabs and fmin/fmax (the spec's wasm semantics).  The
 * atomics, fenced loads and stores, Fence and Depend are lower_atomics.c's. */
#include "codegen/arm64/arm64.h"
#include "lower/lower_internal.h"

/* Shl, SShr, ZShr, RotR, RotL: op src, amount|#imm, dst.  The hardware
 * takes the count modulo the width, as B3 does. */
static bool hook_shift(Lower *L, B3Value *v) {
    if (b3_arm64_lower_shift_pair(L, v))
        return true;
    bool is32 = v->type == B3_Int32;
    AirOpcode op;
    switch (v->opcode) {
    case B3_Shl:
        op = is32 ? Air_Lshift32 : Air_Lshift64;
        break;
    case B3_SShr:
        op = is32 ? Air_Rshift32 : Air_Rshift64;
        break;
    case B3_ZShr:
        op = is32 ? Air_Urshift32 : Air_Urshift64;
        break;
    default:
        op = is32 ? Air_RotateRight32 : Air_RotateRight64;
        break;
    }
    B3Value *a = lower_kid(v, 0), *amt = lower_kid(v, 1);
    AirTmp r = lower_vt(L, v);
    int64_t c;
    unsigned mask = is32 ? 31 : 63;
    if (lower_int_const(amt, &c)) {
        c &= mask;
        if (v->opcode == B3_RotL)
            c = (-c) & mask; /* rol by c = ror by width - c */
        if (!c) {
            lower_move_value_to(L, a, lower_tmp_arg(r), (B3Type)v->type);
            return true;
        }
        EMIT_OP(L, op, lower_vt_arg(L, a), air_imm(c), lower_tmp_arg(r));
        return true;
    }
    AirArg src = lower_vt_arg(L, a);
    AirArg count = lower_vt_arg(L, amt);
    if (v->opcode == B3_RotL) {
        AirTmp n = lower_newtmp(L, AirGP);
        EMIT_OP(L, lower_move_op((B3Type)amt->type), count, lower_tmp_arg(n));
        EMIT_OP(L, is32 ? Air_Neg32 : Air_Neg64, lower_tmp_arg(n));
        count = lower_tmp_arg(n);
    }
    EMIT_OP(L, op, src, count, lower_tmp_arg(r));
    return true;
}

/* Integer Div/UDiv: sdiv/udiv.  Mod/UMod: a - (a / b) * b by msub.  (Chill
 * ones were expanded by b3_lower_macros; float ones are the shared rules'.) */
static bool hook_div(Lower *L, B3Value *v) {
    if (b3_type_is_float((B3Type)v->type) || (v->kflags & B3K_CHILL))
        return false;
    bool is32 = v->type == B3_Int32;
    bool is_signed = v->opcode == B3_Div || v->opcode == B3_Mod;
    bool rem = v->opcode == B3_Mod || v->opcode == B3_UMod;
    AirOpcode div = is_signed ? (is32 ? Air_Div32 : Air_Div64) : (is32 ? Air_UDiv32 : Air_UDiv64);
    AirTmp r = lower_vt(L, v);
    AirArg a = lower_vt_arg(L, lower_kid(v, 0)), b = lower_vt_arg(L, lower_kid(v, 1));
    if (!rem) {
        EMIT_OP(L, div, a, b, lower_tmp_arg(r));
        return true;
    }
    AirTmp q = lower_newtmp(L, AirGP);
    EMIT_OP(L, div, a, b, lower_tmp_arg(q));
    EMIT_OP(L, is32 ? Air_MultiplySub32 : Air_MultiplySub64, lower_tmp_arg(q), b, a, lower_tmp_arg(r));
    return true;
}

/* MulHigh/UMulHigh: smulh/umulh; 32-bit: the 64-bit product's high word. */
static bool hook_mul_high(Lower *L, B3Value *v) {
    bool is_signed = v->opcode == B3_MulHigh;
    AirTmp r = lower_vt(L, v);
    AirArg a = lower_vt_arg(L, lower_kid(v, 0)), b = lower_vt_arg(L, lower_kid(v, 1));
    if (v->type == B3_Int64) {
        EMIT_OP(L, is_signed ? Air_MulHigh64 : Air_UMulHigh64, a, b, lower_tmp_arg(r));
        return true;
    }
    AirTmp p = lower_newtmp(L, AirGP);
    EMIT_OP(L, is_signed ? Air_MultiplySignExtend32 : Air_MultiplyZeroExtend32, a, b, lower_tmp_arg(p));
    /* A logical shift leaves the upper word zero, as an Int32 tmp's must be. */
    EMIT(L, Urshift64, lower_tmp_arg(p), air_imm(32), lower_tmp_arg(r));
    return true;
}

static bool hook_clz(Lower *L, B3Value *v) {
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, v->type == B3_Int32 ? Air_CountLeadingZeros32 : Air_CountLeadingZeros64,
            lower_vt_arg(L, lower_kid(v, 0)), lower_tmp_arg(r));
    return true;
}

static bool hook_utofp(Lower *L, B3Value *v) {
    bool dbl = v->type == B3_Double, from32 = lower_kid(v, 0)->type == B3_Int32;
    AirOpcode op = dbl ? (from32 ? Air_ConvertUInt32ToDouble : Air_ConvertUInt64ToDouble)
                       : (from32 ? Air_ConvertUInt32ToFloat : Air_ConvertUInt64ToFloat);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, lower_kid(v, 0)), lower_tmp_arg(r));
    return true;
}

/* DToI/DToU: fcvtzs/fcvtzu already saturate (NaN -> 0, out of range -> the
 * nearest bound), which is B3's semantics. */
static bool hook_fptoint(Lower *L, B3Value *v) {
    bool dbl = lower_kid(v, 0)->type == B3_Double, to64 = v->type == B3_Int64;
    AirOpcode op;
    if (v->opcode == B3_DToI)
        op = dbl ? (to64 ? Air_TruncateDoubleToInt64 : Air_TruncateDoubleToInt32)
                 : (to64 ? Air_TruncateFloatToInt64 : Air_TruncateFloatToInt32);
    else
        op = dbl ? (to64 ? Air_TruncateDoubleToUInt64 : Air_TruncateDoubleToUInt32)
                 : (to64 ? Air_TruncateFloatToUInt64 : Air_TruncateFloatToUInt32);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, lower_kid(v, 0)), lower_tmp_arg(r));
    return true;
}

/* Float Neg and Abs: fneg/fabs; integer Neg(Mul) is mneg (lower_isel.c),
 * other integer Negs are the shared rule's. */
static bool hook_fp_unary(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (!b3_type_is_float(ty))
        return v->opcode == B3_Neg && (b3_arm64_lower_neg_mul(L, v) || b3_arm64_lower_csetm(L, v));
    bool dbl = ty == B3_Double;
    AirOpcode op = v->opcode == B3_Neg ? (dbl ? Air_NegateDouble : Air_NegateFloat)
                                       : (dbl ? Air_AbsDouble : Air_AbsFloat);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, lower_kid(v, 0)), lower_tmp_arg(r));
    return true;
}

/* FMin/FMax: fmin/fmax are the wasm operations (NaN wins, -0 < +0). */
static bool hook_fminmax(Lower *L, B3Value *v) {
    bool dbl = v->type == B3_Double, min = v->opcode == B3_FMin;
    AirOpcode op = dbl ? (min ? Air_MinDouble : Air_MaxDouble) : (min ? Air_MinFloat : Air_MaxFloat);
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, lower_kid(v, 0)), lower_vt_arg(L, lower_kid(v, 1)), lower_tmp_arg(r));
    return true;
}

/* Branch: on a CAS's flags (lower_atomics.c), or cmp/tst with a shifted operand (lower_isel.c). */
static bool hook_branch(Lower *L, B3Value *v) {
    return b3_arm64_lower_cas_branch(L, v) || b3_arm64_lower_shifted_branch(L, v);
}

B3LowerHook *const b3_arm64_lower_hooks[B3_NUM_OPCODES] = {
    [B3_Add] = b3_arm64_lower_add,
    [B3_Sub] = b3_arm64_lower_sub,
    [B3_Mul] = b3_arm64_lower_mul,
    [B3_BitAnd] = b3_arm64_lower_bit_and,
    [B3_BitOr] = b3_arm64_lower_bit_or,
    [B3_BitXor] = b3_arm64_lower_bit_xor,
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
    [B3_UMulHigh] = hook_mul_high,
    [B3_Clz] = hook_clz,
    [B3_UToD] = hook_utofp,
    [B3_UToF] = hook_utofp,
    [B3_DToI] = hook_fptoint,
    [B3_DToU] = hook_fptoint,
    [B3_Neg] = hook_fp_unary,
    [B3_Abs] = hook_fp_unary,
    [B3_FMin] = hook_fminmax,
    [B3_FMax] = hook_fminmax,
    /* arm64 atomics (lower_atomics.c) */
    [B3_Fence] = b3_arm64_lower_fence,
    [B3_Depend] = b3_arm64_lower_depend,
    [B3_AtomicWeakCAS] = b3_arm64_lower_atomic,
    [B3_AtomicStrongCAS] = b3_arm64_lower_atomic,
    [B3_AtomicXchgAdd] = b3_arm64_lower_atomic,
    [B3_AtomicXchgAnd] = b3_arm64_lower_atomic,
    [B3_AtomicXchgOr] = b3_arm64_lower_atomic,
    [B3_AtomicXchgSub] = b3_arm64_lower_atomic,
    [B3_AtomicXchgXor] = b3_arm64_lower_atomic,
    [B3_AtomicXchg] = b3_arm64_lower_atomic,
    [B3_Equal] = b3_arm64_lower_cas_compare,
    [B3_NotEqual] = b3_arm64_lower_cas_compare,
    [B3_Branch] = hook_branch,
    [B3_Select] = b3_arm64_lower_select,
    [B3_Load8Z] = b3_arm64_lower_fenced_load,
    [B3_Load8S] = b3_arm64_lower_fenced_load,
    [B3_Load16Z] = b3_arm64_lower_fenced_load,
    [B3_Load16S] = b3_arm64_lower_fenced_load,
    [B3_Load] = b3_arm64_lower_fenced_load,
    [B3_Store8] = b3_arm64_lower_fenced_store,
    [B3_Store16] = b3_arm64_lower_fenced_store,
    [B3_Store] = b3_arm64_lower_fenced_store,
};
