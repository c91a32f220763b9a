/* Driver for ../exec.b3: each kernel against the same computation in C. */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>

int64_t nest(int32_t);
int32_t irreducible(int32_t, int64_t);
double floats(int32_t);

double twice(double x) { return x * 2; }

static int fails;
#define CHECK_EQ(fmt, got, want)                                                                       \
    do {                                                                                               \
        if ((got) != (want)) {                                                                         \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);                         \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

int main(void) {
    for (int32_t n = 0; n < 40; n++) {
        int64_t s = 0;
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = 0; j < i; j++) {
                int64_t x = i ^ j;
                if (j % 3 == 0)
                    s += x * 5;
                else if (j % 3 == 1)
                    s -= x;
                else
                    s += 2 * x;
            }
        CHECK_EQ("%" PRId64, nest(n), s);
        printf("nest %d %" PRId64 "\n", n, nest(n));
    }
    for (int32_t n = 0; n < 30; n++)
        for (int64_t start = 0; start < 2; start++) {
            uint32_t a = 1, b = 2, k = 0;
            int at_a = start != 0;
            for (;;) {
                if (at_a) {
                    a += b;
                    k++;
                } else {
                    b = b * 3 + a;
                    k++;
                }
                if ((int32_t)k >= n)
                    break;
                at_a = !at_a;
            }
            CHECK_EQ("%" PRId32, irreducible(n, start), (int32_t)(a * b + k));
            printf("irreducible %d %d %d\n", n, (int)start, irreducible(n, start));
        }
    for (int32_t n = 0; n < 30; n++) {
        float f = 1;
        double d = 0.5;
        for (int32_t k = 0; k < n; k++) {
            f = f * 1.5f;
            d = twice(d) + f;
        }
        CHECK_EQ("%a", floats(n), d + f);
        printf("floats %d %a\n", n, floats(n));
    }
    printf(fails ? "FAIL: %d\n" : "OK\n", fails);
    return fails != 0;
}
