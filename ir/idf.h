/* Iterated dominance frontiers, pruned by liveness: where SSA construction
 * places the Phis of one variable.
 *
 * The IDF of a set of defining blocks is the least set of join points where
 * two definitions (or a definition and a Phi) meet; pruned SSA keeps only
 * the joins where the variable is live on entry.  Computed per query with
 * Sreedhar and Gao's DJ-graph walk, as LLVM's IDFCalculator does: the
 * definitions enter a priority queue by dominator-tree depth, deepest first;
 * from each, its dominator subtree is walked once, and every CFG edge from
 * the subtree to a live block no deeper than the root is a join, which
 * becomes a root in turn.
 *
 * Unlike the plain walk, which may cross the whole dominator tree below a
 * definition (quadratic over many variables of a long procedure), the walk
 * visits only the defining and live blocks: an edge into a live block leaves
 * a block where the variable is live on exit, which is therefore live on
 * entry or defines it.  Those blocks are sorted by dominator-tree preorder,
 * so each subtree is a contiguous run; a query costs O(k log k + their
 * edges) for its k defining and live blocks.  The arrays are shared by all
 * queries (marks are stamped with the query's number).
 *
 * Built on ir/dominators.h; the same position rules apply
 * (proc->blocks[i]->pos == i, stale after any change to blocks or edges).
 * Unreachable blocks are ignored and never reported. */
#ifndef B3_IDF_H
#define B3_IDF_H

#include <stdint.h>

#include "ir/dominators.h"
#include "ir/ir.h"

typedef struct {
    uint64_t key; /* dominator preorder number << 32 | block position */
    uint32_t end; /* one past the last entry of its dominator subtree */
} B3IDFEntry;

typedef struct {
    const B3Proc *p;
    const B3Dominators *dom;
    uint32_t nblocks;
    uint32_t *depth; /* by position: depth in the dominator tree (root 0) */
    /* By position, stamped with the query: live, defining, among the sorted
     * entries (at index[pos]), walked, reported or queued. */
    uint32_t *live, *def, *listed, *index, *walked, *joined;
    uint32_t query;
    B3IDFEntry *entries;
    uint32_t *stack;
    B3Block **heap, **result;
} B3IDF;

/* Prepares queries over p's dominator tree (which must outlive idf). */
void b3_idf_init(B3IDF *idf, const B3Proc *p, const B3Dominators *dom);
void b3_idf_free(B3IDF *idf);

/* The blocks of the IDF of the ndefs blocks defs where the variable is live
 * on entry, given as the nlive blocks live (each list may hold duplicates).
 * *out points into idf and is valid until the next query; returns its
 * length.  The order is deterministic. */
uint32_t b3_idf_compute(B3IDF *idf, B3Block *const *defs, uint32_t ndefs, B3Block *const *live,
                        uint32_t nlive, B3Block *const **out);

#endif
