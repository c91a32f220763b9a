/* Stackmap values: Check, CheckAdd/CheckSub/CheckMul, WasmBoundsCheck and
 * Patchpoint (spec 8.3, 8.4; docs/stackmaps.md), with the Lower state and
 * helpers of lower/lower_internal.h.
 *
 *  - A Check* or WasmBoundsCheck ends its Air block with a branch (fused
 *    compare, BranchAdd/Sub/Mul/Neg on Overflow, or the bounds compare) whose
 *    taken edge goes to an out-of-line exit block; the rest of the B3 block
 *    continues in a new Air block (lower_block splits after layout).  The exit
 *    block starts with a Patchpoint inst that records the exit state (stackmap
 *    children with roles from their ValueReps), then traps (Oops) or calls
 *    the handler with the children as C arguments and returns its result.
 *    Exit blocks are rare and laid out after everything else; continuations
 *    follow their heads (lower_sm_finish).
 *  - CheckAdd/Sub/Mul compute into the value's own fresh tmp, so both
 *    original operands stay live into the exit block.  A single-use load
 *    operand is fused into the arithmetic; the exit records that memory
 *    operand itself (Indirect), which nothing can have changed in between.
 *  - A Patchpoint is one Air_Patchpoint inst in line (code: nothing, nops, ud2
 *    or a call), with moves into Register/StackArgument places before it and
 *    a copy out of its result register after it. */

#include <stdlib.h>

#include "codegen/air/stackmaps.h"
#include "lower/lower_internal.h"
#include "util/alloc.h"
#include "util/vec.h"

struct LowerStackmaps {
    AirBlock **exits; /* exit blocks, in creation order */
    uint32_t nexits, cap_exits;
    AirBlock **conts; /* pairs: a split block, then the block continuing it */
    uint32_t nconts, cap_conts;
    bool split_pending; /* the block being lowered holds a Check* branch */
    bool ret_known;
    /* The procedure's return types, nret of them (an exit handler's result is returned). */
    B3Type ret[B3_MAX_RESULTS];
    uint32_t nret;
    bool traps; /* L->traps while an exit block is being filled */
};

static struct LowerStackmaps *sm_state(Lower *L) {
    if (!L->sm) {
        L->sm = b3_xcalloc("lower_to_air", 1, sizeof *L->sm);
    }
    return L->sm;
}

static void sm_push_block(AirBlock ***v, uint32_t *n, uint32_t *cap, AirBlock *b) {
    B3_VEC_PUSH("lower_to_air", *v, *n, *cap, b);
}

static bool is_exit_op(uint16_t op) {
    return op == B3_Check || op == B3_CheckAdd || op == B3_CheckSub || op == B3_CheckMul ||
           op == B3_WasmBoundsCheck;
}

static AirWidth width_of(B3Type t) { return t == B3_Int32 || t == B3_Float ? AirW32 : AirW64; }

/* ---- recorded values ---- */

typedef struct {
    AirArg *args;
    uint8_t *roles, *types;
    uint32_t n, cap;
    B3Value **cval; /* constants materialized for register uses, and their tmps */
    AirTmp *ctmp;
    uint32_t nc;
} SMArgs;

static void sm_push(SMArgs *a, AirArg arg, AirRole role, B3Type type) {
    if (a->n == a->cap) { /* three arrays sharing one capacity */
        B3_VEC_RESERVE2("lower_to_air", a->roles, a->types, a->cap, a->n + 1);
        a->args = b3_xrealloc("lower_to_air", a->args, a->cap * sizeof *a->args);
    }
    a->args[a->n] = arg;
    a->roles[a->n] = (uint8_t)role;
    a->types[a->n] = (uint8_t)type;
    a->n++;
}

static void sm_free(SMArgs *a) {
    free(a->args);
    free(a->roles);
    free(a->types);
    free(a->cval);
    free(a->ctmp);
}

/* x's tmp for a register use.  A constant is materialized once per stackmap:
 * a copy per mention would need a register of its own at the same moment, and
 * with few allocatable registers (pinned ones) that can exceed them. */
