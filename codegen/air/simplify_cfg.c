/* air_simplify_cfg: Air's simplifyCFG, after register and stack allocation
 * (when coalescing has emptied the blocks that held only moves).
 *
 *   1. Jump threading: an edge to a block that only jumps goes to where the
 *      jumps lead (final_targets, memoized: linear in a chain of any length).
 *   2. A two-way branch whose edges now meet, and that defines nothing, is a
 *      Jump.
 *   3. A block that ends in a Jump to a block with no other predecessor takes
 *      that block's instructions and successors (merging a block into its
 *      single predecessor), as long as the chain goes; every instruction
 *      moves at most once, so this is linear too.
 *   4. The blocks nothing reaches any more are dropped.
 * Runs before lower_entry_switch: blocks[0] is the only entry. */
#include <stdlib.h>
#include <string.h>

#include "codegen/air/phases.h"
#include "util/alloc.h"

static bool is_jump_only(const AirBlock *b) {
    return b->ninsts == 1 && b->insts[0].opcode == Air_Jump && b->nsuccs == 1;
}

/* Where a jump to each block ends up after skipping jump-only blocks,
 * computed once per block (memoized along each path, so a long chain of
 * jump-only blocks costs linear time, not quadratic).  A cycle of jump-only
 * blocks is left alone: every block on it maps to itself. */
static AirBlock **final_targets(AirCode *c) {
    uint32_t n = c->nblocks;
    AirBlock **target = b3_xcalloc("simplify_cfg", n, sizeof(AirBlock *));
    uint32_t *path = b3_xmalloc("simplify_cfg", n * sizeof(uint32_t));
    uint8_t *on_path = b3_xcalloc("simplify_cfg", n, 1);
    for (uint32_t bi = 0; bi < n; bi++) {
        uint32_t np = 0;
        AirBlock *b = c->blocks[bi], *end;
        /* Follow jumps until a block already resolved, a non-jump block or a cycle. */
        for (;;) {
            if (target[b->index]) {
                end = target[b->index];
                break;
            }
            if (!is_jump_only(b)) {
                end = b;
                break;
            }
            if (on_path[b->index]) {
                /* The blocks from b on form a cycle: each keeps its own jump. */
                while (np && path[np - 1] != b->index) {
                    uint32_t k = path[--np];
                    target[k] = c->blocks[k];
                    on_path[k] = 0;
                }
                np--;
                target[b->index] = b;
                on_path[b->index] = 0;
                end = b;
                break;
            }
            on_path[b->index] = 1;
            path[np++] = b->index;
            b = b->succs[0].block;
        }
        while (np) {
            uint32_t k = path[--np];
            target[k] = end;
            on_path[k] = 0;
        }
        if (!target[bi])
            target[bi] = end;
    }
    free(path);
    free(on_path);
    return target;
}

/* Only the edges of a branch that defines nothing may be folded (a
 * BranchAdd computes a result on both): the BRANCH column. */
static bool is_foldable_branch(const AirCode *c, AirInst *inst) {
    (void)c;
    return !inst->special && air_is_branch((AirOpcode)inst->opcode);
}

/* Appends s's instructions to b in place of b's final Jump; b takes s's successors. */
static void absorb(AirCode *c, AirBlock *b, AirBlock *s) {
    b->ninsts--; /* the Jump */
    uint32_t need = b->ninsts + s->ninsts;
    air_block_reserve(c, b, need);
    memcpy(b->insts + b->ninsts, s->insts, s->ninsts * sizeof(AirInst));
    b->ninsts = need;
    b->succs = s->succs;
    b->nsuccs = s->nsuccs;
    s->ninsts = 0;
    s->nsuccs = 0;
}

void air_simplify_cfg(AirCode *c) {
    if (c->nblocks == 0)
        return;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        if (!c->blocks[bi]->ninsts)
            b3_internal_error("simplify_cfg", "BB#%u is empty", bi);

    AirBlock **target = final_targets(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (uint32_t s = 0; s < b->nsuccs; s++)
            b->succs[s].block = target[b->succs[s].block->index];
    }
    free(target);

    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        AirInst *last = &b->insts[b->ninsts - 1];
        if (b->nsuccs == 2 && b->succs[0].block == b->succs[1].block && is_foldable_branch(c, last)) {
            last->opcode = Air_Jump;
            last->nargs = 0;
            last->args = NULL;
            b->nsuccs = 1;
            if (b->succs[1].freq == B3Freq_Normal)
                b->succs[0].freq = B3Freq_Normal;
        }
    }

    /* Merging needs each block's predecessor count after threading (a block
     * absorbed into another keeps its count: its one predecessor is merely
     * renamed).  Only the counts are used until air_compute_preds below. */
    AirBlock *entry = c->blocks[0];
    air_drop_unreachable(c, &entry, 1, "simplify_cfg");
    air_compute_preds(c);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        AirBlock *b = c->blocks[bi];
        for (;;) {
            if (!b->ninsts || b->insts[b->ninsts - 1].opcode != Air_Jump || b->nsuccs != 1)
                break;
            AirBlock *s = b->succs[0].block;
            if (s == b || s == entry || s->npreds != 1 || !s->ninsts)
                break;
            absorb(c, b, s);
        }
    }
    air_drop_unreachable(c, &entry, 1, "simplify_cfg");
    air_compute_preds(c);
}
