/* Pieces shared by the register allocators (codegen/air/regalloc.h). */
#include "codegen/air/regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "codegen/air/stackmaps.h"
#include "util/vec.h"

#define PHASE "air register allocation"
#define NONE UINT32_MAX

/* ---- registers of a bank ---- */

void air_reg_file(const AirCode *c, AirBank bank, AirRegFile *rf) {
    const B3TargetDesc *d = c->desc;
    B3Reg cand[33];
    uint32_t ncand = bank == AirGP ? d->ngp_order : d->nfp_order;
    memcpy(cand, bank == AirGP ? d->gp_order : d->fp_order, ncand * sizeof *cand);
    if (bank == AirGP && c->omit_frame_pointer)
        cand[ncand++] = d->frame_pointer; /* last: it costs a save like the other callee saves */
    memset(rf->rank, -1, sizeof rf->rank);
    rf->k = 0;
    for (uint32_t i = 0; i < ncand; i++) {
        if (b3_regset_has(&c->pinned, cand[i]))
            continue;
        rf->rank[cand[i]] = (int8_t)rf->k;
        rf->order[rf->k++] = cand[i];
    }
    if (rf->k == 0)
        b3_internal_error(PHASE, "no allocatable %s registers", bank == AirGP ? "GP" : "FP");
}

/* ---- spill-to-stack form checks ---- */

static bool role_admits_stack(AirRole role) {
    switch (role) {
    case AirRole_Use:
    case AirRole_ColdUse:
    case AirRole_Def:
    case AirRole_ZDef:
    case AirRole_UseDef:
    case AirRole_UseZDef:
        return true;
    default:
        return false;
    }
}

/* Would replacing this Tmp arg by a spill slot be valid and mean the same thing? */
bool air_admits_stack(const AirCode *c, AirInst *inst, AirArg *arg, AirRole role, AirWidth width,
                      const uint8_t *use_width) {
    if (inst->special) /* a patchpoint's cold uses may stay in memory (codegen/air/stackmaps.h) */
        return air_special_admits_stack(inst, role, width);
    if (!role_admits_stack(role) || width > AirW64)
        return false;
    AirTmp t = arg->base;
    /* A zero-extending def writes only `width` bits to memory: fine only if nobody reads more. */
    if ((role == AirRole_ZDef || role == AirRole_UseZDef) && width < AirW64 &&
        (air_tmp_is_reg(t) || !use_width || use_width[t] > (uint8_t)(width + 1)))
        return false;
    AirArg saved = *arg;
    *arg = air_stack(NULL, 0);
    bool ok = air_is_valid_form(c->target, (AirOpcode)inst->opcode, inst->nargs, inst->args);
    *arg = saved;
    return ok;
}

/* ---- callee saves ---- */

void air_note_callee_save(const AirCode *c, B3RegSet *set, B3Reg r) {
    if (!b3_target_is_callee_saved(c->target, r) || b3_regset_has(&c->pinned, r))
        return;
    /* The frame pointer is saved by the prologue itself (when there is one). */
    if (!c->omit_frame_pointer && r == c->desc->frame_pointer)
        return;
    b3_regset_add(set, r);
    /* Apple's unwinder restores some registers only in pairs: save the
     * partner too.  A pinned partner is saved but never restored (the
     * emitter skips it), so only an unwinder puts its entry value back. */
    for (unsigned i = 0; i < c->desc->nmacho_save_pairs; i++)
        for (unsigned k = 0; k < 2; k++)
            if (c->desc->macho_save_pairs[i][k] == r) {
                B3Reg partner = c->desc->macho_save_pairs[i][1 - k];
                if (b3_target_is_callee_saved(c->target, partner))
                    b3_regset_add(set, partner);
            }
}

