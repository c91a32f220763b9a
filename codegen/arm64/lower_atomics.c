/* The arm64 lowering hooks of the atomics, acquire loads, release stores,
 * Fence and Depend (docs/atomics.md, "arm64").  The semantics are the x86
 * backend's (codegen/x86_64/lower_atomics.c): only the low `width` bits of
 * the operands count, the old value is sign-extended from the width to the
 * type, AtomicWeakCAS is 1 exactly when it exchanged (it never fails
 * spuriously here either).
 *
 *  - Default (ARMv8.0): AtomicLoop* insts, each an ldaxr/stlxr loop that the
 *    emitter writes whole (codegen/arm64/emit_atomics.c).
 *  - -mattr=+lse (ARMv8.1): casal, ldaddal, ldclral (And: clear the
 *    complement), ldsetal, ldeoral, swpal; Sub is ldaddal of the negation.
 *  - Equal/NotEqual(AtomicStrongCAS(e, n, p), e) and branches on a CAS use
 *    the flags of the CAS's own compare (cset, b.cond), as on x86.
 *  - Loads with a fence range: ldar{b,h} (then sxtb/sxth); stores with
 *    one: stlr{b,h} (a misaligned address: ldr/str with dmb, emit_atomics.c).
 *  - Fence: dmb ish, or dmb ishst when its write range is empty (a
 *    store-store fence, as B3 does on ARM).  Depend(x): eor r, x, x. */
#include "codegen/arm64/arm64.h"
#include "lower/lower_internal.h"

static bool has_lse(const Lower *L) { return (L->m->target_features & B3Feature_LSE) != 0; }

static bool result_used(Lower *L, B3Value *v) { return (L->flags[lower_vid(L, v)] & F_NEEDED) != 0; }

/* [ptr + off] in a register: the pointer itself when nothing is added,
 * else a Lea of the folded address (Addr, Index, Stack or Sym). */
static AirArg addr_reg(Lower *L, B3Value *ptr, int64_t off) {
    AirArg m = lower_addr_for(L, ptr, off);
    if (m.kind == AirArg_Addr && m.value == 0)
        return lower_tmp_arg(m.base);
    AirTmp t = lower_newtmp(L, AirGP);
    EMIT(L, Lea64, m, lower_tmp_arg(t));
    return lower_tmp_arg(t);
}

static AirArg atomic_addr(Lower *L, B3Value *v) {
    return addr_reg(L, v->kids[v->nkids - 1], v->m.mem.offset);
}

/* A tmp for the raw (zero-extended) old value: the result's own when no
 * extension follows. */
static AirTmp old_tmp(Lower *L, B3Type ty, unsigned bits, AirTmp r) {
    return bits == (ty == B3_Int64 ? 64u : 32u) ? r : lower_newtmp(L, AirGP);
}

/* ---- compare-and-swap ---- */

static const AirOpcode loop_cas_ops[4] = {Air_AtomicLoopCAS8, Air_AtomicLoopCAS16, Air_AtomicLoopCAS32,
                                          Air_AtomicLoopCAS64};
static const AirOpcode casal_ops[4] = {Air_AtomicCasal8, Air_AtomicCasal16, Air_AtomicCasal32,
                                       Air_AtomicCasal64};

static void lower_cas(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)lower_kid(v, 0)->type;
    unsigned bits = lower_atomic_bits(v), wi = lower_width_index(bits);
    bool used = result_used(L, v);
    AirArg addr = atomic_addr(L, v);
    AirArg nv = lower_vt_arg(L, lower_kid(v, 1));
    if (v->opcode == B3_AtomicWeakCAS && used) {
        /* 1 when it exchanged: the flags of the compare inside. */
        AirOpcode op = has_lse(L) ? casal_ops[wi] : loop_cas_ops[wi];
        EMIT_OP(L, op, air_rescond(AirCond_Equal), lower_vt_arg(L, lower_kid(v, 0)), nv, addr,
                lower_vt_arg(L, v));
        return;
    }
    if (has_lse(L)) {
        /* casal overwrites the expected value with the old one: on a copy. */
        AirTmp r = used ? lower_vt(L, v) : AIR_NO_TMP;
        AirTmp t = used ? old_tmp(L, (B3Type)v->type, bits, r) : lower_newtmp(L, AirGP);
        lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(t), ty);
        EMIT_OP(L, casal_ops[wi], lower_tmp_arg(t), nv, addr);
        if (used)
            lower_extend_old(L, (B3Type)v->type, bits, t, r);
        return;
    }
    AirArg e = lower_vt_arg(L, lower_kid(v, 0));
    if (!used) {
        EMIT_OP(L, loop_cas_ops[wi], e, nv, addr);
        return;
    }
    AirTmp r = lower_vt(L, v), old = old_tmp(L, (B3Type)v->type, bits, r);
    EMIT_OP(L, loop_cas_ops[wi], e, nv, addr, lower_tmp_arg(old));
    lower_extend_old(L, (B3Type)v->type, bits, old, r);
}

