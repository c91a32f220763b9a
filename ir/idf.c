/* Iterated dominance frontiers by a sparse DJ-graph walk (see idf.h). */
#include "ir/idf.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "util/alloc.h"

void b3_idf_init(B3IDF *idf, const B3Proc *p, const B3Dominators *dom) {
    uint32_t nb = p->nblocks;
    memset(idf, 0, sizeof *idf);
    idf->p = p;
    idf->dom = dom;
    idf->nblocks = nb;
    idf->depth = b3_xcalloc("idf", nb, sizeof(uint32_t));
    uint32_t **marks[] = {&idf->live, &idf->def, &idf->listed, &idf->index, &idf->walked, &idf->joined};
    for (unsigned i = 0; i < sizeof marks / sizeof marks[0]; i++)
        *marks[i] = b3_xcalloc("idf", nb, sizeof(uint32_t));
    idf->entries = b3_xcalloc("idf", nb, sizeof(B3IDFEntry));
    idf->stack = b3_xcalloc("idf", nb, sizeof(uint32_t));
    idf->heap = b3_xcalloc("idf", nb, sizeof(B3Block *));
    idf->result = b3_xcalloc("idf", nb, sizeof(B3Block *));
    /* Preorder puts each block after its immediate dominator. */
    for (uint32_t i = 0; i < dom->norder; i++) {
        const B3Block *b = dom->order[i];
        const B3Block *up = dom->idom[b->pos];
        if (up)
            idf->depth[b->pos] = idf->depth[up->pos] + 1;
    }
}

void b3_idf_free(B3IDF *idf) {
    free(idf->depth);
    free(idf->live);
    free(idf->def);
    free(idf->listed);
    free(idf->index);
    free(idf->walked);
    free(idf->joined);
    free(idf->entries);
    free(idf->stack);
    free(idf->heap);
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

static int by_key(const void *a, const void *b) {
    uint64_t x = ((const B3IDFEntry *)a)->key, y = ((const B3IDFEntry *)b)->key;
    return x < y ? -1 : x > y;
}

/* Adds b to the sorted entries (once; reachable blocks only). */
static uint32_t list(B3IDF *idf, B3Block *b, uint32_t n, uint32_t q) {
    if (!b3_block_reachable(idf->dom, b) || idf->listed[b->pos] == q)
        return n;
    idf->listed[b->pos] = q;
    idf->entries[n].key = (uint64_t)idf->dom->pre[b->pos] << 32 | b->pos;
    return n + 1;
}

uint32_t b3_idf_compute(B3IDF *idf, B3Block *const *defs, uint32_t ndefs, B3Block *const *live,
                        uint32_t nlive, B3Block *const **out) {
    const B3Dominators *dom = idf->dom;
    uint32_t q = ++idf->query;
    if (q == 0) { /* the stamps wrapped around: start afresh */
        uint32_t *marks[] = {idf->live, idf->def, idf->listed, idf->walked, idf->joined};
        for (unsigned i = 0; i < sizeof marks / sizeof marks[0]; i++)
            memset(marks[i], 0, idf->nblocks * sizeof(uint32_t));
        q = idf->query = 1;
    }
    /* The defining and live blocks in dominator preorder, each with the end
     * of its subtree's run (a stack of the open subtrees). */
    uint32_t n = 0;
    for (uint32_t i = 0; i < nlive; i++) {
        idf->live[live[i]->pos] = q;
        n = list(idf, live[i], n, q);
    }
    for (uint32_t i = 0; i < ndefs; i++) {
        idf->def[defs[i]->pos] = q;
        n = list(idf, defs[i], n, q);
    }
    if ((uint64_t)n * 16 < dom->norder) {
        if (n)
            qsort(idf->entries, n, sizeof(B3IDFEntry), by_key);
    } else { /* most blocks: the preorder itself is cheaper than sorting */
        n = 0;
        for (uint32_t i = 0; i < dom->norder; i++) {
            uint32_t pos = dom->order[i]->pos;
            if (idf->listed[pos] == q)
                idf->entries[n++].key = (uint64_t)dom->pre[pos] << 32 | pos;
        }
    }
    uint32_t sp = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t pos = (uint32_t)idf->entries[i].key;
        idf->index[pos] = i;
        while (sp && dom->post[pos] > dom->post[(uint32_t)idf->entries[idf->stack[sp - 1]].key])
            idf->entries[idf->stack[--sp]].end = i; /* not an ancestor: its subtree ended */
        idf->stack[sp++] = i;
    }
    while (sp)
        idf->entries[idf->stack[--sp]].end = n;

    uint32_t nheap = 0, nresult = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t pos = (uint32_t)idf->entries[i].key;
        if (idf->def[pos] == q)
            heap_push(idf, &nheap, idf->p->blocks[pos]);
    }
    while (nheap) {
        B3Block *root = heap_pop(idf, &nheap);
        uint32_t root_depth = idf->depth[root->pos];
        uint32_t first = idf->index[root->pos], end = idf->entries[first].end;
        for (uint32_t i = first; i < end;) {
            uint32_t pos = (uint32_t)idf->entries[i].key;
            if (i != first && idf->walked[pos] == q) {
                i = idf->entries[i].end; /* walked from a deeper root, with its subtree */
                continue;
            }
            idf->walked[pos] = q;
            i++;
            const B3Block *b = idf->p->blocks[pos];
            for (uint32_t k = 0; k < b->nsuccs; k++) {
                B3Block *s = b->succs[k].block;
                /* An edge to a block deeper than the root stays inside the
                 * root's dominance; a join is reported once. */
                if (idf->live[s->pos] != q || !b3_block_reachable(dom, s) ||
                    idf->depth[s->pos] > root_depth || idf->joined[s->pos] == q)
                    continue;
                idf->joined[s->pos] = q;
                idf->result[nresult++] = s;
                if (idf->def[s->pos] != q) /* a Phi defines it too; a defining block is queued already */
                    heap_push(idf, &nheap, s);
            }
        }
    }
    *out = idf->result;
    return nresult;
}
