/* b3_lower_to_air: instruction selection from B3 IR to Air: the shared
 * rules here, what a target selects its own way in its lowering hooks
 * (B3Backend.lower, e.g. codegen/x86_64/lower.c).
 *
 * Shape (after WebKit's B3LowerToAir):
 *  - One Air block per B3 block, in the same order (plus a prologue block when
 *    the root has predecessors, and extra blocks for Switch trees and jump
 *    tables).  Every SSA value gets its own virtual tmp, defined once; a Phi
 *    also gets a "phi tmp" that its Upsilons write and that the Phi copies
 *    from; a Variable gets one tmp that Set writes and Get copies from.
 *  - Blocks are lowered in CFG postorder and values backwards within each
 *    block, so every use of a value is selected before the value itself.
 *    Asking for a value's tmp marks it NEEDED; a value that nothing needs and
 *    that has no effect is never emitted.  A user may instead absorb ("fuse")
 *    a single-use child of its own block into its instruction (a compare into
 *    a branch, a load into a memory operand); the child is then INTERNAL and
 *    never emitted.  Fusing through a chain (Branch(NotEqual(LessThan, 0)))
 *    needs every link to be fusable; check_lowering verifies the result after
 *    each procedure.  Pure address arithmetic (Add of a constant, Shl/Mul by
 *    1/2/4/8) is folded into addressing modes by recomputation, which is
 *    always safe because only the leaves' tmps are read.
 *  - Integer constants are materialized at each use that needs a register
 *    (cheaper than keeping them live), except a Const64 too wide for an
 *    immediate used from another block (move_constants hoisted it out of a
 *    loop): that one is built once where it stands, as are nonzero float
 *    constants, and on a backend that keeps hoisted constants in registers
 *    (B3Backend.hoisted_consts_in_registers) any constant used in a loop
 *    that its block is outside of.  On a target where a SymbolAddress costs instructions, a
 *    memory access folds only one of its own block.
 * Each value's instructions go to a chunk; a block's chunks are then laid out
 * in program order. */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/ice.h"
#include "ir/loops.h"
#include "lower/lower_internal.h"
#include "opt/int_range.h"
#include "util/alloc.h"
#include "util/vec.h"

/* ---- small helpers ------------------------------------------------------- */

/* ---- emission ------------------------------------------------------------ */

static const char *kind_name(uint8_t k) {
    static const char *const n[] = {"None",    "Tmp", "Imm",     "BigImm",  "Addr",       "Index",  "Stack",
                                    "CallArg", "Sym", "RelCond", "ResCond", "DoubleCond", "Special"};
    return k < sizeof n / sizeof n[0] ? n[k] : "?";
}

AirInst *lower_emit_special(Lower *L, AirOpcode op, uint32_t n, const AirArg *args, AirSpecial *sp) {
    if (!sp && n && !air_is_valid_form(L->t, op, n, args)) {
        char desc[256];
        size_t len = 0;
        desc[0] = 0;
        for (uint32_t i = 0; i < n && len < sizeof desc - 16; i++)
            len += (size_t)snprintf(desc + len, sizeof desc - len, "%s%s", i ? "," : "",
                                    kind_name(args[i].kind));
        b3_internal_error_at("lower_to_air", L->cur, "invalid Air form %s %s", air_opcode_names[op], desc);
    }
    AirInst *inst;
    if (L->sink) {
        inst = air_append(L->c, L->sink, op, L->cur, n, args);
    } else {
        B3_VEC_RESERVE("lower_to_air", L->buf, L->capbuf, L->nbuf + 1);
        inst = &L->buf[L->nbuf++];
        memset(inst, 0, sizeof *inst);
        inst->opcode = (uint16_t)op;
        inst->nargs = (uint16_t)n;
        inst->origin = L->cur;
        if (n) {
            inst->args = b3_arena_alloc(L->c->arena, n * sizeof(AirArg));
            memcpy(inst->args, args, n * sizeof(AirArg));
        }
    }
    inst->special = sp;
    /* The memory access of a trapping load/store (also when fused into another inst). */
    for (uint32_t i = 0; L->traps && i < n; i++)
        if (air_arg_is_memory(&args[i]))
            inst->flags |= AirInstFlag_Traps;
    return inst;
}

/* ---- tmps of values ------------------------------------------------------ */

void lower_move_int_const(Lower *L, B3Type type, int64_t c, AirArg dst) {
    if (type == B3_Int32)
        EMIT(L, Move32, air_imm((int32_t)c), dst);
    else if (b3_fits32(c))
        EMIT(L, Move, air_imm(c), dst);
    else if (dst.kind == AirArg_Tmp)
        EMIT(L, Move, air_bigimm(c), dst);
    else {
        AirTmp t = lower_newtmp(L, AirGP);
        EMIT(L, Move, air_bigimm(c), lower_tmp_arg(t));
        EMIT(L, Move, lower_tmp_arg(t), dst);
    }
}

/* A float or double constant in a fresh FP tmp (bits go through a GP register). */
AirTmp lower_fp_const_tmp(Lower *L, uint64_t bits, bool dbl) {
    AirTmp f = lower_newtmp(L, AirFP);
    if (bits == 0) {
        EMIT(L, MoveZeroToDouble, lower_tmp_arg(f));
        return f;
    }
    AirTmp g = lower_newtmp(L, AirGP);
    if (dbl) {
        EMIT(L, Move, b3_fits32((int64_t)bits) ? air_imm((int64_t)bits) : air_bigimm((int64_t)bits),
             lower_tmp_arg(g));
        EMIT(L, Move64ToDouble, lower_tmp_arg(g), lower_tmp_arg(f));
    } else {
        EMIT(L, Move32, air_imm((int32_t)(uint32_t)bits), lower_tmp_arg(g));
        EMIT(L, Move32ToFloat, lower_tmp_arg(g), lower_tmp_arg(f));
    }
    return f;
}

static void need_loops(Lower *L) {
    if (!L->have_loops) {
        b3_dominators_compute(&L->dom, L->p);
        b3_loops_compute(&L->loops, L->p, &L->dom);
        L->have_loops = true;
    }
}

/* Is constant v, used here from another block, built once where it stands
 * (move_constants put it there, before a loop)?  A Const64 too wide for an
 * immediate always; any other where the backend keeps hoisted constants in
 * registers and v's block is outside a loop that holds this use. */
bool lower_const_elsewhere(Lower *L, const B3Value *v, int64_t c) {
    if (v->owner == L->blk || (v->opcode != B3_Const64 && v->opcode != B3_Const32))
        return false;
    if (v->opcode == B3_Const64 && !b3_fits32(c))
        return true;
    if (!L->c->backend->hoisted_consts_in_registers)
        return false;
    need_loops(L);
    return b3_loop_depth(&L->loops, v->owner) < b3_loop_depth(&L->loops, L->blk);
}

/* The tmp holding v's value at the current point. */
AirTmp lower_vt(Lower *L, B3Value *v) {
    v = lower_resolve(v);
    int64_t c;
    /* A constant too wide for an immediate is made where it stands if used
     * from another block (move_constants put it there, before a loop): the
     * use reads its tmp instead of building it again, every iteration. */
    if (lower_int_const(v, &c) && !lower_const_elsewhere(L, v, c)) {
        AirTmp t = lower_newtmp(L, AirGP);
        lower_move_int_const(L, (B3Type)v->type, c, lower_tmp_arg(t));
        return t;
    }
    if (lower_is_fp_const(v) && b3_const_bits(v) == 0)
        return lower_fp_const_tmp(L, 0, true);
    if (L->flags[lower_vid(L, v)] & F_INTERNAL)
        b3_internal_error_at("lower_to_air", v,
                             "was fused into a user but is needed in a register (by @%u %s)",
                             L->cur ? L->cur->index : 0, L->cur ? lower_opname(L->cur) : "-");
    if (v->type == B3_Void)
        b3_internal_error_at("lower_to_air", v, "has no value (asked for by @%u %s)",
                             L->cur ? L->cur->index : 0, L->cur ? lower_opname(L->cur) : "-");
    L->flags[lower_vid(L, v)] |= F_NEEDED;
    if (L->vtmp[lower_vid(L, v)] == AIR_NO_TMP)
        L->vtmp[lower_vid(L, v)] = lower_newtmp(L, lower_bank_of((B3Type)v->type));
    return L->vtmp[lower_vid(L, v)];
}

/* Copies v (of type `type`) into dst, with an immediate when v is a constant. */
void lower_move_value_to(Lower *L, B3Value *v, AirArg dst, B3Type type) {
    v = lower_resolve(v);
    int64_t c;
    if (lower_int_const(v, &c)) {
        lower_move_int_const(L, type, c, dst);
        return;
    }
    if (lower_is_fp_const(v) && b3_const_bits(v) == 0 && dst.kind == AirArg_Tmp) {
        EMIT(L, MoveZeroToDouble, dst);
        return;
    }
    if (lower_is_fp_const(v) && dst.kind != AirArg_Tmp) {
        /* A float constant stored to memory: its bits as an integer store. */
        uint64_t bits = b3_const_bits(v);
        lower_move_int_const(L, v->type == B3_Float ? B3_Int32 : B3_Int64, (int64_t)bits, dst);
        return;
    }
    EMIT_OP(L, lower_move_op(type), lower_vt_arg(L, v), dst);
}

/* ---- fusion -------------------------------------------------------------- */

bool lower_can_be_internal(Lower *L, B3Value *v) {
    return v->owner == L->blk && L->uses[lower_vid(L, v)] == 1 &&
           !(L->flags[lower_vid(L, v)] & (F_NEEDED | F_INTERNAL)) && L->pos[lower_vid(L, v)] < L->idx;
}

/* The lowering's view of a value's effects: B3's (ir/effects.h), except that
 * it does no alias analysis, so a memory access reads or writes all memory
 * whatever its heap range says. */
static B3Effects lower_effects(const B3Value *v) {
    B3Effects e = b3_effects(v);
    B3EffectsClass c = (B3EffectsClass)b3_op_info[v->opcode].effects;
    if (c == B3E_LOAD || c == B3E_ATOMIC)
        e.reads = B3_HEAP_TOP;
    if (c == B3E_STORE || c == B3E_ATOMIC)
        e.writes = B3_HEAP_TOP;
    return e;
}

/* Values no load moves across: writers of memory, and what orders memory:
 * fences (acquire loads and release stores too), anything that may exit or
 * trap, and Depend, which x86 makes a load-load fence (the B3 reference).
 * e is lower_effects(v). */
static bool writes_memory(const B3Value *v, B3Effects e) {
    return !b3_heap_is_bottom(e.writes) || e.fence || e.exits_sideways || v->opcode == B3_Depend;
}

/* Must v be lowered even when its result is unused?  What B3 must execute,
 * except an acquire load: its fence costs nothing on x86 and orders nothing
 * once the load is gone (a <Traps> one stays: it exits sideways).  e is
 * lower_effects(v). */
static bool must_lower(const B3Value *v, B3Effects e) {
    if (b3_op_info[v->opcode].effects == B3E_LOAD)
        return e.exits_sideways;
    return b3_effects_must_execute(e);
}

static bool has_effect(const B3Value *v) { return must_lower(v, lower_effects(v)); }

/* Does executing v at its user, not where it stands, move it down across
 * other values (a memory access or an effect may not cross some)? */
static bool fusion_moves(const B3Value *v) {
    B3Effects e = lower_effects(v);
    return !b3_heap_is_bottom(e.reads) || !b3_heap_is_bottom(e.writes) || must_lower(v, e);
}

/* May the fused value v not be moved down across w?  A plain load may not
 * cross a writer of memory, a <Traps> load no effect either (its fault stays
 * in order); an atomic (or anything else with an effect) nothing that touches
 * memory or has an effect. */
bool lower_motion_blocked(const B3Value *v, const B3Value *w) {
    B3Effects we = lower_effects(w);
    if (b3_op_info[v->opcode].effects == B3E_LOAD)
        return writes_memory(w, we) || (b3_effects(v).exits_sideways && must_lower(w, we));
    return must_lower(w, we) || !b3_heap_is_bottom(we.reads) || writes_memory(w, we);
}

/* Can the load v be executed at the current value instead of where it stands?
 * Never an acquire (fenced) load; a <Traps> load only when nothing with an
 * effect lies between (its fault must stay in order with every effect). */
bool lower_can_fuse_load(Lower *L, B3Value *v, B3Opcode op, B3Type type) {
    v = lower_resolve(v);
    if (v->opcode != op || v->type != type || !b3_heap_is_bottom(v->m.mem.fence_range) ||
        !lower_can_be_internal(L, v))
        return false;
    if (L->idx - L->pos[lower_vid(L, v)] > FUSE_MAX_DISTANCE)
        return false; /* keeps the interference scan linear */
    for (uint32_t i = L->pos[lower_vid(L, v)] + 1; i < L->idx; i++)
        if (lower_motion_blocked(v, L->blk->values[i]))
            return false;
    return true;
}

AirArg lower_commit_load(Lower *L, B3Value *v) {
    v = lower_resolve(v);
    L->flags[lower_vid(L, v)] |= F_INTERNAL;
    if (v->kflags & B3K_TRAPS)
        L->traps = true; /* the user's memory operand is the trapping access */
    return lower_addr_for(L, v->kids[0], v->m.mem.offset);
}

/* Index scale patterns: Shl(i, 0..3), Mul(i, 1|2|4|8). */
static bool scaled_index(B3Value *v, B3Value **index, unsigned *scale) {
    int64_t c;
    if (v->opcode == B3_Shl && lower_int_const(v->kids[1], &c)) {
        c &= 63;
        if (c <= 3) {
            *index = lower_resolve(v->kids[0]);
            *scale = 1u << c;
            return true;
        }
    }
    if (v->opcode == B3_Mul) {
        for (int k = 0; k < 2; k++) {
            if (lower_int_const(v->kids[k], &c) && (c == 1 || c == 2 || c == 4 || c == 8)) {
                *index = lower_resolve(v->kids[1 - k]);
                *scale = (unsigned)c;
                return true;
            }
        }
    }
    return false;
}

/* One link of a constant-Add chain that addresses fold through: Add(p, c)
 * with c in 32 bits and not used so often that folding keeps too much alive.
 * in_reg: also one whose tmp exists anyway.  Returns p and sets *c, or NULL. */
static B3Value *fold_link(Lower *L, B3Value *ptr, int64_t *c, bool in_reg) {
    uint32_t id = lower_vid(L, ptr);
    if (ptr->opcode != B3_Add || L->uses[id] > FOLD_MAX_USES || (L->in_reg[id] && !in_reg))
        return NULL;
    if (lower_imm_const(ptr->kids[1], c))
        return lower_kid(ptr, 0);
    if (lower_imm_const(ptr->kids[0], c))
        return lower_kid(ptr, 1);
    return NULL;
}

