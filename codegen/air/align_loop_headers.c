/* air_align_loop_headers: marks the loop headers of the final block order,
 * the blocks a back edge (a jump to an earlier block, or to itself) goes
 * to, so that the emitter can pad them to a fetch boundary.  Runs after
 * optimize_block_order: a rotated loop's header is where its back edge
 * lands, which only the final order says.  Only -O2 runs it (the padding
 * costs size, and alignment is a speed choice). */
#include "codegen/air/phases.h"

void air_align_loop_headers(AirCode *c) {
    for (uint32_t i = 0; i < c->nblocks; i++)
        c->blocks[i]->loop_header = false;
    /* Indexes are positions: optimize_block_order numbers the blocks in order. */
    for (uint32_t i = 0; i < c->nblocks; i++) {
        AirBlock *b = c->blocks[i];
        if (b->index != i)
            b3_internal_error("align_loop_headers", "BB#%u is at position %u", b->index, i);
        for (uint32_t s = 0; s < b->nsuccs; s++)
            if (b->succs[s].block->index <= i)
                b->succs[s].block->loop_header = true;
    }
    /* A test rotated between the two arms of a loop (optimize_block_order's
     * branching latch: the arm before it falls into it and it branches back
     * to that arm) is inside the loop the arm starts: padding it would put
     * nops on the path around. */
    for (uint32_t i = 1; i < c->nblocks; i++) {
        AirBlock *b = c->blocks[i], *p = c->blocks[i - 1];
        if (b->loop_header && p->loop_header && air_block_has_succ(b, p) && air_block_has_succ(p, b))
            b->loop_header = false;
    }
}
