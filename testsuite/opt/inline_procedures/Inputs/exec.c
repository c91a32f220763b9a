/* Driver for ../exec.b3. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int64_t sum_clamped(int32_t, const int32_t *, int32_t, int32_t);
double mix(double, double, int32_t);
void store_twice(int64_t *, int64_t);
float halves(float);

static int fails;
#define CHECK_EQ(fmt, got, want)                                               \
    do {                                                                       \
        if ((got) != (want)) {                                                 \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want); \
            fails++;                                                           \
        }                                                                      \
    } while (0)

static int32_t clamp(int32_t x, int32_t lo, int32_t hi) { return x < lo ? lo : x > hi ? hi : x; }
static int64_t tri(int64_t n) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += i;
    static const int64_t add[4] = {0, 10, 20, 30};
    return s + add[n & 3];
}
static float half_plus(float x, int64_t k) { return x * 0.5f + k; }
static double lerp(double a, double b, int32_t t) { return a + (b - a) * t / 8; }

int main(void) {
    int32_t a[9] = {-50, 3, 99, -1, 0, 7, 1000, -1000, 42};
    for (int32_t n = 0; n <= 9; n++) {
        int64_t want = 0;
        for (int32_t i = 0; i < n; i++)
            want += clamp(a[i], -5, 50) + tri(i);
        CHECK_EQ("%" PRId64, sum_clamped(n, a, -5, 50), want);
    }
    for (int32_t t = -3; t < 12; t++)
        CHECK_EQ("%g", mix(1.5, -2.25, t), lerp(lerp(1.5, -2.25, t), -2.25, t));
    int64_t p[2] = {0, 0};
    store_twice(p, 41);
    CHECK_EQ("%" PRId64, p[0], (int64_t)41);
    CHECK_EQ("%" PRId64, p[1], (int64_t)42);
    for (float x = -4.75f; x < 5; x += 1.25f)
        CHECK_EQ("%g", halves(x), half_plus(half_plus(x, 3), -1));
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
