// A computed goto: the label addresses in the static table (at the
// variable's line) and the indirectbr, which clang puts in a block of its own
// without a line, so the error is at the function's line.  Exit 1 and no
// object.
// RUN: %clang -g -O0 -c -emit-llvm %s -o %t.bc
// RUN: rm -f %t.o
// RUN: not %b3c %t.bc -o %t.o 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// CHECK: computed-goto.c:[[@LINE+3]]:1: error: in the initializer of 'f.t': block addresses (computed goto) are not supported yet
// CHECK: computed-goto.c:[[@LINE+1]]:1: error: in function 'f': indirectbr (computed goto) is not supported yet
int f(int n) {
    static void *t[] = {&&a, &&b};
    goto *t[n & 1];
a:
    return 1;
b:
    return 2;
}
