// Computed goto (GNU C's labels as values): a threaded interpreter whose
// dispatch table is a static initializer, checked against the same
// interpreter written with a switch; a relative table (int offsets
// &&x - &&base, added back to the base), label addresses compared with each
// other and with NULL, a table of labels built at run time.  Bitcode from
// clang-16 at -O0 and -O2, compiled by b3c (at the configuration's level).
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// CHECK: goto 500500
// CHECK-NEXT: switch 500500
// CHECK-NEXT: rel 1001 1102 1003
// CHECK-NEXT: rt 133
#include <stdio.h>

enum { PUSH, ADD, SUB, JNZ, DUP, HALT, DEC, SWAP, OVER };

/* A threaded interpreter: a static table of label addresses. */
__attribute__((noinline)) static long run_goto(const int *code, long a0) {
    static void *const t[] = {&&push, &&add, &&sub, &&jnz, &&dup, &&halt, &&dec, &&swap, &&over};
    long st[64];
    int sp = 0;
    const int *pc = code;
    st[sp++] = a0;
#define NEXT goto *t[*pc++]
    NEXT;
push:
    st[sp++] = *pc++;
    NEXT;
add:
    sp--;
    st[sp - 1] += st[sp];
    NEXT;
sub:
    sp--;
    st[sp - 1] -= st[sp];
    NEXT;
dup:
    st[sp] = st[sp - 1];
    sp++;
    NEXT;
dec:
    st[sp - 1]--;
    NEXT;
over:
    st[sp] = st[sp - 2];
    sp++;
    NEXT;
swap: {
    long x = st[sp - 1];
    st[sp - 1] = st[sp - 2];
    st[sp - 2] = x;
    NEXT;
}
jnz: {
    int off = *pc++;
    if (st[--sp])
        pc += off;
    NEXT;
}
halt:
    return st[sp - 1];
#undef NEXT
}

/* The same with a switch. */
__attribute__((noinline)) static long run_switch(const int *code, long a0) {
    long st[64];
    int sp = 0;
    const int *pc = code;
    st[sp++] = a0;
    for (;;) {
        switch (*pc++) {
        case PUSH: st[sp++] = *pc++; break;
        case ADD: sp--; st[sp - 1] += st[sp]; break;
        case SUB: sp--; st[sp - 1] -= st[sp]; break;
        case DUP: st[sp] = st[sp - 1]; sp++; break;
        case DEC: st[sp - 1]--; break;
        case OVER: st[sp] = st[sp - 2]; sp++; break;
        case SWAP: { long x = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = x; break; }
        case JNZ: { int off = *pc++; if (st[--sp]) pc += off; break; }
        case HALT: return st[sp - 1];
        }
    }
}

/* Relative offsets (the GCC manual's form for shared code): int table of
 * &&x - &&base; labels compared as pointers; a label address kept in a local. */
__attribute__((noinline)) static int relative(int n) {
    static const int off[] = {&&l0 - &&l0, &&l1 - &&l0, &&l2 - &&l0};
    int acc = 0;
    void *p = &&l0 + off[n % 3];
    if (p == &&l1)
        acc += 100;
    if (p != 0)
        acc += 1000;
    goto *p;
l0:
    return acc + 1;
l1:
    return acc + 2;
l2:
    return acc + 3;
}

/* A label table built at run time, and labels stored and compared. */
__attribute__((noinline)) static int table_at_runtime(int n) {
    void *t[3] = {&&x, &&y, &&z};
    int r = 0;
    for (int i = 0; i < n; i++) {
        void *p = t[i % 3];
        if (p == t[0]) r += 1;
        goto *p;
    x: r += 10; continue;
    y: r += 20; continue;
    z: r += 30; continue;
    }
    return r;
}

int main(void) {
    /* sum of 1..n: [acc n] */
    static const int cnt[] = {PUSH, 0, SWAP, DUP, JNZ, 2, SWAP, HALT, SWAP, OVER, ADD, SWAP, DEC, PUSH, 1, JNZ, -14};
    long n = 1000;
    printf("goto %ld\n", run_goto(cnt, n));
    printf("switch %ld\n", run_switch(cnt, n));
    printf("rel %d %d %d\n", relative(0), relative(1), relative(2));
    printf("rt %d\n", table_at_runtime(7));
    return 0;
}
