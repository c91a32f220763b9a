// x86-64's long double and __int128 (docs/llvm-import.md): sitofp/uitofp
// from i128 call libgcc's __floattixf/__floatuntixf (the result in st(0)),
// fptosi/fptoui to i128 call __fixxfti/__fixunsxfti (the argument in
// memory, the result in rax:rdx).  The output is compared with gcc's.
// REQUIRES: x86_64
// RUN: %cc -O0 %s -o %t.gcc
// RUN: %run %t.gcc > %t.want
// RUN: %clang -O0 -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 > %t0.out
// RUN: diff %t.want %t0.out
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 > %t2.out
// RUN: diff %t.want %t2.out
#include <stdio.h>

__attribute__((noinline)) long double to_ld(__int128 x) { return (long double)x; }
__attribute__((noinline)) long double to_ldu(unsigned __int128 x) { return (long double)x; }
__attribute__((noinline)) __int128 from_ld(long double x) { return (__int128)x; }
__attribute__((noinline)) unsigned __int128 from_ldu(long double x) { return (unsigned __int128)x; }

static void show(const char *what, unsigned __int128 v) {
    printf("%s %016llx%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void) {
    __int128 v = -((__int128)1 << 100) + 12345;
    printf("%.10Le %.10Le %.10Le\n", to_ld(v), to_ldu((unsigned __int128)1 << 127), to_ld(-7));
    show("neg", (unsigned __int128)from_ld(-1.5e30L));
    show("small", (unsigned __int128)from_ld(-42.75L));
    show("big", from_ldu(3e38L));
    show("round", (unsigned __int128)from_ld(to_ld(v)));
    return 0;
}
