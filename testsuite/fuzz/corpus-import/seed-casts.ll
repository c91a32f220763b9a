; Every cast: integer extensions and truncation, floating point to and from
; integers (signed and unsigned), fptrunc/fpext, bitcasts.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i64 @ints(i8 %a, i16 %b, i32 %c, i64 %d) {
  %1 = zext i8 %a to i64
  %2 = sext i16 %b to i64
  %3 = sext i32 %c to i64
  %4 = trunc i64 %d to i8
  %5 = zext i8 %4 to i64
  %6 = add i64 %1, %2
  %7 = add i64 %6, %3
  %8 = add i64 %7, %5
  ret i64 %8
}

define i32 @fp_to_int(double %d, float %f) {
  %1 = fptosi double %d to i32
  %2 = fptoui double %d to i32
  %3 = fptosi float %f to i8
  %4 = fptoui float %f to i64
  %5 = sext i8 %3 to i32
  %6 = trunc i64 %4 to i32
  %7 = add i32 %1, %2
  %8 = add i32 %7, %5
  %9 = add i32 %8, %6
  ret i32 %9
}

define double @int_to_fp(i32 %a, i64 %b, i16 %c, i8 %e) {
  %1 = sitofp i32 %a to double
  %2 = uitofp i32 %a to double
  %3 = sitofp i64 %b to double
  %4 = uitofp i64 %b to double
  %5 = sitofp i16 %c to double
  %6 = uitofp i8 %e to float
  %7 = fpext float %6 to double
  %8 = fadd double %1, %2
  %9 = fadd double %8, %3
  %10 = fadd double %9, %4
  %11 = fadd double %10, %5
  %12 = fadd double %11, %7
  ret double %12
}

define float @fp(double %d) {
  %1 = fptrunc double %d to float
  ret float %1
}

define i64 @bits(double %d, float %f) {
  %1 = bitcast double %d to i64
  %2 = bitcast float %f to i32
  %3 = zext i32 %2 to i64
  %4 = add i64 %1, %3
  ret i64 %4
}

define float @bits_back(i32 %x) {
  %1 = bitcast i32 %x to float
  ret float %1
}

define i1 @tobool(i32 %x) {
  %1 = trunc i32 %x to i1
  ret i1 %1
}







