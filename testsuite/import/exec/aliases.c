// Aliases from C (docs/c-extensions.md, "Aliases"): of data and of
// functions, weak ones a strong definition elsewhere replaces (a second
// object), hidden ones, and (in the .ll construct test import/aliases.ll)
// one at an offset into a global.  Both levels and -S through the
// assembler, both ELF targets.
// RUN: %clang -O0 -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %clang -O0 -c -DOTHER %s -o %t-other.o
// RUN: %cc %t0.o %t-other.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %b3c --emit=b3 %t2.bc | FileCheck --check-prefix=B3 %s
// RUN: %cc %t2.o %t-other.o -o %t2
// RUN: %run %t2 | FileCheck %s
// RUN: %b3c -S %t2.bc -o %t2.s
// RUN: %cc -c %t2.s -o %t2.as.o
// RUN: %cc %t2.as.o %t-other.o -o %t2as
// RUN: %run %t2as | FileCheck %s
// B3-DAG: alias @numbers_alias = @numbers
// B3-DAG: alias @triple = @impl
// B3-DAG: alias @replaced weak = @impl
// B3-DAG: alias @kept weak = @impl
// B3-DAG: alias @hidden_triple hidden = @impl
// CHECK: numbers_alias 10 20 30
// CHECK-NEXT: triple 21 hidden 24 replaced 1007 kept 27
// CHECK-NEXT: same address 1 1
#include <stdio.h>

#ifdef OTHER
int replaced(int x) { return x + 1000; } /* the strong definition wins */
#else
int numbers[3] = {10, 20, 30};
extern int numbers_alias[3] __attribute__((alias("numbers")));

static int impl(int x) { return x * 3; }
int triple(int x) __attribute__((alias("impl")));
int replaced(int x) __attribute__((weak, alias("impl")));
int kept(int x) __attribute__((weak, alias("impl")));
__attribute__((visibility("hidden"))) int hidden_triple(int x) __attribute__((alias("impl")));

int main(void) {
    printf("numbers_alias %d %d %d\n", numbers_alias[0], numbers_alias[1], numbers_alias[2]);
    printf("triple %d hidden %d replaced %d kept %d\n", triple(7), hidden_triple(8), replaced(7), kept(9));
    printf("same address %d %d\n", (void *)numbers_alias == (void *)numbers,
           (void *)triple == (void *)hidden_triple);
    return 0;
}
#endif