/* fold_const_adds through links whose tmps exist only for addresses.  Each
 * link's base and sum are memoized, so n accesses off a chain of n Adds cost
 * O(n), not O(n^2). */
static B3Value *fold_addr_only_adds(Lower *L, B3Value *ptr, int64_t *off) {
    int64_t c;
    if (!fold_link(L, ptr, &c, false))
        return ptr;
    uint32_t id = lower_vid(L, ptr);
    if (!L->fbase[id]) {
        /* Walk to the first memoized link or the chain's end, then memoize back. */
        uint32_t n = 0;
        B3Value *q = ptr, *next;
        int64_t d = 0;
        while (!L->fbase[lower_vid(L, q)] && (next = fold_link(L, q, &c, false)) && b3_fits32(d + c)) {
            B3_VEC_RESERVE("lower_to_air", L->chain, L->capchain, n + 1);
            L->chain[n++] = q;
            d += c;
            q = lower_resolve(next);
        }
        B3Value *base = q;
        int64_t sum = 0;
        if (L->fbase[lower_vid(L, q)]) {
            base = L->fbase[lower_vid(L, q)];
            sum = L->foff[lower_vid(L, q)];
        }
        while (n--) {
            B3Value *link = L->chain[n];
            fold_link(L, link, &c, false);
            if (!b3_fits32(sum + c)) { /* stop the chain here */
                base = link;
                sum = 0;
            } else {
                sum += c;
            }
            L->fbase[lower_vid(L, link)] = base;
            L->foff[lower_vid(L, link)] = sum;
        }
        if (L->fbase[id] == ptr)
            return ptr;
    }
    if (!b3_fits32(*off + L->foff[id])) {
        /* Too far with this access's offset: one link at a time. */
        B3Value *next;
        while ((next = fold_link(L, ptr, &c, false)) && b3_fits32(*off + c)) {
            *off += c;
            ptr = lower_resolve(next);
        }
        return ptr;
    }
    *off += L->foff[id];
    return L->fbase[id];
}

/* The base that a chain of constant Adds ending in ptr folds to, and the
 * constants' sum added to *off, however long the chain, while the sum fits in
 * 32 bits.  An Add needed in a register anyway is folded through only in its
 * own block or onto a stack slot: elsewhere its tmp is the better base (an
 * old base would otherwise stay alive, maybe across calls, only to address
 * off it). */
static B3Value *fold_const_adds(Lower *L, B3Value *ptr, int64_t *off) {
    ptr = fold_addr_only_adds(L, lower_resolve(ptr), off);
    int64_t c;
    B3Value *next;
    while ((next = fold_link(L, ptr, &c, true)) && b3_fits32(*off + c) &&
           (ptr->owner == L->blk || lower_resolve(next)->opcode == B3_SlotBase)) {
        *off += c;
        ptr = fold_addr_only_adds(L, lower_resolve(next), off);
    }
    return ptr;
}

static bool extended(B3Value *v) { return v->opcode == B3_SExt32 || v->opcode == B3_ZExt32; }

/* base + index * scale + off; a target that widens indexes in place
 * (B3Backend.extended_index) takes SExt32(i)/ZExt32(i) as i. */
static AirArg index_arg(Lower *L, B3Value *base, B3Value *index, unsigned scale, int64_t off) {
    if (L->c->backend->extended_index && extended(index)) {
        uint8_t ext = index->opcode == B3_SExt32 ? AirExt_SXTW : AirExt_UXTW;
        return air_index_ext(lower_vt(L, base), lower_vt(L, lower_kid(index, 0)), scale, off, ext);
    }
    return air_index(lower_vt(L, base), lower_vt(L, index), scale, off);
}

/* The memory operand for [ptr + off]. */
AirArg lower_addr_for(Lower *L, B3Value *ptr, int64_t off) {
    ptr = fold_const_adds(L, ptr, &off);
    if (!b3_fits32(off))
        b3_internal_error_at("lower_to_air", L->cur, "address offset out of range");
    if (ptr->opcode == B3_SlotBase)
        return air_stack(L->slots[ptr->m.slot->index], off);
    /* Where a symbol's address costs instructions of its own (arm64's adrp),
     * one that move_constants placed in another block is already in a
     * register there (made once, out of loops): use that register. */
    if (ptr->opcode == B3_SymbolAddress && L->c->backend->pc_relative_ok(ptr->m.symbol.sym) &&
        b3_fits32(off + ptr->m.symbol.offset) &&
        (ptr->owner == L->blk || !b3_target_info(L->t)->symbol_address_costly))
        return air_sym(ptr->m.symbol.sym, off + ptr->m.symbol.offset, false);
    int64_t c;
    if (ptr->opcode == B3_Add && L->uses[lower_vid(L, ptr)] <= FOLD_MAX_USES &&
        !lower_int_const(ptr->kids[0], &c) && !lower_int_const(ptr->kids[1], &c) &&
        !(off && L->c->backend->index_without_offset)) {
        /* (Never base + index with a constant materialized as the index.) */
        B3Value *a = lower_kid(ptr, 0), *b = lower_kid(ptr, 1), *index;
        unsigned scale;
        if (scaled_index(b, &index, &scale))
            return index_arg(L, a, index, scale, off);
        if (scaled_index(a, &index, &scale))
            return index_arg(L, b, index, scale, off);
        if (L->c->backend->extended_index && extended(a) && !extended(b))
            return index_arg(L, b, a, 1, off);
        return index_arg(L, a, b, 1, off);
    }
    /* WasmAddress(p, %pinned): (p, %pinned, 1), the pinned register read in place. */
    if (ptr->opcode == B3_WasmAddress && L->uses[lower_vid(L, ptr)] <= FOLD_MAX_USES)
        return air_index(lower_vt(L, lower_kid(ptr, 0)), (AirTmp)ptr->m.reg, 1, off);
    return air_addr(lower_vt(L, ptr), off);
}

/* ---- conditions ------------------------------------------------------------ */

/* The Air opcodes of one use of a condition, by CondKind. */
const AirOpcode lower_branch_ops[CK_NUM] = {Air_Branch32, Air_Branch64, Air_BranchTest32,
                                             Air_BranchTest64, Air_BranchDouble, Air_BranchFloat};
static const AirOpcode compare_ops[CK_NUM] = {Air_Compare32, Air_Compare64, Air_Test32,
                                              Air_Test64, Air_CompareDouble, Air_CompareFloat};
static const AirOpcode movcond_ops[CK_NUM] = {Air_MoveConditionally32, Air_MoveConditionally64,
                                              Air_MoveConditionallyTest32, Air_MoveConditionallyTest64,
                                              Air_MoveConditionallyDouble, Air_MoveConditionallyFloat};
static const AirOpcode movdcond_ops[CK_NUM] = {
    Air_MoveDoubleConditionally32,     Air_MoveDoubleConditionally64,     Air_MoveDoubleConditionallyTest32,
    Air_MoveDoubleConditionallyTest64, Air_MoveDoubleConditionallyDouble, Air_MoveDoubleConditionallyFloat};

static bool is_compare_op(B3Opcode op) { return (b3_op_info[op].flags & B3OF_COMPARE) != 0; }

static AirCond rel_cond(B3Opcode op) {
    switch (op) {
    case B3_Equal: return AirCond_Equal;
    case B3_NotEqual: return AirCond_NotEqual;
    case B3_LessThan: return AirCond_LessThan;
    case B3_GreaterThan: return AirCond_GreaterThan;
    case B3_LessEqual: return AirCond_LessThanOrEqual;
    case B3_GreaterEqual: return AirCond_GreaterThanOrEqual;
    case B3_Above: return AirCond_Above;
    case B3_Below: return AirCond_Below;
    case B3_AboveEqual: return AirCond_AboveOrEqual;
    case B3_BelowEqual: return AirCond_BelowOrEqual;
    default:
        b3_internal_error("lower_to_air", "not an integer comparison: %s", b3_op_info[op].name);
    }
}

/* The relation with its operands swapped: a R b <=> b R' a. */
static AirCond commute_cond(AirCond c) {
    switch (c) {
    case AirCond_LessThan: return AirCond_GreaterThan;
    case AirCond_GreaterThan: return AirCond_LessThan;
    case AirCond_LessThanOrEqual: return AirCond_GreaterThanOrEqual;
    case AirCond_GreaterThanOrEqual: return AirCond_LessThanOrEqual;
    case AirCond_Below: return AirCond_Above;
    case AirCond_Above: return AirCond_Below;
    case AirCond_BelowOrEqual: return AirCond_AboveOrEqual;
    case AirCond_AboveOrEqual: return AirCond_BelowOrEqual;
    default: return c;
    }
}

/* B3 float comparisons: ordered, except NotEqual (true when unordered) and EqualOrUnordered. */
static AirDoubleCond double_cond(B3Opcode op) {
    switch (op) {
    case B3_Equal: return AirDCond_Equal;
    case B3_NotEqual: return AirDCond_NotEqualOrUnordered;
    case B3_LessThan: return AirDCond_LessThan;
    case B3_GreaterThan: return AirDCond_GreaterThan;
    case B3_LessEqual: return AirDCond_LessThanOrEqual;
    case B3_GreaterEqual: return AirDCond_GreaterThanOrEqual;
    case B3_EqualOrUnordered: return AirDCond_EqualOrUnordered;
    default:
        b3_internal_error("lower_to_air", "not a float comparison: %s", b3_op_info[op].name);
    }
}

/* Can the user of a condition recompute this pure value of the current block? */
static bool same_block(Lower *L, B3Value *v) { return v->owner == L->blk; }

/* Can the op take this form, with ntrail trailing Tmp args? */
static bool cond_form_ok(Lower *L, AirOpcode op, uint8_t ck, uint8_t lk, uint8_t rk, uint32_t ntrail) {
    uint8_t kinds[8] = {ck, lk, rk};
    for (uint32_t i = 0; i < ntrail; i++)
        kinds[3 + i] = AirArg_Tmp;
    return lower_valid_kinds(L, op, 3 + ntrail, kinds);
}

/* A Test (ResCond) of a and b.  BitAnd(x, y) tested for NonZero/Zero becomes test x, y;
 * fuse: the user absorbs x, so a BitAnd of a load and an immediate may test memory. */
static void test_cond(Lower *L, B3Value *x, AirCond rc, const AirOpcode *ops, uint32_t ntrail, bool fuse,
                      Cond *out) {
    x = lower_resolve(x);
    bool is64 = x->type == B3_Int64;
    out->kind = is64 ? CK_Test64 : CK_Test32;
    out->cond = air_rescond(rc);
    int64_t c;
    if ((rc == AirCond_Zero || rc == AirCond_NonZero) && x->opcode == B3_BitAnd && same_block(L, x)) {
        B3Value *a = lower_kid(x, 0), *b = lower_kid(x, 1);
        if (lower_imm_const(a, &c) && !lower_imm_const(b, &c))
            a = lower_kid(x, 1), b = lower_kid(x, 0);
        if (lower_imm_const(b, &c) && fuse && lower_can_be_internal(L, x) &&
            lower_can_fuse_load(L, a, B3_Load, (B3Type)x->type) &&
            cond_form_ok(L, ops[out->kind], AirArg_ResCond, AirArg_Addr, AirArg_Imm, ntrail)) {
            L->flags[lower_vid(L, x)] |= F_INTERNAL;
            out->left = lower_commit_load(L, a);
            out->right = air_imm(c);
            return;
        }
        if (lower_imm_const(b, &c) &&
            cond_form_ok(L, ops[out->kind], AirArg_ResCond, AirArg_Tmp, AirArg_Imm, ntrail)) {
            out->left = lower_vt_arg(L, a);
            out->right = air_imm(c);
            return;
        }
        /* arm64 tests any 64-bit mask in place (tbz, tst with a logical immediate). */
        if (lower_int_const(b, &c) && !lower_int_const(a, &c) &&
            cond_form_ok(L, ops[out->kind], AirArg_ResCond, AirArg_Tmp, AirArg_BigImm, ntrail)) {
            lower_int_const(b, &c);
            out->left = lower_vt_arg(L, a);
            out->right = air_bigimm(c);
            return;
        }
        out->left = lower_vt_arg(L, a);
        out->right = lower_vt_arg(L, b);
        return;
    }
    AirTmp t = lower_vt(L, x);
    out->left = lower_tmp_arg(t);
    out->right = lower_tmp_arg(t);
}

/* The condition computed by the comparison v (a B3 compare).  fuse: v is
 * absorbed by its user, so a single-use load operand may be absorbed too. */
static void compare_cond(Lower *L, B3Value *v, const AirOpcode *ops, uint32_t ntrail, bool fuse, Cond *out) {
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    B3Type ty = (B3Type)a->type;
    if (b3_type_is_float(ty)) {
        out->kind = ty == B3_Double ? CK_Double : CK_Float;
        out->cond = air_dcond(double_cond((B3Opcode)v->opcode));
        out->left = lower_vt_arg(L, a);
        out->right = lower_vt_arg(L, b);
        return;
    }
    AirCond rc = rel_cond((B3Opcode)v->opcode);
    int64_t c;
    if (lower_imm_to_right(&a, &b))
        rc = commute_cond(rc);
    /* Against zero: test x, x. */
    if (lower_is_const_zero(b)) {
        switch (rc) {
        case AirCond_Equal:
        case AirCond_BelowOrEqual:
            test_cond(L, a, AirCond_Zero, ops, ntrail, fuse, out);
            return;
        case AirCond_NotEqual:
        case AirCond_Above:
            test_cond(L, a, AirCond_NonZero, ops, ntrail, fuse, out);
            return;
        case AirCond_LessThan:
            test_cond(L, a, AirCond_Signed, ops, ntrail, fuse, out);
            return;
        case AirCond_GreaterThanOrEqual:
            test_cond(L, a, AirCond_PositiveOrZero, ops, ntrail, fuse, out);
            return;
        default: break;
        }
    }
    out->kind = ty == B3_Int64 ? CK_Rel64 : CK_Rel32;
    out->cond = air_relcond(rc);
    AirOpcode op = ops[out->kind];
    uint8_t rk = lower_imm_const(b, &c) ? AirArg_Imm : AirArg_Tmp;
    if (fuse && lower_can_fuse_load(L, a, B3_Load, ty) &&
        cond_form_ok(L, op, AirArg_RelCond, AirArg_Addr, rk, ntrail)) {
        out->left = lower_commit_load(L, a);
        out->right = rk == AirArg_Imm ? air_imm(c) : lower_vt_arg(L, b);
        return;
    }
    if (fuse && rk == AirArg_Tmp && lower_can_fuse_load(L, b, B3_Load, ty) &&
        cond_form_ok(L, op, AirArg_RelCond, AirArg_Tmp, AirArg_Addr, ntrail)) {
        out->right = lower_commit_load(L, b);
        out->left = lower_vt_arg(L, a);
        return;
    }
    out->left = lower_vt_arg(L, a);
    out->right = rk == AirArg_Imm ? air_imm(c) : lower_vt_arg(L, b);
}

