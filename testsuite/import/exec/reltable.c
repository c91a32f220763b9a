// Relative lookup tables: clang -O2 turns a constant table of pointers to
// local constants, indexed by a variable, into 32-bit offsets from the table
// (i32 `trunc (sub (ptrtoint @str, ptrtoint @reltable))` initializers, read by
// llvm.load.relative), which import as Rel32 data.  Checked against gcc.
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: llvm-dis-16 %t2.bc -o - | FileCheck --check-prefix=IR %s
// IR: call ptr @llvm.load.relative.i64(ptr @reltable.
// RUN: %b3c --emit=b3 %t2.bc -o - | FileCheck --check-prefix=B3 %s
// B3: Rel32 @
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// RUN: %clang -O0 -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
#include <stdio.h>

static const char *const names[] = {"call", "return", "line", "count", "tail call"};
static const char *const words[] = {&"alpha"[1], &"beta"[2], "gamma", &"delta"[4]};

__attribute__((noinline)) static const char *name(int k) { return names[k]; }
__attribute__((noinline)) static const char *word(int k) { return words[k]; }

int main(void) {
    for (int i = 0; i < 5; i++)
        printf("%s|", name(i));
    for (int i = 0; i < 4; i++)
        printf("%s|", word(i));
    printf("\n");
    return 0;
}
// CHECK: call|return|line|count|tail call|lpha|ta|gamma|a|
