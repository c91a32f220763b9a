/* Natural loops (B3's NaturalLoops), and loop preheaders.
 *
 * A back edge is an edge b -> h where h dominates b; the natural loop of a
 * header h is h plus every block that reaches one of its back edges without
 * passing through h.  Back edges into one header make one loop.  A cycle
 * with no dominating header (irreducible control flow) has no back edge and
 * so is no loop; its blocks belong to the loops around it.
 *
 * Built from the dominator tree in near-linear time (headers innermost
 * first, each block walked once, inner loops skipped through a union-find),
 * with explicit stacks throughout.  Memory is O(blocks + loops): each loop's
 * blocks are a contiguous slice of one array, laid out along the loop tree,
 * so membership is O(1) and a 4,000-deep nest costs no more than its blocks.
 *
 * Like the dominators, computed for proc->blocks as they are (blocks[i]->pos
 * == i) and invalidated by any change to blocks or edges.  Unreachable blocks
 * belong to no loop. */
#ifndef B3_LOOPS_H
#define B3_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/dominators.h"
#include "ir/ir.h"

typedef struct B3Loop B3Loop;
struct B3Loop {
    uint32_t index; /* in B3Loops.loops: outer loops come before the loops they contain */
    B3Block *header;
    B3Loop *parent; /* the innermost loop around this one, or NULL */
    uint32_t depth; /* 1 for an outermost loop */
    /* Every block of the loop, inner loops' included, header first; the first
     * `own` are the blocks whose innermost loop this is. */
    B3Block **blocks;
    uint32_t nblocks, own;
};

typedef struct {
    B3Loop *loops;
    uint32_t nloops;
    uint32_t nblocks;    /* proc->nblocks when computed */
    uint32_t *innermost; /* by block position: loop index, or B3_NO_LOOP */
    uint32_t *slot;      /* by block position: index into order, or B3_NO_LOOP */
    B3Block **order;     /* the loops' blocks; each loop's are a contiguous slice */
} B3Loops;

#define B3_NO_LOOP UINT32_MAX

/* Finds the natural loops of p (malloc'd; release with b3_loops_free). */
void b3_loops_compute(B3Loops *l, const B3Proc *p, const B3Dominators *dom);
void b3_loops_free(B3Loops *l);

/* The innermost loop containing b, or NULL. */
static inline B3Loop *b3_loop_of(const B3Loops *l, const B3Block *b) {
    return b->pos < l->nblocks && l->innermost[b->pos] != B3_NO_LOOP ? &l->loops[l->innermost[b->pos]] : NULL;
}

/* How many loops contain b (0: none). */
static inline uint32_t b3_loop_depth(const B3Loops *l, const B3Block *b) {
    const B3Loop *loop = b3_loop_of(l, b);
    return loop ? loop->depth : 0;
}

/* Is b one of the loop's blocks (inner loops' included)? */
static inline bool b3_loop_contains(const B3Loops *l, const B3Loop *loop, const B3Block *b) {
    if (b->pos >= l->nblocks || l->slot[b->pos] == B3_NO_LOOP)
        return false;
    uint32_t first = (uint32_t)(loop->blocks - l->order);
    return l->slot[b->pos] - first < loop->nblocks;
}

/* Is inner nested in outer (or the same loop)? */
static inline bool b3_loop_contains_loop(const B3Loop *outer, const B3Loop *inner) {
    return inner->blocks >= outer->blocks && inner->blocks + inner->nblocks <= outer->blocks + outer->nblocks;
}

/* The loop's preheader if it has one: its only predecessor from outside the
 * loop, when that block's every successor is the header.  Code placed at its
 * end runs exactly once each time the loop is entered.  Needs current
 * predecessor lists (b3_proc_compute_preds). */
B3Block *b3_loop_preheader(const B3Loops *l, const B3Loop *loop);

/* Gives every loop of l that has none a preheader: a new block, placed just
 * before the header, that jumps to it and that every predecessor from outside
 * the loop now jumps to instead (back edges stay).  A root header gets one
 * too, which becomes the new root.  Phis and Upsilons need no change: an
 * Upsilon is a store to its Phi's location, so it may sit in any block that
 * reaches the Phi.  Recomputes predecessors; dominators and l are stale
 * afterwards.  Returns how many blocks were created. */
uint32_t b3_loops_ensure_preheaders(B3Module *m, B3Proc *p, const B3Loops *l);

/* Computes the dominators and loops of p after giving every loop a
 * preheader (both then current).  Returns whether blocks were created;
 * with no loop at all nothing is created and l->nloops is 0. */
bool b3_loops_compute_with_preheaders(B3Module *m, B3Proc *p, B3Dominators *dom, B3Loops *l);

/* Each Phi's Upsilons, for the Phis numbered by b3_proc_number_values
 * (p->values[phi->scratch] == phi, scratch < n): the first two of them, and
 * how many there are (3: more than two).  Values made after the numbering
 * have none. */
typedef struct {
    B3Value **ups; /* 2 per Phi */
    uint8_t *nups;
    uint32_t n;
} B3PhiUpsilons;

void b3_phi_upsilons_compute(B3PhiUpsilons *pu, const B3Proc *p, uint32_t n);
void b3_phi_upsilons_free(B3PhiUpsilons *pu);

/* A header Phi of loop that counts: exactly two Upsilons, one in the loop
 * (*step, the Upsilon of the next trip's value) and one outside it that runs
 * before every entry (*init: its block is in the loop around loop, and both
 * it and its input dominate the preheader pre). */
bool b3_loop_phi_init_and_step(const B3Loops *l, const B3Dominators *dom, const B3Loop *loop,
                               const B3Block *pre, const B3PhiUpsilons *pu, const B3Value *phi,
                               B3Value **init, B3Value **step);

#endif
