// Unsupported constructs with -g: the error is at the C line of the
// instruction (a VLA's stack save, inline assembly), with the source line and
// a caret; every function is reported; exit 1 and no object.  Without -g, at
// the .ll line of the function.
// RUN: %clang -g -O0 -c -emit-llvm %s -o %t.bc
// RUN: rm -f %t.o
// RUN: not %b3c %t.bc -o %t.o 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// RUN: %clang -O0 -S -emit-llvm %s -o %t.ll
// RUN: not %b3c %t.ll -o %t.o 2>&1 | FileCheck --check-prefix=LL %s
// RUN: test ! -e %t.o
int g(int n) {
    // CHECK: vla-asm.c:[[@LINE+3]]:5: error: in function 'g': the intrinsic llvm.stacksave is not supported
    // CHECK-NEXT: {{^}}    int v[n];
    // CHECK-NEXT: {{^}}    ^
    int v[n];
    v[0] = n;
    return v[0];
}
int h(int x) {
    int r;
    // CHECK: vla-asm.c:[[@LINE+1]]:5: error: in function 'h': inline assembly is not supported
    __asm__("mov %1, %0" : "=r"(r) : "r"(x));
    return r;
}
// LL: .ll:{{[0-9]+}}:1: error: in function 'g': the intrinsic llvm.stacksave is not supported
// LL-NEXT: define {{.*}}@g(
// LL-NEXT: {{^}}^
// LL: .ll:{{[0-9]+}}:1: error: in function 'h': inline assembly is not supported