void air_store_on_out_edges(AirCode *c, AirBlock *b, B3Value *origin, const AirInst *stores, uint32_t n) {
    for (uint32_t e = 0; e < b->nsuccs; e++) {
        AirBlock *nb = air_block_new(c);
        nb->frequency = b->frequency;
        for (uint32_t k = 0; k < n; k++)
            air_append(c, nb, (AirOpcode)stores[k].opcode, origin, 2, stores[k].args);
        air_append(c, nb, Air_Jump, origin, 0, NULL);
        nb->succs = b3_arena_alloc(c->arena, sizeof(AirSucc));
        nb->succs[0] = b->succs[e];
        nb->nsuccs = 1;
        b->succs[e].block = nb;
    }
}

/* ---- the spill rewriter ---- */

/* The fresh tmp standing for spilled t in the current inst. */
static AirTmp fill_tmp(AirSpiller *sp, AirTmp t, AirRole role, bool load, bool store) {
    AirTmp n = AIR_NO_TMP;
    for (uint32_t i = 0; i < sp->nfills && n == AIR_NO_TMP; i++)
        if (sp->fills[i].orig == t) {
            sp->fills[i].load |= load;
            sp->fills[i].store |= store;
            n = sp->fills[i].fresh;
        }
    bool is_new = n == AIR_NO_TMP;
    if (is_new) {
        n = air_tmp_new(sp->c, sp->bank);
        B3_VEC_PUSH(PHASE, sp->fills, sp->nfills, sp->cap_fills, ((AirSpillFill){t, n, load, store}));
    }
    sp->touched = true;
    if (sp->on_fill)
        sp->on_fill(sp->ctx, sp->bi, sp->ii, n, is_new, role, load, store);
    return n;
}

static bool is_spilled(const AirSpiller *sp, AirTmp t) {
    return !air_tmp_is_reg(t) && t < sp->nslot_of && sp->slot_of[t];
}

static void spill_arg(void *vctx, AirInst *inst, AirArg *arg, AirRole role, AirBank bank, AirWidth width) {
    AirSpiller *sp = vctx;
    if (arg->kind == AirArg_Tmp) {
        AirTmp t = arg->base;
        if (bank != sp->bank || !is_spilled(sp, t))
            return;
        if (air_admits_stack(sp->c, inst, arg, role, width, sp->use_width)) {
            *arg = air_stack(sp->slot_of[t], 0);
            sp->touched = true;
            return;
        }
        /* A scratch's value never outlives the inst: a fresh tmp is all it needs. */
        bool scratch = role == AirRole_Scratch;
        arg->base =
            fill_tmp(sp, t, role, !scratch && air_role_is_use(role), !scratch && air_role_is_def(role));
    } else if ((arg->kind == AirArg_Addr || arg->kind == AirArg_Index) && sp->bank == AirGP) {
        if (is_spilled(sp, arg->base))
            arg->base = fill_tmp(sp, arg->base, AirRole_Use, true, false);
        if (arg->kind == AirArg_Index && is_spilled(sp, arg->index))
            arg->index = fill_tmp(sp, arg->index, AirRole_Use, true, false);
    }
}

static inline void push_out(AirSpiller *sp, AirInst i, uint32_t src) {
    B3_VEC_RESERVE2(PHASE, sp->out, sp->src, sp->cap_out, sp->nout + 1);
    sp->src[sp->nout] = src;
    sp->out[sp->nout++] = i;
}

static void push_after(AirSpiller *sp, AirInst i) {
    B3_VEC_PUSH(PHASE, sp->after, sp->nafter, sp->cap_after, i);
}

void air_holes_add(AirHoles *h, void *p, size_t n) {
    n &= ~(size_t)15;
    if (n < 64)
        return;
    B3_VEC_RESERVE(PHASE, h->v, h->cap, h->n + 1);
    h->v[h->n++] = (AirHole){p, n};
}