/* The negation of a condition: float relations swap ordered and "or
 * unordered" complements. */
static void invert_cond(Cond *cd) {
    if (cd->kind == CK_Const)
        cd->value = !cd->value;
    else if (cd->cond.kind == AirArg_DoubleCond)
        cd->cond.cond = (uint8_t)air_dcond_invert((AirDoubleCond)cd->cond.cond);
    else
        cd->cond.cond = (uint8_t)air_cond_invert((AirCond)cd->cond.cond);
}

/* The condition "v is non-zero" for a Branch, Select or Check; Equal(x, 0) is
 * the negated condition of x (so Branch(Equal(LessThan(a, b), 0)) is one
 * Branch32 GreaterThanOrEqual a, b).  Each Equal/NotEqual(x, 0) looked
 * through is fused, so it must itself be fusable: one also needed elsewhere
 * is lowered in place, reading x, and x may then not be fused into this user
 * (which is no use of x).  Such a level is recomputed (or tested) instead. */
void lower_build_cond(Lower *L, B3Value *v, const AirOpcode *ops, uint32_t ntrail, Cond *out) {
    bool inv = false;
    v = lower_resolve(v);
    while ((v->opcode == B3_Equal || v->opcode == B3_NotEqual) &&
           b3_type_is_int((B3Type)lower_kid(v, 0)->type) && lower_can_be_internal(L, v)) {
        B3Value *x = NULL;
        if (lower_is_const_zero(v->kids[1]))
            x = lower_kid(v, 0);
        else if (lower_is_const_zero(v->kids[0]))
            x = lower_kid(v, 1);
        if (!x)
            break;
        L->flags[lower_vid(L, v)] |= F_INTERNAL;
        if (v->opcode == B3_Equal)
            inv = !inv;
        v = x;
    }
    int64_t c;
    if (lower_int_const(v, &c)) {
        out->kind = CK_Const;
        out->value = c != 0;
    } else if (is_compare_op((B3Opcode)v->opcode) && same_block(L, v)) {
        bool fuse = lower_can_be_internal(L, v);
        if (fuse)
            L->flags[lower_vid(L, v)] |= F_INTERNAL;
        compare_cond(L, v, ops, ntrail, fuse, out);
    } else {
        test_cond(L, v, AirCond_NonZero, ops, ntrail, true, out);
    }
    if (inv)
        invert_cond(out);
}

/* ---- successors ------------------------------------------------------------ */

void lower_set_succs(Lower *L, AirBlock *b, uint32_t n, const AirSucc *s) {
    b->nsuccs = n;
    b->succs = n ? b3_arena_alloc(L->c->arena, n * sizeof(AirSucc)) : NULL;
    if (n)
        memcpy(b->succs, s, n * sizeof(AirSucc));
}

AirSucc lower_succ_of(Lower *L, B3Succ s) { return (AirSucc){L->ablock[s.block->pos], s.freq}; }

static AirBlock *cur_air_block(Lower *L) { return L->sink ? L->sink : L->ablock[L->blk->pos]; }

AirBlock *lower_new_block(Lower *L) {
    AirBlock *b = air_block_new(L->c);
    b->frequency = L->ablock[L->blk->pos]->frequency;
    return b;
}

/* ---- arithmetic -------------------------------------------------------------- */

/* Is the current value the last reader of x, so that x's register is free
 * for the result?  x's last read must be here, and x must not be live
 * around a loop that contains this block but not x's definition.  Only a
 * heuristic: a wrong answer costs a copy, never correctness. */
static bool dies_here(Lower *L, B3Value *x) {
    x = lower_resolve(x);
    int64_t c;
    if (lower_int_const(x, &c))
        return true; /* materialized afresh at each use */
    uint32_t id = lower_vid(L, x);
    if (L->rblk[id] != L->blk || L->rpos[id] != L->idx)
        return false;
    if (x->owner == L->blk)
        return true;
    need_loops(L);
    B3Loop *lp = b3_loop_of(&L->loops, L->blk);
    return !lp || b3_loop_contains(&L->loops, lp, x->owner);
}

/* Which operand of a commutative two-operand op to copy into the result
 * (B3's preferRightForResult)?  The copy coalesces away only when its
 * source dies here.  So b, when v is the next value of the Phi b (x = y op x
 * in a loop: then x, v and the Phi share one register instead of a copy per
 * iteration); else a if a dies here; else b if b does. */
static bool prefer_right_for_result(Lower *L, const B3Value *v, B3Value *a, B3Value *b) {
    if (a == b)
        return false;
    B3Value *phi = L->feeds[lower_vid(L, v)];
    if (phi && (phi == a || phi == b))
        return phi == b;
    /* A constant that needs a register is best materialized straight into
     * the result: no copy at all, where a dying operand's copy is only
     * coalesced if the allocator manages to. */
    int64_t c;
    if (lower_int_const(a, &c))
        return false;
    if (lower_int_const(b, &c))
        return true;
    if (dies_here(L, a))
        return false;
    return dies_here(L, b);
}

/* op src, dst (two-operand, dst = dst op src) with an Imm or fused load for b when possible. */
static void binop2(Lower *L, B3Value *v, AirOpcode op, bool commutative) {
    B3Type ty = (B3Type)v->type;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    if (commutative)
        lower_imm_to_right(&a, &b);
    AirTmp r = lower_vt(L, v);
    if (lower_imm_const(b, &c) && VALID(L, op, AirArg_Imm, AirArg_Tmp)) {
        lower_move_value_to(L, a, lower_tmp_arg(r), ty);
        EMIT_OP(L, op, air_imm(c), lower_tmp_arg(r));
        return;
    }
    if (VALID(L, op, AirArg_Addr, AirArg_Tmp)) {
        if (lower_can_fuse_load(L, b, B3_Load, ty)) {
            AirArg m = lower_commit_load(L, b);
            lower_move_value_to(L, a, lower_tmp_arg(r), ty);
            EMIT_OP(L, op, m, lower_tmp_arg(r));
            return;
        }
        if (commutative && a != b && lower_can_fuse_load(L, a, B3_Load, ty)) {
            AirArg m = lower_commit_load(L, a);
            lower_move_value_to(L, b, lower_tmp_arg(r), ty);
            EMIT_OP(L, op, m, lower_tmp_arg(r));
            return;
        }
    }
    /* Without memory operands (arm64) the three-operand form saves the copy. */
    if (!VALID(L, op, AirArg_Addr, AirArg_Tmp) && VALID(L, op, AirArg_Tmp, AirArg_Tmp, AirArg_Tmp)) {
        AirArg sa = lower_vt_arg(L, a), sb = lower_vt_arg(L, b);
        EMIT_OP(L, op, sa, sb, lower_tmp_arg(r));
        return;
    }
    if (commutative && prefer_right_for_result(L, v, a, b)) {
        B3Value *t = a;
        a = b;
        b = t;
    }
    AirArg sb = lower_vt_arg(L, b);
    lower_move_value_to(L, a, lower_tmp_arg(r), ty);
    EMIT_OP(L, op, sb, lower_tmp_arg(r));
}

/* The displacement c + d of a lea of type ty, if it has one: any 32-bit
 * lea wraps like the Add (only the low 32 bits of the address are kept),
 * a 64-bit one needs the sum to fit in 32 bits. */
static bool lea_disp(B3Type ty, int64_t c, int64_t d, int64_t *out) {
    uint64_t sum = (uint64_t)c + (uint64_t)d;
    if (ty == B3_Int32) {
        *out = (int32_t)(uint32_t)sum;
        return true;
    }
    *out = (int64_t)sum; /* c and d fit in 32 bits: no overflow */
    return b3_fits32(*out);
}

/* An operand of the lea being built: a single-use Add(x, imm) of this block
 * gives x and adds to the displacement (B3's tryAppendLea does the same). */
static B3Value *lea_term(Lower *L, B3Value *x, B3Type ty, int64_t *disp) {
    int64_t c, d;
    if (x->opcode == B3_Add && lower_can_be_internal(L, x)) {
        B3Value *p = lower_kid(x, 0), *q = lower_kid(x, 1);
        if (lower_imm_const(p, &c) && !lower_imm_const(q, &c)) {
            B3Value *t = p;
            p = q;
            q = t;
        }
        if (lower_imm_const(q, &c) && c != 0 && !lower_int_const(p, &d) && lea_disp(ty, *disp, c, disp))
            return p; /* the caller marks x fused when it commits */
    }
    return x;
}

/* Add(x, Shl(y, 1..3) or Mul(y, 2|4|8)) with an optional constant, and
 * Add(Add(x, y), c): one lea c(x, y, scale) instead of shl/add/add.  The
 * shifted or inner value must be single-use in this block (it is fused: its
 * result never exists). */
static bool try_lea(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    B3Value *x = lower_kid(v, 0), *y = lower_kid(v, 1);
    int64_t c, disp = 0;
    lower_imm_to_right(&x, &y);
    if (lower_imm_const(y, &c)) {
        /* Add(Add(x, y), c) or Add(Mul(x, 3|5|9), c) */
        /* + 0 (only unoptimized code has it) is a copy, not a lea; below,
         * a zero displacement would mean "no constant" after x is marked. */
        if ((x->opcode != B3_Add && x->opcode != B3_Mul) || !lower_can_be_internal(L, x) ||
            !lea_disp(ty, 0, c, &disp) || disp == 0)
            return false;
        B3Value *p = lower_kid(x, 0), *q = lower_kid(x, 1);
        int64_t m;
        lower_imm_to_right(&p, &q);
        if (x->opcode == B3_Mul && lower_int_const(q, &m) && (m == 3 || m == 5 || m == 9) &&
            !lower_int_const(p, &c)) {
            /* Mul(p, 3|5|9) + c = lea c(p, p, 2|4|8) */
            L->flags[lower_vid(L, x)] |= F_INTERNAL;
            AirTmp r = lower_vt(L, v), t = lower_vt(L, p);
            EMIT_OP(L, ty == B3_Int32 ? Air_Lea32 : Air_Lea64, air_index(t, t, (unsigned)m - 1, disp),
                    lower_tmp_arg(r));
            return true;
        }
        if (x->opcode != B3_Add || lower_int_const(p, &c) || lower_int_const(q, &c))
            return false; /* Add(x, c1) + c2: folded by the optimizer, or a plain add */
        L->flags[lower_vid(L, x)] |= F_INTERNAL;
        x = p;
        y = q;
    } else if (lower_int_const(y, &c)) {
        return false;
    }
    B3Value *index = NULL;
    unsigned scale = 1;
    B3Value *sx, *sy;
    if (scaled_index(y, &sy, &scale) && scale > 1 && lower_can_be_internal(L, y) &&
        !lower_int_const(sy, &c)) {
        L->flags[lower_vid(L, y)] |= F_INTERNAL;
        index = sy;
    } else if (scaled_index(x, &sx, &scale) && scale > 1 && lower_can_be_internal(L, x) &&
               !lower_int_const(sx, &c)) {
        L->flags[lower_vid(L, x)] |= F_INTERNAL;
        index = sx;
        x = y;
    } else {
        scale = 1;
        if (!disp) {
            /* Plain x + y: the three-operand Add (lea when it must) already;
             * an Add(x, imm) operand still folds into a displacement. */
            B3Value *nx = lea_term(L, x, ty, &disp);
            B3Value *ny = nx == x ? lea_term(L, y, ty, &disp) : y;
            if (nx == x && ny == y)
                return false;
            L->flags[lower_vid(L, nx != x ? x : y)] |= F_INTERNAL;
            x = nx;
            y = ny;
        }
        index = y;
    }
    AirTmp r = lower_vt(L, v);
    AirArg m = air_index(lower_vt(L, x), lower_vt(L, index), scale, disp);
    EMIT_OP(L, ty == B3_Int32 ? Air_Lea32 : Air_Lea64, m, lower_tmp_arg(r));
    return true;
}

static void lower_add(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (b3_type_is_float(ty)) {
        binop2(L, v, ty == B3_Double ? Air_AddDouble : Air_AddFloat, true);
        return;
    }
    if (try_lea(L, v))
        return;
    AirOpcode op = ty == B3_Int32 ? Air_Add32 : Air_Add64;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    lower_imm_to_right(&a, &b);
    /* A load operand folds into the two-operand form; otherwise the
     * three-operand form (lea) saves a copy. */
    if (!lower_imm_const(b, &c) &&
        (lower_can_fuse_load(L, a, B3_Load, ty) || lower_can_fuse_load(L, b, B3_Load, ty))) {
        binop2(L, v, op, true);
        return;
    }
    AirTmp r = lower_vt(L, v);
    if (lower_imm_const(b, &c)) {
        if (c == 0)
            lower_move_value_to(L, a, lower_tmp_arg(r), ty);
        else
            EMIT_OP(L, op, air_imm(c), lower_vt_arg(L, a), lower_tmp_arg(r));
        return;
    }
    EMIT_OP(L, op, lower_vt_arg(L, a), lower_vt_arg(L, b), lower_tmp_arg(r));
}

static void lower_sub(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (b3_type_is_float(ty)) {
        binop2(L, v, ty == B3_Double ? Air_SubDouble : Air_SubFloat, false);
        return;
    }
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    if (lower_is_const_zero(a)) {
        AirTmp r = lower_vt(L, v);
        lower_move_value_to(L, b, lower_tmp_arg(r), ty);
        EMIT_OP(L, ty == B3_Int32 ? Air_Neg32 : Air_Neg64, lower_tmp_arg(r));
        return;
    }
    if (lower_imm_const(b, &c) && c != INT32_MIN) {
        AirTmp r = lower_vt(L, v);
        if (c == 0)
            lower_move_value_to(L, a, lower_tmp_arg(r), ty);
        else
            EMIT_OP(L, ty == B3_Int32 ? Air_Add32 : Air_Add64, air_imm(-c), lower_vt_arg(L, a),
                    lower_tmp_arg(r));
        return;
    }
    binop2(L, v, ty == B3_Int32 ? Air_Sub32 : Air_Sub64, false);
}

