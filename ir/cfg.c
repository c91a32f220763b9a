/* CFG utilities. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "util/alloc.h"

/* b is one of p's blocks (their positions are up to date): a test of the
 * position, not a search of the block map. */
static bool in_proc(const B3Proc *p, const B3Block *b) {
    return b && b->pos < p->nblocks && p->blocks[b->pos] == b;
}

void b3_proc_remove_unreachable(B3Module *m, B3Proc *p) {
    if (!p->nblocks)
        return;
    /* Depth-first from the root with an explicit stack. */
    uint8_t *seen = b3_xcalloc("cfg", p->nblocks, 1);
    B3Block **stack = b3_xmalloc("cfg", p->nblocks * sizeof *stack);
    uint32_t sp = 0;
    stack[sp++] = p->blocks[0];
    seen[0] = 1;
    while (sp) {
        B3Block *b = stack[--sp];
        for (uint32_t i = 0; i < b->nsuccs; i++) {
            B3Block *s = b->succs[i].block;
            if (!seen[s->pos]) {
                seen[s->pos] = 1;
                stack[sp++] = s;
            }
        }
    }
    uint32_t n = 0;
    bool dropped = false;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        if (seen[i]) {
            p->blocks[n] = p->blocks[i];
            p->blocks[n]->pos = n;
            n++;
        } else {
            dropped = true;
        }
    }
    free(seen);
    free(stack);
    if (!dropped)
        return;
    p->nblocks = n;
    /* Rebuild the maps and the value list without the dropped blocks. */
    b3_nummap_clear(&p->block_map, &p->arena, n);
    for (uint32_t i = 0; i < n; i++)
        b3_nummap_put(&p->block_map, &p->arena, p->blocks[i]->index, p->blocks[i]);
    uint32_t nv = 0;
    bool rebuild = false; /* the value map is a table: it is built again */
    for (uint32_t i = 0; i < p->nvalues; i++) {
        B3Value *v = p->values[i];
        if (!in_proc(p, v->owner)) {
            if (!rebuild)
                rebuild = !b3_nummap_remove_dense(&p->value_map, v->index, v);
            continue;
        }
        p->values[nv++] = v;
        /* An Upsilon in a kept block may feed a Phi that was dropped: it
         * stores to nothing, and printing it would name a value that no
         * longer exists.  It becomes a Nop, as in B3's resetReachability. */
        if (v->opcode == B3_Upsilon && v->m.phi && !in_proc(p, v->m.phi->owner)) {
            v->opcode = B3_Nop;
            v->type = B3_Void;
            v->nkids = 0;
            v->kid_locs = NULL;
            v->m.phi = NULL;
        }
    }
    p->nvalues = nv;
    if (rebuild) {
        b3_nummap_clear(&p->value_map, &p->arena, nv);
        for (uint32_t i = 0; i < nv; i++)
            b3_nummap_put(&p->value_map, &p->arena, p->values[i]->index, p->values[i]);
    }
    b3_proc_compute_preds(m, p);
}
