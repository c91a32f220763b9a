/* long double on the Apple targets (macho/long-double.test): x86_fp80 on
 * x86_64-apple-macos (X87 values, as on Linux), plain double on
 * arm64-apple-macos (clang's IR has no long double type there).  The
 * long double calls stay inside the object; the driver
 * (long-double-apple-main.c) calls the entries that return a double. */
#define N __attribute__((noinline))

N long double scale(long double x, int k, long double y) { return x * k + y; }

N long double horner(const long double *c, int n, long double x) {
    long double r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

N unsigned long long to_u64(long double x) { return (unsigned long long)x; }

double run_scale(void) { return (double)scale(1.0L / 3, 3, 0.5L); }

double run_horner(void) {
    static const long double c[] = {1, -0.5L, 1.0L / 6, -1.0L / 24};
    return (double)horner(c, 4, 0.25L);
}

/* 2^63 + 2^11 is exact in both formats. */
unsigned long long run_u64(void) { return to_u64(9223372036854777856.0L); }

/* 1 + 2^-60 rounds to 1 in a double, not in an 80-bit long double. */
int run_precision(void) {
    volatile long double one = 1, tiny = 0x1p-60L;
    return one + tiny != one;
}
