; A module with debug info that LLVM's verifier rejects is refused while it
; is read (LLVM upgrades debug info and verifies there): a clean error, exit
; 1 and no object (before, LLVM's fatal error aborted b3c).
; RUN: rm -f %t.o
; RUN: not %b3c %s -o %t.o 2>&1 | FileCheck %s
; RUN: test ! -e %t.o
; CHECK: broken-debug-module.ll: error: invalid LLVM IR: Broken module found, compilation aborted!
; CHECK-NOT: LLVM ERROR
; As bitcode, whose function bodies are read one by one (no whole-module
; verification): the import's own check refuses it.
; RUN: llvm-as-16 -disable-verify %s -o %t.bc
; RUN: not %b3c %t.bc -o %t.o 2>&1 | FileCheck %s --check-prefix=BC
; RUN: test ! -e %t.o
; BC: .bc: error: in function 'f': an operand is used before it is defined
; BC-NOT: LLVM ERROR
target triple = "x86_64-pc-linux-gnu"

define i32 @f() {
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret i32 %a
}

!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
