/* How often each value is used (B3's UseCounts).
 *
 * Computed in one pass over the values placed in blocks, into phase-local
 * arrays indexed by the dense ids of b3_proc_number_values (v->scratch):
 *   uses      child slots that hold v (Add(@1, @1) uses @1 twice);
 *   users     distinct values with v among their children (once for that Add);
 *   upsilons  for a Phi, how many Upsilons write it.  An Upsilon names its
 *             Phi outside the children (B3's model: a store to the Phi's
 *             location), so the Phi's uses do not count Upsilons, and the
 *             Upsilon's child is counted like any child.
 * Stale as soon as the IR changes. */
#ifndef B3_USE_COUNTS_H
#define B3_USE_COUNTS_H

#include <stdint.h>

#include "ir/ir.h"

typedef struct {
    uint32_t *uses, *users, *upsilons;
    uint32_t nvalues;
} B3UseCounts;

/* Numbers p's values (b3_proc_number_values) and counts their uses. */
void b3_use_counts_compute(B3UseCounts *uc, B3Proc *p);
void b3_use_counts_free(B3UseCounts *uc);

static inline uint32_t b3_use_count(const B3UseCounts *uc, const B3Value *v) { return uc->uses[v->scratch]; }
static inline uint32_t b3_user_count(const B3UseCounts *uc, const B3Value *v) {
    return uc->users[v->scratch];
}
static inline uint32_t b3_upsilon_count(const B3UseCounts *uc, const B3Value *phi) {
    return uc->upsilons[phi->scratch];
}

#endif
