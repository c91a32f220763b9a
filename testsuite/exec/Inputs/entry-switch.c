/* Driver for ../entry-switch.b3: calls every entry symbol. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>

int64_t canon(int64_t, int64_t);
int64_t canon_osr(int64_t, int64_t);
int64_t canon_third(int64_t, int64_t);
int64_t above(int64_t, int64_t);
int64_t above_a(int64_t, int64_t);
int64_t above_b(int64_t, int64_t);
int64_t nonroot_a(int64_t, int64_t);
int64_t nonroot_b(int64_t, int64_t);
int64_t twice_0(int64_t);
int64_t twice_1(int64_t);
int64_t split_0(int64_t, int64_t);
int64_t split_1(int64_t, int64_t);
int64_t same_a(int64_t);
int64_t same_b(int64_t);
int64_t rloop_0(int64_t *, int64_t);
int64_t rloop_1(int64_t *, int64_t);
int64_t use_helper(int64_t);
int64_t press_0(int64_t, double);
int64_t press_1(int64_t, double);
int64_t jt_0(int64_t, int64_t);
int64_t jt_1(int64_t, int64_t);
int64_t jt_2(int64_t, int64_t);

static int fails;
#define CHECK_EQ(got, want)                                                                        \
    do {                                                                                           \
        int64_t g_ = (got), w_ = (want);                                                           \
        if (g_ != w_) {                                                                            \
            printf("FAIL line %d: %s = %" PRId64 ", want %" PRId64 "\n", __LINE__, #got, g_, w_); \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* Called between the EntrySwitch and the uses of the values computed above it. */
int64_t clobber(int64_t v) {
    volatile double d = (double)v * 3.0;
    return (int64_t)d + 7;
}

static int64_t press_ref(int64_t a, double x, int k) {
    int64_t s = a * 1;
    for (int64_t i = 1; i <= 10; i++)
        s += (a + i) * (i + 1);
    s += (a + 11) * 2;
    double d = x * 1.5 + (x + 2.0) + (x - 3.0) + x * x;
    s += (int64_t)d;
    s += a;
    s += clobber(k ? -1 : 1) * 11;
    return s;
}

int main(void) {
    int64_t vals[] = {0, 1, -1, 7, -13, 1000, INT64_C(1) << 40, -(INT64_C(1) << 35)};
    int n = (int)(sizeof vals / sizeof vals[0]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int64_t a = vals[i], b = vals[j];
            CHECK_EQ(canon(a, b), a + b);
            CHECK_EQ(canon_osr(a, b), a - b);
            CHECK_EQ(canon_third(a, b), a * b + b);
            CHECK_EQ(above(a, b), (a * 7 + b + 1000) * 2);
            CHECK_EQ(above_a(a, b), (a * 7 + b + 1000) * 2);
            CHECK_EQ(above_b(a, b), (a * 7 + b - 1000) * 2);
            CHECK_EQ(split_0(a, b), (a > b ? 200 : 400) + a);
            CHECK_EQ(split_1(a, b), (a > b ? 100 : 300) + a);
        }
    for (int64_t k = -3; k < 40; k++) {
        int64_t s = 0;
        for (int64_t i = 0; i < k; i++)
            s += i;
        CHECK_EQ(nonroot_a(k, 5), k < 0 ? -1 : s * 10);
        CHECK_EQ(nonroot_b(k, 5), k < 0 ? -1 : s + 5);
        CHECK_EQ(nonroot_b(k, -k), k < 0 ? -1 : s - k);
    }
    for (int i = 0; i < n; i++) {
        int64_t a = vals[i];
        CHECK_EQ(twice_0(a), (a + 1) * 3);
        CHECK_EQ(twice_1(a), (a + 2) * 5);
        CHECK_EQ(same_a(a), a ^ 0x55);
        CHECK_EQ(same_b(a), a ^ 0x55);
        CHECK_EQ(use_helper(a), (a + 1) * 1000 + 2 * a);
    }
    int64_t p[2] = {0, 0};
    CHECK_EQ(rloop_0(p, 10), 10);
    CHECK_EQ(p[0], 10);
    p[0] = p[1] = 0;
    CHECK_EQ(rloop_1(p, 450), 5);
    CHECK_EQ(p[0], 500);
    p[0] = 445;
    p[1] = 0;
    CHECK_EQ(rloop_0(p, 450), 5);
    int64_t as[] = {0, 3, -20, 12345};
    double xs[] = {0.0, 1.25, -7.5, 100.0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            CHECK_EQ(press_0(as[i], xs[j]), press_ref(as[i], xs[j], 0));
            CHECK_EQ(press_1(as[i], xs[j]), press_ref(as[i], xs[j], 1));
        }
    static const int64_t table[8] = {10, 11, -12, 13, 1400, 15, 16, -17};
    for (int64_t x = -2; x < 10; x++)
        for (int64_t m = 0; m < 6; m++) {
            int64_t t0 = x >= 0 && x < 8 ? table[x] : 99, t1 = t0;
            for (int64_t i = 0; i < m; i++) {
                t0 += 2;
                t1 = t1 * 3 + 1;
            }
            CHECK_EQ(jt_0(x, m), t0);
            CHECK_EQ(jt_1(x, m), t1);
            CHECK_EQ(jt_2(x, m), t0);
        }
    printf("%s\n", fails ? "FAILED" : "OK");
    return fails != 0;
}
