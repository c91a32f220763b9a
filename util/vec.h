/* Growable malloc'ed arrays: one way to make room, so no file doubles a
 * capacity by hand.  An array is three lvalues of the caller's own types: the
 * pointer, the count and the capacity (any unsigned integer types).  Growth
 * doubles (from 16), so pushes are amortized O(1); the memory comes from
 * util/alloc.h, so running out is an internal error in the given phase.  As
 * with realloc, no pointer into the array may be kept across a growth. */
#ifndef B3_UTIL_VEC_H
#define B3_UTIL_VEC_H

#include <stddef.h>
#include <string.h>

#include "util/alloc.h"

/* The capacity to grow cap to so that need items fit: cap (or 16) doubled
 * until it holds need (util/alloc.c). */
size_t b3_vec_capacity(size_t cap, size_t need);

/* Makes room for need items in (a, cap). */
#define B3_VEC_RESERVE(phase, a, cap, need)                           \
    do {                                                              \
        if ((size_t)(need) > (size_t)(cap)) {                         \
            size_t b3_vec_c_ = b3_vec_capacity((cap), (need));        \
            (a) = b3_xrealloc((phase), (a), b3_vec_c_ * sizeof *(a)); \
            (cap) = b3_vec_c_;                                        \
        }                                                             \
    } while (0)

/* As B3_VEC_RESERVE, and the items from the old capacity on are zeroed. */
#define B3_VEC_RESERVE_ZEROED(phase, a, cap, need)                                \
    do {                                                                          \
        if ((size_t)(need) > (size_t)(cap)) {                                     \
            size_t b3_vec_o_ = (cap), b3_vec_c_ = b3_vec_capacity((cap), (need)); \
            (a) = b3_xrealloc((phase), (a), b3_vec_c_ * sizeof *(a));             \
            memset((a) + b3_vec_o_, 0, (b3_vec_c_ - b3_vec_o_) * sizeof *(a));    \
            (cap) = b3_vec_c_;                                                    \
        }                                                                         \
    } while (0)

/* Appends x to (a, n, cap). */
#define B3_VEC_PUSH(phase, a, n, cap, x)                      \
    do {                                                      \
        B3_VEC_RESERVE((phase), (a), (cap), (size_t)(n) + 1); \
        (a)[(n)++] = (x);                                     \
    } while (0)

#endif
