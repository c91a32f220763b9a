/* Dominator tree of a procedure's CFG.
 *
 * Computed with the Lengauer-Tarjan algorithm (simple version, with path
 * compression: O(E log N)), entirely with explicit stacks, so it is safe on
 * procedures with hundreds of thousands of blocks.  Dominance queries are O(1)
 * through pre/post numbers of the dominator tree.
 *
 * Blocks are identified by their position (B3Block.pos), so proc->blocks[i]->pos
 * must equal i when the analysis is computed; the result is invalidated by any
 * change to the blocks or edges.  Edges to blocks that are not in the procedure
 * are ignored (the validator reports them). */
#ifndef B3_DOMINATORS_H
#define B3_DOMINATORS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct {
    uint32_t nblocks;
    uint32_t *pre;   /* by block position: dominator-tree preorder number, 1-based; 0 = unreachable */
    uint32_t *post;  /* by block position: dominator-tree postorder number */
    B3Block **idom;  /* by block position: immediate dominator; NULL for the root and unreachable blocks */
    B3Block **order; /* the reachable blocks in dominator-tree preorder (order[0] is the root) */
    uint32_t norder;
} B3Dominators;

/* Computes the dominators of p (malloc'd; release with b3_dominators_free). */
void b3_dominators_compute(B3Dominators *dom, const B3Proc *p);
void b3_dominators_free(B3Dominators *dom);

static inline bool b3_block_reachable(const B3Dominators *dom, const B3Block *b) {
    return b->pos < dom->nblocks && dom->pre[b->pos] != 0;
}

/* True if every path from the root to b goes through a (a block dominates
 * itself).  Vacuously true when b is unreachable. */
static inline bool b3_dominates(const B3Dominators *dom, const B3Block *a, const B3Block *b) {
    if (a == b || !b3_block_reachable(dom, b))
        return true;
    if (!b3_block_reachable(dom, a))
        return false;
    return dom->pre[a->pos] <= dom->pre[b->pos] && dom->post[b->pos] <= dom->post[a->pos];
}

static inline bool b3_strictly_dominates(const B3Dominators *dom, const B3Block *a, const B3Block *b) {
    return a != b && b3_dominates(dom, a, b);
}

/* The immediate dominator of b; NULL for the root and for unreachable blocks. */
static inline B3Block *b3_idom(const B3Dominators *dom, const B3Block *b) {
    return b->pos < dom->nblocks ? dom->idom[b->pos] : NULL;
}

#endif