static void lower_mul(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    if (b3_type_is_float(ty)) {
        binop2(L, v, ty == B3_Double ? Air_MulDouble : Air_MulFloat, true);
        return;
    }
    AirOpcode op = ty == B3_Int32 ? Air_Mul32 : Air_Mul64;
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    lower_imm_to_right(&a, &b);
    int64_t k;
    if (lower_int_const(b, &c) && (c == 3 || c == 5 || c == 9) && !lower_int_const(a, &k)) {
        /* x * 3|5|9 = lea (x, x, 2|4|8): one cycle instead of imul's three */
        AirTmp r = lower_vt(L, v), x = lower_vt(L, a);
        EMIT_OP(L, ty == B3_Int32 ? Air_Lea32 : Air_Lea64, air_index(x, x, (unsigned)c - 1, 0),
                lower_tmp_arg(r));
        return;
    }
    uint64_t m = lower_int_const(b, &c) ? (uint64_t)c & (ty == B3_Int32 ? 0xffffffffull : ~0ull) : 0;
    bool minus = !((m + 1) & m);
    uint64_t pow2 = minus ? m + 1 : m - 1;
    unsigned s = 0;
    while (s < 64 && (1ull << s) < pow2)
        s++;
    if (m > 9 && s < (ty == B3_Int32 ? 32u : 64u) && pow2 == 1ull << s && !lower_int_const(a, &k) &&
        !lower_can_fuse_load(L, a, B3_Load, ty)) {
        /* x * (2^s -+ 1) = (x << s) -+ x, as gcc: two cycles instead of
         * imul's three where a loop carries the product (hash * 31) */
        AirTmp r = lower_vt(L, v), x = lower_vt(L, a);
        lower_move_value_to(L, a, lower_tmp_arg(r), ty);
        EMIT_OP(L, ty == B3_Int32 ? Air_Lshift32 : Air_Lshift64, air_imm(s), lower_tmp_arg(r));
        EMIT_OP(L, ty == B3_Int32 ? (minus ? Air_Sub32 : Air_Add32) : (minus ? Air_Sub64 : Air_Add64),
                lower_tmp_arg(x), lower_tmp_arg(r));
        return;
    }
    if (lower_imm_const(b, &c) && VALID(L, op, AirArg_Imm, AirArg_Tmp, AirArg_Tmp)) {
        AirTmp r = lower_vt(L, v);
        if (lower_can_fuse_load(L, a, B3_Load, ty) && VALID(L, op, AirArg_Imm, AirArg_Addr, AirArg_Tmp)) {
            AirArg m = lower_commit_load(L, a);
            EMIT_OP(L, op, air_imm(c), m, lower_tmp_arg(r));
            return;
        }
        EMIT_OP(L, op, air_imm(c), lower_vt_arg(L, a), lower_tmp_arg(r));
        return;
    }
    binop2(L, v, op, true);
}

/* The leaves of the BitOr tree at v (its single-use BitOrs of this block):
 * up to four, else false. */
static bool or_leaves(Lower *L, B3Value *v, bool root, B3Value **leaf, B3Value **inner, uint32_t *nleaf,
                      uint32_t *ninner) {
    if (v->opcode != B3_BitOr || v->type != B3_Int32 || (!root && !lower_can_be_internal(L, v))) {
        if (*nleaf == 4)
            return false;
        leaf[(*nleaf)++] = v;
        return true;
    }
    if (*ninner == 3)
        return false;
    if (!root)
        inner[(*ninner)++] = v;
    return or_leaves(L, lower_kid(v, 0), false, leaf, inner, nleaf, ninner) &&
           or_leaves(L, lower_kid(v, 1), false, leaf, inner, nleaf, ninner);
}

/* A 32-bit big-endian load assembled from bytes, b[k] << 24 | b[k+1] << 16 |
 * b[k+2] << 8 | b[k+3] (any order and grouping of the BitOrs), is one load
 * and a bswap, as gcc and LLVM select it.  The four Load8Z share one address
 * value and are fused into v (each may move down to it), as are the Shls and
 * the inner BitOrs. */
static bool try_bswap_load(Lower *L, B3Value *v) {
    B3Value *leaf[4], *inner[3], *load[4] = {0}, *shl[4] = {0};
    uint32_t nleaf = 0, ninner = 0;
    if (!VALID(L, Air_ByteSwap32, AirArg_Tmp) || !or_leaves(L, v, true, leaf, inner, &nleaf, &ninner) ||
        nleaf != 4)
        return false;
    B3Value *ptr = NULL;
    for (uint32_t i = 0; i < 4; i++) {
        B3Value *x = leaf[i], *s = NULL;
        int64_t c = 0;
        if (x->opcode == B3_Shl && lower_int_const(lower_kid(x, 1), &c) && lower_can_be_internal(L, x)) {
            s = x;
            x = lower_kid(x, 0);
        }
        if (c != 0 && c != 8 && c != 16 && c != 24)
            return false;
        if (!lower_can_fuse_load(L, x, B3_Load8Z, B3_Int32) || (x->kflags & B3K_TRAPS) ||
            (ptr && lower_kid(x, 0) != ptr))
            return false;
        ptr = lower_kid(x, 0);
        uint32_t byte = 3 - (uint32_t)(c / 8); /* its place in memory, from the lowest address */
        if (load[byte])
            return false;
        load[byte] = x;
        shl[byte] = s;
    }
    int64_t base = load[0]->m.mem.offset;
    for (uint32_t k = 1; k < 4; k++)
        if (load[k]->m.mem.offset != base + (int64_t)k)
            return false;
    for (uint32_t k = 0; k < 4; k++) {
        if (k)
            L->flags[lower_vid(L, load[k])] |= F_INTERNAL;
        if (shl[k])
            L->flags[lower_vid(L, shl[k])] |= F_INTERNAL;
    }
    for (uint32_t i = 0; i < ninner; i++)
        L->flags[lower_vid(L, inner[i])] |= F_INTERNAL;
    AirTmp r = lower_vt(L, v);
    EMIT(L, Move32, lower_commit_load(L, load[0]), lower_tmp_arg(r));
    EMIT(L, ByteSwap32, lower_tmp_arg(r));
    return true;
}

static void lower_bitop(Lower *L, B3Value *v, AirOpcode op32, AirOpcode op64, AirOpcode opf, AirOpcode opd) {
    B3Type ty = (B3Type)v->type;
    if (b3_type_is_float(ty)) {
        AirTmp r = lower_vt(L, v);
        AirArg sb = lower_vt_arg(L, lower_kid(v, 1));
        lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(r), ty);
        EMIT_OP(L, ty == B3_Double ? opd : opf, sb, lower_tmp_arg(r));
        return;
    }
    B3Value *a = lower_kid(v, 0), *b = lower_kid(v, 1);
    int64_t c;
    if (lower_int_const(a, &c) && !lower_int_const(b, &c)) {
        B3Value *t = a;
        a = b;
        b = t;
    }
    if (v->opcode == B3_BitOr && ty == B3_Int32 && try_bswap_load(L, v))
        return;
    if (lower_int_const(b, &c)) {
        uint64_t mask = ty == B3_Int32 ? 0xffffffffu : UINT64_MAX;
        uint64_t u = (uint64_t)c & mask;
        AirTmp r;
        if (v->opcode == B3_BitAnd && (u == 0xff || u == 0xffff || (u == 0xffffffffu && ty == B3_Int64))) {
            /* Zero-extending moves are the cheapest masks. */
            r = lower_vt(L, v);
            AirArg s = lower_vt_arg(L, a);
            EMIT_OP(L,
                    u == 0xff     ? Air_ZeroExtend8To32
                    : u == 0xffff ? Air_ZeroExtend16To32
                                  : Air_Move32,
                    s, lower_tmp_arg(r));
            return;
        }
        if (v->opcode == B3_BitXor && u == mask) {
            r = lower_vt(L, v);
            lower_move_value_to(L, a, lower_tmp_arg(r), ty);
            EMIT_OP(L, ty == B3_Int32 ? Air_Not32 : Air_Not64, lower_tmp_arg(r));
            return;
        }
    }
    binop2(L, v, ty == B3_Int32 ? op32 : op64, true);
}

/* Float/Double sign-bit masks in an FP tmp. */
static AirTmp sign_mask(Lower *L, bool dbl, bool abs) {
    uint64_t bits =
        dbl ? (abs ? 0x7fffffffffffffffull : 0x8000000000000000ull) : (abs ? 0x7fffffffu : 0x80000000u);
    return lower_fp_const_tmp(L, bits, dbl);
}

static void lower_neg(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    AirTmp r = lower_vt(L, v);
    if (b3_type_is_int(ty)) {
        lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(r), ty);
        EMIT_OP(L, ty == B3_Int32 ? Air_Neg32 : Air_Neg64, lower_tmp_arg(r));
        return;
    }
    AirTmp m = sign_mask(L, ty == B3_Double, false);
    lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(r), ty);
    EMIT_OP(L, ty == B3_Double ? Air_XorDouble : Air_XorFloat, lower_tmp_arg(m), lower_tmp_arg(r));
}

static void lower_abs(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    AirTmp r = lower_vt(L, v);
    AirTmp m = sign_mask(L, ty == B3_Double, true);
    lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(r), ty);
    EMIT_OP(L, ty == B3_Double ? Air_AndDouble : Air_AndFloat, lower_tmp_arg(m), lower_tmp_arg(r));
}

/* op src, dst where src may be a fused load of type srcty (loadop). */
static void unop(Lower *L, B3Value *v, AirOpcode op, B3Opcode loadop, B3Type srcty) {
    B3Value *a = lower_kid(v, 0);
    AirTmp r = lower_vt(L, v);
    if (lower_can_fuse_load(L, a, loadop, srcty) && VALID(L, op, AirArg_Addr, AirArg_Tmp)) {
        AirArg m = lower_commit_load(L, a);
        EMIT_OP(L, op, m, lower_tmp_arg(r));
        return;
    }
    EMIT_OP(L, op, lower_vt_arg(L, a), lower_tmp_arg(r));
}

/* FMin/FMax with wasm semantics: NaN if either is NaN; -0 < +0.  Branch-free:
 * start from a + b (a NaN when unordered), then for equal operands take the
 * OR (min) / AND (max) of the bits, which orders the zeros, then the smaller
 * (larger) operand when they differ. */
static void lower_fminmax(Lower *L, B3Value *v, bool is_min) {
    bool dbl = v->type == B3_Double;
    AirTmp r = lower_vt(L, v);
    AirTmp a = lower_vt(L, lower_kid(v, 0)), b = lower_vt(L, lower_kid(v, 1));
    AirOpcode mov = dbl ? Air_MoveDouble : Air_MoveFloat;
    AirOpcode cmov = dbl ? Air_MoveDoubleConditionallyDouble : Air_MoveDoubleConditionallyFloat;
    AirTmp e = lower_newtmp(L, AirFP);
    EMIT_OP(L, mov, lower_tmp_arg(a), lower_tmp_arg(r));
    EMIT_OP(L, dbl ? Air_AddDouble : Air_AddFloat, lower_tmp_arg(b), lower_tmp_arg(r));
    EMIT_OP(L, mov, lower_tmp_arg(a), lower_tmp_arg(e));
    EMIT_OP(L, is_min ? (dbl ? Air_OrDouble : Air_OrFloat) : (dbl ? Air_AndDouble : Air_AndFloat),
            lower_tmp_arg(b), lower_tmp_arg(e));
    EMIT_OP(L, cmov, air_dcond(AirDCond_Equal), lower_tmp_arg(a), lower_tmp_arg(b), lower_tmp_arg(e),
            lower_tmp_arg(r));
    AirDoubleCond lt = is_min ? AirDCond_LessThan : AirDCond_GreaterThan;
    EMIT_OP(L, cmov, air_dcond(lt), lower_tmp_arg(a), lower_tmp_arg(b), lower_tmp_arg(a), lower_tmp_arg(r));
    EMIT_OP(L, cmov, air_dcond(lt), lower_tmp_arg(b), lower_tmp_arg(a), lower_tmp_arg(b), lower_tmp_arg(r));
}

static void lower_bitcast(Lower *L, B3Value *v) {
    B3Value *a = lower_kid(v, 0);
    B3Type from = (B3Type)a->type, to = (B3Type)v->type;
    /* A load of the other type is just a load of this type. */
    if (lower_can_fuse_load(L, a, B3_Load, from)) {
        AirTmp r = lower_vt(L, v);
        AirArg m = lower_commit_load(L, a);
        EMIT_OP(L, lower_move_op(to), m, lower_tmp_arg(r));
        return;
    }
    AirOpcode op = from == B3_Int64 ? Air_Move64ToDouble
                 : from == B3_Int32 ? Air_Move32ToFloat
                 : from == B3_Double ? Air_MoveDoubleTo64
                                     : Air_MoveFloatTo32;
    AirTmp r = lower_vt(L, v);
    EMIT_OP(L, op, lower_vt_arg(L, a), lower_tmp_arg(r));
}

/* ---- compare, branch, select ------------------------------------------------ */

static void lower_compare(Lower *L, B3Value *v) {
    AirTmp r = lower_vt(L, v);
    Cond cd;
    bool fp = b3_type_is_float((B3Type)lower_kid(v, 0)->type);
    compare_cond(L, v, compare_ops, fp ? 2 : 1, true, &cd);
    AirOpcode op = compare_ops[cd.kind];
    if (fp)
        EMIT_OP(L, op, cd.cond, cd.left, cd.right, lower_tmp_arg(r), lower_tmp_arg(lower_newtmp(L, AirGP)));
    else
        EMIT_OP(L, op, cd.cond, cd.left, cd.right, lower_tmp_arg(r));
}

static void lower_branch(Lower *L, B3Value *v) {
    B3Block *b = L->blk;
    AirBlock *ab = L->ablock[b->pos];
    AirSucc taken = lower_succ_of(L, b->succs[0]), not_taken = lower_succ_of(L, b->succs[1]);
    Cond cd;
    lower_build_cond(L, v->kids[0], lower_branch_ops, 0, &cd);
    if (cd.kind == CK_Const) {
        EMIT0(L, Jump);
        lower_set_succs(L, ab, 1, (AirSucc[]){cd.value ? taken : not_taken});
        return;
    }
    EMIT_OP(L, lower_branch_ops[cd.kind], cd.cond, cd.left, cd.right);
    lower_set_succs(L, ab, 2, (AirSucc[]){taken, not_taken});
}

