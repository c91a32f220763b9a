// Relative lookup tables: clang -O2 -fPIC turns a table of string pointers
// that a function only indexes (here an array and a switch) into an i32
// table of offsets read by llvm.load.relative (bzip2's BZ2_bzerror); the
// import keeps it as pointers.  Built as position-independent code, linked
// into a program, and also at -O0 (plain tables).
// RUN: %clang -O2 -fPIC -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// RUN: %clang -O0 -fPIC -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
#include <stdio.h>

static const char *errors[] = {"OK", "SEQUENCE_ERROR", "PARAM_ERROR", "MEM_ERROR", "DATA_ERROR", "???"};

__attribute__((noinline)) const char *error_name(int err) {
    if (err > 0 || err < -5)
        err = -5;
    return errors[-err];
}

__attribute__((noinline)) const char *colour(unsigned c) {
    switch (c) {
    case 0:
        return "red";
    case 1:
        return "green";
    case 2:
        return "blue";
    case 3:
        return "cyan";
    case 4:
        return "magenta";
    default:
        return "none";
    }
}

int main(void) {
    // CHECK: OK SEQUENCE_ERROR MEM_ERROR DATA_ERROR ??? ???
    printf("%s %s %s %s %s %s\n", error_name(0), error_name(-1), error_name(-3), error_name(-4),
           error_name(-5), error_name(7));
    // CHECK-NEXT: red green blue cyan magenta none
    printf("%s %s %s %s %s %s\n", colour(0), colour(1), colour(2), colour(3), colour(4), colour(99));
    return 0;
}
