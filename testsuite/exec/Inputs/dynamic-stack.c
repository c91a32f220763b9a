#include <stdint.h>
#include <stdio.h>

long b3_vla_loop(long n);
long b3_alloca_args(long n);

static uintptr_t lo = UINTPTR_MAX, hi;
static int misaligned;

/* p[k] = 3k + i; the sum.  Records where p was and its alignment. */
long c_fill(long *p, long n, long i) {
    uintptr_t a = (uintptr_t)p;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    misaligned |= a % 16 != 0;
    long s = 0;
    for (long k = 0; k < n; k++)
        s += p[k] = 3 * k + i;
    return s;
}

/* The same sum, read back. */
long c_sum(const long *p, long n) {
    long s = 0;
    for (long k = 0; k < n; k++)
        s += p[k];
    return s;
}

long c_many(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

long c_align64(const void *p) { return (long)((uintptr_t)p % 64); }

int main(void) {
    printf("loop %ld\n", b3_vla_loop(100));
    printf("spread %d misaligned %d\n", hi - lo < 4096, misaligned);
    printf("args %ld\n", b3_alloca_args(40));
    return 0;
}
