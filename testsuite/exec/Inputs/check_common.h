/* Shared preamble of the drivers gen_exec.py writes for gen-conv, gen-cmp, gen-switch and
 * gen-pressure: the FAIL-line checks (bit-exact, any NaN matching any NaN), argument
 * formatting, saturating conversions and the edge operands of every type. */
#ifndef CHECK_COMMON_H
#define CHECK_COMMON_H
#include <inttypes.h>
#include <math.h>
#include <float.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static int fails;
static uint64_t bits_d(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static uint32_t bits_f(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }
static double from_bits_d(uint64_t b) { double x; memcpy(&x, &b, 8); return x; }
static float from_bits_f(uint32_t b) { float x; memcpy(&x, &b, 4); return x; }
static void fail_line(const char *what, const char *arg, unsigned long long got, unsigned long long want) {
    printf("FAIL %s(%s) = 0x%llx, expected 0x%llx\n", what, arg, got, want);
    fails++;
}
#ifdef DUMP_RESULTS
/* testsuite/cross/same-results.test: print the results instead of checking
 * them (NaN payloads are the hardware's, so a NaN prints as nan). */
static void dump(const char *what, const char *arg, unsigned long long got, int nan) {
    if (nan) printf("%s(%s) = nan\n", what, arg);
    else printf("%s(%s) = 0x%llx\n", what, arg, got);
}
static void check_i32(const char *what, const char *arg, int32_t got, int32_t want) { (void)want; dump(what, arg, (uint32_t)got, 0); }
static void check_i64(const char *what, const char *arg, int64_t got, int64_t want) { (void)want; dump(what, arg, (uint64_t)got, 0); }
static void check_f32(const char *what, const char *arg, float got, float want) { (void)want; dump(what, arg, bits_f(got), got != got); }
static void check_f64(const char *what, const char *arg, double got, double want) { (void)want; dump(what, arg, bits_d(got), got != got); }
#else
static void check_i32(const char *what, const char *arg, int32_t got, int32_t want) {
    if (got != want) fail_line(what, arg, (uint32_t)got, (uint32_t)want);
}
static void check_i64(const char *what, const char *arg, int64_t got, int64_t want) {
    if (got != want) fail_line(what, arg, (uint64_t)got, (uint64_t)want);
}
/* Bit-exact, except that any NaN matches any NaN (payloads are the hardware's). */
static void check_f32(const char *what, const char *arg, float got, float want) {
    if (want != want ? got == got : bits_f(got) != bits_f(want)) fail_line(what, arg, bits_f(got), bits_f(want));
}
static void check_f64(const char *what, const char *arg, double got, double want) {
    if (want != want ? got == got : bits_d(got) != bits_d(want)) fail_line(what, arg, bits_d(got), bits_d(want));
}
#endif
static const char *fmt_i64(int64_t x) { static char b[8][32]; static int k; k = (k + 1) & 7; snprintf(b[k], 32, "%" PRId64, x); return b[k]; }
static const char *fmt_d(double x) { static char b[8][40]; static int k; k = (k + 1) & 7; snprintf(b[k], 40, "%a", x); return b[k]; }
static const char *fmt2(const char *x, const char *y) { static char b[4][90]; static int k; k = (k + 1) & 3; snprintf(b[k], 90, "%s, %s", x, y); return b[k]; }
static int32_t sat_i32(double x) { if (x != x) return 0; if (x >= 2147483648.0) return INT32_MAX; if (x <= -2147483649.0) return INT32_MIN; return (int32_t)x; }
static int64_t sat_i64(double x) { if (x != x) return 0; if (x >= 9223372036854775808.0) return INT64_MAX; if (x < -9223372036854775808.0) return INT64_MIN; return (int64_t)x; }
static uint32_t sat_u32(double x) { if (!(x >= 1.0)) return 0; if (x >= 4294967296.0) return UINT32_MAX; return (uint32_t)x; }
static uint64_t sat_u64(double x) { if (!(x >= 1.0)) return 0; if (x >= 18446744073709551616.0) return UINT64_MAX; return (uint64_t)x; }
static const int32_t ei32[] = {0, 1, -1, 2, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535, -32768, -32769,
    INT32_MAX, INT32_MIN, 0x12345678, (int32_t)0x89abcdefu, 16777217, -16777217, 0x7fffff80};
static const int64_t ei64[] = {0, 1, -1, 2, 0x7fffffff, 0x80000000LL, 0xffffffffLL, 0x100000000LL, -0x80000000LL,
    -0x80000001LL, INT64_MAX, INT64_MIN, INT64_MIN + 1, 0x123456789abcdefLL, (int64_t)0xfedcba9876543210ull,
    9007199254740993LL, -9007199254740993LL, 0x7ffffffffffffc00LL, (int64_t)0x8000000000000400ull,
    (int64_t)0xfffffffffffff800ull, 0x20000020000001LL, 16777217, (int64_t)0xffffff7fffffffffull};
static const double ed[] = {0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.0, -1.0, 1.5, -1.5, 2.5, 1e10, -1e10,
    2147483647.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483648.5, -2147483649.0, 4294967295.0,
    4294967295.5, 4294967296.0, 9223372036854774784.0, 9223372036854775808.0, -9223372036854775808.0,
    -9223372036854777856.0, 18446744073709549568.0, 18446744073709551616.0, 1e300, -1e300, INFINITY, -INFINITY,
    NAN, -NAN, 4.9e-324, -4.9e-324, DBL_MIN, 3.4028235677973366e38, 1e-40, 0.1};
static const float ef[] = {0.0f, -0.0f, 0.5f, -0.5f, 0.999f, -0.999f, 1.0f, -1.0f, 1.5f, 2147483520.0f,
    2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f, 9223371487098961920.0f,
    9223372036854775808.0f, -9223372036854775808.0f, -9223373136366403584.0f, 18446742974197923840.0f,
    18446744073709551616.0f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN, 1.4e-45f, FLT_MIN, FLT_MAX, 0.1f, 3e-39f};
#define N(a) (sizeof(a) / sizeof(a)[0])
#endif
