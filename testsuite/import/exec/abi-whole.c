// Arguments the C convention passes whole and results of up to four
// registers, against the system compiler's code (Inputs/abi-whole-main.c,
// both directions): arm64 returns structs of three floats or four doubles
// in v0-v3 (Return(@a, @b, @c, @d), Result(@call, index = N)) and passes
// such an aggregate on the stack, whole, when it does not fit in the vector
// registers left (and gives no later floating-point argument a register);
// an __int128 goes on the stack whole, 16-byte aligned, when both words do
// not fit in registers (x86-64: a later integer still takes the last
// register; arm64: an even register pair, none after it).
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc -I%S/Inputs %S/Inputs/abi-whole-main.c %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc -I%S/Inputs %S/Inputs/abi-whole-main.c %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// CHECK: results 1.5 3 4.5 | 2 2.5 2.25 2.125 | 2 3 1
// CHECK-NEXT: hfa 418 133
// CHECK-NEXT: i128 5168 5281 5172
// CHECK-NEXT: calls 1.5 3 4.5 | 2 2.5 2.25 2.125 | 2 3 1
// CHECK-NEXT: calls hfa 418 133
// CHECK-NEXT: calls i128 5168 5281 5172
#include <stdio.h>

#include "Inputs/abi-whole.h"

DEFINE_ALL(b3_)

struct F3 c_mk3(float x);
struct D4 c_mk4(double x);
struct D3 c_rot3(struct D3 s);
double c_hfa_stack(struct F3 s, double a, double b, double c, double d, double e, struct F3 t, struct F2 f2,
                   double z);
double c_f2_stack(double a, double b, double c, double d, double e, double f, double g, struct F2 p, double z);
long c_i128_last(long a, long b, long c, long d, long e, i128 x, long y);
long c_i128_seven(long a, long b, long c, long d, long e, long f, long g, i128 x, long y);
long c_i128_after(long a, long b, long c, long d, long e, long f, long g, long h, long k, i128 x);

void b3_calls_c(void) {
    struct F3 f = c_mk3(1.5f);
    struct D4 d = c_mk4(2);
    struct D3 r = c_rot3((struct D3){1, 2, 3});
    printf("calls %g %g %g | %g %g %g %g | %g %g %g\n", f.a, f.b, f.c, d.a, d.b, d.c, d.d, r.a, r.b, r.c);
    struct F3 s = {1, 2, 3}, t = {4, 5, 6};
    struct F2 p = {7, 8};
    printf("calls hfa %g %g\n", c_hfa_stack(s, 1, 2, 3, 4, 5, t, p, 9), c_f2_stack(1, 2, 3, 4, 5, 6, 7, p, 9));
    i128 x = ((i128)5 << 64) | 77;
    printf("calls i128 %ld %ld %ld\n", c_i128_last(1, 2, 3, 4, 5, x, 6), c_i128_seven(1, 2, 3, 4, 5, 6, 7, x, 8),
           c_i128_after(1, 2, 3, 4, 5, 6, 7, 8, 9, x));
}
