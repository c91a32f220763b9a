/* Driver for ../exec.b3: each procedure against the same computation in C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int64_t f1(int64_t, int64_t);
int32_t f2(int32_t, int32_t);
int32_t f3(int32_t, int32_t);
int32_t f4(int32_t);

static int fails;

static int64_t f1_c(int64_t a, int64_t b) {
    return a == 5 ? (int64_t)((uint64_t)a * (uint64_t)b) : b != 9 ? a : (int64_t)((uint64_t)a + (uint64_t)b);
}
static int32_t f2_c(int32_t a, int32_t b) { return (int32_t)((uint32_t)b - (uint32_t)a); }
static int32_t f3_c(int32_t x, int32_t y) {
    switch (x) {
    case 3: return (int32_t)((uint32_t)x + (uint32_t)y);
    case 4:
    case 7: return (int32_t)((uint32_t)x * (uint32_t)y);
    case -1: return (int32_t)((uint32_t)x << 3);
    default: return (int32_t)((uint32_t)x - (uint32_t)y);
    }
}

int main(void) {
    const int64_t v[] = {0, 1, -1, 4, 5, 6, 9, 10, INT64_MIN, INT64_MAX};
    for (unsigned i = 0; i < 10; i++)
        for (unsigned j = 0; j < 10; j++) {
            if (f1(v[i], v[j]) != f1_c(v[i], v[j])) {
                printf("FAIL f1(%" PRId64 ", %" PRId64 ")\n", v[i], v[j]);
                fails++;
            }
            int32_t a = (int32_t)v[i], b = (int32_t)v[j];
            if (f2(a, b) != f2_c(a, b)) {
                printf("FAIL f2(%" PRId32 ", %" PRId32 ")\n", a, b);
                fails++;
            }
        }
    for (int32_t x = -3; x < 10; x++)
        for (int32_t y = -2; y < 3; y++)
            if (f3(x, y) != f3_c(x, y)) {
                printf("FAIL f3(%" PRId32 ", %" PRId32 ")\n", x, y);
                fails++;
            }
    for (int32_t n = 1; n < 50; n++)
        if (f4(n) != 3 * n) {
            printf("FAIL f4(%" PRId32 ")\n", n);
            fails++;
        }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
