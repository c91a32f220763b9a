// Constructors and destructors from C (llvm.global_ctors/global_dtors):
// prioritized ones before the default ones, all before main; destructors
// in the reverse order (the default ones first).  Both levels, both ELF
// targets.  The object's sections: elf/ctors.test.
// RUN: %clang -O0 -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %b3c --emit=b3 %t2.bc | FileCheck --check-prefix=B3 %s
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// B3-DAG: proc @early internal constructor(101) {
// B3-DAG: proc @later internal constructor(102) {
// B3-DAG: proc @plain constructor {
// B3-DAG: proc @dlate internal destructor(101) {
// B3-DAG: proc @dplain internal destructor {
// CHECK: ctor 101 0
// CHECK-NEXT: ctor 102 1
// CHECK-NEXT: ctor default 2
// CHECK-NEXT: main 3
// CHECK-NEXT: dtor default 4
// CHECK-NEXT: dtor 101 5
#include <stdio.h>

static int step;
static void __attribute__((constructor(102))) later(void) { printf("ctor 102 %d\n", step++); }
static void __attribute__((constructor(101))) early(void) { printf("ctor 101 %d\n", step++); }
void __attribute__((constructor)) plain(void) { printf("ctor default %d\n", step++); }
static void __attribute__((destructor(101))) dlate(void) { printf("dtor 101 %d\n", step++); }
static void __attribute__((destructor)) dplain(void) { printf("dtor default %d\n", step++); }
int main(void) {
    printf("main %d\n", step++);
    return 0;
}