static void lower_select(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    B3Value *a = lower_kid(v, 1), *b = lower_kid(v, 2);
    AirTmp r = lower_vt(L, v);
    const AirOpcode *ops = b3_type_is_float(ty) ? movdcond_ops : movcond_ops;
    Cond cd;
    lower_build_cond(L, v->kids[0], ops, 3, &cd);
    if (cd.kind == CK_Const) {
        lower_move_value_to(L, cd.value ? a : b, lower_tmp_arg(r), ty);
        return;
    }
    /* Tie by liveness, as for two-operand ops: copy the input that dies here
     * into r (the copy coalesces) and move the other in under the condition,
     * negated when it is the else input.  When neither dies no copy can be
     * saved: the three-input form (cond, l, r, then, else, dst), where the
     * emitter copies else into dst.  (The allocator has no def-aliasing hint,
     * B3's shouldTryAliasingDef, so with the three-input form it would share
     * a dying input's register only by chance.) */
    bool then_dies = dies_here(L, a), else_dies = dies_here(L, b);
    /* (arm64's csel has only the three-input form.) */
    if ((!then_dies && !else_dies) || !cond_form_ok(L, ops[cd.kind], cd.cond.kind, cd.left.kind, cd.right.kind, 2)) {
        EMIT_OP(L, ops[cd.kind], cd.cond, cd.left, cd.right, lower_vt_arg(L, a), lower_vt_arg(L, b),
                lower_tmp_arg(r));
        return;
    }
    if (then_dies && !else_dies) {
        B3Value *t = a;
        a = b;
        b = t;
        invert_cond(&cd);
    }
    AirArg then_value = lower_vt_arg(L, a);
    lower_move_value_to(L, b, lower_tmp_arg(r), ty);
    EMIT_OP(L, ops[cd.kind], cd.cond, cd.left, cd.right, then_value, lower_tmp_arg(r));
}

/* ---- memory ------------------------------------------------------------------- */

/* A <Traps> access is lowered where it stands (a trapping load even when
 * unused: has_effect), and its inst gets AirInstFlag_Traps (lower_emit_special). */
static void lower_load(Lower *L, B3Value *v) {
    AirOpcode op;
    switch (v->opcode) {
    case B3_Load8Z: op = Air_Load8; break;
    case B3_Load8S: op = Air_Load8SignedExtendTo32; break;
    case B3_Load16Z: op = Air_Load16; break;
    case B3_Load16S: op = Air_Load16SignedExtendTo32; break;
    default:
        op = lower_move_op((B3Type)v->type);
        break;
    }
    AirTmp r = lower_vt(L, v);
    AirArg m = lower_addr_for(L, v->kids[0], v->m.mem.offset);
    EMIT_OP(L, op, m, lower_tmp_arg(r));
}

static bool same_address(B3Value *load, B3Value *store) {
    return lower_resolve(load->kids[0]) == lower_resolve(store->kids[1]) &&
           load->m.mem.offset == store->m.mem.offset;
}

/* Store(Op(Load(a), y), a) -> Op y, (a) when the load and the operation have
 * no other use and nothing between the load and the store writes memory. */
static bool try_rmw(Lower *L, B3Value *v) {
    B3Value *x = lower_kid(v, 0);
    B3Type ty = (B3Type)x->type;
    if (v->opcode != B3_Store || !b3_type_is_int(ty) || !lower_can_be_internal(L, x))
        return false;
    bool is32 = ty == B3_Int32;
    AirOpcode op;
    switch (x->opcode) {
    case B3_Add: op = is32 ? Air_Add32 : Air_Add64; break;
    case B3_Sub: op = is32 ? Air_Sub32 : Air_Sub64; break;
    case B3_BitAnd: op = is32 ? Air_And32 : Air_And64; break;
    case B3_BitOr: op = is32 ? Air_Or32 : Air_Or64; break;
    case B3_BitXor: op = is32 ? Air_Xor32 : Air_Xor64; break;
    case B3_Neg: op = is32 ? Air_Neg32 : Air_Neg64; break;
    default: return false;
    }
    B3Value *load = NULL, *other = NULL;
    for (uint32_t k = 0; k < x->nkids && !load; k++) {
        B3Value *c = lower_kid(x, k);
        if (k == 1 && x->opcode == B3_Sub)
            break; /* only the minuend can be the memory operand */
        if (c->opcode == B3_Load && same_address(c, v) && lower_can_fuse_load(L, c, B3_Load, ty)) {
            load = c;
            other = x->nkids == 2 ? lower_kid(x, 1 - k) : NULL;
        }
    }
    if (!load || other == load)
        return false;
    int64_t c = 0; /* (gcc cannot see that ok == AirArg_Imm sets it) */
    uint8_t ok = other ? (lower_imm_const(other, &c) ? AirArg_Imm : AirArg_Tmp) : AirArg_None;
    if (other ? !VALID(L, op, ok, AirArg_Addr) : !VALID(L, op, AirArg_Addr))
        return false;
    L->flags[lower_vid(L, x)] |= F_INTERNAL;
    AirArg m = lower_commit_load(L, load);
    if (!other)
        EMIT_OP(L, op, m);
    else
        EMIT_OP(L, op, ok == AirArg_Imm ? air_imm(c) : lower_vt_arg(L, other), m);
    return true;
}

static void lower_store(Lower *L, B3Value *v) {
    if (try_rmw(L, v))
        return;
    B3Value *x = lower_kid(v, 0);
    AirArg m = lower_addr_for(L, v->kids[1], v->m.mem.offset);
    int64_t c;
    if (v->opcode == B3_Store8 || v->opcode == B3_Store16) {
        bool is8 = v->opcode == B3_Store8;
        AirOpcode op = is8 ? Air_Store8 : Air_Store16;
        if (lower_int_const(x, &c))
            EMIT_OP(L, op, air_imm(is8 ? (int8_t)c : (int16_t)c), m);
        else
            EMIT_OP(L, op, lower_vt_arg(L, x), m);
        return;
    }
    lower_move_value_to(L, x, m, (B3Type)x->type);
}

/* ---- calls ------------------------------------------------------------------------ */

void lower_c_arg_places(Lower *L, uint32_t n, const uint8_t *types, const B3ByVal *byval, int32_t nfixed,
                        B3Reg *where, uint32_t *stack_off, uint32_t *ngpr, uint32_t *nfpr) {
    uint32_t area = L->c->desc->classify_args(L->c->desc, n, types, byval, nfixed, where, stack_off);
    if (area > L->c->call_arg_area)
        L->c->call_arg_area = area;
    *ngpr = *nfpr = 0;
    for (uint32_t i = 0; i < n; i++)
        if (where[i] != B3_NO_REG && !(byval && byval[i].f128 == B3F128_High))
            ++*(b3_reg_is_fpr(where[i]) ? nfpr : ngpr);
}

AirSpecial *lower_new_special(Lower *L, uint32_t n) {
    AirSpecial *sp = b3_arena_alloc(L->c->arena, sizeof *sp);
    sp->roles = b3_arena_alloc(L->c->arena, n ? n : 1);
    sp->banks = b3_arena_alloc(L->c->arena, n ? n : 1);
    sp->widths = b3_arena_alloc(L->c->arena, n ? n : 1);
    return sp;
}

void lower_special_arg(AirSpecial *sp, AirArg *args, uint32_t *k, AirArg a, AirRole role, B3Type ty) {
    args[*k] = a;
    sp->roles[*k] = (uint8_t)role;
    sp->banks[*k] = (uint8_t)lower_bank_of(ty);
    sp->widths[*k] = ty == B3_Int32 || ty == B3_Float ? AirW32 : AirW64;
    ++*k;
}

void lower_return_regs(Lower *L, uint32_t n, const B3Type *types, B3Reg *regs) {
    uint8_t t[B3_MAX_RESULTS];
    for (uint32_t i = 0; i < n; i++)
        t[i] = (uint8_t)types[i];
    if (!b3_target_result_regs(L->c->desc, n, t, regs)) /* the validator refuses it */
        b3_internal_error_at("lower_to_air", NULL, "a result of %u values that %s cannot return in registers",
                             n, L->c->desc->name);
}

void lower_emit_return(Lower *L, uint32_t n, const B3Type *types) {
    B3Reg regs[B3_MAX_RESULTS];
    lower_return_regs(L, n, types, regs);
    if (n == 0) {
        EMIT0(L, RetVoid);
    } else if (n == 1) {
        B3Type ty = types[0];
        AirOpcode op = ty == B3_Int32   ? Air_Ret32
                       : ty == B3_Int64 ? Air_Ret64
                       : ty == B3_Float ? Air_RetFloat
                                        : Air_RetDouble;
        EMIT_OP(L, op, lower_tmp_arg(regs[0]));
    } else {
        /* Several values (docs/c-extensions.md): every result register is used. */
        AirSpecial *sp = lower_new_special(L, n);
        AirArg *args = b3_arena_alloc(L->c->arena, n * sizeof *args);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            lower_special_arg(sp, args, &k, lower_tmp_arg(regs[i]), AirRole_Use, types[i]);
        lower_emit_special(L, Air_RetMany, n, args, sp);
    }
}

/* The address of byte `off` of the memory at tmp p, as an Addr the target
 * encodes for an access of `bytes` bytes (a far one through a new base). */
static AirArg byval_addr(Lower *L, AirTmp p, int64_t off, unsigned bytes) {
    if (b3_target_offset_ok(L->t, bytes, false, off))
        return air_addr(p, off);
    AirTmp k = lower_newtmp(L, AirGP), q = lower_newtmp(L, AirGP);
    lower_move_int_const(L, B3_Int64, off, lower_tmp_arg(k));
    EMIT(L, Add64, lower_tmp_arg(k), lower_tmp_arg(p), lower_tmp_arg(q));
    return air_addr(q, 0);
}

/* A by-value aggregate argument: size bytes from the address x into the
 * outgoing argument area at offset `at`, in 8-byte moves through a scratch
 * tmp, then 4-, 2- and 1-byte tails. */
static void copy_byval(Lower *L, B3Value *x, uint32_t size, uint32_t at) {
    AirTmp p = lower_vt(L, x);
    uint32_t off = 0;
    static const struct {
        unsigned bytes;
        AirOpcode load, store;
    } steps[] = {{8, Air_Move, Air_Move},
                 {4, Air_Move32, Air_Move32},
                 {2, Air_Load16, Air_Store16},
                 {1, Air_Load8, Air_Store8}};
    for (unsigned s = 0; s < sizeof steps / sizeof steps[0]; s++)
        while (size - off >= steps[s].bytes) {
            AirTmp t = lower_newtmp(L, AirGP);
            EMIT_OP(L, steps[s].load, byval_addr(L, p, off, steps[s].bytes), lower_tmp_arg(t));
            EMIT_OP(L, steps[s].store, lower_tmp_arg(t), air_callarg(at + off));
            off += steps[s].bytes;
        }
}

/* A Float128 pair (docs/c-extensions.md): the Int64 halves lo and hi into
 * the 128-bit FP register reg. */
static void lower_float128_to(Lower *L, B3Value *lo, B3Value *hi, B3Reg reg) {
    AirTmp a = lower_newtmp(L, AirGP), b = lower_newtmp(L, AirGP);
    lower_move_value_to(L, lo, lower_tmp_arg(a), B3_Int64);
    lower_move_value_to(L, hi, lower_tmp_arg(b), B3_Int64);
    EMIT(L, Move64ToDouble, lower_tmp_arg(a), lower_tmp_arg(reg));
    EMIT(L, Move64ToHighLane, lower_tmp_arg(b), lower_tmp_arg(reg));
}

/* The register a further result r (SecondResult, Result) of call reads: a
 * SecondResult the next free result register of its bank after the call's
 * own, a Result register `index` of its bank (the call's result is of the
 * same bank: the validator checks it). */
static B3Reg call_result_reg(Lower *L, const B3Value *call, const B3Value *r) {
    const B3TargetDesc *d = L->c->desc;
    bool fp = b3_type_is_float((B3Type)r->type);
    if (r->opcode == B3_Result)
        return (fp ? d->ret_fprs : d->ret_gprs)[r->m.result_index];
    uint8_t t[2] = {call->type, r->type};
    B3Reg regs[2];
    b3_target_result_regs(d, 2, t, regs);
    return regs[1];
}

static void lower_ccall(Lower *L, B3Value *v) {
    const B3TargetDesc *d = L->c->desc;
    B3Value *callee = lower_kid(v, 0);
    uint32_t nargs = v->nkids - 1;
    /* An sret argument that has a register of its own (arm64's x8) is not
     * classified: the others are placed as if it were absent. */
    uint32_t skip = b3_ccall_sret(v) && d->sret_reg != B3_NO_REG ? 1 : 0;
    uint32_t ncls = nargs - skip;
    B3Reg *where = b3_xmalloc("lower_to_air", (ncls + 1) * sizeof *where); /* B3_NO_REG: on the stack */
    uint32_t *stack_off = b3_xmalloc("lower_to_air", (ncls + 1) * sizeof *stack_off);
    uint8_t *types = b3_xmalloc("lower_to_air", ncls + 1);
    B3ByVal *byval = v->m.ccall.extra && v->m.ccall.extra->byval
                         ? b3_xmalloc("lower_to_air", (ncls + 1) * sizeof *byval)
                         : NULL;
    uint32_t ngpr, nfpr;
    for (uint32_t i = 0; i < ncls; i++) {
        types[i] = v->kids[skip + i + 1]->type;
        if (byval)
            byval[i] = b3_ccall_byval(v, skip + i + 1);
    }
    int32_t nfixed = v->m.ccall.variadic;
    if (nfixed >= 0)
        nfixed = nfixed >= (int32_t)skip ? nfixed - (int32_t)skip : 0;
    lower_c_arg_places(L, ncls, types, byval, nfixed, where, stack_off, &ngpr, &nfpr);
    free(types);
    AirTmp callee_reg = d->indirect_call_reg;
    /* Stack arguments first: storing them needs no fixed register. */
    for (uint32_t i = 0; i < ncls; i++) {
        if (where[i] != B3_NO_REG)
            continue;
        B3Value *x = lower_kid(v, skip + i + 1);
        if (byval && byval[i].size)
            copy_byval(L, x, byval[i].size, stack_off[i]);
        else
            lower_move_value_to(L, x, air_callarg(stack_off[i]), (B3Type)x->type);
    }
    free(stack_off);
    free(byval);
    bool direct = callee->opcode == B3_SymbolAddress && callee->m.symbol.offset == 0;
    if (!direct)
        lower_move_value_to(L, callee, lower_tmp_arg(callee_reg), B3_Int64);
    for (uint32_t i = 0; i < ncls; i++) {
        if (where[i] == B3_NO_REG)
            continue;
        B3Value *x = lower_kid(v, skip + i + 1);
        B3ByVal bv = b3_ccall_byval(v, skip + i + 1);
        if (bv.f128 == B3F128_Low)
            lower_float128_to(L, x, lower_kid(v, skip + i + 2), where[i]);
        else if (bv.f128 != B3F128_High)
            lower_move_value_to(L, x, lower_tmp_arg(where[i]), (B3Type)x->type);
    }
    if (skip)
        lower_move_value_to(L, lower_kid(v, 1), lower_tmp_arg(d->sret_reg), B3_Int64);
    /* The call: callee, argument registers (uses), result registers (defs):
     * its own and those of the results after it. */
    bool f128 = b3_ccall_float128(v); /* both halves in the first FP result register */
    uint32_t nextra =
        v->type != B3_Void && !f128 ? b3_call_results_end(L->blk, L->idx) - L->idx - 1 : 0;
    /* A second pair (Result index = 2, 3): in the second FP result register. */
    bool f128_pair = false;
    for (uint32_t i = L->idx + 1; f128 && i < b3_call_results_end(L->blk, L->idx); i++)
        f128_pair |= L->blk->values[i]->opcode == B3_Result;
    nextra += f128_pair;
    uint32_t n = 1 + ngpr + nfpr + skip + (v->type != B3_Void || f128) + nextra;
    AirArg *args = b3_arena_alloc(L->c->arena, n * sizeof *args);
    AirSpecial *sp = lower_new_special(L, n);
    uint32_t k = 0;
    lower_special_arg(sp, args, &k,
                      direct ? air_sym(callee->m.symbol.sym, 0, false) : lower_tmp_arg(callee_reg),
                      AirRole_Use, B3_Int64);
    for (uint32_t i = 0; i < ncls; i++) {
        uint8_t f128 = b3_ccall_byval(v, skip + i + 1).f128;
        if (where[i] != B3_NO_REG && f128 != B3F128_High)
            lower_special_arg(sp, args, &k, lower_tmp_arg(where[i]), AirRole_Use,
                              f128 ? B3_Double : (B3Type)v->kids[skip + i + 1]->type);
    }
    if (skip)
        lower_special_arg(sp, args, &k, lower_tmp_arg(d->sret_reg), AirRole_Use, B3_Int64);
    B3Type rt = (B3Type)v->type;
    B3Type rt0 = f128 ? B3_Double : rt;
    B3Reg r0 = rt0 != B3_Void ? lower_c_result_reg(L, rt0) : B3_NO_REG;
    if (rt0 != B3_Void)
        lower_special_arg(sp, args, &k, lower_tmp_arg(r0), AirRole_Def, rt0);
    if (f128_pair)
        lower_special_arg(sp, args, &k, lower_tmp_arg(d->ret_fprs[1]), AirRole_Def, B3_Double);
    for (uint32_t i = 0; i < nextra - f128_pair; i++) {
        B3Value *r = L->blk->values[L->idx + 1 + i];
        lower_special_arg(sp, args, &k, lower_tmp_arg(call_result_reg(L, v, r)), AirRole_Def,
                          (B3Type)r->type);
    }
    lower_add_call_clobbers(L, sp);
    AirCallInfo *info = b3_arena_alloc(L->c->arena, sizeof *info);
    info->nfprs = nfpr;
    info->returns_twice = b3_ccall_returns_twice(v);
    sp->data = info;
    lower_emit_special(L, Air_Call, n, args, sp);
    free(where);
    if (rt != B3_Void && (L->flags[lower_vid(L, v)] & F_NEEDED))
        EMIT_OP(L, f128 ? Air_MoveDoubleTo64 : lower_move_op(rt), lower_tmp_arg(r0), lower_vt_arg(L, v));
}