static AirTmp sm_reg_tmp(Lower *L, SMArgs *a, B3Value *x, bool is_const) {
    if (!is_const)
        return lower_vt(L, x);
    for (uint32_t i = 0; i < a->nc; i++)
        if (a->cval[i] == x)
            return a->ctmp[i];
    AirTmp t = lower_vt(L, x);
    a->cval = b3_xrealloc("lower_to_air", a->cval, (a->nc + 1) * sizeof *a->cval);
    a->ctmp = b3_xrealloc("lower_to_air", a->ctmp, (a->nc + 1) * sizeof *a->ctmp);
    a->cval[a->nc] = x;
    a->ctmp[a->nc++] = t;
    return t;
}

/* Room for an 8-byte stack argument slot at off. */
static void sm_need_call_area(Lower *L, int64_t off) {
    uint64_t end = (uint64_t)off + 8;
    if (end > UINT32_MAX)
        b3_internal_error_at("lower_to_air", L->cur, "StackArgument offset %lld is too large",
                             (long long)off);
    if (end > L->c->call_arg_area)
        L->c->call_arg_area = (uint32_t)end;
}

/* A constant as an immediate arg (float constants by their bits), if x is one. */
static bool sm_const_arg(B3Value *x, AirArg *out) {
    int64_t c;
    if (lower_int_const(x, &c)) {
        *out = b3_fits32(c) ? air_imm(c) : air_bigimm(c);
        return true;
    }
    if (lower_is_fp_const(x)) {
        int64_t bits =
            x->opcode == B3_ConstFloat ? (int32_t)(uint32_t)b3_const_bits(x) : (int64_t)b3_const_bits(x);
        *out = b3_fits32(bits) ? air_imm(bits) : air_bigimm(bits);
        return true;
    }
    return false;
}

/* Copies src (a Tmp, an immediate or memory) of type ty to dst, through a
 * fresh tmp when the move has no such form. */
static void sm_move(Lower *L, AirArg src, AirArg dst, B3Type ty) {
    bool fp = b3_type_is_float(ty);
    if (src.kind == AirArg_Imm || src.kind == AirArg_BigImm) {
        if (!fp) {
            lower_move_int_const(L, ty, src.value, dst);
        } else if (dst.kind != AirArg_Tmp) {
            lower_move_int_const(L, ty == B3_Float ? B3_Int32 : B3_Int64, src.value, dst);
        } else {
            uint64_t bits = ty == B3_Float ? (uint32_t)src.value : (uint64_t)src.value;
            AirTmp f = lower_fp_const_tmp(L, bits, ty == B3_Double);
            EMIT_OP(L, lower_move_op(ty), lower_tmp_arg(f), dst);
        }
        return;
    }
    AirOpcode op = lower_move_op(ty);
    uint8_t kinds[2] = {src.kind, dst.kind};
    if (lower_valid_kinds(L, op, 2, kinds)) {
        EMIT_OP(L, op, src, dst);
        return;
    }
    AirTmp t = lower_newtmp(L, lower_bank_of(ty));
    EMIT_OP(L, op, src, lower_tmp_arg(t));
    EMIT_OP(L, op, lower_tmp_arg(t), dst);
}

/* Places one stackmap child as its ValueRep asks (moves into a fixed place
 * go to the current emission point) and appends its arg.  *src (if given)
 * gets where a later copy may read the value from (never a fixed register,
 * which later moves could overwrite). */