/* ---- CAS fused into its compare or branch ---- */

static const AirOpcode branch_loop_cas_ops[4] = {Air_BranchAtomicLoopCAS8, Air_BranchAtomicLoopCAS16,
                                                 Air_BranchAtomicLoopCAS32, Air_BranchAtomicLoopCAS64};
static const AirOpcode branch_casal_ops[4] = {Air_BranchAtomicCasal8, Air_BranchAtomicCasal16,
                                              Air_BranchAtomicCasal32, Air_BranchAtomicCasal64};

/* The CAS with a condition on its flags: into dst (cset), or a branch. */
static void emit_cas_cond(Lower *L, B3Value *cas, AirCond cond, AirTmp dst) {
    unsigned wi = lower_width_index(lower_atomic_bits(cas));
    AirArg addr = atomic_addr(L, cas);
    AirArg e = lower_vt_arg(L, lower_kid(cas, 0)), nv = lower_vt_arg(L, lower_kid(cas, 1));
    if (dst == AIR_NO_TMP)
        EMIT_OP(L, has_lse(L) ? branch_casal_ops[wi] : branch_loop_cas_ops[wi], air_rescond(cond), e, nv,
                addr);
    else
        EMIT_OP(L, has_lse(L) ? casal_ops[wi] : loop_cas_ops[wi], air_rescond(cond), e, nv, addr,
                lower_tmp_arg(dst));
}

/* Equal/NotEqual(AtomicStrongCAS(e, n, p), e): cset on the CAS's flags. */
bool b3_arm64_lower_cas_compare(Lower *L, B3Value *v) {
    B3Value *cas = lower_fusable_cas_compare(L, v);
    if (!cas)
        return false;
    L->flags[lower_vid(L, cas)] |= F_INTERNAL;
    emit_cas_cond(L, cas, v->opcode == B3_Equal ? AirCond_Equal : AirCond_NotEqual, lower_vt(L, v));
    return true;
}

/* Branch(AtomicWeakCAS), Branch(Equal/NotEqual(AtomicStrongCAS(e, ...), e)),
 * Branch(AtomicStrongCAS(0, ...)): a BranchAtomic* terminal, no compare. */
bool b3_arm64_lower_cas_branch(Lower *L, B3Value *br) {
    AirCond cond;
    B3Value *cas = lower_cas_branch_match(L, br, &cond);
    if (!cas)
        return false;
    B3Block *b = L->blk;
    emit_cas_cond(L, cas, cond, AIR_NO_TMP);
    lower_set_succs(L, L->ablock[b->pos], 2,
                    (AirSucc[]){lower_succ_of(L, b->succs[0]), lower_succ_of(L, b->succs[1])});
    return true;
}

/* ---- exchange and read-modify-write ---- */

