/* Driver for ../exec-check-misc.b3. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int32_t sum(const int32_t *, int64_t);
int64_t countdown(int64_t *);
int32_t switchy(int64_t);
int32_t always(int64_t);
int32_t never(int64_t);
double dbl(double, double);
void void_mul(int64_t, int64_t);

static int fails, ncalls;
static int64_t got[4];
static double gotd[2];
#define CHECK_EQ(fmt, a, b)                                               \
    do {                                                                  \
        if ((a) != (b)) {                                                 \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, a, b); \
            fails++;                                                      \
        }                                                                 \
    } while (0)

int32_t sum_exit(int32_t acc, int32_t x, int64_t i) {
    return ncalls++, got[0] = acc, got[1] = x, got[2] = i, -1;
}
int64_t count_exit(int64_t i, int32_t k, int64_t j) {
    return ncalls++, got[0] = i, got[1] = k, got[2] = j, 1000;
}
int32_t sw_exit(int32_t x, int32_t k) { return ncalls++, got[0] = x, got[1] = k, -20000; }
int32_t const_exit(int64_t x, float f, double d) {
    ncalls++, got[0] = x, gotd[0] = f, gotd[1] = d;
    return -3;
}
double dbl_exit(double b, double a) { return ncalls++, gotd[0] = b, gotd[1] = a, 0.5; }
void void_exit(int64_t a, int64_t b, int64_t c) { ncalls++, got[0] = a, got[1] = b, got[2] = c; }

int main(void) {
    /* Checked sums: the exit gets the sum so far, the element and its index. */
    int32_t xs[] = {5, 7, INT32_MAX - 30, 10, 3, 100};
    ncalls = 0;
    CHECK_EQ("%d", sum(xs, 2), 12);
    CHECK_EQ("%d", sum(xs, 0), 0);
    CHECK_EQ("%d", sum(xs, 5), INT32_MAX - 30 + 25);
    CHECK_EQ("%d", ncalls, 0);
    CHECK_EQ("%d", sum(xs, 6), -1);
    CHECK_EQ("%d", ncalls, 1);
    CHECK_EQ("%" PRId64, got[0], (int64_t)(INT32_MAX - 5));
    CHECK_EQ("%" PRId64, got[1], (int64_t)100);
    CHECK_EQ("%" PRId64, got[2], (int64_t)5);

    /* countdown(&n): counts *n down to 0, exiting when it is 3. */
    ncalls = 0;
    int64_t n = 2;
    CHECK_EQ("%" PRId64, countdown(&n), (int64_t)0);
    n = 1;
    CHECK_EQ("%" PRId64, countdown(&n), (int64_t)0);
    CHECK_EQ("%d", ncalls, 0);
    n = 10;
    CHECK_EQ("%" PRId64, countdown(&n), (int64_t)1000);
    CHECK_EQ("%" PRId64, n, (int64_t)3);
    CHECK_EQ("%d", ncalls, 1);
    CHECK_EQ("%" PRId64, got[0], (int64_t)3);
    CHECK_EQ("%" PRId64, got[1], (int64_t)77);
    CHECK_EQ("%" PRId64, got[2], (int64_t)3);

    /* switchy(x): exits below -5, above 1000, or when x * 100 overflows (never in range). */
    for (int32_t x = -8; x <= 1003; x++) {
        ncalls = 0;
        int32_t want = x < -5 || x > 1000 ? -20000
                       : x == 0 || x == 3 ? 10
                       : x == 1 || x == 4 ? 20
                       : x == 2           ? 30
                                          : x;
        CHECK_EQ("%d", switchy(x), want);
        CHECK_EQ("%d", ncalls, want == -20000);
        if (want == -20000) {
            CHECK_EQ("%" PRId64, got[0], (int64_t)x);
        }
    }

    ncalls = 0;
    CHECK_EQ("%d", always(42), -3);
    CHECK_EQ("%d", ncalls, 1);
    CHECK_EQ("%" PRId64, got[0], (int64_t)42);
    CHECK_EQ("%g", gotd[0], 2.5);
    CHECK_EQ("%d", signbit(gotd[1]) && gotd[1] == 0.0, 1);
    ncalls = 0;
    CHECK_EQ("%d", never(42), 6);
    CHECK_EQ("%d", ncalls, 0);

    ncalls = 0;
    CHECK_EQ("%g", dbl(1.0, 3.0), 2.0);
    CHECK_EQ("%g", dbl(NAN, 3.0) == dbl(NAN, 3.0) ? 1.0 : 0.0, 0.0); /* unordered: no exit, NaN */
    CHECK_EQ("%d", ncalls, 0);
    CHECK_EQ("%g", dbl(5.0, 3.0), 0.5);
    CHECK_EQ("%d", ncalls, 1);
    CHECK_EQ("%g", gotd[0], 3.0);
    CHECK_EQ("%g", gotd[1], 5.0);

    ncalls = 0;
    void_mul(3, 4);
    CHECK_EQ("%d", ncalls, 0);
    void_mul(INT64_MAX, 2);
    CHECK_EQ("%d", ncalls, 1);
    CHECK_EQ("%" PRId64, got[0], INT64_MAX);
    CHECK_EQ("%" PRId64, got[1], (int64_t)2);
    CHECK_EQ("%" PRId64, got[2], (int64_t)2);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