/* SecondResult, Result: the register its CCall (just before it) defined. */
static void lower_second_result(Lower *L, B3Value *v) {
    B3Value *call = lower_kid(v, 0);
    if (b3_ccall_float128(call)) { /* the high half of q0; Result 2 and 3: q1's halves */
        const B3TargetDesc *d = L->c->desc;
        if (v->opcode == B3_Result && v->m.result_index == 2)
            EMIT(L, MoveDoubleTo64, lower_tmp_arg(d->ret_fprs[1]), lower_vt_arg(L, v));
        else
            EMIT(L, MoveHighLaneTo64, lower_tmp_arg(v->opcode == B3_Result ? d->ret_fprs[1] : d->ret_fpr),
                 lower_vt_arg(L, v));
        return;
    }
    B3Reg r = call_result_reg(L, call, v);
    EMIT_OP(L, lower_move_op((B3Type)v->type), lower_tmp_arg(r), lower_vt_arg(L, v));
}

/* ---- switch ------------------------------------------------------------------------- */

typedef struct {
    int64_t value;
    AirSucc target;
} Case;

static int case_cmp(const void *a, const void *b) {
    const Case *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Emits into blk (NULL: the switch's own block, through the current chunk). */
static void switch_branch(Lower *L, AirBlock *blk, B3Type ty, AirTmp x, AirCond cond, int64_t c, AirSucc t,
                          AirSucc f) {
    L->sink = blk;
    AirArg rhs;
    if (ty == B3_Int32 || b3_fits32(c)) {
        rhs = air_imm(ty == B3_Int32 ? (int32_t)c : c);
    } else {
        AirTmp k = lower_newtmp(L, AirGP);
        EMIT(L, Move, air_bigimm(c), lower_tmp_arg(k));
        rhs = lower_tmp_arg(k);
    }
    EMIT_OP(L, ty == B3_Int32 ? Air_Branch32 : Air_Branch64, air_relcond(cond), lower_tmp_arg(x), rhs);
    lower_set_succs(L, blk ? blk : L->ablock[L->blk->pos], 2, (AirSucc[]){t, f});
    L->sink = NULL;
}

/* A balanced binary search over sorted cases; runs of up to 3 are tested in line. */
static void switch_tree(Lower *L, AirBlock *blk, B3Type ty, AirTmp x, const Case *cs, uint32_t n,
                        AirSucc def) {
    if (n <= 3) {
        for (uint32_t i = 0; i < n; i++) {
            AirSucc next = def;
            AirBlock *nb = NULL;
            if (i + 1 < n) {
                nb = lower_new_block(L);
                next = (AirSucc){nb, B3Freq_Normal};
            }
            switch_branch(L, blk, ty, x, AirCond_Equal, cs[i].value, cs[i].target, next);
            blk = nb;
        }
        return;
    }
    uint32_t mid = n / 2;
    AirBlock *lo = lower_new_block(L), *hi = lower_new_block(L);
    switch_branch(L, blk, ty, x, AirCond_LessThan, cs[mid].value, (AirSucc){lo, B3Freq_Normal},
                  (AirSucc){hi, B3Freq_Normal});
    switch_tree(L, lo, ty, x, cs, mid, def);
    switch_tree(L, hi, ty, x, cs + mid, n - mid, def);
}

static void lower_switch(Lower *L, B3Value *v) {
    B3Block *b = L->blk;
    AirBlock *ab = L->ablock[b->pos];
    B3Value *x = lower_kid(v, 0);
    B3Type ty = (B3Type)x->type;
    uint32_t n = v->m.sw.ncases;
    AirSucc def = lower_succ_of(L, b->succs[n]);
    Case *cs = b3_xmalloc("lower_to_air", (n + 1) * sizeof *cs);
    for (uint32_t i = 0; i < n; i++) {
        int64_t val = v->m.sw.cases[i];
        cs[i].value = ty == B3_Int32 ? (int32_t)val : val;
        cs[i].target = lower_succ_of(L, b->succs[i]);
    }
    qsort(cs, n, sizeof *cs, case_cmp);
    uint32_t m = 0; /* drop duplicate values, keeping the first listed */
    for (uint32_t i = 0; i < n; i++)
        if (!m || cs[m - 1].value != cs[i].value)
            cs[m++] = cs[i];
    n = m;
    int64_t c;
    if (n == 0 || lower_int_const(x, &c)) {
        AirSucc to = def;
        if (n && lower_int_const(x, &c)) {
            int64_t key = ty == B3_Int32 ? (int32_t)c : c;
            for (uint32_t i = 0; i < n; i++)
                if (cs[i].value == key)
                    to = cs[i].target;
        }
        EMIT0(L, Jump);
        lower_set_succs(L, ab, 1, &to);
        free(cs);
        return;
    }
    AirTmp tx = lower_vt(L, x);
    uint64_t range = (uint64_t)cs[n - 1].value - (uint64_t)cs[0].value + 1;
    /* A key known to lie in [min, hi] (a masked opcode) needs no bounds
     * check when the table covers all of it: the values past the last case
     * go to the default through the table. */
    B3IntRange known = b3_int_range(x);
    bool checked = true;
    if (n >= 4 && known.lo >= cs[0].value && known.hi >= cs[n - 1].value &&
        (uint64_t)known.hi - (uint64_t)cs[0].value < 3ull * n &&
        (uint64_t)known.hi - (uint64_t)cs[0].value < 65536) {
        range = (uint64_t)known.hi - (uint64_t)cs[0].value + 1;
        checked = false;
    }
    if (n >= 4 && range != 0 && range <= 3ull * n && range <= 65536) {
        /* Jump table: idx = x - min, unsigned bounds check, then the table. */
        int64_t min = cs[0].value;
        AirTmp idx = lower_newtmp(L, AirGP);
        if (ty == B3_Int32) {
            EMIT(L, Move32, lower_tmp_arg(tx), lower_tmp_arg(idx));
            if (min)
                EMIT(L, Sub32, air_imm((int32_t)min), lower_tmp_arg(idx)); /* zero-extends */
        } else {
            EMIT(L, Move, lower_tmp_arg(tx), lower_tmp_arg(idx));
            if (min && b3_fits32(min)) {
                EMIT(L, Sub64, air_imm(min), lower_tmp_arg(idx));
            } else if (min) {
                AirTmp k = lower_newtmp(L, AirGP);
                EMIT(L, Move, air_bigimm(min), lower_tmp_arg(k));
                EMIT(L, Sub64, lower_tmp_arg(k), lower_tmp_arg(idx));
            }
        }
        AirBlock *jt = ab;
        if (checked) {
            jt = lower_new_block(L);
            EMIT(L, Branch64, air_relcond(AirCond_Above), lower_tmp_arg(idx), air_imm((int64_t)range - 1));
            lower_set_succs(L, ab, 2, (AirSucc[]){def, (AirSucc){jt, B3Freq_Normal}});
        }
        AirSucc *table = b3_xmalloc("lower_to_air", (range + 1) * sizeof *table);
        for (uint64_t i = 0; i < range; i++)
            table[i] = def;
        for (uint32_t i = 0; i < n; i++)
            table[(uint64_t)cs[i].value - (uint64_t)min] = cs[i].target;
        table[range] = def;
        L->sink = checked ? jt : NULL;
        EMIT(L, JumpTable, lower_tmp_arg(idx), lower_tmp_arg(lower_newtmp(L, AirGP)),
             lower_tmp_arg(lower_newtmp(L, AirGP)));
        L->sink = NULL;
        lower_set_succs(L, jt, (uint32_t)range + 1, table);
        free(table);
        free(cs);
        return;
    }
    switch_tree(L, NULL, ty, tx, cs, n, def);
    free(cs);
}

/* ---- everything else ------------------------------------------------------------ */

static void lower_symbol_address(Lower *L, B3Value *v) {
    AirTmp r = lower_vt(L, v);
    B3Symbol *s = v->m.symbol.sym;
    int64_t off = v->m.symbol.offset;
    /* Global data goes through the GOT, like externs (objwriter/obj.h). */
    if (L->c->backend->pc_relative_ok(s) && b3_fits32(off)) {
        EMIT(L, Lea64, air_sym(s, off, false), lower_tmp_arg(r));
        return;
    }
    if (L->c->backend->pc_relative_ok(s))
        EMIT(L, Lea64, air_sym(s, 0, false), lower_tmp_arg(r));
    else
        EMIT(L, Move, air_sym(s, 0, true), lower_tmp_arg(r));
    if (off && b3_fits32(off)) {
        EMIT(L, Add64, air_imm(off), lower_tmp_arg(r));
    } else if (off) {
        AirTmp k = lower_newtmp(L, AirGP);
        EMIT(L, Move, air_bigimm(off), lower_tmp_arg(k));
        EMIT(L, Add64, lower_tmp_arg(k), lower_tmp_arg(r));
    }
}

/* ArgumentReg: the register's value at entry, copied at the very top of the entry. */
static void lower_argument_reg(Lower *L, B3Value *v) {
    AirTmp r = lower_vt(L, v);
    B3Reg reg = v->m.reg, fp = L->c->desc->frame_pointer;
    AirOpcode op = Air_Move;
    AirArg src = lower_tmp_arg(reg);
    if (v->opcode == B3_ArgumentRegHigh)
        op = Air_MoveHighLaneTo64;
    else if (b3_reg_is_fpr(reg))
        op = Air_MoveDouble;
    else if (reg == fp)
        src = air_addr(fp, 0); /* the caller's frame pointer, saved by the prologue */
    else if (reg == L->c->desc->stack_pointer)
        op = Air_Lea64, src = air_addr(fp, L->c->desc->entry_sp_from_fp);
    AirBlock *saved = L->sink;
    uint32_t mark = L->nbuf;
    L->sink = NULL;
    lower_emit_n(L, op, 2, (AirArg[]){src, lower_tmp_arg(r)});
    /* Move it from the chunk to the entry list. */
    B3_VEC_RESERVE("lower_to_air", L->entry, L->capentry, L->nentry + 1);
    L->entry[L->nentry++] = L->buf[mark];
    L->nbuf = mark;
    L->sink = saved;
}

/* EntrySwitch stays a terminal with one successor per entrypoint until
 * air_lower_entry_switch clones it away after register allocation. */
static void lower_entry_switch_value(Lower *L) {
    B3Block *b = L->blk;
    AirBlock *ab = cur_air_block(L);
    EMIT0(L, EntrySwitch);
    AirSucc *s = b3_arena_alloc(L->c->arena, (b->nsuccs ? b->nsuccs : 1) * sizeof(AirSucc));
    for (uint32_t k = 0; k < b->nsuccs; k++)
        s[k] = lower_succ_of(L, b->succs[k]);
    lower_set_succs(L, ab, b->nsuccs, s);
}

static void lower_return(Lower *L, B3Value *v) {
    B3Type types[B3_MAX_RESULTS];
    B3Reg regs[B3_MAX_RESULTS];
    if (v->m.float128) { /* Float128 pairs, in the first (two) FP result registers */
        uint32_t n = v->nkids / 2;
        types[0] = types[1] = B3_Double;
        lower_return_regs(L, n, types, regs);
        for (uint32_t i = 0; i < n; i++)
            lower_float128_to(L, lower_kid(v, 2 * i), lower_kid(v, 2 * i + 1), regs[i]);
        lower_emit_return(L, n, types);
        return;
    }
    for (uint32_t i = 0; i < v->nkids; i++)
        types[i] = (B3Type)lower_kid(v, i)->type;
    lower_return_regs(L, v->nkids, types, regs);
    for (uint32_t i = 0; i < v->nkids; i++)
        lower_move_value_to(L, lower_kid(v, i), lower_tmp_arg(regs[i]), types[i]);
    lower_emit_return(L, v->nkids, types);
}

static AirTmp phi_tmp(Lower *L, B3Value *phi) {
    if (L->phitmp[lower_vid(L, phi)] == AIR_NO_TMP)
        L->phitmp[lower_vid(L, phi)] = lower_newtmp(L, lower_bank_of((B3Type)phi->type));
    return L->phitmp[lower_vid(L, phi)];
}

static AirTmp var_tmp(Lower *L, B3Variable *var) {
    if (L->vartmp[var->index] == AIR_NO_TMP)
        L->vartmp[var->index] = lower_newtmp(L, lower_bank_of(var->type));
    return L->vartmp[var->index];
}

/* AllocaDynamic (docs/c-extensions.md): the size rounded up to 16, so the
 * stack pointer stays aligned for calls. */
static void lower_alloca_dynamic(Lower *L, B3Value *v) {
    AirTmp s = lower_newtmp(L, AirGP);
    lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(s), B3_Int64);
    EMIT(L, Add64, air_imm(15), lower_tmp_arg(s));
    EMIT(L, And64, air_imm(-16), lower_tmp_arg(s));
    EMIT(L, AllocaDynamic, lower_tmp_arg(s), air_imm(b3_alloca_align(v)), lower_vt_arg(L, v));
    L->c->dynamic_stack = true;
}

static void unsupported(const B3Value *v) {
    /* Every opcode has a case by now: only a corrupt value gets here. */
    if (v->opcode >= B3_NUM_OPCODES)
        b3_internal_error("lower_to_air", "@%u has an invalid opcode %u", v->index, v->opcode);
    b3_internal_error_at("lower_to_air", v, "is not yet supported");
}

static void lower_value(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    bool fp = b3_type_is_float(ty);
    B3LowerHook *hook = L->hooks[v->opcode];
    if (hook && hook(L, v))
        return; /* the target's own selection */
    switch (v->opcode) {
    case B3_Nop: case B3_Identity: case B3_Opaque:
        return;
    case B3_Const32: case B3_Const64: { /* NEEDED only by another block's uses (lower_const_elsewhere) */
        int64_t c;
        b3_value_int_const(v, &c);
        lower_move_int_const(L, ty, c, lower_tmp_arg(L->vtmp[lower_vid(L, v)]));
        return;
    }
    case B3_ConstFloat: case B3_ConstDouble: {
        AirTmp r = lower_vt(L, v);
        AirTmp f = lower_fp_const_tmp(L, b3_const_bits(v), ty == B3_Double);
        EMIT_OP(L, lower_move_op(ty), lower_tmp_arg(f), lower_tmp_arg(r));
        return;
    }
    case B3_Get:
        EMIT_OP(L, lower_move_op(ty), lower_tmp_arg(var_tmp(L, v->m.var)), lower_vt_arg(L, v));
        return;
    case B3_Set:
        lower_move_value_to(L, v->kids[0], lower_tmp_arg(var_tmp(L, v->m.var)), v->m.var->type);
        return;
    case B3_SlotBase:
        EMIT(L, Lea64, air_stack(L->slots[v->m.slot->index], 0), lower_vt_arg(L, v));
        return;
    case B3_ArgumentReg:
    case B3_ArgumentRegHigh:
        lower_argument_reg(L, v);
        return;
    case B3_FramePointer:
        EMIT(L, Move, lower_tmp_arg(L->c->desc->frame_pointer), lower_vt_arg(L, v));
        return;
    case B3_AllocaDynamic: lower_alloca_dynamic(L, v); return;
    case B3_StackSave: EMIT(L, StackSave, lower_vt_arg(L, v)); return;
    case B3_StackRestore: {
        AirTmp s = lower_newtmp(L, AirGP);
        lower_move_value_to(L, lower_kid(v, 0), lower_tmp_arg(s), B3_Int64);
        EMIT(L, StackRestore, lower_tmp_arg(s));
        L->c->dynamic_stack = true;
        return;
    }
    case B3_Add: lower_add(L, v); return;
    case B3_Sub: lower_sub(L, v); return;
    case B3_Mul: lower_mul(L, v); return;
    case B3_Div:
        if (fp) {
            binop2(L, v, ty == B3_Double ? Air_DivDouble : Air_DivFloat, false);
            return;
        }
        if (v->kflags & B3K_CHILL)
            b3_internal_error_at("lower_to_air", v,
                                 "Div<Chill> reached lowering (b3_lower_macros must run first)");
        unsupported(v); /* integer division is the target's (a hook) */
        return;
    case B3_Mod:
        if (fp || (v->kflags & B3K_CHILL))
            b3_internal_error_at("lower_to_air", v,
                                 "%s Mod reached lowering (b3_lower_macros must run first)",
                                 fp ? "float" : "chill");
        unsupported(v);
        return;
    case B3_Neg: lower_neg(L, v); return;
    case B3_BitAnd: lower_bitop(L, v, Air_And32, Air_And64, Air_AndFloat, Air_AndDouble); return;
    case B3_BitOr: lower_bitop(L, v, Air_Or32, Air_Or64, Air_OrFloat, Air_OrDouble); return;
    case B3_BitXor: lower_bitop(L, v, Air_Xor32, Air_Xor64, Air_XorFloat, Air_XorDouble); return;
    case B3_Abs: lower_abs(L, v); return;
    case B3_Ceil:
        unop(L, v, ty == B3_Double ? Air_CeilDouble : Air_CeilFloat, B3_Load, ty);
        return;
    case B3_Floor:
        unop(L, v, ty == B3_Double ? Air_FloorDouble : Air_FloorFloat, B3_Load, ty);
        return;
    case B3_Sqrt:
        unop(L, v, ty == B3_Double ? Air_SqrtDouble : Air_SqrtFloat, B3_Load, ty);
        return;
    case B3_FMin: lower_fminmax(L, v, true); return;
    case B3_FMax: lower_fminmax(L, v, false); return;
    case B3_BitwiseCast: lower_bitcast(L, v); return;
    case B3_SExt8: {
        if (lower_can_fuse_load(L, lower_kid(v, 0), B3_Load8S, B3_Int32) ||
            lower_can_fuse_load(L, lower_kid(v, 0), B3_Load8Z, B3_Int32)) {
            AirTmp r = lower_vt(L, v);
            AirArg m = lower_commit_load(L, lower_kid(v, 0));
            EMIT(L, Load8SignedExtendTo32, m, lower_tmp_arg(r));
            return;
        }
        EMIT(L, SignExtend8To32, lower_vt_arg(L, lower_kid(v, 0)), lower_vt_arg(L, v));
        return;
    }
    case B3_SExt16: {
        if (lower_can_fuse_load(L, lower_kid(v, 0), B3_Load16S, B3_Int32) ||
            lower_can_fuse_load(L, lower_kid(v, 0), B3_Load16Z, B3_Int32)) {
            AirTmp r = lower_vt(L, v);
            AirArg m = lower_commit_load(L, lower_kid(v, 0));
            EMIT(L, Load16SignedExtendTo32, m, lower_tmp_arg(r));
            return;
        }
        EMIT(L, SignExtend16To32, lower_vt_arg(L, lower_kid(v, 0)), lower_vt_arg(L, v));
        return;
    }
    case B3_SExt32: unop(L, v, Air_SignExtend32ToPtr, B3_Load, B3_Int32); return;
    case B3_ZExt32: unop(L, v, Air_Move32, B3_Load, B3_Int32); return;
    case B3_Trunc:
        if (ty == B3_Int32)
            EMIT(L, Move32, lower_vt_arg(L, lower_kid(v, 0)), lower_vt_arg(L, v));
        else /* Double -> Float: the low 32 bits of the register */
            unop(L, v, Air_MoveFloat, B3_Load, B3_Double);
        return;
    case B3_IToD: {
        bool from32 = lower_kid(v, 0)->type == B3_Int32;
        unop(L, v, from32 ? Air_ConvertInt32ToDouble : Air_ConvertInt64ToDouble, B3_Load,
             (B3Type)lower_kid(v, 0)->type);
        return;
    }
    case B3_IToF: {
        bool from32 = lower_kid(v, 0)->type == B3_Int32;
        unop(L, v, from32 ? Air_ConvertInt32ToFloat : Air_ConvertInt64ToFloat, B3_Load,
             (B3Type)lower_kid(v, 0)->type);
        return;
    }
    case B3_FloatToDouble: unop(L, v, Air_ConvertFloatToDouble, B3_Load, B3_Float); return;
    case B3_DoubleToFloat: unop(L, v, Air_ConvertDoubleToFloat, B3_Load, B3_Double); return;
    case B3_Equal: case B3_NotEqual: case B3_LessThan: case B3_GreaterThan: case B3_LessEqual:
    case B3_GreaterEqual: case B3_Above: case B3_Below: case B3_AboveEqual: case B3_BelowEqual:
    case B3_EqualOrUnordered:
        lower_compare(L, v);
        return;
    case B3_Select: lower_select(L, v); return;
    case B3_Load8Z: case B3_Load8S: case B3_Load16Z: case B3_Load16S: case B3_Load:
        lower_load(L, v);
        return;
    case B3_Store8: case B3_Store16: case B3_Store: lower_store(L, v); return;
    case B3_CCall: lower_ccall(L, v); return;
    case B3_SecondResult:
    case B3_Result:
        lower_second_result(L, v);
        return;
    case B3_Upsilon: {
        B3Value *phi = v->m.phi;
        if (L->uses[lower_vid(L, phi)] == 0)
            return; /* nobody reads the Phi */
        lower_move_value_to(L, v->kids[0], lower_tmp_arg(phi_tmp(L, phi)), (B3Type)phi->type);
        return;
    }
    case B3_Phi:
        EMIT_OP(L, lower_move_op(ty), lower_tmp_arg(phi_tmp(L, v)), lower_vt_arg(L, v));
        return;
    case B3_Jump:
        EMIT0(L, Jump);
        lower_set_succs(L, cur_air_block(L), 1, (AirSucc[]){lower_succ_of(L, L->blk->succs[0])});
        return;
    case B3_Branch:
        lower_branch(L, v);
        return;
    case B3_Switch: lower_switch(L, v); return;
    case B3_Return: lower_return(L, v); return;
    case B3_Oops: EMIT0(L, Oops); return;
    case B3_EntrySwitch: lower_entry_switch_value(L); return;
    case B3_WasmAddress:
        /* @p + the pinned register (read in place: nothing ever writes it). */
        EMIT(L, Add64, lower_vt_arg(L, lower_kid(v, 0)), lower_tmp_arg((AirTmp)v->m.reg), lower_vt_arg(L, v));
        return;
    case B3_SymbolAddress: lower_symbol_address(L, v); return;
    case B3_ThreadLocalAddress: lower_thread_local_address(L, v); return;
    case B3_Check: lower_check(L, v); return;
    case B3_CheckAdd: case B3_CheckSub: case B3_CheckMul: lower_check_arith(L, v); return;
    case B3_WasmBoundsCheck: lower_wasm_bounds_check(L, v); return;
    case B3_Patchpoint: lower_patchpoint(L, v); return;
    default:
        unsupported(v);
    }
}

/* ---- driver ---------------------------------------------------------------------- */

/* Blocks in CFG postorder from the root (every block dominated by B comes before B). */
static uint32_t postorder(B3Proc *p, B3Block **order) {
    uint32_t n = p->nblocks, norder = 0, sp = 0;
    uint8_t *seen = b3_xcalloc("lower_to_air", n ? n : 1, 1);
    B3Block **stack = b3_xmalloc("lower_to_air", (n + 1) * sizeof *stack);
    uint32_t *next = b3_xmalloc("lower_to_air", (n + 1) * sizeof *next);
    if (n) {
        stack[sp] = p->blocks[0];
        next[sp++] = 0;
        seen[0] = 1;
    }
    while (sp) {
        B3Block *b = stack[sp - 1];
        if (next[sp - 1] < b->nsuccs) {
            B3Block *s = b->succs[next[sp - 1]++].block;
            if (!seen[s->pos]) {
                seen[s->pos] = 1;
                stack[sp] = s;
                next[sp++] = 0;
            }
        } else {
            order[norder++] = b;
            sp--;
        }
    }
    free(seen);
    free(stack);
    free(next);
    return norder;
}

static void lower_block(Lower *L, B3Block *b) {
    L->blk = b;
    L->nbuf = 0;
    L->nchunks = 0;
    for (uint32_t i = b->nvalues; i-- > 0;) {
        B3Value *v = b->values[i];
        uint8_t f = L->flags[lower_vid(L, v)];
        if (f & F_INTERNAL)
            continue;
        if (!(f & F_NEEDED) && !has_effect(v))
            continue;
        L->idx = i;
        L->cur = v;
        B3_VEC_RESERVE("lower_to_air", L->chunks, L->capchunks, L->nchunks + 1);
        L->chunks[L->nchunks++] = L->nbuf;
        L->traps = (v->kflags & B3K_TRAPS) != 0;
        L->flags[lower_vid(L, v)] |= F_LOWERED;
        lower_value(L, v);
        L->traps = false;
    }
    /* Chunks were produced last value first: lay them out in program order. */
    AirBlock *ab = L->ablock[b->pos];
    ab->insts = b3_arena_alloc(L->c->arena, (L->nbuf ? L->nbuf : 1) * sizeof(AirInst));
    ab->cap_insts = L->nbuf ? L->nbuf : 1;
    ab->ninsts = 0;
    for (uint32_t k = L->nchunks; k-- > 0;) {
        uint32_t start = L->chunks[k], end = k + 1 < L->nchunks ? L->chunks[k + 1] : L->nbuf;
        for (uint32_t i = start; i < end; i++)
            ab->insts[ab->ninsts++] = L->buf[i];
    }
    lower_sm_split_block(L, ab); /* after each Check* branch, a new block */
    L->cur = NULL;
}

/* The Upsilons that end a block form one parallel copy, which the lowering
 * makes sequential in block order: the Upsilon writing Phi P's tmp should come
 * after every Upsilon reading P's value, else P's value is still live where
 * its Phi tmp is written, the two interfere, and the Phi costs a copy in its
 * block on top of the Upsilon's (sha256's rotation b = a, c = b, ... copied
 * every variable twice).  Reorders the trailing run so (cycles, as a swap,
 * keep their order: they need a copy anyway).  Valid B3: an Upsilon reads
 * an SSA value and writes a Phi that only the head of a successor reads. */
enum { MAX_UPSILON_RUN = 64 };

static bool upsilon_read_by_others(B3Value *const *run, uint32_t n, const B3Value *w) {
    for (uint32_t k = 0; k < n; k++)
        if (run[k] && run[k] != w && lower_resolve(run[k]->kids[0]) == w->m.phi)
            return true;
    return false;
}

static void order_upsilons(B3Block *b) {
    if (!b->nvalues)
        return;
    uint32_t end = b->nvalues - 1, start = end; /* the run is values[start .. end) */
    while (start > 0 && b->values[start - 1]->opcode == B3_Upsilon && end - start < MAX_UPSILON_RUN)
        start--;
    uint32_t n = end - start;
    if (n < 2)
        return;
    B3Value *run[MAX_UPSILON_RUN];
    memcpy(run, b->values + start, n * sizeof *run);
    for (uint32_t out = start; out < end; out++) {
        uint32_t pick = n;
        for (uint32_t k = 0; k < n && pick == n; k++)
            if (run[k] && !upsilon_read_by_others(run, n, run[k]))
                pick = k;
        for (uint32_t k = 0; k < n && pick == n; k++) /* a cycle: the first left */
            if (run[k])
                pick = k;
        b->values[out] = run[pick];
        run[pick] = NULL;
    }
}

static void count_uses(Lower *L) {
    B3Proc *p = L->p;
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        order_upsilons(b);
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            L->pos[lower_vid(L, v)] = i;
            if (v->opcode == B3_Identity || v->opcode == B3_Opaque)
                continue; /* users of an Identity count as users of its target */
            if (v->opcode == B3_Upsilon)
                L->feeds[lower_vid(L, lower_resolve(v->kids[0]))] = v->m.phi;
            for (uint32_t k = 0; k < v->nkids; k++) {
                uint32_t id = lower_vid(L, lower_resolve(v->kids[k]));
                L->uses[id]++;
                L->user[id] = v;
            }
        }
    }
}

