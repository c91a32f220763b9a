; Every icmp and fcmp predicate.  i16 operands are extended (signed: SExt16,
; unsigned: masked); the unordered fcmps are the negated ordered ones.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i1 @i_eq(i16 %a, i16 %b) {
  %c = icmp eq i16 %a, %b
  ret i1 %c
}

define i1 @i_ne(i16 %a, i16 %b) {
  %c = icmp ne i16 %a, %b
  ret i1 %c
}

define i1 @i_ugt(i16 %a, i16 %b) {
  %c = icmp ugt i16 %a, %b
  ret i1 %c
}

define i1 @i_uge(i16 %a, i16 %b) {
  %c = icmp uge i16 %a, %b
  ret i1 %c
}

define i1 @i_ult(i16 %a, i16 %b) {
  %c = icmp ult i16 %a, %b
  ret i1 %c
}

define i1 @i_ule(i16 %a, i16 %b) {
  %c = icmp ule i16 %a, %b
  ret i1 %c
}

define i1 @i_sgt(i16 %a, i16 %b) {
  %c = icmp sgt i16 %a, %b
  ret i1 %c
}

define i1 @i_sge(i16 %a, i16 %b) {
  %c = icmp sge i16 %a, %b
  ret i1 %c
}

define i1 @i_slt(i16 %a, i16 %b) {
  %c = icmp slt i16 %a, %b
  ret i1 %c
}

define i1 @i_sle(i16 %a, i16 %b) {
  %c = icmp sle i16 %a, %b
  ret i1 %c
}

define i1 @f_false(double %a, double %b) {
  %c = fcmp false double %a, %b
  ret i1 %c
}

define i1 @f_oeq(double %a, double %b) {
  %c = fcmp oeq double %a, %b
  ret i1 %c
}

define i1 @f_ogt(double %a, double %b) {
  %c = fcmp ogt double %a, %b
  ret i1 %c
}

define i1 @f_oge(double %a, double %b) {
  %c = fcmp oge double %a, %b
  ret i1 %c
}

define i1 @f_olt(double %a, double %b) {
  %c = fcmp olt double %a, %b
  ret i1 %c
}

define i1 @f_ole(double %a, double %b) {
  %c = fcmp ole double %a, %b
  ret i1 %c
}

define i1 @f_one(double %a, double %b) {
  %c = fcmp one double %a, %b
  ret i1 %c
}

define i1 @f_ord(double %a, double %b) {
  %c = fcmp ord double %a, %b
  ret i1 %c
}

define i1 @f_ueq(double %a, double %b) {
  %c = fcmp ueq double %a, %b
  ret i1 %c
}

define i1 @f_ugt(double %a, double %b) {
  %c = fcmp ugt double %a, %b
  ret i1 %c
}

define i1 @f_uge(double %a, double %b) {
  %c = fcmp uge double %a, %b
  ret i1 %c
}

define i1 @f_ult(double %a, double %b) {
  %c = fcmp ult double %a, %b
  ret i1 %c
}

define i1 @f_ule(double %a, double %b) {
  %c = fcmp ule double %a, %b
  ret i1 %c
}

define i1 @f_une(double %a, double %b) {
  %c = fcmp une double %a, %b
  ret i1 %c
}

define i1 @f_uno(double %a, double %b) {
  %c = fcmp uno double %a, %b
  ret i1 %c
}

define i1 @f_true(double %a, double %b) {
  %c = fcmp true double %a, %b
  ret i1 %c
}

define i1 @f_float(float %a, float %b) {
  %c = fcmp olt float %a, %b
  ret i1 %c
}

; CHECK-LABEL: proc @i_eq 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V7:@[0-9]+]] = BitAnd([[V3]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = Equal([[V5]], [[V7]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @i_ne 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V7:@[0-9]+]] = BitAnd([[V3]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = NotEqual([[V5]], [[V7]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @i_ugt 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V7:@[0-9]+]] = BitAnd([[V3]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = Above([[V5]], [[V7]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @i_uge 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V7:@[0-9]+]] = BitAnd([[V3]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = AboveEqual([[V5]], [[V7]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @i_ult 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V7:@[0-9]+]] = BitAnd([[V3]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = Below([[V5]], [[V7]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @i_ule 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V7:@[0-9]+]] = BitAnd([[V3]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = BelowEqual([[V5]], [[V7]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @i_sgt 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt16([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = SExt16([[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = GreaterThan([[V4]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @i_sge 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt16([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = SExt16([[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = GreaterEqual([[V4]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @i_slt 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt16([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = SExt16([[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = LessThan([[V4]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @i_sle 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt16([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = SExt16([[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = LessEqual([[V4]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @f_false 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = Const32(0)
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_oeq 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = Equal([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_ogt 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = GreaterThan([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_oge 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = GreaterEqual([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_olt 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = LessThan([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_ole 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = LessEqual([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_one 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = GreaterThan([[V0]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = LessThan([[V0]], [[V1]])
; CHECK: Int32 [[V4:@[0-9]+]] = BitOr([[V3]], [[V2]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_ord 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = Equal([[V1]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Equal([[V0]], [[V0]])
; CHECK: Int32 [[V4:@[0-9]+]] = BitAnd([[V3]], [[V2]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_ueq 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = EqualOrUnordered([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_ugt 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = LessEqual([[V0]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V4:@[0-9]+]] = BitXor([[V2]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_uge 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = LessThan([[V0]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V4:@[0-9]+]] = BitXor([[V2]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_ult 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = GreaterEqual([[V0]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V4:@[0-9]+]] = BitXor([[V2]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_ule 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = GreaterThan([[V0]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V4:@[0-9]+]] = BitXor([[V2]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_une 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = NotEqual([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_uno 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = NotEqual([[V1]], [[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = NotEqual([[V0]], [[V0]])
; CHECK: Int32 [[V4:@[0-9]+]] = BitOr([[V3]], [[V2]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @f_true 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Int32 [[V2:@[0-9]+]] = Const32(1)
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @f_float 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Float [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Double [[V2:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Float [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = LessThan([[V1]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])
