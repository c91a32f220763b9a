// Structs by value as clang lowers them for each target's C convention:
// two-register results ({double, long}: xmm0/rax, x0/x1), a struct of two
// floats in one SSE register (<2 x float>, a constant of it too), three
// floats ({<2 x float>, float} on x86-64; arm64's s0-s2 are abi-whole.c's),
// sret results and
// byval (x86-64) or copied (arm64) arguments of a large struct, and
// __int128 arguments, results and division (an even register pair on
// arm64, after an odd number of integer arguments).
// Checked against gcc.  Bitcode from clang-16 at -O0 and -O2.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
#include <stdio.h>

#define N __attribute__((noinline))
struct F2 { float a, b; };
struct DL { double d; long l; };
struct Big { long a[5]; };

N struct F2 mk2(float x) { struct F2 r = {x, x * 2}; return r; }
N struct F2 swap2(struct F2 p) { struct F2 r = {p.b, p.a}; return r; }
N struct DL mkdl(struct DL p) { p.l += (long)p.d; return p; }
N struct Big big(struct Big b, int k) { b.a[k] += 100; return b; }
N __int128 f128(int a, __int128 b, int c) { return b * a + c; }
N unsigned __int128 dv(unsigned __int128 x, unsigned __int128 y) { return x / y + x % y; }

int main(void) {
    struct F2 f = mk2(1.5f);
    struct F2 g = swap2((struct F2){1.25f, -2.5f});
    struct DL d = mkdl((struct DL){2.5, 7});
    struct Big b = big((struct Big){{1, 2, 3, 4, 5}}, 3);
    // CHECK: f 1.5 3 g -2.5 1.25
    printf("f %g %g g %g %g\n", f.a, f.b, g.a, g.b);
    // CHECK-NEXT: d 2.5 9 big 1 104 5
    printf("d %g %ld big %ld %ld %ld\n", d.d, d.l, b.a[0], b.a[3], b.a[4]);
    __int128 r = f128(3, ((__int128)1 << 70) + 5, 7);
    unsigned __int128 q = dv(((unsigned __int128)123456789 << 64) | 99, 1000003);
    // CHECK-NEXT: i128 c0 16 7b 74d7d9f454c07653
    printf("i128 %llx %llx %llx %llx\n", (unsigned long long)(r >> 64), (unsigned long long)r,
           (unsigned long long)(q >> 64), (unsigned long long)q);
    return 0;
}
