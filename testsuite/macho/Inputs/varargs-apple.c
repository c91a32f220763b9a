/* Variadic definitions for the Apple targets (macho/varargs.test), compiled
 * through b3c from clang-16's IR for x86_64-apple-macos (SysV's va_list) and
 * arm64-apple-macos (a char * into the stack arguments, read by va_arg
 * instructions the import lowers).  The variadic calls are between b3c
 * functions, so both sides follow the Apple convention; the Linux driver
 * (varargs-apple-main.c) calls only the fixed-argument entries. */
#include <stdarg.h>

#define N __attribute__((noinline))

N double mix(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    double s = 0;
    for (const char *k = kinds; *k; k++)
        s += *k == 'd' ? va_arg(ap, double) : *k == 'i' ? va_arg(ap, int) : (double)va_arg(ap, long);
    va_end(ap);
    return s;
}

/* va_copy twice; each walk gives a different weighting of the same list. */
N long copies(int n, ...) {
    va_list ap, c1, c2;
    va_start(ap, n);
    va_copy(c1, ap);
    va_copy(c2, c1);
    long a = 0, b = 0, c = 0;
    for (int i = 0; i < n; i++)
        a = a * 10 + va_arg(c1, int);
    for (int i = 0; i < n; i++)
        b += (long)(i + 1) * va_arg(c2, int);
    for (int i = 0; i < n; i++)
        c += va_arg(ap, int);
    va_end(c2);
    va_end(c1);
    va_end(ap);
    return a * 1000000 + b * 1000 + c;
}

/* Named parameters beyond the registers (Apple arm64 packs them: the
 * named int and short take 4 and 2 bytes of stack), then variadic ones. */
N double named(long a, long b, long c, long d, long e, long f, long g, long h, int i, short j, double x0, double x1,
               double x2, double x3, double x4, double x5, double x6, double x7, double x8, int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int k = 0; k < n; k++)
        s += k % 2 ? va_arg(ap, double) : (double)va_arg(ap, long);
    va_end(ap);
    return (double)(a + b + c + d + e + f + g + h + i + j) + x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + s;
}

/* A va_list handed to another function. */
N double sum_list(int n, va_list ap) {
    double s = 0;
    for (int k = 0; k < n; k++)
        s += va_arg(ap, double);
    return s;
}
N double pass_on(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = sum_list(n, ap);
    va_end(ap);
    return s;
}

double run_mix(void) {
    return mix("ldildildildildildild", 1L, 0.5, 2, 3L, 1.5, 4, 5L, 2.5, 6, 7L, 3.5, 8, 9L, 4.5, 10, 11L, 5.5, 12, 13L,
               6.5);
}
long run_copies(void) { return copies(5, 1, 2, 3, 4, 5); }
double run_named(void) {
    return named(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 4, 100L, 0.25, 1000L, 0.5);
}
double run_pass_on(void) { return pass_on(10, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.5); }
