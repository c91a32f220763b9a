; Integer arithmetic and narrow widths: an i8/i16 lives in an Int32 with
; unspecified upper bits, so a compare, divide, right shift or widening extends
; it first (SExt8/SExt16 or a mask); signext/zeroext returns extend.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @arith(i32 %a, i32 %b) {
  %1 = add i32 %a, %b
  %2 = sub i32 %1, %b
  %3 = mul nsw i32 %2, %a
  %4 = and i32 %3, 255
  %5 = or i32 %4, %b
  %6 = xor i32 %5, -1
  %7 = shl i32 %6, 31
  %8 = lshr i32 %7, %a
  %9 = ashr exact i32 %8, 1
  %10 = sdiv i32 %9, %b
  %11 = udiv i32 %10, %b
  %12 = srem i32 %11, %a
  %13 = urem i32 %12, %a
  ret i32 %13
}

define i8 @div8(i8 %a, i8 %b) {
  %q = sdiv i8 %a, %b
  %r = urem i8 %q, %b
  ret i8 %r
}

define i16 @shr16(i16 %a, i16 %n) {
  %s = ashr i16 %a, %n
  %u = lshr i16 %s, 15
  ret i16 %u
}

define i1 @cmp8(i8 %a, i8 %b) {
  %lt = icmp slt i8 %a, %b
  ret i1 %lt
}

define i32 @bool(i1 %c, i32 %x) {
  %z = zext i1 %c to i32
  %s = sext i1 %c to i32
  %r = add i32 %z, %s
  %n = xor i1 %c, true
  %m = select i1 %n, i32 %r, i32 %x
  ret i32 %m
}

define i64 @wide64(i64 %a, i64 %b) {
  %1 = mul i64 %a, %b
  %2 = sdiv i64 %1, -1
  %3 = ashr i64 %2, 63
  ret i64 %3
}

define zeroext i16 @ret_zext(i16 %a) {
  %x = add i16 %a, 1
  ret i16 %x
}

define signext i8 @ret_sext(i8 %a) {
  %x = mul i8 %a, 3
  ret i8 %x
}

define i32 @args_ext(i8 signext %a, i16 zeroext %b) {
  %1 = sext i8 %a to i32
  %2 = zext i16 %b to i32
  %3 = add i32 %1, %2
  ret i32 %3
}

; CHECK-LABEL: proc @arith 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Add([[V1]], [[V3]])
; CHECK: Int32 [[V5:@[0-9]+]] = Sub([[V4]], [[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = Mul([[V5]], [[V1]])
; CHECK: Int32 [[V7:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V8:@[0-9]+]] = BitAnd([[V6]], [[V7]])
; CHECK: Int32 [[V9:@[0-9]+]] = BitOr([[V8]], [[V3]])
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(-1)
; CHECK: Int32 [[V11:@[0-9]+]] = BitXor([[V9]], [[V10]])
; CHECK: Int32 [[V12:@[0-9]+]] = Const32(31)
; CHECK: Int32 [[V13:@[0-9]+]] = Shl([[V11]], [[V12]])
; CHECK: Int32 [[V14:@[0-9]+]] = ZShr([[V13]], [[V1]])
; CHECK: Int32 [[V15:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V16:@[0-9]+]] = SShr([[V14]], [[V15]])
; CHECK: Int32 [[V17:@[0-9]+]] = Div([[V16]], [[V3]])
; CHECK: Int32 [[V18:@[0-9]+]] = UDiv([[V17]], [[V3]])
; CHECK: Int32 [[V19:@[0-9]+]] = Mod([[V18]], [[V1]])
; CHECK: Int32 [[V20:@[0-9]+]] = UMod([[V19]], [[V1]])
; CHECK: Void [[V21:@[0-9]+]] = Return([[V20]])

; CHECK-LABEL: proc @div8 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt8([[V3]])
; CHECK: Int32 [[V5:@[0-9]+]] = SExt8([[V1]])
; CHECK: Int32 [[V6:@[0-9]+]] = Div([[V5]], [[V4]])
; CHECK: Int32 [[V7:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V8:@[0-9]+]] = BitAnd([[V3]], [[V7]])
; CHECK: Int32 [[V9:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V10:@[0-9]+]] = BitAnd([[V6]], [[V9]])
; CHECK: Int32 [[V11:@[0-9]+]] = UMod([[V10]], [[V8]])
; CHECK: Void [[V12:@[0-9]+]] = Return([[V11]])

; CHECK-LABEL: proc @shr16 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt16([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = SShr([[V4]], [[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(15)
; CHECK: Int32 [[V7:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V8:@[0-9]+]] = BitAnd([[V5]], [[V7]])
; CHECK: Int32 [[V9:@[0-9]+]] = ZShr([[V8]], [[V6]])
; CHECK: Void [[V10:@[0-9]+]] = Return([[V9]])

; CHECK-LABEL: proc @cmp8 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt8([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = SExt8([[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = LessThan([[V4]], [[V5]])
; CHECK: Void [[V7:@[0-9]+]] = Return([[V6]])

; CHECK-LABEL: proc @bool 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V1]], [[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Const32(31)
; CHECK: Int32 [[V7:@[0-9]+]] = Shl([[V1]], [[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = SShr([[V7]], [[V6]])
; CHECK: Int32 [[V9:@[0-9]+]] = Add([[V5]], [[V8]])
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(-1)
; CHECK: Int32 [[V11:@[0-9]+]] = BitXor([[V1]], [[V10]])
; CHECK: Int32 [[V12:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V13:@[0-9]+]] = BitAnd([[V11]], [[V12]])
; CHECK: Int32 [[V14:@[0-9]+]] = Select([[V13]], [[V9]], [[V3]])
; CHECK: Void [[V15:@[0-9]+]] = Return([[V14]])

; CHECK-LABEL: proc @wide64 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = Mul([[V0]], [[V1]])
; CHECK: Int64 [[V3:@[0-9]+]] = Const64(-1)
; CHECK: Int64 [[V4:@[0-9]+]] = Div([[V2]], [[V3]])
; CHECK: Int64 [[V5:@[0-9]+]] = Const64(63)
; CHECK: Int32 [[V6:@[0-9]+]] = Trunc([[V5]])
; CHECK: Int64 [[V7:@[0-9]+]] = SShr([[V4]], [[V6]])
; CHECK: Void [[V8:@[0-9]+]] = Return([[V7]])

; CHECK-LABEL: proc @ret_zext 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int32 [[V2:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V3:@[0-9]+]] = Add([[V1]], [[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V5:@[0-9]+]] = BitAnd([[V3]], [[V4]])
; CHECK: Void [[V6:@[0-9]+]] = Return([[V5]])

; CHECK-LABEL: proc @ret_sext 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int32 [[V2:@[0-9]+]] = Const32(3)
; CHECK: Int32 [[V3:@[0-9]+]] = Mul([[V1]], [[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt8([[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @args_ext 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V4:@[0-9]+]] = SExt8([[V1]])
; CHECK: Int32 [[V5:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V6:@[0-9]+]] = BitAnd([[V3]], [[V5]])
; CHECK: Int32 [[V7:@[0-9]+]] = Add([[V4]], [[V6]])
; CHECK: Void [[V8:@[0-9]+]] = Return([[V7]])
