/* Driver for ../exec.b3: each procedure against the same computation in C. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int32_t zero_trip(int32_t *, int32_t);
int32_t guarded_div(int32_t, int32_t, int32_t);
int64_t header_load(int64_t *, int64_t *, int32_t);
int64_t nested(int64_t, int64_t, int32_t);
int64_t call_loop(int64_t *, void (*)(int64_t *), int32_t);

static int fails;
#define CHECK_EQ(fmt, got, want)                                                                       \
    do {                                                                                               \
        if ((got) != (want)) {                                                                         \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);                         \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

static void bump(int64_t *p) { *p = *p * 2 + 1; }

int main(void) {
    int32_t v = 7;
    CHECK_EQ("%d", zero_trip(NULL, 0), 0); /* the load must not run */
    CHECK_EQ("%d", zero_trip(&v, 5), 105);
    CHECK_EQ("%d", guarded_div(10, 0, 4), 0); /* the division must not run */
    CHECK_EQ("%d", guarded_div(10, 3, 4), 3 * 4 + 6);
    for (int alias = 0; alias < 2; alias++)
        for (int32_t n = 1; n < 5; n++) {
            int64_t m[2] = {5, 100}, other = 0, *q = alias ? &m[0] : &other;
            int64_t c[2] = {5, 100}, cother = 0, *cq = alias ? &c[0] : &cother, want = 0;
            for (int32_t k = n; k > 0; k--) {
                want += c[0] + c[1];
                *cq += 2;
            }
            CHECK_EQ("%" PRId64, header_load(m, q, n), want);
        }
    for (int32_t n = 0; n < 5; n++) {
        int64_t a = 123456789, b = -987, want = 0;
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = 0; j < n; j++)
                want += (int64_t)((uint64_t)a * (uint64_t)b + (uint64_t)i) ^ (int64_t)((uint64_t)j * (uint64_t)(a - b));
        CHECK_EQ("%" PRId64, nested(a, b, n), want);
    }
    int64_t p = 1;
    CHECK_EQ("%" PRId64, call_loop(&p, bump, 4), 1 + 3 + 7 + 15);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
