/* Driver for ../isel.b3: instruction selection corner cases against C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int32_t lea32wrap(int64_t, int64_t);
int32_t leashl32(int64_t, int64_t);
int64_t leashl64(int64_t, int64_t);
int32_t mul9_32(int64_t);
int64_t mul3c(int64_t);
int64_t sel_then_dies(int64_t, int64_t, int64_t);
int64_t sel_else_dies(int64_t, int64_t, int64_t);
int64_t sel_both_live(int64_t, int64_t, int64_t);
double sel_double(double, double);
int64_t test_bit31(int64_t, int64_t, int64_t);
int64_t test_bit40(int64_t);
int64_t test_mem32(const int32_t *, int64_t, int64_t);
int64_t chain10(const int64_t *);
int32_t oldbase(int32_t *);
int32_t bigconst(intptr_t);
int64_t addzero(int64_t, int64_t);

void isel_g(int32_t *q) { q[1] += 1000; }

static int fails;
#define CHECK_EQ(got, want)                                                                       \
    do {                                                                                          \
        int64_t g_ = (int64_t)(got), w_ = (int64_t)(want);                                        \
        if (g_ != w_) {                                                                           \
            printf("FAIL line %d: %s = %" PRId64 ", want %" PRId64 "\n", __LINE__, #got, g_, w_); \
            fails++;                                                                              \
        }                                                                                         \
    } while (0)

static int32_t w32(uint64_t x) { return (int32_t)(uint32_t)x; }

int main(void) {
    static const int64_t v[] = {0,
                                1,
                                -1,
                                7,
                                -8,
                                0x7fffffff,
                                -0x7fffffff - 1,
                                0x80000000LL,
                                0xffffffffLL,
                                0x123456789LL,
                                -0x123456789LL,
                                INT64_MAX,
                                INT64_MIN,
                                1LL << 40,
                                3LL << 31};
    enum { N = sizeof v / sizeof v[0] };
    for (int i = 0; i < N; i++) {
        uint64_t a = (uint64_t)v[i];
        CHECK_EQ(mul9_32(v[i]), w32(a * 9));
        CHECK_EQ(mul3c(v[i]), (int64_t)(a * 3 + 0x7fffffff));
        CHECK_EQ(test_bit40(v[i]), (a & (1ULL << 40)) == 0 ? 10 : 20);
        for (int j = 0; j < N; j++) {
            uint64_t b = (uint64_t)v[j];
            CHECK_EQ(lea32wrap(v[i], v[j]), w32(a + b + 0x7fffffff));
            CHECK_EQ(leashl32(v[i], v[j]), w32(a + (b << 3) - 5));
            CHECK_EQ(leashl64(v[i], v[j]), (int64_t)(a + (b << 2) - 0x80000000ULL));
            CHECK_EQ(test_bit31(v[i], 11, 22), (a & 0x80000000ULL) ? 11 : 22);
            for (int k = 0; k < N; k += 3) {
                uint64_t c = (uint64_t)v[k];
                int64_t lt = v[i] < v[k];
                CHECK_EQ(sel_then_dies(v[i], v[j], v[k]), (int64_t)((lt ? a + b : b) * b + c));
                CHECK_EQ(sel_else_dies(v[i], v[j], v[k]), (int64_t)((lt ? b : a + b) * b + c));
                CHECK_EQ(sel_both_live(v[i], v[j], v[k]), (int64_t)((lt ? b : c) * b * c));
            }
        }
    }
    static const double d[] = {0.0, -0.0, 1.5, -2.25, 1e300, 0.0 / 0.0};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double x = d[i], y = d[j], want = (x == y ? x + y : y) * y, got = sel_double(x, y);
            if (memcmp(&got, &want, sizeof got) != 0 && !(got != got && want != want)) {
                printf("FAIL sel_double(%g, %g) = %g, want %g\n", x, y, got, want);
                fails++;
            }
        }
    int32_t m[4] = {0, 0x7fffffff, 0, 0};
    CHECK_EQ(test_mem32(m, 1, 2), 2);
    m[1] = (int32_t)0x80000000u;
    CHECK_EQ(test_mem32(m, 1, 2), 1);
    int64_t arr[12];
    int64_t want = 0;
    for (int i = 0; i < 12; i++)
        arr[i] = (int64_t)i * 1000 + 7;
    for (int i = 1; i <= 10; i++)
        want += arr[i];
    CHECK_EQ(chain10(arr), want);
    int32_t q[6] = {1, 2, 3, 4, 5, 6};
    CHECK_EQ(oldbase(q), 1004); /* q + 8 bytes = &q[2]; g adds 1000 to q[3]; loaded at +4 */
    int32_t big[2] = {17, 42};
    CHECK_EQ(bigconst((intptr_t)big - (intptr_t)(1LL << 40)), 42);
    CHECK_EQ(addzero(40, 2), 42);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
