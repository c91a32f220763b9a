// arm64 Linux's long double (fp128, docs/c-extensions.md, "Long double on
// arm64 Linux") where AAPCS64 differs from a plain argument: a struct of
// one long double (one q register, as argument and as result), of two or
// four (one q register per member) among other arguments, the classifying
// macros (isnan, isinf, signbit, fpclassify), conversions to and from
// __int128 (__fixtfti, __floatuntitf), a variadic callee compiled by b3c
// reading long doubles with va_arg past q7.  The output is compared with
// the same program compiled by gcc.
// REQUIRES: aarch64
// RUN: %cc -O0 %s -o %t.gcc -lm
// RUN: %run %t.gcc > %t.want
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0 -lm
// RUN: %run %t0 > %t0.out
// RUN: diff %t.want %t0.out
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2 -lm
// RUN: %run %t2 > %t2.out
// RUN: diff %t.want %t2.out
// RUN: FileCheck %s < %t2.out
// CHECK: one 5
// CHECK: OK
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define N __attribute__((noinline))

struct One {
    long double x;
};
struct Two {
    long double a, b;
};
struct Four {
    long double a, b, c, d;
};

N struct One twice(struct One o) {
    struct One r = {o.x * 2};
    return r;
}
N long double sum2(int k, struct Two t, double d, long double c) { return k + t.a + t.b + d + c; }
N long double sum4(struct Four f, struct Two t, long double e) {
    return f.a - f.b + f.c - f.d + t.a * t.b + e;
}
N int cls(long double x) { return isnan(x) * 1000 + isinf(x) * 100 + !!signbit(x) * 10 + fpclassify(x); }
N __int128 to128(long double x) { return (__int128)x; }
N long double from128(unsigned __int128 x) { return (long double)x; }

N long double vsum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long double s = 0;
    for (int i = 0; i < n; i++)
        s = s * 10 + va_arg(ap, long double) + va_arg(ap, double);
    va_end(ap);
    return s;
}

int main(void) {
    struct One o = {2.5L};
    printf("one %Lg\n", twice(o).x);
    struct Two t = {1.5L, 2.25L};
    struct Four f = {1, 2, 3, 4};
    printf("sum2 %Lg\n", sum2(3, t, 0.125, 0.25L));
    printf("sum4 %Lg\n", sum4(f, t, -1.0L));
    long double vals[] = {0.0L, -0.0L, 1.0L, -INFINITY, NAN, 1e-4940L};
    for (int i = 0; i < 6; i++)
        printf("cls %d\n", cls(vals[i]));
    __int128 b = to128(-1e30L);
    printf("to128 %lld %llu\n", (long long)(b >> 64), (unsigned long long)b);
    printf("from128 %La\n", from128(((unsigned __int128)1 << 127) + 12345));
    printf("vsum %.10Lg\n", vsum(6, 1.0L, 0.5, 2.0L, 0.25, 3.0L, 0.125, 4.0L, 1.0, 5.0L, 2.0, 6.0L, 4.0));
    puts("OK");
    return 0;
}
