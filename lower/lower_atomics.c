/* What the targets' atomic lowerings share (codegen/<arch>/lower_atomics.c):
 * the access width of an atomic, the sign extension of its old value, and
 * the patterns that fuse a compare or a branch into a CAS (the CAS's own
 * compare sets the flags, on x86's cmpxchg as on arm64's loop or casal). */
#include "lower/lower_internal.h"

unsigned lower_atomic_bits(const B3Value *v) {
    if (v->m.mem.width)
        return v->m.mem.width;
    return lower_resolve(v->kids[0])->type == B3_Int64 ? 64 : 32;
}

unsigned lower_width_index(unsigned bits) { return bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3; }

void lower_extend_old(Lower *L, B3Type ty, unsigned bits, AirTmp src, AirTmp dst) {
    unsigned tbits = ty == B3_Int64 ? 64 : 32;
    if (bits == tbits) {
        if (src != dst)
            EMIT_OP(L, lower_move_op(ty), lower_tmp_arg(src), lower_tmp_arg(dst));
        return;
    }
    if (bits == 32) {
        EMIT(L, SignExtend32ToPtr, lower_tmp_arg(src), lower_tmp_arg(dst));
        return;
    }
    AirOpcode op = bits == 8 ? Air_SignExtend8To32 : Air_SignExtend16To32;
    if (ty == B3_Int32) {
        EMIT_OP(L, op, lower_tmp_arg(src), lower_tmp_arg(dst));
        return;
    }
    AirTmp t = lower_newtmp(L, AirGP);
    EMIT_OP(L, op, lower_tmp_arg(src), lower_tmp_arg(t));
    EMIT(L, SignExtend32ToPtr, lower_tmp_arg(t), lower_tmp_arg(dst));
}

bool lower_nothing_between(Lower *L, B3Value *v) {
    uint32_t from = L->pos[lower_vid(L, v)];
    if (v->owner != L->blk || from >= L->idx || L->idx - from > FUSE_MAX_DISTANCE)
        return false;
    for (uint32_t i = from + 1; i < L->idx; i++)
        if (lower_motion_blocked(v, L->blk->values[i]))
            return false;
    return true;
}

/* Are x and y the same integer (the same value, or equal constants)? */
static bool same_int(B3Value *x, B3Value *y) {
    int64_t a, b;
    x = lower_resolve(x);
    y = lower_resolve(y);
    return x == y || (lower_int_const(x, &a) && lower_int_const(y, &b) && a == b && x->type == y->type);
}

/* Do the flags of the CAS's compare ("the low bits of memory equal the low
 * bits of expected") say exactly whether its (sign-extended) result equals
 * expected?  At the full width always; at a narrow one only for an expected
 * constant that is its own sign extension. */
static bool flags_are_equality(B3Value *cas) {
    B3Value *e = lower_kid(cas, 0);
    unsigned bits = lower_atomic_bits(cas), tbits = e->type == B3_Int64 ? 64 : 32;
    int64_t c;
    if (bits == tbits)
        return true;
    if (!lower_int_const(e, &c))
        return false;
    int64_t s = bits == 8 ? (int8_t)c : bits == 16 ? (int16_t)c : (int32_t)c;
    return s == c;
}

B3Value *lower_fusable_cas_compare(Lower *L, B3Value *cmp) {
    if (cmp->opcode != B3_Equal && cmp->opcode != B3_NotEqual)
        return NULL;
    for (int k = 0; k < 2; k++) {
        B3Value *cas = lower_kid(cmp, k);
        if (cas->opcode == B3_AtomicStrongCAS && same_int(lower_kid(cas, 0), lower_kid(cmp, 1 - k)) &&
            flags_are_equality(cas) && lower_can_be_internal(L, cas) && lower_nothing_between(L, cas))
            return cas;
    }
    return NULL;
}

B3Value *lower_cas_branch_match(Lower *L, B3Value *br, AirCond *cond) {
    B3Value *c = lower_kid(br, 0), *cas = NULL;
    *cond = AirCond_Equal;
    if (c->owner != L->blk || !lower_can_be_internal(L, c))
        return NULL;
    switch (c->opcode) {
    case B3_AtomicWeakCAS: /* non-zero on success */
        if (lower_nothing_between(L, c))
            cas = c;
        break;
    case B3_AtomicStrongCAS: /* expected 0: the old value is non-zero exactly when it failed */
        if (lower_is_const_zero(c->kids[0]) && lower_nothing_between(L, c)) {
            cas = c;
            *cond = AirCond_NotEqual;
        }
        break;
    case B3_Equal:
    case B3_NotEqual:
        cas = lower_fusable_cas_compare(L, c);
        if (cas) {
            L->flags[lower_vid(L, c)] |= F_INTERNAL;
            *cond = c->opcode == B3_Equal ? AirCond_Equal : AirCond_NotEqual;
        }
        break;
    default:
        break;
    }
    if (cas)
        L->flags[lower_vid(L, cas)] |= F_INTERNAL;
    return cas;
}
