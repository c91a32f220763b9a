// arm64 Linux: aggregates of long doubles (AAPCS64 homogeneous aggregates
// of fp128) that do not fit in the vector registers left go on the stack
// whole, 16-byte aligned, and no later floating-point argument gets a
// register (docs/llvm-import.md, "Calls").  b3c's code calls functions
// gcc compiled and gcc's code calls b3c's, with such arguments among
// doubles, floats and single long doubles; the output is compared with the
// program gcc compiles alone.
// REQUIRES: aarch64
// RUN: %cc -O0 %s -o %t.gcc
// RUN: %run %t.gcc > %t.want
// RUN: %cc -O1 -DGCC_PART -c %s -o %t.part.o
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o %t.part.o -o %t0
// RUN: %run %t0 > %t0.out
// RUN: diff %t.want %t0.out
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o %t.part.o -o %t2
// RUN: %run %t2 > %t2.out
// RUN: diff %t.want %t2.out
#include <stdio.h>

struct L2 {
    long double a, b;
};
struct L3 {
    long double x[3];
};
struct L4 {
    long double a, b, c, d;
};

#define F1_BODY                                                                                           \
    return a.a + 2 * a.b + 3 * b.a + 5 * b.b + 7 * c.a + 11 * c.b + 13 * d.a + 17 * d.b + 19 * e.a +        \
           23 * e.b + 29 * t1 + 31 * f.a + 37 * f.b + 41 * t2 + 43 * g + 47 * t3
#define F2_BODY                                                                                           \
    return d0 + 2 * d1 + 3 * d2 + 5 * d3 + 7 * d4 + 11 * d5 + 13 * x.a + 17 * x.b + 19 * x.c + 23 * x.d + \
           29 * y.a + 31 * y.b + 37 * z + 41 * k + 43 * w.x[0] + 47 * w.x[1] + 53 * w.x[2]

#define F1_PARAMS                                                                                         \
    struct L2 a, struct L2 b, struct L2 c, struct L2 d, struct L2 e, double t1, struct L2 f, float t2,     \
        long double g, double t3
#define F2_PARAMS                                                                                         \
    double d0, double d1, double d2, double d3, double d4, double d5, struct L4 x, struct L2 y, float z,   \
        int k, struct L3 w

long double gcc_f1(F1_PARAMS);
long double gcc_f2(F2_PARAMS);
long double b3_f1(F1_PARAMS);
long double b3_f2(F2_PARAMS);
void gcc_calls(void);

#if defined(GCC_PART) || !defined(__clang__)
long double gcc_f1(F1_PARAMS) { F1_BODY; }
long double gcc_f2(F2_PARAMS) { F2_BODY; }
void gcc_calls(void) {
    struct L2 p = {1.5L, 2.25L}, q = {-3, 4}, r = {5, 6.125L}, s = {7, 8}, t = {9.5L, 10}, u = {11, 12};
    struct L4 x = {1, 2, 3, 4.5L};
    struct L3 w = {{1e3L, 2e3L, 3e-3L}};
    printf("b3_f1 %.6Lf\n", b3_f1(p, q, r, s, t, 0.5, u, 1.25f, 1e10L, -2));
    printf("b3_f2 %.6Lf\n", b3_f2(1, 2, 3, 4, 5, 6, x, p, 0.75f, -9, w));
}
#endif
#ifndef GCC_PART
__attribute__((noinline)) long double b3_f1(F1_PARAMS) { F1_BODY; }
__attribute__((noinline)) long double b3_f2(F2_PARAMS) { F2_BODY; }

int main(void) {
    struct L2 p = {1.5L, 2.25L}, q = {-3, 4}, r = {5, 6.125L}, s = {7, 8}, t = {9.5L, 10}, u = {11, 12};
    struct L4 x = {1, 2, 3, 4.5L};
    struct L3 w = {{1e3L, 2e3L, 3e-3L}};
    printf("gcc_f1 %.6Lf\n", gcc_f1(p, q, r, s, t, 0.5, u, 1.25f, 1e10L, -2));
    printf("gcc_f2 %.6Lf\n", gcc_f2(1, 2, 3, 4, 5, 6, x, p, 0.75f, -9, w));
    printf("self_f1 %.6Lf\n", b3_f1(t, s, r, q, p, 0.5, u, 1.25f, 1e10L, -2));
    gcc_calls();
    return 0;
}
#endif
