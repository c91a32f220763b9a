/* Shared preamble of the drivers gen_atomics.py writes (atomics-rmw, atomics-cas): a memory
 * cell between two canaries, sign extension from an access width, the FAIL-line checks of
 * the returned value and of the memory, and the initial memory values. */
#ifndef ATOMICS_COMMON_H
#define ATOMICS_COMMON_H
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

static int fails;
static const uint64_t CANARY = 0xa5a5a5a5a5a5a5a5ull;
static uint64_t cell[3];

static uint64_t mask(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
/* The low w bits of x, sign-extended. */
static int64_t sext(uint64_t x, int w) {
    if (w == 64)
        return (int64_t)x;
    x &= mask(w);
    uint64_t s = 1ull << (w - 1);
    return (int64_t)((x ^ s) - s);
}
/* A value as a T of `bits` bits (then widened back for comparison). */
static int64_t as_t(uint64_t x, int bits) { return bits == 32 ? (int64_t)(int32_t)x : (int64_t)x; }

static void set_cell(uint64_t v) {
    cell[0] = cell[2] = CANARY;
    cell[1] = v;
}
static void check_cell(const char *what, uint64_t m, uint64_t v, uint64_t want) {
    if (cell[1] != want || cell[0] != CANARY || cell[2] != CANARY) {
        printf("FAIL %s(mem %#" PRIx64 ", %#" PRIx64 "): memory %#" PRIx64 " (canaries %#" PRIx64 " %#" PRIx64
               "), expected %#" PRIx64 "\n", what, m, v, cell[1], cell[0], cell[2], want);
        fails++;
    }
}
static void check_val(const char *what, uint64_t m, uint64_t v, int64_t got, int64_t want) {
    if (got != want) {
        printf("FAIL %s(mem %#" PRIx64 ", %#" PRIx64 ") = %#" PRIx64 ", expected %#" PRIx64 "\n", what, m, v,
               (uint64_t)got, (uint64_t)want);
        fails++;
    }
}
static const uint64_t mems[] = {0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x12345678, 0x7fffffff,
                                0x80000000, 0xffffffff, 0x100000000ull, 0x8000000000000000ull,
                                0xdeadbeefcafebabeull, 0xffffffffffffff80ull, ~0ull};
#define NMEMS (sizeof mems / sizeof mems[0])
#endif
