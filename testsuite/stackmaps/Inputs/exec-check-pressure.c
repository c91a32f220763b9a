/* Driver for ../exec-check-pressure.b3: exits with many children (most of
 * them spilled) reach their handlers with every value, in order. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int64_t press_check(int64_t, int64_t, double);
int64_t press_checkadd(int64_t, int64_t, double);
int64_t press_checkmul(int64_t, int64_t, double);

static int fails;
#define SENT ((int64_t)0x5eadbeef12345678ll)

int64_t c_opaque(int64_t x) { return (int64_t)((uint64_t)x * 31 + 5); }

static int64_t v(int64_t a, int64_t b, int k) {
    return (int64_t)((uint64_t)a * (uint64_t)(k + 2) + ((uint64_t)b ^ (uint64_t)k));
}
static double d(double x, int k) { return x * (k + 1.5) + (double)k; }

static int64_t dtoi(double x) {
    if (x != x)
        return 0;
    if (x >= 9223372036854775808.0)
        return INT64_MAX;
    if (x < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

static int same(double a, double b) { return a == b ? signbit(a) == signbit(b) : a != a && b != b; }

/* What the handlers received. */
static int ncalls;
static int64_t got_i[16];
static double got_d[10];
static int32_t got_w[2];
static float got_f;

int64_t press_handler(int64_t v0, int64_t v1, int64_t v2, int64_t v3, int64_t v4, int64_t v5, int64_t v6,
                      int64_t v7, int64_t v8, int64_t v9, int64_t v10, int64_t v11, int64_t v12, int64_t v13,
                      double d0, double d1, double d2, double d3, double d4, double d5, double d6, double d7,
                      double d8, double d9, int32_t w0, int32_t w1, float f, int64_t opq) {
    int64_t iv[16] = {v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, opq, 0};
    double dv[10] = {d0, d1, d2, d3, d4, d5, d6, d7, d8, d9};
    memcpy(got_i, iv, sizeof iv);
    memcpy(got_d, dv, sizeof dv);
    got_w[0] = w0, got_w[1] = w1, got_f = f;
    ncalls++;
    return SENT;
}

int64_t press_arith_handler(int64_t o1, int64_t o2, int64_t v0, int64_t v1, int64_t v2, int64_t v3,
                            int64_t v4, int64_t v5, int64_t v6, int64_t v7, int64_t v8, int64_t v9,
                            int64_t v10, int64_t v11, int64_t v12, int64_t v13, double d0, double d1,
                            double d2, double d3, double d4, double d5, double d6, double d7, double d8,
                            double d9) {
    int64_t iv[16] = {v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, o1, o2};
    double dv[10] = {d0, d1, d2, d3, d4, d5, d6, d7, d8, d9};
    memcpy(got_i, iv, sizeof iv);
    memcpy(got_d, dv, sizeof dv);
    ncalls++;
    return SENT;
}

static void fail(const char *what, int64_t a, int64_t b, double x, const char *why, int k) {
    printf("FAIL %s(%" PRId64 ", %" PRId64 ", %g): %s %d\n", what, a, b, x, why, k);
    fails++;
}

static void check_values(const char *what, int64_t a, int64_t b, double x) {
    for (int k = 0; k < 14; k++)
        if (got_i[k] != v(a, b, k))
            fail(what, a, b, x, "int child", k);
    for (int k = 0; k < 10; k++)
        if (!same(got_d[k], d(x, k)))
            fail(what, a, b, x, "double child", k);
}

static int64_t checksum(int64_t a, int64_t b, double x, int64_t extra) {
    uint64_t s = 0;
    for (int k = 0; k < 14; k++)
        s += (uint64_t)v(a, b, k);
    double ds = d(x, 0);
    for (int k = 1; k < 10; k++)
        ds += d(x, k);
    return (int64_t)(s + (uint64_t)extra + (uint64_t)dtoi(ds));
}

int main(void) {
    static const int64_t ints[] = {0,         1,         -1,           5, -77, 1ll << 58, -(1ll << 58),
                                   INT64_MAX, INT64_MIN, 0x123456789ll};
    static const double xs[] = {0.0, -0.0, 1.25, -3.5, 1e300, NAN};
    const int ni = sizeof ints / sizeof ints[0], nx = sizeof xs / sizeof xs[0];
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < ni; j++)
            for (int l = 0; l < nx; l++) {
                int64_t a = ints[i], b = ints[j];
                double x = xs[l];
                int64_t opq = c_opaque(a);
                /* Check(a < b). */
                ncalls = 0;
                int64_t got = press_check(a, b, x);
                if (a < b) {
                    if (got != SENT || ncalls != 1)
                        fail("press_check", a, b, x, "no exit", 0);
                    check_values("press_check", a, b, x);
                    if (got_i[14] != opq)
                        fail("press_check", a, b, x, "opaque child", 0);
                    if (got_w[0] != (int32_t)v(a, b, 3) || got_w[1] != (int32_t)v(a, b, 9))
                        fail("press_check", a, b, x, "Int32 child", 0);
                    if (!same(got_f, (float)d(x, 4)))
                        fail("press_check", a, b, x, "Float child", 0);
                } else if (got != checksum(a, b, x, opq) || ncalls) {
                    fail("press_check", a, b, x, "fast path", 0);
                }
                /* CheckAdd / CheckMul(opq, v13). */
                for (int m = 0; m < 2; m++) {
                    int64_t r;
                    int ovf = m ? __builtin_mul_overflow(opq, v(a, b, 13), &r)
                                : __builtin_add_overflow(opq, v(a, b, 13), &r);
                    const char *what = m ? "press_checkmul" : "press_checkadd";
                    ncalls = 0;
                    got = m ? press_checkmul(a, b, x) : press_checkadd(a, b, x);
                    if (ovf) {
                        if (got != SENT || ncalls != 1)
                            fail(what, a, b, x, "no exit", 0);
                        check_values(what, a, b, x);
                        if (got_i[14] != opq || got_i[15] != v(a, b, 13))
                            fail(what, a, b, x, "original operands", 0);
                    } else if (got != checksum(a, b, x, r) || ncalls) {
                        fail(what, a, b, x, "fast path", 0);
                    }
                }
            }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