enum { READ_MANY = UINT32_MAX };

/* Notes that value id is read (or executed) in block b at pos: keeps the
 * latest position, or READ_MANY with no block once there are two blocks. */
static void note_at(B3Block **blk, uint32_t *at, uint32_t id, B3Block *b, uint32_t pos) {
    if (at[id] == READ_MANY && !blk[id])
        return;
    if (!blk[id]) {
        blk[id] = b;
        at[id] = pos;
    } else if (blk[id] != b || pos == READ_MANY) {
        blk[id] = NULL;
        at[id] = READ_MANY;
    } else if (pos > at[id]) {
        at[id] = pos;
    }
}

/* May the user w absorb its kid x (k-th), executing it at w instead of where
 * x stands, so that x's own kids are read there?  Address arithmetic folded
 * into a memory access (in any block) or into a lea or a longer address; a
 * compare or BitAnd recomputed into a branch, select, check or compare; a
 * single-use load or atomic fused into its user; a single-use value fused
 * into the Store of a read-modify-write. */
static bool absorbs(const Lower *L, const B3Value *w, uint32_t k, const B3Value *x) {
    B3Value *index;
    unsigned scale;
    uint8_t we = b3_op_info[w->opcode].effects, xe = b3_op_info[x->opcode].effects;
    int64_t c;
    bool lea_mul = x->opcode == B3_Mul && lower_int_const(x->kids[1], &c) && (c == 3 || c == 5 || c == 9);
    if (lea_mul && w->opcode == B3_Add)
        return true;
    bool address =
        x->opcode == B3_Add || x->opcode == B3_WasmAddress || scaled_index((B3Value *)x, &index, &scale);
    if (address && ((we == B3E_LOAD && k == 0) || (we == B3E_STORE && k == 1) || we == B3E_ATOMIC ||
                    w->opcode == B3_Add))
        return true;
    if ((is_compare_op((B3Opcode)x->opcode) || x->opcode == B3_BitAnd) &&
        (w->opcode == B3_Branch || w->opcode == B3_Select || we == B3E_CHECK ||
         is_compare_op((B3Opcode)w->opcode)))
        return true;
    if (L->uses[lower_vid(L, x)] != 1)
        return false;
    return xe == B3E_LOAD || xe == B3E_ATOMIC || w->opcode == B3_Store;
}

