// setjmp/longjmp as interpreters use them for errors: a stack of handlers,
// longjmp from deep recursion, nested handlers rethrowing, setjmp in a loop;
// values live across setjmp that the normal path stops using before the
// call that longjmps while others take their place (more than there are
// callee-saved registers, integer and floating point: without
// spill_across_returns_twice, -O1 reads the wrong values), volatile locals
// modified between setjmp and longjmp.  Checked against gcc/clang.  Bitcode
// from clang-16 at -O0 (at the configuration's level) and -O2 (at every
// level of b3c).
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c -O0 %t2.bc -o %t20.o && %cc %t20.o -o %t20 && %run %t20 | FileCheck %s
// RUN: %b3c -O1 %t2.bc -o %t21.o && %cc %t21.o -o %t21 && %run %t21 | FileCheck %s
// RUN: %b3c -O2 %t2.bc -o %t22.o && %cc %t22.o -o %t22 && %run %t22 | FileCheck %s
// CHECK: many 349 253
// CHECK-NEXT: reuse 34 1551
// CHECK-NEXT: pressure 8450 4720
// CHECK-NEXT: fpressure 5885 166690
// CHECK-NEXT: volatile 5010
// CHECK-NEXT: nested 1077
// CHECK-NEXT: loop 137980
// CHECK-NEXT: handlers 0
#include <setjmp.h>
#include <stdio.h>

#define N __attribute__((noinline))

/* An interpreter's error handling: a stack of handlers. */
static jmp_buf *handlers[16];
static int nhandlers;

N static void raise_error(int code) { longjmp(*handlers[nhandlers - 1], code); }

N static long deep(int depth, int fail_at) {
    if (depth == fail_at)
        raise_error(100 + depth);
    return depth + deep(depth + 1, fail_at);
}

N static int sink(long x) { return (int)(x & 1); }

/* Many values live across setjmp (some in callee-saved registers at -O2),
 * unmodified between setjmp and longjmp: they must hold after the longjmp. */
N static long many_live(long a, long b, int fail_at) {
    long x0 = a * 3, x1 = b + 7, x2 = a ^ b, x3 = a - b, x4 = a * b, x5 = a + 2 * b, x6 = b * b, x7 = a * a;
    double d0 = (double)a / 3, d1 = (double)b * 1.5;
    jmp_buf jb;
    handlers[nhandlers++] = &jb;
    int r = setjmp(jb);
    if (r) {
        nhandlers--;
        return r + x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + (long)(d0 * 3) + (long)(d1 * 2);
    }
    long s = deep(0, fail_at);
    nhandlers--;
    return s + x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + (long)(d0 * 3) + (long)(d1 * 2) + sink(s);
}

/* A value whose last use on the normal path comes before the call that
 * longjmps, while another value is computed in its place (register or
 * spill slot reuse). */
N static long reuse(long a, int fail) {
    long keep = a * 11;
    jmp_buf jb;
    handlers[nhandlers++] = &jb;
    if (setjmp(jb)) {
        nhandlers--;
        return keep + 1;
    }
    long y = keep + 5; /* last use of keep on this path */
    long z = y * y, w = z ^ 77, u = w + y;
    if (fail)
        raise_error(1);
    nhandlers--;
    return u;
}

static volatile long vseed;
N static long opaque(long x) { return x + vseed; }

/* More values live across setjmp than there are callee-saved registers,
 * dead on the normal path before the call that longjmps, while as many new
 * values live across that call: their spill slots could be the same. */
