; Calls: direct, indirect, variadic (variadic = number of fixed arguments),
; signext/zeroext arguments extended by the caller, a signext i8 result, and
; arguments past the registers read from the frame.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i32 @f(i32, i64)
declare void @g(i8 signext, i16 zeroext, i1 zeroext)
declare signext i8 @h()
declare i32 @printf(ptr, ...)
declare double @dbl(double, float)
@fmt = private constant [3 x i8] c"%d\00"

define i32 @direct(i32 %x) {
  %r = call i32 @f(i32 %x, i64 -1)
  ret i32 %r
}

define i32 @indirect(ptr %fp, i32 %x) {
  %r = call i32 %fp(i32 %x, i64 2)
  ret i32 %r
}

define void @exts(i8 %a, i16 %b, i1 %c) {
  call void @g(i8 signext %a, i16 zeroext %b, i1 zeroext %c)
  ret void
}

define i32 @narrow_ret() {
  %r = call signext i8 @h()
  %s = sext i8 %r to i32
  ret i32 %s
}

define i32 @variadic(i32 %x, double %d) {
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %x, double %d)
  ret i32 %r
}

define double @fp(double %x, float %y) {
  %r = tail call double @dbl(double %x, float %y)
  ret double %r
}

define i32 @many(i32 %a, i32 %b, i32 %c, i32 %d, i32 %e, i32 %f, i32 %g, i32 %h) {
  %r = add i32 %g, %h
  ret i32 %r
}

; CHECK-LABEL: data @fmt 
; CHECK: Bytes "%d\000"
; CHECK: extern @f
; CHECK: extern @g
; CHECK: extern @h
; CHECK: extern @printf
; CHECK: extern @dbl

; CHECK-LABEL: proc @direct 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = SymbolAddress(@f)
; CHECK: Int64 [[V3:@[0-9]+]] = Const64(-1)
; CHECK: Int32 [[V4:@[0-9]+]] = CCall([[V2]], [[V1]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @indirect 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int64 [[V3:@[0-9]+]] = Const64(2)
; CHECK: Int32 [[V4:@[0-9]+]] = CCall([[V0]], [[V2]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @exts 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V5:@[0-9]+]] = Trunc([[V4]])
; CHECK: Int64 [[V6:@[0-9]+]] = SymbolAddress(@g)
; CHECK: Int32 [[V7:@[0-9]+]] = SExt8([[V1]])
; CHECK: Int32 [[V8:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V9:@[0-9]+]] = BitAnd([[V3]], [[V8]])
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V11:@[0-9]+]] = BitAnd([[V5]], [[V10]])
; CHECK: Void [[V12:@[0-9]+]] = CCall([[V6]], [[V7]], [[V9]], [[V11]])
; CHECK: Void [[V13:@[0-9]+]] = Return()

; CHECK-LABEL: proc @narrow_ret 
; CHECK: Int64 [[V0:@[0-9]+]] = SymbolAddress(@h)
; CHECK: Int32 [[V1:@[0-9]+]] = CCall([[V0]])
; CHECK: Int32 [[V2:@[0-9]+]] = SExt8([[V1]])
; CHECK: Void [[V3:@[0-9]+]] = Return([[V2]])

; CHECK-LABEL: proc @variadic 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Double [[V2:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Int64 [[V3:@[0-9]+]] = SymbolAddress(@printf)
; CHECK: Int64 [[V4:@[0-9]+]] = SymbolAddress(@fmt)
; CHECK: Int32 [[V5:@[0-9]+]] = CCall([[V3]], [[V4]], [[V1]], [[V2]], variadic = 1)
; CHECK: Void [[V6:@[0-9]+]] = Return([[V5]])

; CHECK-LABEL: proc @fp 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Float [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int64 [[V3:@[0-9]+]] = SymbolAddress(@dbl)
; CHECK: Double [[V4:@[0-9]+]] = CCall([[V3]], [[V0]], [[V2]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @many 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V5:@[0-9]+]] = Trunc([[V4]])
; CHECK: Int64 [[V6:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V7:@[0-9]+]] = Trunc([[V6]])
; CHECK: Int64 [[V8:@[0-9]+]] = ArgumentReg(%r8)
; CHECK: Int32 [[V9:@[0-9]+]] = Trunc([[V8]])
; CHECK: Int64 [[V10:@[0-9]+]] = ArgumentReg(%r9)
; CHECK: Int32 [[V11:@[0-9]+]] = Trunc([[V10]])
; CHECK: Int64 [[V12:@[0-9]+]] = FramePointer()
; CHECK: Int32 [[V13:@[0-9]+]] = Load([[V12]], offset = 16)
; CHECK: Int64 [[V14:@[0-9]+]] = FramePointer()
; CHECK: Int32 [[V15:@[0-9]+]] = Load([[V14]], offset = 24)
; CHECK: Int32 [[V16:@[0-9]+]] = Add([[V13]], [[V15]])
; CHECK: Void [[V17:@[0-9]+]] = Return([[V16]])
