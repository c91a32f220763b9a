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