N static long pressure(long a, int fail) {
    long v0 = opaque(a + 1), v1 = opaque(a + 2), v2 = opaque(a + 3), v3 = opaque(a + 4), v4 = opaque(a + 5),
         v5 = opaque(a + 6), v6 = opaque(a + 7), v7 = opaque(a + 8), v8 = opaque(a + 9), v9 = opaque(a + 10),
         v10 = opaque(a + 11), v11 = opaque(a + 12);
    jmp_buf jb;
    handlers[nhandlers++] = &jb;
    if (setjmp(jb)) {
        nhandlers--;
        return v0 + 2 * v1 + 3 * v2 + 4 * v3 + 5 * v4 + 6 * v5 + 7 * v6 + 8 * v7 + 9 * v8 + 10 * v9 + 11 * v10 +
               12 * v11;
    }
    long s = v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7 ^ v8 ^ v9 ^ v10 ^ v11;
    long w0 = opaque(s * 3), w1 = opaque(s * 5), w2 = opaque(s * 7), w3 = opaque(s * 11), w4 = opaque(s * 13),
         w5 = opaque(s * 17), w6 = opaque(s * 19), w7 = opaque(s * 23), w8 = opaque(s * 29), w9 = opaque(s * 31),
         w10 = opaque(s * 37), w11 = opaque(s * 41);
    if (fail)
        raise_error(1);
    nhandlers--;
    return w0 + w1 + w2 + w3 + w4 + w5 + w6 + w7 + w8 + w9 + w10 + w11;
}

/* The same with doubles (the FP bank: no callee-saved registers on x86-64). */
static volatile double dseed;
N static double opaqued(double x) { return x + dseed; }
N static double fpressure(double a, int fail) {
    double v0 = opaqued(a + 1), v1 = opaqued(a + 2), v2 = opaqued(a + 3), v3 = opaqued(a + 4),
           v4 = opaqued(a + 5), v5 = opaqued(a + 6), v6 = opaqued(a + 7), v7 = opaqued(a + 8),
           v8 = opaqued(a + 9), v9 = opaqued(a + 10);
    jmp_buf jb;
    handlers[nhandlers++] = &jb;
    if (setjmp(jb)) {
        nhandlers--;
        return v0 + 2 * v1 + 3 * v2 + 4 * v3 + 5 * v4 + 6 * v5 + 7 * v6 + 8 * v7 + 9 * v8 + 10 * v9;
    }
    double s = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9;
    double w0 = opaqued(s * 3), w1 = opaqued(s * 5), w2 = opaqued(s * 7), w3 = opaqued(s * 11),
           w4 = opaqued(s * 13), w5 = opaqued(s * 17), w6 = opaqued(s * 19), w7 = opaqued(s * 23),
           w8 = opaqued(s * 29), w9 = opaqued(s * 31);
    if (fail)
        raise_error(1);
    nhandlers--;
    return w0 + w1 + w2 + w3 + w4 + w5 + w6 + w7 + w8 + w9;
}

/* Volatile locals modified between setjmp and longjmp keep the new value. */
N static int volatile_count(int n) {
    volatile int tries = 0;
    volatile long sum = 0;
    jmp_buf jb;
    handlers[nhandlers++] = &jb;
    int r = setjmp(jb);
    sum += r;
    tries++;
    if (tries < n)
        raise_error(tries);
    nhandlers--;
    return (int)(tries * 1000 + sum);
}

/* Nested handlers: the inner one catches, rethrows to the outer. */
N static int nested(int code) {
    jmp_buf outer, inner;
    int log = 0;
    handlers[nhandlers++] = &outer;
    int r = setjmp(outer);
    if (r) {
        nhandlers--;
        return r * 10 + 7;
    }
    handlers[nhandlers++] = &inner;
    int q = setjmp(inner);
    if (q) {
        nhandlers--; /* pop inner */
        log = q;
        raise_error(log + code); /* to outer */
    }
    deep(0, 3);
    return -1;
}

/* setjmp in a loop: each iteration re-arms it. */
N static long loop_catch(int n) {
    long total = 0;
    for (int i = 0; i < n; i++) {
        jmp_buf jb;
        long mult = i * 7 + 1;
        handlers[nhandlers++] = &jb;
        int r = setjmp(jb);
        if (r == 0) {
            deep(0, i % 5);
        }
        nhandlers--;
        total += r * mult;
    }
    return total;
}

int main(void) {
    printf("many %ld %ld\n", many_live(5, 9, 4), many_live(6, -2, 100));
    printf("reuse %ld %ld\n", reuse(3, 1), reuse(3, 0));
    printf("pressure %ld %ld\n", pressure(100, 1), pressure(100, 0));
    printf("fpressure %g %g\n", fpressure(100, 1), fpressure(100, 0));
    printf("volatile %d\n", volatile_count(5));
    printf("nested %d\n", nested(4));
    printf("loop %ld\n", loop_catch(20));
    printf("handlers %d\n", nhandlers);
    return 0;
}
