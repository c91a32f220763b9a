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

; CHECK-LABEL: proc @ints 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V5:@[0-9]+]] = Trunc([[V4]])
; CHECK: Int64 [[V6:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V7:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V8:@[0-9]+]] = BitAnd([[V1]], [[V7]])
; CHECK: Int64 [[V9:@[0-9]+]] = ZExt32([[V8]])
; CHECK: Int32 [[V10:@[0-9]+]] = SExt16([[V3]])
; CHECK: Int64 [[V11:@[0-9]+]] = SExt32([[V10]])
; CHECK: Int64 [[V12:@[0-9]+]] = SExt32([[V5]])
; CHECK: Int32 [[V13:@[0-9]+]] = Trunc([[V6]])
; CHECK: Int32 [[V14:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V15:@[0-9]+]] = BitAnd([[V13]], [[V14]])
; CHECK: Int64 [[V16:@[0-9]+]] = ZExt32([[V15]])
; CHECK: Int64 [[V17:@[0-9]+]] = Add([[V9]], [[V11]])
; CHECK: Int64 [[V18:@[0-9]+]] = Add([[V17]], [[V12]])
; CHECK: Int64 [[V19:@[0-9]+]] = Add([[V18]], [[V16]])
; CHECK: Void [[V20:@[0-9]+]] = Return([[V19]])

; CHECK-LABEL: proc @fp_to_int 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Float [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = DToI([[V0]])
; CHECK: Int32 [[V4:@[0-9]+]] = DToU([[V0]])
; CHECK: Int32 [[V5:@[0-9]+]] = DToI([[V2]])
; CHECK: Int64 [[V6:@[0-9]+]] = DToU([[V2]])
; CHECK: Int32 [[V7:@[0-9]+]] = SExt8([[V5]])
; CHECK: Int32 [[V8:@[0-9]+]] = Trunc([[V6]])
; CHECK: Int32 [[V9:@[0-9]+]] = Add([[V3]], [[V4]])
; CHECK: Int32 [[V10:@[0-9]+]] = Add([[V9]], [[V7]])
; CHECK: Int32 [[V11:@[0-9]+]] = Add([[V10]], [[V8]])
; CHECK: Void [[V12:@[0-9]+]] = Return([[V11]])

; CHECK-LABEL: proc @int_to_fp 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V3:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V4:@[0-9]+]] = Trunc([[V3]])
; CHECK: Int64 [[V5:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V6:@[0-9]+]] = Trunc([[V5]])
; CHECK: Double [[V7:@[0-9]+]] = IToD([[V1]])
; CHECK: Double [[V8:@[0-9]+]] = UToD([[V1]])
; CHECK: Double [[V9:@[0-9]+]] = IToD([[V2]])
; CHECK: Double [[V10:@[0-9]+]] = UToD([[V2]])
; CHECK: Int32 [[V11:@[0-9]+]] = SExt16([[V4]])
; CHECK: Double [[V12:@[0-9]+]] = IToD([[V11]])
; CHECK: Int32 [[V13:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V14:@[0-9]+]] = BitAnd([[V6]], [[V13]])
; CHECK: Float [[V15:@[0-9]+]] = UToF([[V14]])
; CHECK: Double [[V16:@[0-9]+]] = FloatToDouble([[V15]])
; CHECK: Double [[V17:@[0-9]+]] = Add([[V7]], [[V8]])
; CHECK: Double [[V18:@[0-9]+]] = Add([[V17]], [[V9]])
; CHECK: Double [[V19:@[0-9]+]] = Add([[V18]], [[V10]])
; CHECK: Double [[V20:@[0-9]+]] = Add([[V19]], [[V12]])
; CHECK: Double [[V21:@[0-9]+]] = Add([[V20]], [[V16]])
; CHECK: Void [[V22:@[0-9]+]] = Return([[V21]])

; CHECK-LABEL: proc @fp 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Float [[V1:@[0-9]+]] = DoubleToFloat([[V0]])
; CHECK: Void [[V2:@[0-9]+]] = Return([[V1]])

; CHECK-LABEL: proc @bits 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Float [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int64 [[V3:@[0-9]+]] = BitwiseCast([[V0]])
; CHECK: Int32 [[V4:@[0-9]+]] = BitwiseCast([[V2]])
; CHECK: Int64 [[V5:@[0-9]+]] = ZExt32([[V4]])
; CHECK: Int64 [[V6:@[0-9]+]] = Add([[V3]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @bits_back 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Float [[V2:@[0-9]+]] = BitwiseCast([[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @tobool 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Void [[V2:@[0-9]+]] = Return([[V1]])
