; getelementptr: struct fields and array elements become constant offsets,
; variable indices are sign-extended and scaled; constant expressions.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S = type { i8, i32, [4 x i16], ptr }

define ptr @field(ptr %p) {
  %f = getelementptr inbounds %struct.S, ptr %p, i64 0, i32 3
  ret ptr %f
}

define ptr @array(ptr %p, i64 %i, i32 %j) {
  %e = getelementptr inbounds %struct.S, ptr %p, i64 %i, i32 2, i32 %j
  ret ptr %e
}

define ptr @bytes(ptr %p, i8 %k) {
  %e = getelementptr i8, ptr %p, i8 %k
  ret ptr %e
}

define ptr @neg(ptr %p) {
  %e = getelementptr inbounds i32, ptr %p, i64 -3
  ret ptr %e
}
@g = global [10 x i32] zeroinitializer

define ptr @constgep() {
  ret ptr getelementptr inbounds ([10 x i32], ptr @g, i64 0, i64 7)
}

define i64 @ptrint(ptr %p, i64 %x) {
  %i = ptrtoint ptr %p to i64
  %q = inttoptr i64 %x to ptr
  %j = ptrtoint ptr %q to i64
  %d = sub i64 %i, %j
  ret i64 %d
}

; CHECK-LABEL: data @g 
; CHECK: Zero 40

; CHECK-LABEL: proc @field 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = Const64(16)
; CHECK: Int64 [[V2:@[0-9]+]] = Add([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @array 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = Const64(24)
; CHECK: Int64 [[V5:@[0-9]+]] = Mul([[V1]], [[V4]])
; CHECK: Int64 [[V6:@[0-9]+]] = Add([[V0]], [[V5]])
; CHECK: Int64 [[V7:@[0-9]+]] = SExt32([[V3]])
; CHECK: Int32 [[V8:@[0-9]+]] = Const32(1)
; CHECK: Int64 [[V9:@[0-9]+]] = Shl([[V7]], [[V8]])
; CHECK: Int64 [[V10:@[0-9]+]] = Add([[V6]], [[V9]])
; CHECK: Int64 [[V11:@[0-9]+]] = Const64(8)
; CHECK: Int64 [[V12:@[0-9]+]] = Add([[V10]], [[V11]])
; CHECK: Void [[V13:@[0-9]+]] = Return([[V12]])

; CHECK-LABEL: proc @bytes 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = SExt8([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = SExt32([[V3]])
; CHECK: Int64 [[V5:@[0-9]+]] = Add([[V0]], [[V4]])
; CHECK: Void [[V6:@[0-9]+]] = Return([[V5]])

; CHECK-LABEL: proc @neg 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = Const64(-12)
; CHECK: Int64 [[V2:@[0-9]+]] = Add([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @constgep 
; CHECK: Int64 [[V0:@[0-9]+]] = SymbolAddress(@g)
; CHECK: Int64 [[V1:@[0-9]+]] = Const64(28)
; CHECK: Int64 [[V2:@[0-9]+]] = Add([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @ptrint 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = Sub([[V0]], [[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])
