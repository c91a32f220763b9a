// Floating point: every compare with NaN and -0.0, conversions to and from
// integers at the edges of their range, fptrunc to inf/-0, fmod (frem), sign
// bits, libm rounding calls.
// Checked against gcc.  Bitcode from clang-16 at -O0 and -O2, compiled by b3c
// (at the configuration's level), linked with the C library and run.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0 -lm
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2 -lm
// RUN: %run %t2 | FileCheck %s
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N __attribute__((noinline))
N static int cmps(double a, double b) {
    return (a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5 |
           __builtin_isunordered(a, b) << 6 | __builtin_islessgreater(a, b) << 7;
}
N static int cmpf(float a, float b) { return (a < b) | (a == b) << 1 | !(a >= b) << 2; }
N static long d2l(double d) { return (long)d; }
N static unsigned long d2ul(double d) { return (unsigned long)d; }
N static int f2i(float f) { return (int)f; }
N static unsigned f2u(float f) { return (unsigned)f; }
N static signed char d2c(double d) { return (signed char)d; }
N static unsigned short d2us(double d) { return (unsigned short)d; }
N static double l2d(long l) { return (double)l; }
N static double ul2d(unsigned long l) { return (double)l; }
N static float u2f(unsigned u) { return (float)u; }
N static float ul2f(unsigned long u) { return (float)u; }
N static double c2d(signed char c) { return c; }
N static double uc2d(unsigned char c) { return c; }
N static float d2f(double d) { return (float)d; }
N static double frem(double a, double b) { return fmod(a, b); }
N static float fremf(float a, float b) { return fmodf(a, b); }
N static double neg(double a) { return -a; }
N static uint64_t bits(double d) {
    union { double d; uint64_t u; } x = {d};
    return x.u;
}

int main(void) {
    volatile double nan = NAN, zero = 0.0, nzero = -0.0, inf = INFINITY;
    printf("cmp %d %d %d %d\n", cmps(1, 2), cmps(2, 2), cmps(nan, 1), cmps(zero, nzero));
    printf("cmpf %d %d %d\n", cmpf(1, 2), cmpf(-0.0f, 0.0f), cmpf(NAN, 0));
    printf("d2l %ld %ld %ld\n", d2l(-9.99), d2l(9.2233720368547748e18 / 2), d2l(-9.2233720368547758e18));
    printf("d2ul %lu %lu\n", d2ul(1.8446744073709550e19), d2ul(9.2233720368547758e18));
    printf("f2i %d %d f2u %u %u\n", f2i(-2147483648.0f), f2i(2147483520.0f), f2u(4294967040.0f), f2u(2147483648.0f));
    printf("d2c %d %d d2us %u\n", d2c(-128.9), d2c(127.9), d2us(65535.9));
    printf("l2d %.17g %.17g %.17g\n", l2d(LONG_MIN), l2d(LONG_MAX), l2d(-1));
    printf("ul2d %.17g %.17g %.17g\n", ul2d(ULONG_MAX), ul2d(1UL << 63), ul2d((1UL << 63) + 1025));
    printf("u2f %.9g %.9g ul2f %.9g %.9g\n", u2f(UINT_MAX), u2f(0x80000001u), ul2f(ULONG_MAX), ul2f((1UL << 63) | 1));
    printf("c2d %g %g\n", c2d(-128), uc2d(0x80));
    printf("d2f %.9g %.9g %.9g\n", d2f(1e40), d2f(1.0000000596046448), d2f(-1e-50));
    printf("frem %g %g %g %g\n", frem(7.5, 2), frem(-7.5, 2), frem(5, inf), isnan(frem(inf, 1)) ? 9.0 : 0.0);
    printf("fremf %g %g\n", fremf(-7.5f, 2), fremf(1e10f, 3));
    printf("neg %016llx %016llx\n", (unsigned long long)bits(neg(zero)), (unsigned long long)bits(neg(nzero)));
    printf("signbit %d %d copysign %g %g\n", signbit(nzero) != 0, signbit(zero) != 0, copysign(3, nzero),
           copysignf(-2, 1));
    printf("fabs %g %g sqrt %g %d\n", fabs(nzero), fabs(-inf), sqrt(2), sqrt(-1) != sqrt(-1));
    printf("round %g %g %g %g %g\n", floor(-2.5), ceil(-2.5), trunc(-2.5), round(-2.5), round(2.5));
    printf("rint %g %g %g\n", rint(2.5), rint(3.5), nearbyint(-0.5));
    printf("fma %.17g\n", fma(0.1, 10, -1));
    printf("minmax %g %g\n", fmin(nan, 1), fmax(-0.0, 2));
    return 0;
}

// CHECK: cmp 142 41 66 41
// CHECK-NEXT: cmpf 5 2 4
// CHECK-NEXT: d2l -9 4611686018427387392 -9223372036854775808
// CHECK-NEXT: d2ul 18446744073709549568 9223372036854775808
// CHECK-NEXT: f2i -2147483648 2147483520 f2u 4294967040 2147483648
// CHECK-NEXT: d2c -128 127 d2us 65535
// CHECK-NEXT: l2d -9.2233720368547758e+18 9.2233720368547758e+18 -1
// CHECK-NEXT: ul2d 1.8446744073709552e+19 9.2233720368547758e+18 9.2233720368547779e+18
// CHECK-NEXT: u2f 4.2949673e+09 2.14748365e+09 ul2f 1.84467441e+19 9.22337204e+18
// CHECK-NEXT: c2d -128 128
// CHECK-NEXT: d2f inf 1 -0
// CHECK-NEXT: frem 1.5 -1.5 5 9
// CHECK-NEXT: fremf -1.5 1
// CHECK-NEXT: neg 8000000000000000 0000000000000000
// CHECK-NEXT: signbit 1 0 copysign -3 2
// CHECK-NEXT: fabs 0 inf sqrt 1.41421 1
// CHECK-NEXT: round -3 -2 -2 -3 3
// CHECK-NEXT: rint 2 4 -0
// CHECK-NEXT: fma 5.5511151231257827e-17
// CHECK-NEXT: minmax 1 2
