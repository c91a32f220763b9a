; long double types the target cannot compile are errors at the function:
; x86_fp80 on a target without the x87 unit (fp128 elsewhere than arm64
; Linux: unsupported.ll).  Exit 1 and no object.
; RUN: rm -f %t.o
; RUN: not %b3c-bin --target=aarch64-linux-gnu %s -o %t.o 2>&1 | FileCheck %s
; RUN: test ! -e %t.o
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-NOT: quad
define fp128 @quad(fp128 %a, fp128 %b) {
  %r = fadd fp128 %a, %b
  ret fp128 %r
}

; CHECK: long-double-target.ll:[[@LINE+1]]:1: error: in function 'ext': long double (x86_fp80) needs the x87 unit of an x86-64 target
define double @ext(ptr %p) {
  %x = load x86_fp80, ptr %p
  %d = fptrunc x86_fp80 %x to double
  ret double %d
}
