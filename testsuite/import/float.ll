; Floating-point arithmetic; frem is a call to fmod/fmodf; NaN, -0.0 and
; infinity constants.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @arith(double %a, double %b) {
  %1 = fadd double %a, %b
  %2 = fsub double %1, %b
  %3 = fmul double %2, %a
  %4 = fdiv double %3, %b
  %5 = fneg double %4
  %6 = frem double %5, %a
  ret double %6
}

define float @arithf(float %a, float %b) {
  %1 = fadd fast float %a, %b
  %2 = frem float %1, %b
  ret float %2
}

define double @consts() {
  %1 = fadd double 0x7FF8000000000000, -0.0
  %2 = fadd double %1, 0x7FF0000000000000
  %3 = fadd double %2, 1.5
  ret double %3
}

; CHECK-LABEL: proc @arith 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Double [[V2:@[0-9]+]] = Add([[V0]], [[V1]])
; CHECK: Double [[V3:@[0-9]+]] = Sub([[V2]], [[V1]])
; CHECK: Double [[V4:@[0-9]+]] = Mul([[V3]], [[V0]])
; CHECK: Double [[V5:@[0-9]+]] = Div([[V4]], [[V1]])
; CHECK: Double [[V6:@[0-9]+]] = Neg([[V5]])
; CHECK: Int64 [[V7:@[0-9]+]] = SymbolAddress(@fmod)
; CHECK: Double [[V8:@[0-9]+]] = CCall([[V7]], [[V6]], [[V0]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @arithf 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Float [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Double [[V2:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Float [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Float [[V4:@[0-9]+]] = Add([[V1]], [[V3]])
; CHECK: Int64 [[V5:@[0-9]+]] = SymbolAddress(@fmodf)
; CHECK: Float [[V6:@[0-9]+]] = CCall([[V5]], [[V4]], [[V3]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @consts 
; CHECK: Double [[V0:@[0-9]+]] = ConstDouble(nan)
; CHECK: Double [[V1:@[0-9]+]] = ConstDouble(-0.0)
; CHECK: Double [[V2:@[0-9]+]] = Add([[V0]], [[V1]])
; CHECK: Double [[V3:@[0-9]+]] = ConstDouble(inf)
; CHECK: Double [[V4:@[0-9]+]] = Add([[V2]], [[V3]])
; CHECK: Double [[V5:@[0-9]+]] = ConstDouble(1.5)
; CHECK: Double [[V6:@[0-9]+]] = Add([[V4]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])
; CHECK: extern @fmod
; CHECK: extern @fmodf
