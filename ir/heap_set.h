/* A small set of abstract heap ranges (B3's RangeSet<HeapRange>).
 *
 * What a block or a loop writes, as a few disjoint ranges, so that a store
 * to heap 3 and one to heap 1000 do not make a load of heap 500 look
 * clobbered.  The set holds at most B3_HEAP_SET_MAX ranges: past that the
 * two closest merge into one covering both, so the set only ever grows into
 * a superset of what was added (overlap answers stay conservative) and every
 * operation is O(1).  No allocation; a zeroed set is empty. */
#ifndef B3_HEAP_SET_H
#define B3_HEAP_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/effects.h"

#define B3_HEAP_SET_MAX 4

typedef struct {
    B3HeapRange r[B3_HEAP_SET_MAX];
    uint32_t n;
} B3HeapSet;

static inline bool b3_heap_set_overlaps(const B3HeapSet *s, B3HeapRange r) {
    for (uint32_t i = 0; i < s->n; i++)
        if (b3_heap_overlaps(s->r[i], r))
            return true;
    return false;
}

static inline bool b3_heap_set_is_empty(const B3HeapSet *s) { return s->n == 0; }

/* Adds r, merging the ranges it overlaps or touches. */
static inline void b3_heap_set_add(B3HeapSet *s, B3HeapRange r) {
    if (b3_heap_is_bottom(r))
        return;
    /* Absorb every range r overlaps or touches; the rest stay. */
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->r[i].begin <= r.end && r.begin <= s->r[i].end)
            r = b3_heap_union(r, s->r[i]);
        else
            s->r[k++] = s->r[i];
    }
    s->n = k;
    if (s->n == B3_HEAP_SET_MAX) {
        /* Full: merge r into the range nearest to it (a superset). */
        uint32_t best = 0;
        uint64_t best_gap = UINT64_MAX;
        for (uint32_t i = 0; i < s->n; i++) {
            uint64_t gap = s->r[i].end < r.begin ? r.begin - s->r[i].end : s->r[i].begin - r.end;
            if (gap < best_gap) {
                best_gap = gap;
                best = i;
            }
        }
        s->r[best] = b3_heap_union(s->r[best], r);
        return;
    }
    s->r[s->n++] = r;
}

static inline void b3_heap_set_add_all(B3HeapSet *s, const B3HeapSet *o) {
    for (uint32_t i = 0; i < o->n; i++)
        b3_heap_set_add(s, o->r[i]);
}

#endif
