/* Shared helpers of the floating-point drivers gen_exec.py writes (gen-fp-f32, gen-fp-f64).
 * The includer defines T (float or double), B (the unsigned integer of T's size) and
 * `static int fails;` first. */
#ifndef CHECK_FP_H
#define CHECK_FP_H
#include <math.h>
#include <stdio.h>
#include <string.h>
static B bits(T x) { B b; memcpy(&b, &x, sizeof b); return b; }
static T from_bits(B b) { T x; memcpy(&x, &b, sizeof x); return x; }
static T fp_min(T a, T b) {
    if (a != a || b != b) return NAN;
    if (a == b) return from_bits(bits(a) | bits(b));
    return a < b ? a : b;
}
static T fp_max(T a, T b) {
    if (a != a || b != b) return NAN;
    if (a == b) return from_bits(bits(a) & bits(b));
    return a > b ? a : b;
}
static T fp_bits_op(T a, T b, int op) {
    B x = bits(a), y = bits(b);
    return from_bits(op == 0 ? x & y : op == 1 ? x | y : x ^ y);
}
/* Bit-exact, except that any NaN matches any NaN (payloads are the hardware's). */
static void check(const char *what, T a, T b, T got, T want, int exact_nan) {
#ifdef DUMP_RESULTS /* testsuite/cross/same-results.test: the results (NaN payloads are the hardware's) */
    (void)want;
    if (got != got && !exact_nan)
        printf("%s(%a, %a) = nan\n", what, (double)a, (double)b);
    else
        printf("%s(%a, %a) = 0x%llx\n", what, (double)a, (double)b, (unsigned long long)bits(got));
    return;
#endif
    int ok = (want != want && !exact_nan) ? got != got : bits(got) == bits(want);
    if (!ok) {
        printf("FAIL %s(%a, %a) = %a (0x%llx), expected %a (0x%llx)\n", what, (double)a, (double)b, (double)got,
               (unsigned long long)bits(got), (double)want, (unsigned long long)bits(want));
        fails++;
    }
}
#endif
