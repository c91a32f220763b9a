/* Iterated dominance frontiers by a DJ-graph walk (see idf.h). */
#include "ir/idf.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p)
        b3_internal_error("idf", "out of memory");
    return p;
}

void b3_idf_init(B3IDF *idf, const B3Proc *p, const B3Dominators *dom) {
    uint32_t nb = p->nblocks;
    memset(idf, 0, sizeof *idf);
    idf->p = p;
    idf->dom = dom;
    idf->nblocks = nb;
    idf->depth = xcalloc(nb, sizeof(uint32_t));
    idf->kid_start = xcalloc(nb + 1, sizeof(uint32_t));
    idf->kids = xcalloc(nb, sizeof(B3Block *));
    idf->walked = xcalloc(nb, sizeof(uint32_t));
    idf->joined = xcalloc(nb, sizeof(uint32_t));
    idf->heap = xcalloc(nb, sizeof(B3Block *));
    idf->work = xcalloc(nb, sizeof(B3Block *));
    idf->result = xcalloc(nb, sizeof(B3Block *));
    /* Preorder puts each block after its immediate dominator: depths in one
     * pass, then the children in CSR form (in preorder, for determinism). */
    for (uint32_t i = 0; i < dom->norder; i++) {
        const B3Block *b = dom->order[i];
        const B3Block *up = dom->idom[b->pos];
        if (up) {
            idf->depth[b->pos] = idf->depth[up->pos] + 1;
            idf->kid_start[up->pos + 1]++;
        }
    }
    for (uint32_t i = 0; i < nb; i++)
        idf->kid_start[i + 1] += idf->kid_start[i];
    uint32_t *fill = xcalloc(nb, sizeof(uint32_t));
    for (uint32_t i = 0; i < dom->norder; i++) {
        B3Block *b = dom->order[i];
        const B3Block *up = dom->idom[b->pos];
        if (up)
            idf->kids[idf->kid_start[up->pos] + fill[up->pos]++] = b;
    }
    free(fill);
}

void b3_idf_free(B3IDF *idf) {
    free(idf->depth);
    free(idf->kid_start);
    free(idf->kids);
    free(idf->walked);
    free(idf->joined);
    free(idf->heap);
    free(idf->work);
    free(idf->result);
    memset(idf, 0, sizeof *idf);
}

/* The queue's order: deeper first, then earlier in dominator preorder (only
 * for a deterministic answer). */
static bool before(const B3IDF *idf, const B3Block *a, const B3Block *b) {
    uint32_t da = idf->depth[a->pos], db = idf->depth[b->pos];
    if (da != db)
        return da > db;
    return idf->dom->pre[a->pos] < idf->dom->pre[b->pos];
}

static void heap_push(B3IDF *idf, uint32_t *n, B3Block *b) {
    uint32_t i = (*n)++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!before(idf, b, idf->heap[up]))
            break;
        idf->heap[i] = idf->heap[up];
        i = up;
    }
    idf->heap[i] = b;
}

static B3Block *heap_pop(B3IDF *idf, uint32_t *n) {
    B3Block *top = idf->heap[0];
    B3Block *last = idf->heap[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t kid = 2 * i + 1;
        if (kid >= *n)
            break;
        if (kid + 1 < *n && before(idf, idf->heap[kid + 1], idf->heap[kid]))
            kid++;
        if (!before(idf, idf->heap[kid], last))
            break;
        idf->heap[i] = idf->heap[kid];
        i = kid;
    }
    if (*n)
        idf->heap[i] = last;
    return top;
}

uint32_t b3_idf_compute(B3IDF *idf, B3Block *const *defs, uint32_t ndefs,
                        bool (*keep)(const B3Block *b, void *ctx), void *ctx, B3Block *const **out) {
    const B3Dominators *dom = idf->dom;
    uint32_t q = ++idf->query;
    if (q == 0) { /* the stamps wrapped around: start afresh */
        memset(idf->walked, 0, idf->nblocks * sizeof(uint32_t));
        memset(idf->joined, 0, idf->nblocks * sizeof(uint32_t));
        q = idf->query = 1;
    }
    uint32_t nheap = 0, nresult = 0;
    /* A definition is walked from itself only: a shallower root's walk stops
     * at it, since its deeper joins were found from it already. */
    for (uint32_t i = 0; i < ndefs; i++) {
        B3Block *d = defs[i];
        if (!b3_block_reachable(dom, d) || idf->walked[d->pos] == q)
            continue;
        idf->walked[d->pos] = q;
        heap_push(idf, &nheap, d);
    }
    while (nheap) {
        B3Block *root = heap_pop(idf, &nheap);
        uint32_t root_depth = idf->depth[root->pos];
        uint32_t nwork = 0;
        idf->work[nwork++] = root;
        while (nwork) {
            B3Block *b = idf->work[--nwork];
            for (uint32_t i = 0; i < b->nsuccs; i++) {
                B3Block *s = b->succs[i].block;
                /* An edge to a block deeper than the root stays inside the
                 * root's dominance; a join is reported once. */
                if (!b3_block_reachable(dom, s) || idf->depth[s->pos] > root_depth ||
                    idf->joined[s->pos] == q)
                    continue;
                idf->joined[s->pos] = q;
                if (keep && !keep(s, ctx))
                    continue;
                idf->result[nresult++] = s;
                /* A Phi is a definition too; a defining block is queued already. */
                if (idf->walked[s->pos] != q) {
                    idf->walked[s->pos] = q;
                    heap_push(idf, &nheap, s);
                }
            }
            B3Block *const *kids;
            uint32_t nkids = b3_idf_dom_kids(idf, b, &kids);
            for (uint32_t i = 0; i < nkids; i++)
                if (idf->walked[kids[i]->pos] != q) {
                    idf->walked[kids[i]->pos] = q;
                    idf->work[nwork++] = kids[i];
                }
        }
    }
    *out = idf->result;
    return nresult;
}
