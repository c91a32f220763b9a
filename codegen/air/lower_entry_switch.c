/* air_lower_entry_switch: gives the code one entry block per entrypoint.
 *
 * B3's EntrySwitch behaves as a switch on a hidden "which entrypoint" variable
 * that each physical entry sets before jumping to the root.  As in WebKit's
 * AirLowerEntrySwitch, no variable exists: every block that lies on a path from
 * the root to some EntrySwitch is cloned once per entrypoint k >= 1, and in
 * clone k (and, for k = 0, in the original blocks) each EntrySwitch becomes a
 * Jump to its k-th successor.  Edges between cloned blocks stay inside their
 * clone; edges leaving the cloned region go to the shared original blocks.
 *
 * The phase runs after register allocation, stack allocation and air_simplify_cfg
 * (backend.c).  Until then EntrySwitch is an ordinary multi-way terminal, so
 * liveness, the allocator and spill-slot sharing work on a single-entry CFG;
 * every path of the cloned code maps onto a path of that CFG with the same
 * registers and stack slots, so the allocation stays valid in every clone, and
 * all entries share one frame (same size, same callee-save area).  Cloning the
 * root also clones the ArgumentReg copies that lowering put at its top, so each
 * entry reads its own incoming argument registers. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "util/alloc.h"

static uint32_t num_entrypoints(const AirCode *c) {
    return c->proc && c->proc->nentrypoints ? c->proc->nentrypoints : 1;
}

static bool ends_in_entry_switch(const AirBlock *b) {
    return b->ninsts && b->insts[b->ninsts - 1].opcode == Air_EntrySwitch;
}

/* EntrySwitch -> Jump to successor k. */
static void fix_entry_switch(AirCode *c, AirBlock *b, uint32_t k) {
    if (!ends_in_entry_switch(b))
        return;
    if (b->nsuccs != num_entrypoints(c))
        b3_internal_error("lower_entry_switch", "BB#%u: EntrySwitch has %u successors for %u entrypoints",
                          b->index, b->nsuccs, num_entrypoints(c));
    AirInst *last = &b->insts[b->ninsts - 1];
    last->opcode = Air_Jump;
    last->nargs = 0;
    last->args = NULL;
    b->succs[0] = b->succs[k];
    b->nsuccs = 1;
}

/* A copy of b's instructions and successors in a new block (args deep-copied,
 * so later rewrites of one clone never touch another). */
static AirBlock *clone_block(AirCode *c, const AirBlock *b) {
    AirBlock *nb = air_block_new(c);
    nb->frequency = b->frequency;
    nb->insts = b3_arena_alloc(c->arena, (b->ninsts ? b->ninsts : 1) * sizeof(AirInst));
    nb->cap_insts = b->ninsts ? b->ninsts : 1;
    nb->ninsts = b->ninsts;
    memcpy(nb->insts, b->insts, b->ninsts * sizeof(AirInst));
    for (uint32_t i = 0; i < nb->ninsts; i++) {
        AirInst *inst = &nb->insts[i];
        if (inst->nargs) {
            AirArg *args = b3_arena_alloc(c->arena, inst->nargs * sizeof(AirArg));
            memcpy(args, inst->args, inst->nargs * sizeof(AirArg));
            inst->args = args;
        }
    }
    nb->nsuccs = b->nsuccs;
    nb->succs = b->nsuccs ? b3_arena_alloc(c->arena, b->nsuccs * sizeof(AirSucc)) : NULL;
    if (b->nsuccs)
        memcpy(nb->succs, b->succs, b->nsuccs * sizeof(AirSucc));
    return nb;
}

void air_lower_entry_switch(AirCode *c) {
    uint32_t nent = num_entrypoints(c);
    if (!c->nblocks)
        b3_internal_error("lower_entry_switch", "no blocks");
    c->nentries = nent;
    c->entries = b3_arena_alloc(c->arena, nent * sizeof(AirBlock *));
    for (uint32_t k = 0; k < nent; k++)
        c->entries[k] = c->blocks[0];

    /* The blocks to clone: those from which an EntrySwitch is reachable
     * (walking predecessors back from each EntrySwitch). */
    uint32_t n = c->nblocks;
    uint8_t *mark = b3_xcalloc("lower_entry_switch", n, 1);
    uint32_t *work = b3_xmalloc("lower_entry_switch", n * sizeof(uint32_t));
    air_compute_preds(c);
    uint32_t sp = 0, nmarked = 0;
    for (uint32_t i = 0; i < n; i++)
        if (ends_in_entry_switch(c->blocks[i])) {
            mark[i] = 1;
            work[sp++] = i;
        }
    while (sp) {
        AirBlock *b = c->blocks[work[--sp]];
        nmarked++;
        for (uint32_t p = 0; p < b->npreds; p++) {
            uint32_t q = b->preds[p]->index;
            if (!mark[q]) {
                mark[q] = 1;
                work[sp++] = q;
            }
        }
    }
    if (!nmarked) {
        /* No EntrySwitch: every entrypoint runs the same code. */
        free(mark);
        free(work);
        return;
    }
    if (!mark[0])
        b3_internal_error("lower_entry_switch", "an EntrySwitch is not reachable from the entry");

    /* Clones for entrypoints 1..nent-1, appended after the original blocks, each
     * entrypoint's clones together and in the original order. */
    AirBlock **map = b3_xmalloc("lower_entry_switch", n * sizeof(AirBlock *));
    for (uint32_t k = 1; k < nent; k++) {
        memset(map, 0, n * sizeof(AirBlock *));
        for (uint32_t i = 0; i < n; i++)
            if (mark[i])
                map[i] = clone_block(c, c->blocks[i]);
        for (uint32_t i = 0; i < n; i++) {
            AirBlock *nb = map[i];
            if (!nb)
                continue;
            for (uint32_t s = 0; s < nb->nsuccs; s++) {
                uint32_t t = nb->succs[s].block->index;
                if (t < n && map[t])
                    nb->succs[s].block = map[t];
            }
            fix_entry_switch(c, nb, k);
        }
        c->entries[k] = map[0];
    }
    for (uint32_t i = 0; i < n; i++)
        if (mark[i])
            fix_entry_switch(c, c->blocks[i], 0);
    free(map);
    free(mark);
    free(work);
    /* A successor that only another entrypoint took (the original's successor 1
     * once it became entry 0's Jump, say) is dead now. */
    air_drop_unreachable(c, c->entries, c->nentries, "lower_entry_switch");
    air_compute_preds(c);
}
