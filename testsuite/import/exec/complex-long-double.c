// C's _Complex long double: results in st(0) and st(1) on x86-64 (X87 op =
// ret2 / result2), in q0 and q1 on arm64 Linux (a float128 = 1 CCall's
// Result index = 2 and 3, a Return of two Float128 pairs); arguments in
// memory (x86-64) or two q registers, then the stack (arm64).  Arithmetic
// (libgcc's __mulxc3/__divxc3, __multc3/__divtc3), creall/cimagl, conjl,
// cabsl; b3c's code calls gcc's and gcc's calls b3c's.  The output is
// compared with the program gcc compiles alone.
// RUN: %cc -O0 %s -o %t.gcc -lm
// RUN: %run %t.gcc > %t.want
// RUN: %cc -O1 -DGCC_PART -c %s -o %t.part.o
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o %t.part.o -o %t0 -lm
// RUN: %run %t0 > %t0.out
// RUN: diff %t.want %t0.out
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o %t.part.o -o %t2 -lm
// RUN: %run %t2 > %t2.out
// RUN: diff %t.want %t2.out
#include <complex.h>
#include <stdio.h>

typedef long double _Complex cld;

cld gcc_mix(cld a, double d, cld b, long double s, cld c, cld e, cld f);
cld b3_mix(cld a, double d, cld b, long double s, cld c, cld e, cld f);
cld gcc_make(long double re, long double im);
cld b3_make(long double re, long double im);
void gcc_calls(void);

static void show(const char *what, cld z) { printf("%s %.6Lf %.6Lf\n", what, creall(z), cimagl(z)); }

#define MIX_BODY return a * b + d * c - s * conjl(e) + f / (a + 1)

#if defined(GCC_PART) || !defined(__clang__)
cld gcc_mix(cld a, double d, cld b, long double s, cld c, cld e, cld f) { MIX_BODY; }
cld gcc_make(long double re, long double im) { return re + im * I; }
void gcc_calls(void) {
    show("b3_make", b3_make(1.5L, -2.25L));
    show("b3_mix", b3_mix(b3_make(1, 2), 0.5, b3_make(3, -4), 2.5L, 5 + 6 * I, b3_make(-7, 8), 9 - 10 * I));
}
#endif
#ifndef GCC_PART
__attribute__((noinline)) cld b3_mix(cld a, double d, cld b, long double s, cld c, cld e, cld f) { MIX_BODY; }
__attribute__((noinline)) cld b3_make(long double re, long double im) { return re + im * I; }

__attribute__((noinline)) static cld divide(cld a, cld b) { return a / b; }

int main(void) {
    cld z = b3_make(3, 4);
    show("make", z);
    printf("parts %.6Lf %.6Lf abs %.6Lf\n", creall(z), cimagl(z), cabsl(z));
    show("mul", z * b3_make(-1, 0.5L));
    show("div", divide(z, b3_make(1, -2)));
    show("conj", conjl(z));
    show("gcc_make", gcc_make(-1.25L, 7));
    show("gcc_mix", gcc_mix(gcc_make(1, 2), 0.5, gcc_make(3, -4), 2.5L, 5 + 6 * I, gcc_make(-7, 8), 9 - 10 * I));
    show("self_mix", b3_mix(z, -1.5, z, 0.25L, z, z, z));
    gcc_calls();
    return 0;
}
#endif
