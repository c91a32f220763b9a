// Integers: narrow signed/unsigned division, remainders and right shifts of
// negative values, compares, widening, shifts by width-1, the overflow
// builtins at their edges, i8 switches with negative cases, a switch on
// INT_MIN..INT_MAX, swapped phis, rotates, bswap/popcount/clz/ctz, abs.
// Checked against gcc.  Bitcode from clang-16 at -O0 and -O2, compiled by b3c
// (at the configuration's level), linked with the C library and run.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#define N __attribute__((noinline))
N static int sdiv8(signed char a, signed char b) { return (signed char)(a / b); }
N static int udiv8(unsigned char a, unsigned char b) { return a / b; }
N static int srem16(short a, short b) { return a % b; }
N static int urem16(unsigned short a, unsigned short b) { return a % b; }
N static int sshr8(signed char a, int n) { return a >> n; }
N static unsigned ushr16(unsigned short a, int n) { return a >> n; }
N static int lt8(signed char a, signed char b) { return a < b; }
N static int ult8(unsigned char a, unsigned char b) { return a < b; }
N static long widen(signed char a, unsigned short b, int c, unsigned d) { return a + b + (long)c + (long)d; }
N static int shl31(int a) { return (int)((unsigned)a << 31); }
N static long long sshr63(long long a) { return a >> 63; }
N static unsigned long long ushr63(unsigned long long a) { return a >> 63; }
N static int ovf_add(int a, int b, int *r) { return __builtin_add_overflow(a, b, r); }
N static int ovf_sub(unsigned a, unsigned b, unsigned *r) { return __builtin_sub_overflow(a, b, r); }
N static int ovf_mul(long a, long b, long *r) { return __builtin_mul_overflow(a, b, r); }
N static int ovf_mul8(signed char a, signed char b, signed char *r) { return __builtin_mul_overflow(a, b, r); }
N static int ovf_umul(unsigned long a, unsigned long b, unsigned long *r) { return __builtin_mul_overflow(a, b, r); }
N static unsigned char trunc8(int x) { return (unsigned char)(x + 1); }
N static _Bool to_bool(int x) { return x; }
N static int sel(int c, signed char a, signed char b) { return c ? a : b; }
N static int sw8(signed char c) {
    switch (c) {
    case -128: return 1;
    case -1: return 2;
    case 0: return 3;
    case 127: return 4;
    default: return 5;
    }
}
N static int sw(int c) {
    switch (c) {
    case INT_MIN: return 10;
    case -5: return 11;
    case 1: return 12;
    case 2: return 13;
    case 3: return 14;
    case 4: return 15;
    case 100: return 16;
    case INT_MAX: return 17;
    default: return 18;
    }
}
N static int fib_swap(int n) { /* swapped phis at -O2 */
    int a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        int t = a;
        a = b;
        b = t + b;
    }
    return a;
}
N static unsigned rotl(unsigned x, int n) { return (x << n) | (x >> (-n & 31)); }
N static unsigned long rotr(unsigned long x, int n) { return (x >> n) | (x << (-n & 63)); }
N static int ints(int (*f)(int), int x) { return f(x); }
N static int twice(int x) { return 2 * x; }

