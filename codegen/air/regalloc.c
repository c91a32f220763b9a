/* Pieces shared by the register allocators (codegen/air/regalloc.h). */
#include "codegen/air/regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "codegen/air/stackmaps.h"

#define PHASE "air register allocation"

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
