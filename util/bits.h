/* Integer facts every layer asks: powers of two, logarithms, alignment,
 * whether a value fits a narrower signed field. */
#ifndef B3_UTIL_BITS_H
#define B3_UTIL_BITS_H

#include <stdbool.h>
#include <stdint.h>

static inline bool b3_is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* floor(log2(x)) (for a power of two, its exponent); 0 for x = 0. */
static inline unsigned b3_log2_floor(uint64_t x) { return x ? 63u - (unsigned)__builtin_clzll(x) : 0; }

/* The least k with 2^k >= x (0 for x <= 1). */
static inline unsigned b3_log2_ceil(uint64_t x) {
    return x <= 1 ? 0 : 64u - (unsigned)__builtin_clzll(x - 1);
}

/* v rounded up to a multiple of a (any a; 0 and 1 leave v). */
static inline uint64_t b3_align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Does v fit a sign-extended 32-bit field? */
static inline bool b3_fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

#endif
