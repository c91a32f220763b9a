/* Iterated dominance frontiers: where SSA construction places Phis.
 *
 * The IDF of a set of defining blocks is the least set of join points where
 * two definitions (or a definition and a Phi) meet.  Computed per query with
 * Sreedhar and Gao's DJ-graph walk, as LLVM's IDFCalculator does, without
 * materialising dominance frontiers (whose total size can be quadratic): the
 * definitions enter a priority queue by dominator-tree depth, deepest first;
 * from each, its dominator subtree is walked once, and every CFG edge from the
 * subtree to a block no deeper than the root is a join in the IDF, which
 * becomes a root in turn.  A block is walked at most once per query, so a
 * query costs the dominator subtrees below its definitions; the arrays are
 * shared by all queries (marks are stamped with the query's number).
 *
 * A filter prunes the answer (pruned SSA: only where the variable is live):
 * a join it rejects is neither reported nor explored from.
 *
 * Built on ir/dominators.h; the same position rules apply
 * (proc->blocks[i]->pos == i, stale after any change to blocks or edges).
 * Unreachable blocks are never reported. */
#ifndef B3_IDF_H
#define B3_IDF_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/dominators.h"
#include "ir/ir.h"

typedef struct {
    const B3Proc *p;
    const B3Dominators *dom;
    uint32_t nblocks;
    uint32_t *depth; /* by position: depth in the dominator tree (root 0) */
    uint32_t
        *kid_start; /* by position: its dominator-tree children are kids[kid_start[i] .. kid_start[i+1]) */
    B3Block **kids;
    uint32_t *walked, *joined; /* by position: the query that walked / reported (or queued) it */
    uint32_t query;
    B3Block **heap, **work, **result; /* each at most nblocks long */
} B3IDF;

/* Prepares queries over p's dominator tree (which must outlive idf). */
void b3_idf_init(B3IDF *idf, const B3Proc *p, const B3Dominators *dom);
void b3_idf_free(B3IDF *idf);

/* The dominator-tree children of b (reachable b only). */
static inline uint32_t b3_idf_dom_kids(const B3IDF *idf, const B3Block *b, B3Block *const **out) {
    *out = idf->kids + idf->kid_start[b->pos];
    return idf->kid_start[b->pos + 1] - idf->kid_start[b->pos];
}

/* The IDF of the ndefs blocks defs (duplicates and unreachable blocks are
 * ignored), keeping only blocks for which keep(b, ctx) is true (keep may be
 * NULL: all).  *out points into idf and is valid until the next query;
 * returns its length.  The order is deterministic. */
uint32_t b3_idf_compute(B3IDF *idf, B3Block *const *defs, uint32_t ndefs,
                        bool (*keep)(const B3Block *b, void *ctx), void *ctx, B3Block *const **out);

#endif
