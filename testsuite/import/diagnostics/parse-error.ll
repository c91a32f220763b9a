; An invalid .ll: LLVM's own parse error (file:line:col, the line, a caret);
; exit 1, no object.
; RUN: rm -f %t.o
; RUN: not %b3c %s -o %t.o 2>&1 | FileCheck %s
; RUN: test ! -e %t.o
define i32 @f() {
; CHECK: parse-error.ll:[[@LINE+3]]:11: error: use of undefined value '%x'
; CHECK-NEXT: {{^}}  ret i32 %x
; CHECK-NEXT: {{^}}          ^
  ret i32 %x
}
