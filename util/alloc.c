/* Allocation that never returns NULL (util/alloc.h). */
#include "util/alloc.h"

#include <stdlib.h>

void *b3_xmalloc(const char *phase, size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p)
        b3_out_of_memory(phase);
    return p;
}

void *b3_xcalloc(const char *phase, size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        b3_out_of_memory(phase);
    return p;
}

void *b3_xrealloc(const char *phase, void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q)
        b3_out_of_memory(phase);
    return q;
}

size_t b3_vec_capacity(size_t cap, size_t need) {
    size_t c = cap ? cap : 16;
    while (c < need) {
        if (c > (size_t)-1 / 2)
            b3_out_of_memory(NULL);
        c *= 2;
    }
    return c;
}