static void sm_child(Lower *L, SMArgs *a, B3Value *child, const B3ValueRep *rep, AirArg *src) {
    B3Value *x = lower_resolve(child);
    B3Type ty = (B3Type)x->type;
    AirArg k;
    bool is_const = sm_const_arg(x, &k);
    if (src)
        *src = is_const ? k : lower_vt_arg(L, x);
    switch (rep ? rep->kind : B3Rep_ColdAny) {
    case B3Rep_Register:
    case B3Rep_LateRegister:
        lower_move_value_to(L, x, lower_tmp_arg(rep->reg), ty);
        sm_push(a, lower_tmp_arg(rep->reg), rep->kind == B3Rep_Register ? AirRole_Use : AirRole_LateUse, ty);
        return;
    case B3Rep_StackArgument:
        sm_need_call_area(L, rep->value);
        lower_move_value_to(L, x, air_callarg(rep->value), ty);
        sm_push(a, air_callarg(rep->value), AirRole_ColdUse, ty);
        return;
    case B3Rep_SomeRegister:
    case B3Rep_SomeEarlyRegister:
        sm_push(a, lower_tmp_arg(sm_reg_tmp(L, a, x, is_const)), AirRole_Use, ty);
        return;
    case B3Rep_SomeRegisterWithClobber: {
        /* The patchpoint may destroy the register: hand it a copy, dead
         * after the inst.  A plain Use, not UseDef: a (dead) late def would
         * have to avoid every late-clobbered register, and a call generator
         * late-clobbers all 16 XMM registers, leaving none for a float. */
        AirTmp t = lower_newtmp(L, lower_bank_of(ty));
        lower_move_value_to(L, x, lower_tmp_arg(t), ty);
        sm_push(a, lower_tmp_arg(t), AirRole_Use, ty);
        return;
    }
    case B3Rep_SomeLateRegister:
        sm_push(a, lower_tmp_arg(sm_reg_tmp(L, a, x, is_const)), AirRole_LateUse, ty);
        return;
    case B3Rep_LateColdAny:
        sm_push(a, is_const ? k : lower_vt_arg(L, x), AirRole_LateColdUse, ty);
        return;
    default: /* WarmAny, ColdAny, Constant; Stack(N) is taken as ColdAny */
        sm_push(a, is_const ? k : lower_vt_arg(L, x), AirRole_ColdUse, ty);
        return;
    }
}

/* The AirSpecial of a Patchpoint inst over args a (plus nothing else). */
static AirSpecial *sm_special(Lower *L, const SMArgs *a, uint32_t nrecorded, int64_t id, AirPatchCode code) {
    B3Arena *ar = L->c->arena;
    if (a->n > UINT16_MAX - 8)
        b3_internal_error_at("lower_to_air", L->cur, "%u stackmap values; at most %u are supported", a->n,
                             UINT16_MAX - 8);
    AirSpecial *sp = b3_arena_alloc(ar, sizeof *sp);
    uint32_t n = a->n ? a->n : 1;
    sp->roles = b3_arena_alloc(ar, n);
    sp->banks = b3_arena_alloc(ar, n);
    sp->widths = b3_arena_alloc(ar, n);
    for (uint32_t i = 0; i < a->n; i++) {
        sp->roles[i] = a->roles[i];
        sp->banks[i] = (uint8_t)lower_bank_of((B3Type)a->types[i]);
        sp->widths[i] = (uint8_t)width_of((B3Type)a->types[i]);
    }
    AirPatchpointInfo *pi = b3_arena_alloc(ar, sizeof *pi);
    pi->id = id;
    pi->code = (uint8_t)code;
    pi->nrecorded = nrecorded;
    pi->types = b3_arena_alloc(ar, nrecorded ? nrecorded : 1);
    if (nrecorded)
        memcpy(pi->types, a->types, nrecorded);
    sp->data = pi;
    return sp;
}

static int64_t sm_id(const B3Value *v) {
    return v->opcode != B3_WasmBoundsCheck && v->m.stackmap->has_id ? v->m.stackmap->id : (int64_t)v->index;
}

/* ---- exits ---- */

static uint32_t sm_return_types(Lower *L, B3Type *types) {
    struct LowerStackmaps *s = sm_state(L);
    if (!s->ret_known) {
        s->nret = 0;
        for (uint32_t i = 0; i < L->p->nblocks; i++) {
            B3Value *t = b3_block_last(L->p->blocks[i]);
            if (t && t->opcode == B3_Return && t->nkids) {
                s->nret = t->nkids;
                for (uint32_t k = 0; k < t->nkids; k++)
                    s->ret[k] = (B3Type)t->kids[k]->type;
                break;
            }
        }
        s->ret_known = true;
    }
    for (uint32_t k = 0; k < s->nret; k++)
        types[k] = s->ret[k];
    return s->nret;
}

