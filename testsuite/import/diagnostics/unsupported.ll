; Constructs the front end does not support (yet) are errors at the .ll line
; of the function (no debug info): each function is reported, the module's
; global errors first; exit 1 and no object.
; RUN: rm -f %t.o
; RUN: not %b3c %s -o %t.o 2>&1 | FileCheck %s
; RUN: test ! -e %t.o
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global i32 0
declare void @llvm.va_start(ptr)

; A variadic definition compiles (docs/c-extensions.md, "Variadic procedures").
; CHECK-NOT: in function 'variadic'
define i32 @variadic(i32 %n, ...) {
  ret i32 %n
}

; clang lowers va_arg in the IR for x86-64 (and AAPCS64); only Apple arm64
; leaves the instruction to the back end.
; CHECK: unsupported.ll:[[@LINE+1]]:1: error: in function 'vaarg': a va_arg instruction is not supported on x86-64 (clang lowers va_arg in the IR there)
define i32 @vaarg(ptr %ap) {
  %v = va_arg ptr %ap, i32
  ret i32 %v
}

; CHECK: unsupported.ll:[[@LINE+1]]:1: error: in function 'ld': fp128 (__float128, arm64 Linux's long double) is supported only on aarch64-linux-gnu
define double @ld(fp128 %x) {
  %d = fptrunc fp128 %x to double
  ret double %d
}

; CHECK: unsupported.ll:[[@LINE+1]]:1: error: in function 'vec': vector arithmetic is not supported
define <4 x i32> @vec(<4 x i32> %a) {
  %r = add <4 x i32> %a, %a
  ret <4 x i32> %r
}

; An argument the import refuses, after others were imported (nothing may
; leak: make check-sanitize runs this with LeakSanitizer).
declare void @takes(i32, fp128)
; CHECK: unsupported.ll:[[@LINE+1]]:1: error: in function 'ldarg': fp128 (__float128, arm64 Linux's long double) is supported only on aarch64-linux-gnu
define void @ldarg(i32 %x) {
  call void @takes(i32 %x, fp128 0xL00000000000000003FFF000000000000)
  ret void
}
; CHECK-NOT: error
