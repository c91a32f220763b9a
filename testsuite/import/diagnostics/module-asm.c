// Module-level assembly (a top-level __asm__) is an error naming the
// module: LLVM keeps no C location for it, and b3c has no assembler to put
// its text into the object.  Exit 1, no object.
// RUN: %clang -g -O0 -c -emit-llvm %s -o %t.bc
// RUN: rm -f %t.o
// RUN: not %b3c %t.bc -o %t.o 2>&1 | FileCheck %s
// RUN: test ! -e %t.o
// CHECK: module-asm.c.tmp.bc: error: module-level inline assembly is not supported
__asm__(".globl b3_asm_symbol\nb3_asm_symbol = 42");
int f(void) { return 1; }