/* Calls handler(src...) with the C convention, then returns its result from
 * the procedure (both registers of a procedure returning two values). */
static void sm_call_handler(Lower *L, B3Symbol *handler, uint32_t n, const AirArg *src,
                            const uint8_t *types) {
    B3Reg *where = b3_xmalloc("lower_to_air", (n + 1) * sizeof *where); /* B3_NO_REG: on the stack */
    uint32_t *stack_off = b3_xmalloc("lower_to_air", (n + 1) * sizeof *stack_off);
    uint32_t ngpr, nfpr;
    lower_c_arg_places(L, n, types, NULL, -1, where, stack_off, &ngpr, &nfpr);
    for (uint32_t i = 0; i < n; i++)
        if (where[i] == B3_NO_REG)
            sm_move(L, src[i], air_callarg(stack_off[i]), (B3Type)types[i]);
    free(stack_off);
    for (uint32_t i = 0; i < n; i++)
        if (where[i] != B3_NO_REG)
            sm_move(L, src[i], lower_tmp_arg(where[i]), (B3Type)types[i]);
    B3Type rtypes[B3_MAX_RESULTS];
    B3Reg rregs[B3_MAX_RESULTS];
    uint32_t nret = sm_return_types(L, rtypes);
    lower_return_regs(L, nret, rtypes, rregs);
    uint32_t nargs = 1 + ngpr + nfpr + nret;
    AirArg *args = b3_arena_alloc(L->c->arena, nargs * sizeof *args);
    AirSpecial *sp = lower_new_special(L, nargs);
    uint32_t k = 0;
    lower_special_arg(sp, args, &k, air_sym(handler, 0, false), AirRole_Use, B3_Int64);
    for (uint32_t i = 0; i < n; i++)
        if (where[i] != B3_NO_REG)
            lower_special_arg(sp, args, &k, lower_tmp_arg(where[i]), AirRole_Use, (B3Type)types[i]);
    for (uint32_t i = 0; i < nret; i++)
        lower_special_arg(sp, args, &k, lower_tmp_arg(rregs[i]), AirRole_Def, rtypes[i]);
    /* As for CCall (docs/backend.md, "Calling convention"). */
    lower_add_call_clobbers(L, sp);
    AirCallInfo *info = b3_arena_alloc(L->c->arena, sizeof *info);
    info->nfprs = nfpr;
    sp->data = info;
    lower_emit_special(L, Air_Call, nargs, args, sp);
    free(where);
    /* The handler's result is already where the procedure returns it. */
    lower_emit_return(L, nret, rtypes);
}

/* Starts the exit block of v: a rare block, filled through L->sink. */
static AirBlock *sm_begin_exit(Lower *L, B3Value *v) {
    struct LowerStackmaps *s = sm_state(L);
    if (L->sink)
        b3_internal_error_at("lower_to_air", v, "an exit inside another expansion");
    AirBlock *head = L->ablock[L->blk->pos];
    AirBlock *exit = air_block_new(L->c);
    exit->frequency = 1e-3 * (head->frequency > 0 ? head->frequency : 1.0);
    sm_push_block(&s->exits, &s->nexits, &s->cap_exits, exit);
    v->scratch = exit->index; /* for lower_sm_split_block */
    L->sink = exit;
    /* A trapping load fused into the check was already done: the exit only rereads it. */
    s->traps = L->traps;
    L->traps = false;
    return exit;
}

/* Ends the exit block: the record of rec (all of it), then the trap or the
 * handler call, which reads each value from src. */