/* The last read of every value (for dies_here): blocks in postorder, values
 * backwards, so every reader (dominated by its kid's definition) is seen
 * before the value.  A value that its users may absorb executes, and reads
 * its kids, as late as the latest of them (anywhere, if one is in another
 * block). */
static void compute_last_reads(Lower *L, B3Block **order, uint32_t norder) {
    for (uint32_t i = 0; i <= L->nv; i++) {
        L->rblk[i] = L->ablk[i] = NULL;
        L->rpos[i] = L->apos[i] = 0;
        L->in_reg[i] = false;
        L->fbase[i] = NULL;
    }
    for (uint32_t bi = 0; bi < norder; bi++) {
        B3Block *b = order[bi];
        for (uint32_t i = b->nvalues; i-- > 0;) {
            B3Value *u = b->values[i];
            if (u->opcode == B3_Identity || u->opcode == B3_Opaque)
                continue; /* their readers read the target */
            uint32_t uid = lower_vid(L, u);
            uint32_t at = i; /* where u executes, at the latest */
            if (!L->ablk[uid] && L->apos[uid] == READ_MANY)
                at = READ_MANY;
            else if (L->ablk[uid] == b && L->apos[uid] > at)
                at = L->apos[uid];
            uint8_t e = b3_op_info[u->opcode].effects;
            int64_t c;
            for (uint32_t k = 0; k < u->nkids; k++) {
                B3Value *x = lower_resolve(u->kids[k]);
                uint32_t xid = lower_vid(L, x);
                note_at(L->rblk, L->rpos, xid, b, at);
                if (absorbs(L, u, k, x))
                    note_at(L->ablk, L->apos, xid, b, at);
                /* in_reg: read as a value, not only as an address (or through
                 * a constant Add that is itself only an address) */
                bool as_addr = (e == B3E_LOAD && k == 0) || (e == B3E_STORE && k == 1);
                bool via_add =
                    u->opcode == B3_Add && (lower_int_const(u->kids[1 - k], &c)) && !L->in_reg[uid];
                if (!as_addr && !via_add)
                    L->in_reg[xid] = true;
            }
        }
    }
}

/* The lowering's own invariants, checked once every block is lowered, so that
 * a fusion mistake is an internal error naming the value instead of code
 * reading a tmp nothing defines.  A fused (INTERNAL) value has no tmp and
 * nobody asked for one; it was not also lowered in place; it has one use, and
 * following fused users from it reaches a lowered value later in its block,
 * with nothing in between that it may not move across.  A value whose tmp was
 * asked for was lowered (else a use was selected after its definition). */
static void check_lowering(Lower *L, B3Block **order, uint32_t norder) {
    for (uint32_t bi = 0; bi < norder; bi++) {
        B3Block *b = order[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            uint32_t id = lower_vid(L, v);
            uint8_t f = L->flags[id];
            if (!(f & F_INTERNAL)) {
                if ((f & F_NEEDED) && !(f & F_LOWERED))
                    b3_internal_error_at("lower_to_air", v, "is needed in a register but was never computed");
                continue;
            }
            if ((f & F_NEEDED) || L->vtmp[id] != AIR_NO_TMP)
                b3_internal_error_at("lower_to_air", v, "was fused into a user but is needed in a register");
            if (f & F_LOWERED)
                b3_internal_error_at("lower_to_air", v, "was fused into a user but also lowered in place");
            if (L->uses[id] != 1)
                b3_internal_error_at("lower_to_air", v, "was fused into a user but has %u uses", L->uses[id]);
            /* The value that executes v: its user, or that user's while fused. */
            B3Value *u = L->user[id];
            while (u->owner == b && L->pos[lower_vid(L, u)] > i && (L->flags[lower_vid(L, u)] & F_INTERNAL) &&
                   L->uses[lower_vid(L, u)] == 1)
                u = L->user[lower_vid(L, u)];
            if (u->owner != b || L->pos[lower_vid(L, u)] <= i || !(L->flags[lower_vid(L, u)] & F_LOWERED))
                b3_internal_error_at("lower_to_air", v, "was fused into @%u (%s), which does not execute it",
                                     u->index, lower_opname(u));
            if (!fusion_moves(v))
                continue;
            for (uint32_t j = i + 1; j < L->pos[lower_vid(L, u)]; j++)
                if (lower_motion_blocked(v, b->values[j]))
                    b3_internal_error_at("lower_to_air", v, "was fused into @%u (%s) across @%u (%s)",
                                         u->index, lower_opname(u), b->values[j]->index,
                                         lower_opname(b->values[j]));
        }
    }
}

/* Places the ArgumentReg copies at the top of the entry; if the root block is
 * a loop header they get a block of their own. */
static void place_entry_moves(Lower *L, AirBlock *prologue) {
    AirBlock *root = L->ablock[0];
    if (prologue) {
        prologue->insts = b3_arena_alloc(L->c->arena, (L->nentry + 1) * sizeof(AirInst));
        prologue->cap_insts = L->nentry + 1;
        if (L->nentry) /* L->entry is NULL when there are none, and memcpy from NULL is undefined */
            memcpy(prologue->insts, L->entry, L->nentry * sizeof(AirInst));
        prologue->ninsts = L->nentry;
        L->cur = NULL;
        L->sink = prologue;
        EMIT0(L, Jump);
        L->sink = NULL;
        lower_set_succs(L, prologue, 1, (AirSucc[]){{root, B3Freq_Normal}});
        return;
    }
    if (!L->nentry)
        return;
    AirInst *insts = b3_arena_alloc(L->c->arena, (L->nentry + root->ninsts) * sizeof(AirInst));
    memcpy(insts, L->entry, L->nentry * sizeof(AirInst));
    memcpy(insts + L->nentry, root->insts, root->ninsts * sizeof(AirInst));
    root->insts = insts;
    root->ninsts = root->cap_insts = L->nentry + root->ninsts;
}

void b3_lower_to_air(AirCode *c) {
    B3Proc *p = c->proc;
    Lower L;
    memset(&L, 0, sizeof L);
    L.c = c;
    L.m = c->module;
    L.p = p;
    L.t = c->target;
    if (!c->backend || !c->backend->lower)
        b3_internal_error("lower_to_air", "no instruction selection for %s", b3_target_name(L.t));
    L.hooks = c->backend->lower;
    if (!p->nblocks)
        b3_internal_error("lower_to_air", "procedure has no blocks");
    /* Per-value tables are indexed by value number, or by a dense renumbering
     * when the numbers are sparse (a dump may use large @N). */
    uint32_t nv = 0, count = 0;
    for (uint32_t bi = 0; bi < p->nblocks; bi++)
        for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++) {
            uint32_t ix = p->blocks[bi]->values[i]->index;
            if (ix >= nv)
                nv = ix + 1;
            count++;
        }
    if (nv > 4 * count + 4096) {
        L.sparse = true;
        b3_nummap_init(&L.idmap, c->arena, count);
        nv = 0;
        for (uint32_t bi = 0; bi < p->nblocks; bi++)
            for (uint32_t i = 0; i < p->blocks[bi]->nvalues; i++)
                b3_nummap_put(&L.idmap, c->arena, p->blocks[bi]->values[i]->index, (void *)(uintptr_t)(++nv));
    }
    L.nv = nv;
    L.vtmp = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.vtmp);
    L.phitmp = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.phitmp);
    for (uint32_t i = 0; i <= nv; i++)
        L.vtmp[i] = L.phitmp[i] = AIR_NO_TMP;
    L.uses = b3_xcalloc("lower_to_air", nv + 1, sizeof *L.uses);
    L.user = b3_xcalloc("lower_to_air", nv + 1, sizeof *L.user);
    L.feeds = b3_xcalloc("lower_to_air", nv + 1, sizeof *L.feeds);
    L.flags = b3_xcalloc("lower_to_air", nv + 1, 1);
    L.pos = b3_xcalloc("lower_to_air", nv + 1, sizeof *L.pos);
    L.rblk = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.rblk);
    L.rpos = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.rpos);
    L.ablk = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.ablk);
    L.apos = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.apos);
    L.in_reg = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.in_reg);
    L.fbase = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.fbase);
    L.foff = b3_xmalloc("lower_to_air", (nv + 1) * sizeof *L.foff);
    L.vartmp = b3_xmalloc("lower_to_air", (p->nvars + 1) * sizeof *L.vartmp);
    for (uint32_t i = 0; i < p->nvars; i++)
        L.vartmp[i] = AIR_NO_TMP;
    L.slots = b3_xmalloc("lower_to_air", (p->nslots + 1) * sizeof *L.slots);
    for (uint32_t i = 0; i < p->nslots; i++) {
        B3StackSlot *s = p->slots[i];
        if (s->size > UINT32_MAX)
            b3_internal_error("lower_to_air", "stack slot %s is too large", s->name);
        AirStackSlot *as = air_slot_new(c, (uint32_t)s->size, s->align ? s->align : 8, false);
        as->b3 = s;
        L.slots[s->index] = as;
    }
    count_uses(&L);

    /* Air blocks: [prologue], then one per B3 block in order. */
    AirBlock *prologue = p->blocks[0]->npreds ? air_block_new(c) : NULL;
    L.ablock = b3_xmalloc("lower_to_air", p->nblocks * sizeof *L.ablock);
    for (uint32_t i = 0; i < p->nblocks; i++) {
        L.ablock[i] = air_block_new(c);
        L.ablock[i]->frequency = p->blocks[i]->frequency;
    }
    if (prologue)
        prologue->frequency = p->blocks[0]->frequency;

    B3Block **order = b3_xmalloc("lower_to_air", p->nblocks * sizeof *order);
    uint32_t norder = postorder(p, order);
    compute_last_reads(&L, order, norder);
    for (uint32_t i = 0; i < norder; i++)
        lower_block(&L, order[i]);
    check_lowering(&L, order, norder);
    /* Blocks the root cannot reach (none after parsing) trap. */
    if (norder < p->nblocks) {
        for (uint32_t i = 0; i < p->nblocks; i++) {
            AirBlock *ab = L.ablock[i];
            if (ab->ninsts == 0 && ab->nsuccs == 0) {
                L.sink = ab;
                EMIT0(&L, Oops);
                L.sink = NULL;
            }
        }
    }
    place_entry_moves(&L, prologue);
    lower_sm_finish(&L); /* exit blocks last, continuations after their heads */
    air_compute_preds(c);

    free(order);
    free(L.ablock);
    free(L.slots);
    free(L.vartmp);
    free(L.vtmp);
    free(L.phitmp);
    free(L.uses);
    free(L.user);
    free(L.feeds);
    free(L.flags);
    free(L.pos);
    free(L.rblk);
    free(L.rpos);
    free(L.ablk);
    free(L.apos);
    free(L.in_reg);
    free(L.fbase);
    free(L.foff);
    free(L.chain);
    if (L.have_loops) {
        b3_loops_free(&L.loops);
        b3_dominators_free(&L.dom);
    }
    free(L.entry);
    free(L.buf);
    free(L.chunks);
}
