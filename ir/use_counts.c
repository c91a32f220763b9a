/* Use counts (ir/use_counts.h). */
#include "ir/use_counts.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "util/alloc.h"

static uint32_t *zeroed(uint32_t n) {
    uint32_t *a = b3_xcalloc("use_counts", n ? n : 1, sizeof *a);
    return a;
}

void b3_use_counts_compute(B3UseCounts *uc, B3Proc *p) {
    uint32_t n = b3_proc_number_values(p);
    uc->nvalues = n;
    uc->uses = zeroed(n);
    uc->users = zeroed(n);
    uc->upsilons = zeroed(n);
    /* last_user[c] = 1 + the id of the last value counted as a user of c:
     * distinct users without sorting each value's children. */
    uint32_t *last_user = zeroed(n);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        const B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            const B3Value *v = b->values[i];
            for (uint32_t k = 0; k < v->nkids; k++) {
                uint32_t c = v->kids[k]->scratch;
                if (c >= n || p->values[c] != v->kids[k])
                    b3_internal_error_at(NULL, v, "uses @%u, which is not in the procedure",
                                         v->kids[k]->index);
                uc->uses[c]++;
                if (last_user[c] != v->scratch + 1) {
                    last_user[c] = v->scratch + 1;
                    uc->users[c]++;
                }
            }
            if (v->opcode == B3_Upsilon && v->m.phi && v->m.phi->scratch < n &&
                p->values[v->m.phi->scratch] == v->m.phi)
                uc->upsilons[v->m.phi->scratch]++;
        }
    }
    free(last_user);
}

void b3_use_counts_free(B3UseCounts *uc) {
    free(uc->uses);
    free(uc->users);
    free(uc->upsilons);
    memset(uc, 0, sizeof *uc);
}