static void sm_end_exit(Lower *L, B3Value *v, const B3Generator *gen, SMArgs *rec, const AirArg *src) {
    lower_emit_special(L, Air_Patchpoint, rec->n, rec->args,
                       sm_special(L, rec, rec->n, sm_id(v), AirPatch_Point));
    if (gen->kind == B3Gen_Symbol)
        sm_call_handler(L, gen->sym, rec->n, src, rec->types);
    else
        EMIT0(L, Oops); /* trap, the default, and a dump's code address */
    L->sink = NULL;
    L->traps = sm_state(L)->traps;
    sm_state(L)->split_pending = true;
}

/* The stackmap children of v from index `from` on, placed in the exit block. */
static void sm_exit_children(Lower *L, B3Value *v, uint32_t from, SMArgs *rec, AirArg **src) {
    B3StackmapMeta *sm = v->m.stackmap;
    *src = b3_xrealloc("lower_to_air", *src, (v->nkids + 1) * sizeof **src);
    for (uint32_t i = from; i < v->nkids; i++)
        sm_child(L, rec, v->kids[i], sm->reps ? &sm->reps[i] : NULL, &(*src)[rec->n]);
}

void lower_check(Lower *L, B3Value *v) {
    Cond cd;
    lower_build_cond(L, v->kids[0], lower_branch_ops, 0, &cd);
    if (cd.kind == CK_Const && !cd.value)
        return; /* never exits */
    SMArgs rec = {0};
    AirArg *src = NULL;
    sm_begin_exit(L, v);
    sm_exit_children(L, v, 1, &rec, &src); /* the predicate is not part of the exit state */
    sm_end_exit(L, v, &v->m.stackmap->gen, &rec, src);
    if (cd.kind == CK_Const)
        EMIT0(L, Jump); /* always exits; what follows is unreachable */
    else
        EMIT_OP(L, lower_branch_ops[cd.kind], cd.cond, cd.left, cd.right);
    sm_free(&rec);
    free(src);
}

/* Can the exit record a memory operand as it is (else it reloads it)? */
static bool sm_recordable_memory(const AirArg *m) {
    return m->kind == AirArg_Addr || m->kind == AirArg_Stack;
}