int main(void) {
    printf("sdiv8 %d %d %d\n", sdiv8(-128, 3), sdiv8(-7, 2), sdiv8(127, -1));
    printf("udiv8 %d %d\n", udiv8(0x80, 3), udiv8(255, 16));
    printf("srem16 %d %d\n", srem16(-32768, 7), srem16(-5, 3));
    printf("urem16 %d %d\n", urem16(0x8000, 7), urem16(65535, 10));
    printf("sshr8 %d %d %d\n", sshr8(-128, 7), sshr8(-1, 3), sshr8(0x40, 6));
    printf("ushr16 %u %u\n", ushr16(0x8000, 15), ushr16(65535, 4));
    printf("lt8 %d %d ult8 %d %d\n", lt8(-128, 127), lt8(0, -1), ult8(0x80, 0x7f), ult8(1, 255));
    printf("widen %ld %ld\n", widen(-1, 65535, INT_MIN, 4294967295u), widen(-128, 0, -1, 0));
    printf("shl31 %d %d\n", shl31(1), shl31(2));
    printf("shr63 %lld %llu %lld\n", sshr63(LLONG_MIN), ushr63(1ull << 63), sshr63(LLONG_MAX));
    int r;
    unsigned u;
    long l;
    signed char c8;
    unsigned long ul;
    int o1 = ovf_add(INT_MAX, 1, &r);
    printf("add_ovf %d %d\n", o1, r);
    o1 = ovf_add(INT_MIN, -1, &r);
    printf("add_ovf %d %d\n", o1, r);
    o1 = ovf_add(-1, 1, &r);
    printf("add_ovf %d %d\n", o1, r);
    o1 = ovf_sub(0, 1, &u);
    printf("sub_ovf %d %u\n", o1, u);
    o1 = ovf_mul(LONG_MIN, -1, &l);
    printf("mul_ovf %d %ld\n", o1, l);
    o1 = ovf_mul(1L << 31, 1L << 31, &l);
    printf("mul_ovf %d %ld\n", o1, l);
    o1 = ovf_mul8(-128, -1, &c8);
    printf("mul8_ovf %d %d\n", o1, c8);
    o1 = ovf_mul8(-16, 8, &c8);
    printf("mul8_ovf %d %d\n", o1, c8);
    o1 = ovf_umul(1UL << 32, 1UL << 32, &ul);
    printf("umul_ovf %d %lu\n", o1, ul);
    printf("trunc8 %d %d bool %d %d %d\n", trunc8(255), trunc8(0x7f), to_bool(0), to_bool(256), to_bool(-1));
    printf("sel %d %d\n", sel(1, -128, 5), sel(0, -128, -1));
    printf("sw8 %d %d %d %d %d %d\n", sw8(-128), sw8(-1), sw8(0), sw8(127), sw8(5), sw8(-127));
    printf("sw %d %d %d %d %d %d %d\n", sw(INT_MIN), sw(-5), sw(1), sw(4), sw(100), sw(INT_MAX), sw(5));
    printf("fib %d %d\n", fib_swap(10), fib_swap(46));
    printf("rot %x %lx\n", rotl(0x80000001u, 1), rotr(1, 1));
    printf("indirect %d\n", ints(twice, -21));
    printf("bswap %x %llx %x\n", __builtin_bswap32(0x12345678), (unsigned long long)__builtin_bswap64(0x0102030405060708ull),
           __builtin_bswap16(0xabcd));
    volatile unsigned z = 0x80000000u;
    volatile unsigned long long zz = 1;
    printf("bits %d %d %d %d %d\n", __builtin_popcount(z | 7), __builtin_clz(z), __builtin_ctz(z), __builtin_clzll(zz),
           __builtin_ctzll(zz << 63));
    volatile int m = INT_MIN;
    printf("abs %d %d\n", __builtin_abs(m + 1), __builtin_abs(-5));
    return 0;
}

// CHECK: sdiv8 -42 -3 -127
// CHECK-NEXT: udiv8 42 15
// CHECK-NEXT: srem16 -1 -2
// CHECK-NEXT: urem16 1 5
// CHECK-NEXT: sshr8 -1 -1 1
// CHECK-NEXT: ushr16 1 4095
// CHECK-NEXT: lt8 1 0 ult8 0 1
// CHECK-NEXT: widen 2147549181 -129
// CHECK-NEXT: shl31 -2147483648 0
// CHECK-NEXT: shr63 -1 1 0
// CHECK-NEXT: add_ovf 1 -2147483648
// CHECK-NEXT: add_ovf 1 2147483647
// CHECK-NEXT: add_ovf 0 0
// CHECK-NEXT: sub_ovf 1 4294967295
// CHECK-NEXT: mul_ovf 1 -9223372036854775808
// CHECK-NEXT: mul_ovf 0 4611686018427387904
// CHECK-NEXT: mul8_ovf 1 -128
// CHECK-NEXT: mul8_ovf 0 -128
// CHECK-NEXT: umul_ovf 1 0
// CHECK-NEXT: trunc8 0 128 bool 0 1 1
// CHECK-NEXT: sel -128 -1
// CHECK-NEXT: sw8 1 2 3 4 5 5
// CHECK-NEXT: sw 10 11 12 15 16 17 18
// CHECK-NEXT: fib 55 1836311903
// CHECK-NEXT: rot 3 8000000000000000
// CHECK-NEXT: indirect -42
// CHECK-NEXT: bswap 78563412 807060504030201 cdab
// CHECK-NEXT: bits 4 0 31 63 63
// CHECK-NEXT: abs 2147483647 5
