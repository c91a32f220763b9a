// A computed goto: the label addresses in the static table (no source line:
// named by the input) and the indirectbr, which clang puts in a block of its
// own without a line, so the error is at the function's line.  Exit 1 and no
// object.
// RUN: %clang -g -O0 -c -emit-llvm %s -o %t.bc
// RUN: rm -f %t.o
// RUN: not %b3c %t.bc -o %t.o 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// CHECK: .bc: error: block addresses (computed goto) are not supported yet
// CHECK: computed-goto.c:[[@LINE+1]]:1: error: in function 'f': indirectbr (computed goto) is not supported yet
int f(int n) {
    static void *t[] = {&&a, &&b};
    goto *t[n & 1];
a:
    return 1;
b:
    return 2;
}
