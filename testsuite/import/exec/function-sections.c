// Functions in sections of their own from C (docs/c-extensions.md,
// "section"; docs/llvm-import.md): .text.hot, .text.unlikely and a custom
// section found through the linker's __start_/__stop_ symbols.  backtrace()
// from the function in .text.unlikely unwinds through the others (each
// one's .eh_frame FDE names its section); -g line info covers the code in
// its section.  Both levels, both ELF targets, the object and -S through
// the assembler.
// RUN: %clang -O0 -g -c -emit-llvm %s -o %t0.bc
// RUN: %b3c -g %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -g -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c -g %t2.bc -o %t2.o
// RUN: %b3c --emit=b3 %t2.bc | FileCheck --check-prefix=B3 %s
// RUN: llvm-readelf-16 -S %t2.o | FileCheck --check-prefix=SEC %s
// RUN: llvm-dwarfdump-16 --verify %t2.o | FileCheck --check-prefix=VERIFY %s
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// RUN: llvm-objdump-16 -d -l --section=b3code %t2 | FileCheck --check-prefix=LINES %s
// RUN: %b3c -S %t2.bc -o %t2.s
// RUN: %cc -c %t2.s -o %t2.as.o
// RUN: %cc %t2.as.o -o %t2as
// RUN: %run %t2as | FileCheck %s
// B3-DAG: proc @cold_leaf section(".text.unlikely") {
// B3-DAG: proc @custom section("b3code") {
// B3-DAG: proc @hot section(".text.hot") {
// SEC-DAG: ] .text.unlikely PROGBITS {{.*}} AX
// SEC-DAG: ] .text.hot PROGBITS {{.*}} AX
// SEC-DAG: ] b3code PROGBITS {{.*}} AX
// VERIFY: No errors.
// CHECK: result 1128
// CHECK-NEXT: custom in b3code 1
// CHECK-NEXT: caller in b3code 1
// CHECK-NEXT: frames 1
// LINES: <custom>:
// LINES: function-sections.c:[[@LINE+13]]
#include <execinfo.h>
#include <stdio.h>

static void *pcs[32];
static int depth;

__attribute__((noinline, section(".text.unlikely"))) int cold_leaf(int x) {
    depth = backtrace(pcs, 32);
    return x + 1;
}

__attribute__((noinline, section("b3code"))) int custom(int x) {
    volatile int k = x;
    switch (k) {
    case 0:
        return cold_leaf(k) * 2;
    case 1:
        return cold_leaf(k) * 3;
    case 2:
        return cold_leaf(k) * 5;
    case 3:
        return cold_leaf(k) * 7;
    case 4:
        return cold_leaf(k) * 11;
    default:
        return cold_leaf(k);
    }
}

__attribute__((noinline, section(".text.hot"))) int hot(int x) { return custom(x) + 1100; }

extern char __start_b3code[], __stop_b3code[];

static int in_b3code(void *p) { return (char *)p >= __start_b3code && (char *)p < __stop_b3code; }

int main(void) {
    int r = hot(3);
    printf("result %d\n", r);
    printf("custom in b3code %d\n", in_b3code((void *)custom));
    /* pcs[0]: in cold_leaf; pcs[1]: its return address in custom. */
    printf("caller in b3code %d\n", depth > 1 && in_b3code(pcs[1]));
    /* cold_leaf, custom, hot, main and the C library's start-up. */
    printf("frames %d\n", depth >= 5);
    return 0;
}
