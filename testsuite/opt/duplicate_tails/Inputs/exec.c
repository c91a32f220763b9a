/* Driver for ../exec.b3: each procedure against the same computation in C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int64_t sel(int64_t, int64_t);
int64_t branchy(int64_t, int64_t);
int32_t loop(int32_t);

static int fails;

static int64_t sel_c(int64_t a, int64_t b) { return (int64_t)((uint64_t)(a ? (uint64_t)a + (uint64_t)b : (uint64_t)a * (uint64_t)b) + (uint64_t)b); }

static int64_t branchy_c(int64_t a, int64_t b) {
    uint64_t t = a ? (uint64_t)a + (uint64_t)b : (uint64_t)a - (uint64_t)b;
    uint64_t m = t * t;
    return m ? (int64_t)(m + (uint64_t)a) : b;
}

static int32_t loop_c(int32_t n) {
    uint32_t s = 0;
    for (int32_t i = 0; i < n; i++)
        s += (i & 1) ? 3u * (uint32_t)i : (uint32_t)i;
    return (int32_t)s;
}

int main(void) {
    const int64_t v[] = {0, 1, -1, 2, 7, -3, 1000, INT64_MIN, INT64_MAX};
    for (unsigned i = 0; i < 9; i++)
        for (unsigned j = 0; j < 9; j++) {
            if (sel(v[i], v[j]) != sel_c(v[i], v[j])) {
                printf("FAIL sel(%" PRId64 ", %" PRId64 ")\n", v[i], v[j]);
                fails++;
            }
            if (branchy(v[i], v[j]) != branchy_c(v[i], v[j])) {
                printf("FAIL branchy(%" PRId64 ", %" PRId64 ")\n", v[i], v[j]);
                fails++;
            }
        }
    for (int32_t n = -2; n < 40; n++)
        if (loop(n) != loop_c(n)) {
            printf("FAIL loop(%" PRId32 ") = %" PRId32 "\n", n, loop(n));
            fails++;
        }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