void lower_check_arith(Lower *L, B3Value *v) {
    B3Type ty = (B3Type)v->type;
    bool is32 = ty == B3_Int32;
    AirOpcode op;
    bool commutative = v->opcode != B3_CheckSub;
    switch (v->opcode) {
    case B3_CheckAdd:
        op = is32 ? Air_BranchAdd32 : Air_BranchAdd64;
        break;
    case B3_CheckSub:
        op = is32 ? Air_BranchSub32 : Air_BranchSub64;
        break;
    default:
        op = is32 ? Air_BranchMul32 : Air_BranchMul64;
        break;
    }
    B3Value *orig[2] = {lower_kid(v, 0), lower_kid(v, 1)};
    AirArg mem[2];
    bool fused[2] = {false, false};
    AirTmp r = lower_vt(L, v); /* a fresh tmp: the operands stay intact for the exit */
    int64_t c;
    if (v->opcode == B3_CheckSub && lower_is_const_zero(orig[0])) {
        AirOpcode neg = is32 ? Air_BranchNeg32 : Air_BranchNeg64;
        if (VALID(L, neg, AirArg_ResCond, AirArg_Tmp, AirArg_Tmp)) { /* arm64's negs dst, src */
            EMIT_OP(L, neg, air_rescond(AirCond_Overflow), lower_vt_arg(L, orig[1]), lower_tmp_arg(r));
        } else {
            lower_move_value_to(L, orig[1], lower_tmp_arg(r), ty);
            EMIT_OP(L, neg, air_rescond(AirCond_Overflow), lower_tmp_arg(r));
        }
    } else {
        /* r = d; r op= s, with s an immediate, a fused load or a tmp. */
        uint32_t d = 0, s = 1;
        if (commutative && lower_imm_const(orig[0], &c) && !lower_imm_const(orig[1], &c))
            d = 1, s = 0;
        bool imm_ok = VALID(L, op, AirArg_ResCond, AirArg_Imm, AirArg_Tmp);
        bool mem_ok = VALID(L, op, AirArg_ResCond, AirArg_Addr, AirArg_Tmp);
        if (commutative && mem_ok && orig[0] != orig[1] && !(imm_ok && lower_imm_const(orig[s], &c)) &&
            !lower_can_fuse_load(L, orig[s], B3_Load, ty) && lower_can_fuse_load(L, orig[d], B3_Load, ty)) {
            uint32_t t = d;
            d = s, s = t;
        }
        AirArg sa;
        if (imm_ok && lower_imm_const(orig[s], &c)) {
            sa = air_imm(c);
        } else if (mem_ok && orig[0] != orig[1] && lower_can_fuse_load(L, orig[s], B3_Load, ty)) {
            sa = mem[s] = lower_commit_load(L, orig[s]);
            fused[s] = true;
        } else {
            sa = lower_vt_arg(L, orig[s]);
        }
        /* A three-operand form (arm64's adds/subs) needs no copy into r. */
        uint8_t k3[4] = {AirArg_ResCond, AirArg_Tmp, (uint8_t)sa.kind, AirArg_Tmp};
        if (lower_valid_kinds(L, op, 4, k3)) {
            EMIT_OP(L, op, air_rescond(AirCond_Overflow), lower_vt_arg(L, orig[d]), sa, lower_tmp_arg(r));
        } else {
            lower_move_value_to(L, orig[d], lower_tmp_arg(r), ty);
            EMIT_OP(L, op, air_rescond(AirCond_Overflow), sa, lower_tmp_arg(r));
        }
    }
    /* The exit: both original operands, then the rest of the stackmap. */
    SMArgs rec = {0};
    AirArg *src = b3_xmalloc("lower_to_air", (v->nkids + 1) * sizeof *src);
    sm_begin_exit(L, v);
    for (uint32_t i = 0; i < 2; i++) {
        if (!fused[i]) {
            sm_child(L, &rec, orig[i], NULL, &src[i]);
            continue;
        }
        AirArg m = mem[i];
        if (!sm_recordable_memory(&m)) { /* an indexed or RIP-relative operand: reload it */
            AirTmp t = lower_newtmp(L, AirGP);
            EMIT_OP(L, lower_move_op(ty), m, lower_tmp_arg(t));
            m = lower_tmp_arg(t);
        }
        src[i] = m;
        sm_push(&rec, m, AirRole_ColdUse, ty);
    }
    B3StackmapMeta *sm = v->m.stackmap;
    for (uint32_t i = 2; i < v->nkids; i++)
        sm_child(L, &rec, v->kids[i], sm->reps ? &sm->reps[i] : NULL, &src[rec.n]);
    sm_end_exit(L, v, &sm->gen, &rec, src);
    sm_free(&rec);
    free(src);
}

/* Exits unless ZExt32(i) + offset < bound (unsigned, 64-bit). */
void lower_wasm_bounds_check(Lower *L, B3Value *v) {
    const B3BoundsMeta *bm = v->m.bounds;
    B3Value *i = lower_kid(v, 0);
    SMArgs rec = {0};
    sm_begin_exit(L, v);
    sm_end_exit(L, v, &bm->exit, &rec, NULL);
    sm_free(&rec);
    if (bm->pinned == B3_NO_REG && bm->offset == 0 && bm->maximum <= INT32_MAX) {
        /* A 32-bit unsigned compare sees the zero-extended index. */
        EMIT(L, Branch32, air_relcond(AirCond_AboveOrEqual), lower_vt_arg(L, i),
             air_imm((int64_t)bm->maximum));
        return;
    }
    AirTmp t = lower_newtmp(L, AirGP);
    lower_move_value_to(L, i, lower_tmp_arg(t), B3_Int32); /* Move32 zero-extends */
    if (bm->offset && b3_fits32(bm->offset)) {
        EMIT(L, Add64, air_imm(bm->offset), lower_tmp_arg(t));
    } else if (bm->offset) {
        AirTmp k = lower_newtmp(L, AirGP);
        EMIT(L, Move, air_bigimm(bm->offset), lower_tmp_arg(k));
        EMIT(L, Add64, lower_tmp_arg(k), lower_tmp_arg(t));
    }
    AirArg bound;
    if (bm->pinned != B3_NO_REG) {
        bound = lower_tmp_arg(bm->pinned); /* read in place: nothing else writes a pinned register */
    } else if (bm->maximum <= INT32_MAX) {
        bound = air_imm((int64_t)bm->maximum);
    } else {
        AirTmp k = lower_newtmp(L, AirGP);
        EMIT(L, Move, air_bigimm((int64_t)bm->maximum), lower_tmp_arg(k));
        bound = lower_tmp_arg(k);
    }
    EMIT(L, Branch64, air_relcond(AirCond_AboveOrEqual), lower_tmp_arg(t), bound);
}

