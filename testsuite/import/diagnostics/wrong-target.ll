; A module for another target than b3c's --target: an error naming both.
; RUN: rm -f %t.o
; RUN: not %b3c-bin --target=x86_64-linux-gnu %s -o %t.o 2>&1 | FileCheck %s
; RUN: test ! -e %t.o
; RUN: not %b3c-bin --target=x86_64-apple-macos %s -o %t.o 2>&1 | FileCheck --check-prefix=APPLE %s
; RUN: %b3c-bin --target=aarch64-linux-gnu %s -o %t.o
; CHECK: wrong-target.ll: error: the module is for aarch64-unknown-linux-gnu, not for the target x86_64-linux-gnu (pass --target=)
; APPLE: error: the module is for aarch64-unknown-linux-gnu, not for the target x86_64-apple-macos
target triple = "aarch64-unknown-linux-gnu"

define void @f() {
  ret void
}