#define BY_WIDTH(name) \
    { Air_##name##8, Air_##name##16, Air_##name##32, Air_##name##64 }

static void lower_rmw(Lower *L, B3Value *v) {
    static const AirOpcode loop_ops[][4] = {BY_WIDTH(AtomicLoopAdd), BY_WIDTH(AtomicLoopSub),
                                            BY_WIDTH(AtomicLoopAnd), BY_WIDTH(AtomicLoopOr),
                                            BY_WIDTH(AtomicLoopXor), BY_WIDTH(AtomicLoopXchg)};
    static const AirOpcode lse_ops[][4] = {BY_WIDTH(AtomicLdaddal), BY_WIDTH(AtomicLdaddal),
                                           BY_WIDTH(AtomicLdclral), BY_WIDTH(AtomicLdsetal),
                                           BY_WIDTH(AtomicLdeoral), BY_WIDTH(AtomicSwpal)};
    unsigned k;
    switch (v->opcode) {
    case B3_AtomicXchgAdd:
        k = 0;
        break;
    case B3_AtomicXchgSub:
        k = 1;
        break;
    case B3_AtomicXchgAnd:
        k = 2;
        break;
    case B3_AtomicXchgOr:
        k = 3;
        break;
    case B3_AtomicXchgXor:
        k = 4;
        break;
    default:
        k = 5;
        break;
    }
    B3Type ty = (B3Type)v->type;
    unsigned bits = lower_atomic_bits(v), wi = lower_width_index(bits);
    bool used = result_used(L, v), xchg = k == 5;
    AirArg addr = atomic_addr(L, v);
    B3Value *x = lower_kid(v, 0);
    AirArg val;
    int64_t c;
    if (has_lse(L) && (k == 1 || k == 2)) {
        /* Sub: add the negation; And: clear the complement. */
        AirTmp t = lower_newtmp(L, AirGP);
        if (lower_int_const(x, &c)) {
            uint64_t u = k == 1 ? 0 - (uint64_t)c : ~(uint64_t)c;
            lower_move_int_const(L, ty, ty == B3_Int32 ? (int32_t)(uint32_t)u : (int64_t)u, lower_tmp_arg(t));
        } else {
            lower_move_value_to(L, x, lower_tmp_arg(t), ty);
            EMIT_OP(L,
                    k == 1 ? (ty == B3_Int64 ? Air_Neg64 : Air_Neg32)
                           : (ty == B3_Int64 ? Air_Not64 : Air_Not32),
                    lower_tmp_arg(t));
        }
        val = lower_tmp_arg(t);
    } else {
        val = lower_vt_arg(L, x);
    }
    AirOpcode op = has_lse(L) ? lse_ops[k][wi] : loop_ops[k][wi];
    if (!used) {
        EMIT_OP(L, op, val, addr);
        return;
    }
    AirTmp r = lower_vt(L, v), old = old_tmp(L, ty, bits, r);
    if (has_lse(L) || xchg)
        EMIT_OP(L, op, val, addr, lower_tmp_arg(old));
    else
        EMIT_OP(L, op, val, addr, lower_tmp_arg(lower_newtmp(L, AirGP)), lower_tmp_arg(old));
    lower_extend_old(L, ty, bits, old, r);
}

bool b3_arm64_lower_atomic(Lower *L, B3Value *v) {
    if (v->opcode == B3_AtomicWeakCAS || v->opcode == B3_AtomicStrongCAS)
        lower_cas(L, v);
    else
        lower_rmw(L, v);
    return true;
}

/* ---- acquire loads, release stores ---- */

static const AirOpcode load_acq_ops[4] = {Air_LoadAcq8, Air_LoadAcq16, Air_LoadAcq32, Air_LoadAcq64};
static const AirOpcode store_rel_ops[4] = {Air_StoreRel8, Air_StoreRel16, Air_StoreRel32, Air_StoreRel64};

/* A load with a fence range: ldar; the others are the shared rules'.
 * (Fenced accesses are integer ones: the validator says so.) */
bool b3_arm64_lower_fenced_load(Lower *L, B3Value *v) {
    if (b3_heap_is_bottom(v->m.mem.fence_range))
        return false;
    unsigned bits = v->opcode == B3_Load8Z || v->opcode == B3_Load8S     ? 8
                    : v->opcode == B3_Load16Z || v->opcode == B3_Load16S ? 16
                    : v->type == B3_Int64                                ? 64
                                                                         : 32;
    AirArg addr = addr_reg(L, v->kids[0], v->m.mem.offset);
    AirTmp r = lower_vt(L, v);
    if (v->opcode != B3_Load8S && v->opcode != B3_Load16S) {
        EMIT_OP(L, load_acq_ops[lower_width_index(bits)], addr, lower_tmp_arg(r));
        return true;
    }
    AirTmp t = lower_newtmp(L, AirGP);
    EMIT_OP(L, load_acq_ops[lower_width_index(bits)], addr, lower_tmp_arg(t));
    EMIT_OP(L, bits == 8 ? Air_SignExtend8To32 : Air_SignExtend16To32, lower_tmp_arg(t), lower_tmp_arg(r));
    return true;
}

/* A store with a fence range: stlr. */
bool b3_arm64_lower_fenced_store(Lower *L, B3Value *v) {
    if (b3_heap_is_bottom(v->m.mem.fence_range))
        return false;
    B3Value *x = lower_kid(v, 0);
    unsigned bits = v->opcode == B3_Store8 ? 8 : v->opcode == B3_Store16 ? 16 : x->type == B3_Int64 ? 64 : 32;
    AirArg addr = addr_reg(L, v->kids[1], v->m.mem.offset);
    EMIT_OP(L, store_rel_ops[lower_width_index(bits)], lower_vt_arg(L, x), addr);
    return true;
}

/* ---- fences and dependencies ---- */

bool b3_arm64_lower_fence(Lower *L, B3Value *v) {
    if (b3_heap_is_bottom(v->m.fence.write))
        EMIT(L, Dmb, air_imm(Arm64Barrier_ISHST));
    else
        EMIT0(L, MemoryFence);
    return true;
}

/* Depend(x): eor r, x, x -- zero, data-dependent on x, so an address that
 * adds it is ordered after the load of x (never folded: an opaque Air op). */
bool b3_arm64_lower_depend(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    EMIT_OP(L, ty == B3_Int64 ? Air_Depend64 : Air_Depend32, lower_vt_arg(L, lower_kid(v, 0)),
            lower_vt_arg(L, v));
    return true;
}