/* ---- Patchpoint ---- */

void lower_patchpoint(Lower *L, B3Value *v) {
    B3StackmapMeta *sm = v->m.stackmap;
    B3Type ty = (B3Type)v->type;
    SMArgs a = {0};
    for (uint32_t i = 0; i < v->nkids; i++)
        sm_child(L, &a, v->kids[i], sm->reps ? &sm->reps[i] : NULL, NULL);
    uint32_t nrecorded = a.n;

    AirPatchCode code;
    switch (sm->gen.kind) {
    case B3Gen_Symbol:
        code = AirPatch_Call;
        break;
    case B3Gen_Nop:
        code = sm->gen.n ? AirPatch_Nop : AirPatch_Point;
        break;
    case B3Gen_Trap:
    case B3Gen_Address:
        code = AirPatch_Trap;
        break;
    default:
        code = AirPatch_Point;
        break; /* nop(0) */
    }

    /* The result: a def of the register it comes out of, copied to the value's tmp. */
    B3ValueRep rrep =
        sm->has_result_rep ? sm->result : (B3ValueRep){.kind = B3Rep_SomeRegister, .reg = B3_NO_REG};
    bool want = ty != B3_Void && (L->flags[lower_vid(L, v)] & F_NEEDED);
    AirTmp out = AIR_NO_TMP; /* a fixed register to copy the result from */
    bool from_stack = false;
    if (ty != B3_Void) {
        if (rrep.kind == B3Rep_Register) {
            out = rrep.reg;
        } else if (rrep.kind == B3Rep_StackArgument) {
            from_stack = true; /* the generator leaves it at the stack pointer + N */
            sm_need_call_area(L, rrep.value);
        } else if (code == AirPatch_Call) {
            out = lower_c_result_reg(L, ty); /* a C function's result */
        }
        if (!from_stack) {
            AirTmp d = out != AIR_NO_TMP ? out : want ? lower_vt(L, v) : lower_newtmp(L, lower_bank_of(ty));
            sm_push(&a, lower_tmp_arg(d),
                    rrep.kind == B3Rep_SomeEarlyRegister ? AirRole_EarlyDef : AirRole_Def, ty);
        }
    }

    AirSpecial *sp = sm_special(L, &a, nrecorded, sm_id(v), code);
    AirPatchpointInfo *pi = sp->data;
    if (code == AirPatch_Nop) {
        if (sm->gen.n > UINT32_MAX)
            b3_internal_error_at("lower_to_air", v, "nop(%llu) is too large", (unsigned long long)sm->gen.n);
        pi->nop_bytes = (uint32_t)sm->gen.n;
    }
    if (code == AirPatch_Call) {
        pi->callee = sm->gen.sym;
        /* An ordinary C function may change every caller-saved register. */
        for (unsigned k = 0; k < 2; k++)
            sp->late_clobber.bits[k] |= L->c->desc->caller_saved.bits[k];
    }
    for (unsigned k = 0; k < 2; k++) {
        sp->early_clobber.bits[k] |= sm->early_clobbered.bits[k];
        sp->late_clobber.bits[k] |= sm->late_clobbered.bits[k];
    }
    /* The frame registers are never the patchpoint's to destroy. */
    for (unsigned k = 0; k < 2; k++) {
        B3Reg fr = k ? L->c->desc->frame_pointer : L->c->desc->stack_pointer;
        sp->early_clobber.bits[0] &= ~(1ull << fr);
        sp->late_clobber.bits[0] &= ~(1ull << fr);
    }
    lower_emit_special(L, Air_Patchpoint, a.n, a.args, sp);
    if (want && from_stack)
        sm_move(L, air_callarg(rrep.value), lower_vt_arg(L, v), ty);
    else if (want && out != AIR_NO_TMP)
        EMIT_OP(L, lower_move_op(ty), lower_tmp_arg(out), lower_vt_arg(L, v));
    sm_free(&a);
}