bool air_holes_next(AirHoles *h, size_t n) {
    uint32_t k = h->n, stop = k > 8 ? k - 8 : 0;
    while (k > stop && h->v[k - 1].n < n)
        k--;
    if (k == stop)
        return false;
    AirHole next = h->v[k - 1];
    h->v[k - 1] = h->v[--h->n];
    if (h->end - h->cur >= 64) /* the rest of the one being filled stays a hole */
        h->v[h->n++] = (AirHole){h->cur, (size_t)(h->end - h->cur)};
    h->cur = next.p;
    h->end = next.p + next.n;
    return true;
}

void air_holes_free(AirHoles *h) {
    free(h->v);
    memset(h, 0, sizeof *h);
}

AirInst air_spill_move(AirCode *c, AirBank bank, const AirStackSlot *s, AirTmp t, bool load,
                       B3Value *origin) {
    return air_spill_move_in(b3_arena_alloc(c->arena, 2 * sizeof(AirArg)), bank, s, t, load, origin);
}

static AirInst spill_move(AirSpiller *sp, const AirStackSlot *s, AirTmp t, bool load, B3Value *origin) {
    AirArg *args = air_holes_take(&sp->holes, sp->c, 2 * sizeof(AirArg));
    return air_spill_move_in(args, sp->bank, s, t, load, origin);
}

static bool may_mention(AirSpiller *sp, uint32_t bi, uint32_t ii) {
    return !sp->may_mention || sp->may_mention(sp->ctx, bi, ii);
}

bool air_spill_rewrite_block(AirSpiller *sp, uint32_t bi) {
    AirCode *c = sp->c;
    AirBlock *b = c->blocks[bi];
    sp->replaced = false;
    /* Most blocks mention no spilled tmp: nothing to copy. */
    uint32_t first = 0;
    while (first < b->ninsts && !may_mention(sp, bi, first))
        first++;
    if (first == b->ninsts)
        return false;
    sp->touched = false;
    sp->nout = 0;
    for (uint32_t ii = 0; ii < first; ii++)
        push_out(sp, b->insts[ii], ii);
    for (uint32_t ii = first; ii < b->ninsts; ii++) {
        AirInst inst = b->insts[ii];
        sp->nfills = 0;
        sp->bi = bi;
        sp->ii = ii;
        if (may_mention(sp, bi, ii))
            air_for_each_arg_inline(&inst, spill_arg, sp);
        sp->nafter = 0;
        for (uint32_t k = 0; k < sp->nfills; k++) {
            const AirSpillFill *fl = &sp->fills[k];
            const AirStackSlot *s = sp->slot_of[fl->orig];
            if (fl->load)
                push_out(sp, spill_move(sp, s, fl->fresh, true, inst.origin), NONE);
            if (fl->store)
                push_after(sp, spill_move(sp, s, fl->fresh, false, inst.origin));
        }
        push_out(sp, inst, ii);
        if (!sp->nafter)
            continue;
        if (!air_is_terminal((AirOpcode)inst.opcode)) {
            for (uint32_t k = 0; k < sp->nafter; k++)
                push_out(sp, sp->after[k], NONE);
            continue;
        }
        air_store_on_out_edges(c, b, inst.origin, sp->after, sp->nafter);
        sp->split = true;
    }
    if (!sp->touched)
        return false;
    if (sp->nout == b->ninsts) /* only args rewritten in place */
        return true;
    /* In place when it fits, else in a new array with room for the next
     * round's spill code (the outgrown one becomes a hole). */
    if (sp->nout > b->cap_insts) {
        air_holes_add(&sp->holes, b->insts, (size_t)b->cap_insts * sizeof(AirInst));
        b->cap_insts = sp->nout + sp->nout / 8 + 4;
        b->insts = air_holes_take(&sp->holes, c, (size_t)b->cap_insts * sizeof(AirInst));
    }
    memcpy(b->insts, sp->out, sp->nout * sizeof(AirInst));
    b->ninsts = sp->nout;
    sp->replaced = true;
    return true;
}

void air_spiller_free(AirSpiller *sp) {
    air_holes_free(&sp->holes);
    free(sp->fills);
    free(sp->out);
    free(sp->src);
    free(sp->after);
}
