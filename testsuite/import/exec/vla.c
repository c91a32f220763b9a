// Variable-length arrays and alloca: a VLA in a loop of 1000 iterations
// (clang's llvm.stacksave/stackrestore: the stack does not grow), alloca in
// recursion (16-byte aligned, each frame's memory intact under the next), a
// VLA with calls that pass arguments on the stack (the outgoing argument
// area stays below it), a VLA aligned to 64, backtrace() through a frame
// with a VLA (the unwind information follows the frame pointer).  Bitcode
// from clang-16 at -O0 and -O2, compiled by b3c (at the configuration's
// level).
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// CHECK: vla-loop depth bounded 1
// CHECK-NEXT: loop 61896500
// CHECK-NEXT: rec 529560
// CHECK-NEXT: call 86800
// CHECK-NEXT: aligned 99
// CHECK-NEXT: backtrace 1
#include <alloca.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N __attribute__((noinline))

static volatile int vsink;

N static void touch(char *p, long n) {
    for (long i = 0; i < n; i++)
        p[i] = (char)i;
}

/* A VLA in a loop: the stack pointer comes back each iteration. */
N static long vla_loop(int iters) {
    char *lo = 0, *hi = 0;
    long sum = 0;
    for (int i = 0; i < iters; i++) {
        int n = 100 + i % 50;
        long v[n];
        for (int k = 0; k < n; k++)
            v[k] = k * i;
        touch((char *)v, 8);
        sum += v[n - 1];
        char *at = (char *)v;
        if (!lo || at < lo) lo = at;
        if (!hi || at > hi) hi = at;
    }
    printf("vla-loop depth bounded %d\n", (long)(hi - lo) < 4096);
    return sum;
}

/* alloca in recursion, alignment of alloca'd memory. */
N static long rec(int depth) {
    if (depth == 0)
        return 0;
    char *p = alloca(depth * 24 + 1);
    touch(p, depth * 24 + 1);
    long r = rec(depth - 1);
    long s = 0;
    for (int i = 0; i < depth * 24 + 1; i++)
        s += (unsigned char)p[i];
    return r + s + ((uintptr_t)p % 16 == 0 ? 0 : 1000000);
}

/* A VLA plus a call with stack arguments (more than 6/8 integer arguments):
 * the outgoing argument area stays below the VLA. */
N static long many(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}
N static long vla_call(int n) {
    long v[n];
    for (int k = 0; k < n; k++)
        v[k] = 1000 + k;
    long r = many(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
    long r2 = many(1, 2, 3, 4, 5, 6, 7, 8, v[n - 2], v[n - 1]);
    for (int k = 0; k < n; k++)
        r += v[k]; /* still intact after the calls wrote their arguments */
    return r + r2;
}

/* Over-aligned VLA. */
N static int aligned_vla(int n) {
    _Alignas(64) char buf[n];
    touch(buf, n);
    return (int)((uintptr_t)buf % 64) + buf[n - 1];
}

/* backtrace() through a frame with a VLA. */
N static int bt(void) {
    void *pcs[32];
    return backtrace(pcs, 32);
}
N static int bt_vla(int n) {
    char v[n];
    touch(v, n);
    int d = bt();
    vsink = v[n - 1];
    return d;
}
N static int bt_plain(void) {
    int d = bt();
    vsink++;
    return d;
}

int main(void) {
    printf("loop %ld\n", vla_loop(1000));
    printf("rec %ld\n", rec(20));
    printf("call %ld\n", vla_call(12));
    printf("aligned %d\n", aligned_vla(100));
    printf("backtrace %d\n", bt_vla(1000) == bt_plain());
    return 0;
}
