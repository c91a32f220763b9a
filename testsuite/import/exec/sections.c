// Globals in sections of their own from C (docs/c-extensions.md,
// "section"): a linker set read through the linker's __start_/__stop_
// symbols, writable data in a section of its own.  Both levels, both ELF
// targets, the object and -S through the assembler.
// RUN: %clang -O0 -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %b3c --emit=b3 %t2.bc | FileCheck --check-prefix=B3 %s
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// RUN: %b3c -S %t2.bc -o %t2.s
// RUN: %cc -c %t2.s -o %t2.as.o
// RUN: %cc %t2.as.o -o %t2as
// RUN: %run %t2as | FileCheck %s
// B3-DAG: data @entry_one internal readonly section("b3set") {
// B3-DAG: data @counter section(".data.counters") {
// CHECK: one 1
// CHECK-NEXT: two 2
// CHECK-NEXT: three 3
// CHECK-NEXT: sum 6 counter 42
#include <stdio.h>

struct entry {
    const char *name;
    int value;
};
#define ENTRY(n, v) \
    static const struct entry entry_##n __attribute__((used, section("b3set"), aligned(8))) = {#n, v}
ENTRY(one, 1);
ENTRY(two, 2);
ENTRY(three, 3);
extern const struct entry __start_b3set[], __stop_b3set[];

int counter __attribute__((section(".data.counters"))) = 41;

int main(void) {
    int sum = 0;
    for (const struct entry *e = __start_b3set; e < __stop_b3set; e++) {
        printf("%s %d\n", e->name, e->value);
        sum += e->value;
    }
    printf("sum %d counter %d\n", sum, ++counter);
    return 0;
}
