; Arguments passed whole and results of three or four registers (AAPCS64,
; docs/llvm-import.md): a { float, float, float } result is Return of three
; values and, at a call, the call, its SecondResult and Result(@call,
; index = 2); a [3 x float] that does not fit in the vector registers left
; goes on the stack as a ByVal copy after two Double pads; an i128 after
; seven integers skips x7 (a pad) and goes on the stack as ByVal(16, 16).
; RUN: %b3c --target=aarch64-linux-gnu -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

%struct.F3 = type { float, float, float }

declare %struct.F3 @mk3(float)
declare float @take(double, double, double, double, double, double, [3 x float], double)
declare i64 @wide(i64, i64, i64, i64, i64, i64, i64, i128, i64)

; CHECK-LABEL: proc @ret3
; CHECK: Void @{{[0-9]+}} = Return(@{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}})
define %struct.F3 @ret3(float %x) {
  %a = insertvalue %struct.F3 undef, float %x, 0
  %b = insertvalue %struct.F3 %a, float %x, 1
  %c = insertvalue %struct.F3 %b, float %x, 2
  ret %struct.F3 %c
}

; CHECK-LABEL: proc @call3
; CHECK: Float @[[C:[0-9]+]] = CCall(
; CHECK-NEXT: Float @{{[0-9]+}} = SecondResult(@[[C]])
; CHECK-NEXT: Float @{{[0-9]+}} = Result(@[[C]], index = 2)
define float @call3(float %x) {
  %r = call %struct.F3 @mk3(float %x)
  %z = extractvalue %struct.F3 %r, 2
  ret float %z
}

; CHECK-LABEL: proc @hfa_stack
; CHECK: Double @[[P:[0-9]+]] = ConstDouble(0.0)
; CHECK: Double @[[Q:[0-9]+]] = ConstDouble(0.0)
; CHECK: Int64 @[[S:[0-9]+]] = SlotBase(arg0)
; CHECK: Store(@{{[0-9]+}}, @[[S]], offset = 8)
; CHECK: CCall(@{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @[[P]], @[[Q]], @[[S]]:ByVal(12, 4), @{{[0-9]+}})
; CHECK: arg0: byteSize = 12, align = 4
define float @hfa_stack(double %d, [3 x float] %s) {
  %r = call float @take(double %d, double %d, double %d, double %d, double %d, double %d, [3 x float] %s, double %d)
  ret float %r
}

; The callee side: the aggregate read from the caller's argument area.
; CHECK-LABEL: proc @take_def
; CHECK: Int64 @[[FP:[0-9]+]] = FramePointer()
; CHECK-NEXT: Int64 @[[K:[0-9]+]] = Const64(16)
; CHECK-NEXT: Int64 @[[AT:[0-9]+]] = Add(@[[FP]], @[[K]])
; CHECK: Float @[[Z:[0-9]+]] = Load(@[[AT]], offset = 8)
; CHECK: Double @{{[0-9]+}} = Load(@{{[0-9]+}}, offset = 32)
; CHECK: Return(@[[Z]])
define float @take_def(double, double, double, double, double, double, [3 x float] %s, double) {
  %z = extractvalue [3 x float] %s, 2
  ret float %z
}

; CHECK-LABEL: proc @i128_stack
; CHECK: Int64 @[[PAD:[0-9]+]] = Const64(0)
; CHECK: Int64 @[[S2:[0-9]+]] = SlotBase(arg0)
; CHECK: CCall(@{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @{{[0-9]+}}, @[[PAD]], @[[S2]]:ByVal(16, 16), @{{[0-9]+}})
define i64 @i128_stack(i64 %a, i128 %x) {
  %r = call i64 @wide(i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i128 %x, i64 %a)
  ret i64 %r
}
