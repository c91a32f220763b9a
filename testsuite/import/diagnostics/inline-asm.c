// An unsupported construct with -g: the error is at the C line of the
// instruction (inline assembly), with the source line and a caret; every
// function is reported; exit 1 and no object.  Without -g, at the .ll line
// of the function.
// RUN: %clang -g -O0 -c -emit-llvm %s -o %t.bc
// RUN: rm -f %t.o
// RUN: not %b3c %t.bc -o %t.o 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// RUN: %clang -O0 -S -emit-llvm %s -o %t.ll
// RUN: not %b3c %t.ll -o %t.o 2>&1 | FileCheck --check-prefix=LL %s
// RUN: test ! -e %t.o
int g(int x) {
    int r;
    // CHECK: inline-asm.c:[[@LINE+3]]:5: error: in function 'g': inline assembly is not supported
    // CHECK-NEXT: {{^}}    __asm__("mov %1, %0" : "=r"(r) : "r"(x));
    // CHECK-NEXT: {{^}}    ^
    __asm__("mov %1, %0" : "=r"(r) : "r"(x));
    return r;
}
int h(int x) {
    int r;
    // CHECK: inline-asm.c:[[@LINE+1]]:5: error: in function 'h': inline assembly is not supported
    __asm__("add %1, %0" : "+r"(r) : "r"(x));
    return r;
}
// LL: .ll:{{[0-9]+}}:1: error: in function 'g': inline assembly is not supported
// LL-NEXT: define {{.*}}@g(
// LL-NEXT: {{^}}^
// LL: .ll:{{[0-9]+}}:1: error: in function 'h': inline assembly is not supported
