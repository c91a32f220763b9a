/* air_spill_across_returns_twice: before register allocation, at every
 * level, every tmp live after a `returnsTwice` call (setjmp) moves to a
 * stack slot of its own for the whole procedure.
 *
 * A longjmp comes back to the point after the call with the stack pointer,
 * the frame pointer and the callee-saved registers the call saw, and any
 * register or stack location that changed since holds whatever it holds.
 * Liveness knows no edge from the calls that may longjmp back, so an
 * allocator would keep a value live there in a caller-saved register (lost),
 * in a callee-saved one it reuses after the value's last use on the path
 * that did not jump back, or in a spill slot it shares with another tmp on
 * that path.  So each such tmp gets a slot that nothing else uses (not a
 * spill slot: allocate_stack never shares it, fix_obvious_spills never
 * forwards it), written at each definition and read at each use, in the
 * same rewrite the allocators use for their spills (regalloc.h).  After it
 * no tmp is live across the call, whatever the allocator: the three honour
 * the call without knowing about it.  A tmp defined again between the setjmp
 * and the longjmp reads back its latest value, which C allows (such a
 * non-volatile local is indeterminate, a volatile one is in memory anyway).
 *
 * The B3 phases need nothing: a CCall reads and writes all memory, so no
 * load or store moves across it, and a pure value computed on one side or
 * the other gives the same result; inline_procedures does not inline a
 * procedure that calls setjmp. */
#include <stdlib.h>

#include "codegen/air/liveness.h"
#include "codegen/air/phases.h"
#include "codegen/air/regalloc.h"
#include "util/alloc.h"

#define PHASE "spill_across_returns_twice"

static bool is_returns_twice(const AirInst *inst) {
    if (inst->opcode != Air_Call || !inst->special || !inst->special->data)
        return false;
    return ((const AirCallInfo *)inst->special->data)->returns_twice;
}

/* Marks (in out) the virtual tmps of bank live right after each
 * returnsTwice call; returns how many. */
static uint32_t live_after_calls(AirCode *c, AirBank bank, uint8_t *out) {
    AirLiveness lv;
    air_liveness_compute(&lv, c, bank);
    AirTmpSet live;
    air_tmpset_init(&live, lv.universe);
    uint32_t n = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        bool any = false;
        for (uint32_t ii = 0; ii < b->ninsts && !any; ii++)
            any = is_returns_twice(&b->insts[ii]);
        if (!any)
            continue;
        AirLocalLiveness lc;
        air_local_init(&lc, &lv, b, &live);
        while (!lc.done) {
            uint32_t k = lc.boundary;
            air_apply_actions(&lc.early, &live);
            /* live: what lives between the late moment of inst k-1 and the
             * early moment of inst k, so right after inst k-1. */
            if (k > 0 && is_returns_twice(&b->insts[k - 1]))
                for (uint32_t i = 0; i < live.size; i++) {
                    AirTmp t = live.dense[i];
                    if (!air_tmp_is_reg(t) && !out[t]) {
                        out[t] = 1;
                        n++;
                    }
                }
            air_apply_actions(&lc.late, &live);
            air_local_advance(&lc);
        }
        air_local_free(&lc);
    }
    air_tmpset_free(&live);
    air_liveness_free(&lv);
    return n;
}

void air_spill_across_returns_twice(AirCode *c) {
    bool any = false;
    for (uint32_t bi = 0; bi < c->nblocks && !any; bi++)
        for (uint32_t ii = 0; ii < c->blocks[bi]->ninsts && !any; ii++)
            any = is_returns_twice(&c->blocks[bi]->insts[ii]);
    if (!any)
        return;
    for (unsigned bank = 0; bank < 2; bank++) {
        uint32_t universe = AIR_FIRST_VTMP + c->ntmps;
        uint8_t *mark = b3_xcalloc(PHASE, universe, 1);
        if (!live_after_calls(c, (AirBank)bank, mark)) {
            free(mark);
            continue;
        }
        AirStackSlot **slot_of = b3_xcalloc(PHASE, universe, sizeof *slot_of);
        for (uint32_t t = AIR_FIRST_VTMP; t < universe; t++)
            if (mark[t])
                slot_of[t] = air_slot_new(c, 8, 8, false);
        free(mark);
        AirSpiller sp = {.c = c, .bank = (AirBank)bank, .slot_of = slot_of, .nslot_of = universe};
        uint32_t nblocks = c->nblocks; /* not the edge blocks it adds */
        for (uint32_t bi = 0; bi < nblocks; bi++)
            air_spill_rewrite_block(&sp, bi);
        bool split = sp.split;
        air_spiller_free(&sp);
        free(slot_of);
        if (split)
            air_compute_preds(c);
    }
}
