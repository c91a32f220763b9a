/* Driver for ../loops.b3. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>

int64_t nested(int32_t, int32_t);
int64_t swap(int32_t, int64_t, int64_t);
double newton(double, int32_t);
int64_t vars(int32_t);
int64_t root_loop(int64_t, int64_t *);
double call_loop(int32_t, double);

static int fails;
#define CHECK_EQ(fmt, got, want)                                                 \
    do {                                                                         \
        if ((got) != (want)) {                                                   \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);   \
            fails++;                                                             \
        }                                                                        \
    } while (0)

double step(double acc, int32_t i, double x) { return acc * 0.5 + i * x; }

int main(void) {
    for (int32_t n = 0; n < 6; n++)
        for (int32_t m = 0; m < 7; m++) {
            int64_t s = 0;
            for (int32_t i = 0; i < n; i++)
                for (int32_t j = 0; j < m; j++)
                    s += (i * j) ^ j;
            CHECK_EQ("%" PRId64, nested(n, m), s);
        }
    for (int32_t n = 0; n < 20; n++) {
        int64_t a = 3, b = -7;
        for (int32_t k = 0; k < n; k++) {
            int64_t t = (int64_t)((uint64_t)a + (uint64_t)b * 3);
            a = b;
            b = t;
        }
        CHECK_EQ("%" PRId64, swap(n, 3, -7), (int64_t)((uint64_t)a * 1000003 + (uint64_t)b));
    }
    for (int32_t it = 0; it < 8; it++) {
        double x = 2.0, g = 1.0;
        for (int32_t k = it; k; k--)
            g = (g + x / g) * 0.5;
        CHECK_EQ("%a", newton(2.0, it), g);
    }
    for (int32_t n = 0; n < 40; n++) {
        int64_t a = 0, b = 1;
        double d = 0;
        for (int32_t i = n; i; i--) {
            int64_t t = a + b;
            a = b;
            b = t;
            d += i;
        }
        CHECK_EQ("%" PRId64, vars(n), a + (int64_t)d * 1000000);
    }
    for (int64_t n = 1; n < 10; n++) {
        int64_t counter = 0;
        CHECK_EQ("%" PRId64, root_loop(n, &counter), n * n + n);
        CHECK_EQ("%" PRId64, counter, n);
    }
    for (int32_t n = 0; n < 10; n++) {
        double x = 1.25, acc = 0;
        for (int32_t i = 0; i < n; i++)
            acc = step(acc, i, x) + x * x;
        CHECK_EQ("%a", call_loop(n, x), acc + x);
    }
    if (fails) {
        printf("FAILED %d\n", fails);
        return 1;
    }
    printf("OK\n");
    return 0;
}