/* ---- block structure ---- */

/* Splits ab after each Check* branch: the rest goes to a new block. */
void lower_sm_split_block(Lower *L, AirBlock *ab) {
    struct LowerStackmaps *s = L->sm;
    if (!s || !s->split_pending)
        return;
    s->split_pending = false;
    AirBlock *cur = ab;
    for (;;) {
        uint32_t i = 0;
        while (i + 1 < cur->ninsts && !air_is_terminal((AirOpcode)cur->insts[i].opcode))
            i++;
        if (i + 1 >= cur->ninsts)
            return;
        AirInst *t = &cur->insts[i];
        B3Value *o = t->origin;
        if (!o || !is_exit_op(o->opcode) || o->scratch >= L->c->nblocks)
            b3_internal_error_at("lower_to_air", o, "a terminal in the middle of a block (not a Check)");
        AirBlock *exit = L->c->blocks[o->scratch];
        AirBlock *cont = air_block_new(L->c);
        cont->frequency = cur->frequency;
        cont->insts = cur->insts + i + 1;
        cont->ninsts = cont->cap_insts = cur->ninsts - i - 1;
        cur->ninsts = cur->cap_insts = i + 1;
        cont->succs = cur->succs;
        cont->nsuccs = cur->nsuccs;
        AirSucc to_exit = {exit, B3Freq_Rare};
        if (t->opcode == Air_Jump)
            lower_set_succs(L, cur, 1, &to_exit);
        else
            lower_set_succs(L, cur, 2, (AirSucc[]){to_exit, {cont, B3Freq_Normal}});
        sm_push_block(&s->conts, &s->nconts, &s->cap_conts, cur);
        sm_push_block(&s->conts, &s->nconts, &s->cap_conts, cont);
        cur = cont;
    }
}

/* Lays out each split block's continuations right after it and every exit
 * block at the end, keeping the order of everything else. */
void lower_sm_finish(Lower *L) {
    struct LowerStackmaps *s = L->sm;
    if (!s)
        return;
    AirCode *c = L->c;
    uint32_t n = c->nblocks;
    uint8_t *kind = b3_xcalloc("lower_to_air", n, 1); /* 1: a continuation, 2: an exit */
    AirBlock **next = b3_xcalloc("lower_to_air", n, sizeof *next);
    AirBlock **order = b3_xmalloc("lower_to_air", n * sizeof *order);
    for (uint32_t i = 0; i + 1 < s->nconts; i += 2) {
        next[s->conts[i]->index] = s->conts[i + 1];
        kind[s->conts[i + 1]->index] = 1;
    }
    for (uint32_t i = 0; i < s->nexits; i++)
        kind[s->exits[i]->index] = 2;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (kind[c->blocks[i]->index])
            continue;
        for (AirBlock *b = c->blocks[i]; b; b = next[b->index])
            order[k++] = b;
    }
    for (uint32_t i = 0; i < s->nexits; i++)
        order[k++] = s->exits[i];
    if (k != n)
        b3_internal_error("lower_to_air", "block layout lost a block (%u of %u)", k, n);
    for (uint32_t i = 0; i < n; i++) {
        c->blocks[i] = order[i];
        c->blocks[i]->index = i;
    }
    free(kind);
    free(next);
    free(order);
    free(s->exits);
    free(s->conts);
    free(s);
    L->sm = NULL;
}
