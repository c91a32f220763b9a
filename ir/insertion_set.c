/* Inserting values into a block in one pass (ir/insertion_set.h). */
#include "ir/insertion_set.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "util/alloc.h"
#include "util/vec.h"

void b3_insertion_set_init(B3InsertionSet *s, B3Module *m, B3Proc *p) {
    memset(s, 0, sizeof *s);
    s->m = m;
    s->p = p;
}

void b3_insertion_set_free(B3InsertionSet *s) {
    free(s->items);
    s->items = NULL;
    s->n = s->cap = 0;
}

B3Value *b3_insertion_set_insert(B3InsertionSet *s, uint32_t index, B3Value *v) {
    B3_VEC_RESERVE("insertion_set", s->items, s->cap, s->n + 1);
    s->items[s->n++] = (B3Insertion){index, v};
    return v;
}

B3Value *b3_insertion_set_insert_new(B3InsertionSet *s, uint32_t index, B3Opcode op, B3Type type,
                                     uint32_t nkids, const B3Value *origin) {
    B3Value *v = b3_value_new(s->m, s->p, op, type, nkids, UINT32_MAX);
    if (origin) {
        v->loc = origin->loc;
        v->type_loc = origin->loc;
    }
    return b3_insertion_set_insert(s, index, v);
}

B3Value *b3_insertion_set_insert_int_const(B3InsertionSet *s, uint32_t index, const B3Value *origin,
                                           B3Type type, int64_t value) {
    B3Value *v =
        b3_insertion_set_insert_new(s, index, type == B3_Int32 ? B3_Const32 : B3_Const64, type, 0, origin);
    v->m.c.i = type == B3_Int32 ? (int64_t)(int32_t)value : value;
    return v;
}

B3Value *b3_insertion_set_insert_bottom(B3InsertionSet *s, uint32_t index, const B3Value *origin,
                                        B3Type type) {
    static const B3Opcode zero_of[B3_NUM_TYPES] = {[B3_Int32] = B3_Const32,
                                                   [B3_Int64] = B3_Const64,
                                                   [B3_Float] = B3_ConstFloat,
                                                   [B3_Double] = B3_ConstDouble};
    if (type == B3_Void || type >= B3_NUM_TYPES)
        b3_internal_error_at(NULL, origin, "no bottom value of type %s", b3_type_name(type));
    return b3_insertion_set_insert_new(s, index, zero_of[type], type, 0, origin); /* meta is zeroed: 0 */
}

/* Stable sort by index.  Phases mostly insert in index order, so check that
 * first; otherwise a merge sort (stable, O(n log n)). */
static void sort_insertions(B3Insertion *a, uint32_t n) {
    uint32_t i = 1;
    while (i < n && a[i - 1].index <= a[i].index)
        i++;
    if (i >= n)
        return;
    B3Insertion *tmp = b3_xmalloc("insertion_set", n * sizeof *tmp);
    B3Insertion *src = a, *dst = tmp;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t l = lo, r = mid, k = lo;
            while (l < mid && r < hi)
                dst[k++] = src[r].index < src[l].index ? src[r++] : src[l++];
            while (l < mid)
                dst[k++] = src[l++];
            while (r < hi)
                dst[k++] = src[r++];
        }
        B3Insertion *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    free(tmp);
}

bool b3_insertion_set_execute(B3InsertionSet *s, B3Block *b) {
    if (!s->n)
        return false;
    sort_insertions(s->items, s->n);
    if (s->items[s->n - 1].index > b->nvalues)
        b3_internal_error_at(NULL, s->items[s->n - 1].value,
                             "inserted at index %u of block #%u, which has %u values",
                             s->items[s->n - 1].index, b->index, b->nvalues);
    uint32_t total = b->nvalues + s->n;
    if (total > b->cap_values)
        b->values = b3_arena_grow(&s->m->arena, b->values, sizeof(B3Value *), &b->cap_values, total);
    /* Merge from the back, in place: each original value moves at most once. */
    uint32_t src = b->nvalues, dst = total;
    for (uint32_t k = s->n; k-- > 0;) {
        while (src > s->items[k].index)
            b->values[--dst] = b->values[--src];
        b->values[--dst] = s->items[k].value;
        s->items[k].value->owner = b;
    }
    b->nvalues = total;
    s->n = 0;
    return true;
}
