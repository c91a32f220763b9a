; i128 and odd widths as Int64 words: multiply (UMulHigh and cross
; products), compares word by word, shifts by a constant and by a variable
; amount, and the i96/i152 runs clang loads for packed bit-fields (the top
; word masked before it is read).
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i64 @mul128(i128 %a, i128 %b) {
  %m = mul i128 %a, %b
  %h = lshr i128 %m, 64
  %t = trunc i128 %h to i64
  ret i64 %t
}

define i1 @cmp128(i128 %a, i128 %b) {
  %c = icmp slt i128 %a, %b
  ret i1 %c
}

define i64 @shifts128(i128 %a, i128 %n) {
  %s = shl i128 %a, %n
  %l = lshr i128 %s, 64
  %r = ashr i128 %l, 3
  %t = trunc i128 %r to i64
  ret i64 %t
}

define i64 @ext128(i64 %a, i32 %b) {
  %x = sext i64 %a to i128
  %y = zext i32 %b to i128
  %s = add i128 %x, %y
  %h = lshr i128 %s, 64
  %t = trunc i128 %h to i64
  ret i64 %t
}

; clang loads packed bit-fields as i96 / i152 runs
define i32 @bits96(ptr %p) {
  %w = load i96, ptr %p, align 1
  %s = lshr i96 %w, 70
  %t = trunc i96 %s to i32
  %c = and i96 %w, -4096
  %o = or i96 %c, 5
  store i96 %o, ptr %p, align 1
  ret i32 %t
}

define i64 @bits152(ptr %p) {
  %w = load i152, ptr %p, align 1
  %s = lshr i152 %w, 130
  %t = trunc i152 %s to i64
  %x = xor i152 %w, 1
  store i152 %x, ptr %p, align 1
  ret i64 %t
}

define i1 @eq96(i96 %a, i96 %b) {
  %c = icmp eq i96 %a, %b
  ret i1 %c
}

; CHECK-LABEL: proc @mul128 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V3:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int64 [[V4:@[0-9]+]] = Mul([[V0]], [[V2]])
; CHECK: Int64 [[V5:@[0-9]+]] = Mul([[V1]], [[V2]])
; CHECK: Int64 [[V6:@[0-9]+]] = Mul([[V0]], [[V3]])
; CHECK: Int64 [[V7:@[0-9]+]] = UMulHigh([[V0]], [[V2]])
; CHECK: Int64 [[V8:@[0-9]+]] = Add([[V7]], [[V6]])
; CHECK: Int64 [[V9:@[0-9]+]] = Add([[V8]], [[V5]])
; CHECK: Int64 [[V10:@[0-9]+]] = Const64(64)
; CHECK: Int64 [[V11:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V12:@[0-9]+]] = Const64(0)
; CHECK: Void [[V13:@[0-9]+]] = Return([[V9]])

; CHECK-LABEL: proc @cmp128 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V3:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V4:@[0-9]+]] = Below([[V0]], [[V2]])
; CHECK: Int32 [[V5:@[0-9]+]] = Equal([[V1]], [[V3]])
; CHECK: Int32 [[V6:@[0-9]+]] = BitAnd([[V5]], [[V4]])
; CHECK: Int32 [[V7:@[0-9]+]] = LessThan([[V1]], [[V3]])
; CHECK: Int32 [[V8:@[0-9]+]] = BitOr([[V7]], [[V6]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @shifts128 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V3:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V4:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int32 [[V5:@[0-9]+]] = Const32(64)
; CHECK: Int32 [[V6:@[0-9]+]] = BitAnd([[V4]], [[V5]])
; CHECK: Int32 [[V7:@[0-9]+]] = Const32(63)
; CHECK: Int32 [[V8:@[0-9]+]] = BitAnd([[V4]], [[V7]])
; CHECK: Int64 [[V9:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(63)
; CHECK: Int32 [[V11:@[0-9]+]] = Sub([[V10]], [[V8]])
; CHECK: Int32 [[V12:@[0-9]+]] = Const32(1)
; CHECK: Int64 [[V13:@[0-9]+]] = ZShr([[V0]], [[V12]])
; CHECK: Int64 [[V14:@[0-9]+]] = ZShr([[V13]], [[V11]])
; CHECK: Int64 [[V15:@[0-9]+]] = Shl([[V1]], [[V8]])
; CHECK: Int64 [[V16:@[0-9]+]] = BitOr([[V15]], [[V14]])
; CHECK: Int64 [[V17:@[0-9]+]] = Shl([[V0]], [[V8]])
; CHECK: Int64 [[V18:@[0-9]+]] = Select([[V6]], [[V9]], [[V17]])
; CHECK: Int64 [[V19:@[0-9]+]] = Select([[V6]], [[V17]], [[V16]])
; CHECK: Int64 [[V20:@[0-9]+]] = Const64(64)
; CHECK: Int64 [[V21:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V22:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V23:@[0-9]+]] = Const64(3)
; CHECK: Int64 [[V24:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V25:@[0-9]+]] = Const32(63)
; CHECK: Int64 [[V26:@[0-9]+]] = SShr([[V22]], [[V25]])
; CHECK: Int32 [[V27:@[0-9]+]] = Const32(3)
; CHECK: Int64 [[V28:@[0-9]+]] = ZShr([[V19]], [[V27]])
; CHECK: Int32 [[V29:@[0-9]+]] = Const32(3)
; CHECK: Int64 [[V30:@[0-9]+]] = ZShr([[V22]], [[V29]])
; CHECK: Int32 [[V31:@[0-9]+]] = Const32(61)
; CHECK: Int64 [[V32:@[0-9]+]] = Shl([[V26]], [[V31]])
; CHECK: Int64 [[V33:@[0-9]+]] = BitOr([[V30]], [[V32]])
; CHECK: Void [[V34:@[0-9]+]] = Return([[V28]])

; CHECK-LABEL: proc @ext128 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Const32(63)
; CHECK: Int64 [[V4:@[0-9]+]] = SShr([[V0]], [[V3]])
; CHECK: Int64 [[V5:@[0-9]+]] = ZExt32([[V2]])
; CHECK: Int64 [[V6:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V7:@[0-9]+]] = Add([[V0]], [[V5]])
; CHECK: Int32 [[V8:@[0-9]+]] = Below([[V7]], [[V0]])
; CHECK: Int64 [[V9:@[0-9]+]] = Add([[V4]], [[V6]])
; CHECK: Int32 [[V10:@[0-9]+]] = Below([[V9]], [[V4]])
; CHECK: Int64 [[V11:@[0-9]+]] = ZExt32([[V8]])
; CHECK: Int64 [[V12:@[0-9]+]] = Add([[V9]], [[V11]])
; CHECK: Int64 [[V13:@[0-9]+]] = Const64(64)
; CHECK: Int64 [[V14:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V15:@[0-9]+]] = Const64(0)
; CHECK: Void [[V16:@[0-9]+]] = Return([[V12]])

; CHECK-LABEL: proc @bits96 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = Load([[V0]])
; CHECK: Int32 [[V2:@[0-9]+]] = Load([[V0]], offset = 8)
; CHECK: Int64 [[V3:@[0-9]+]] = ZExt32([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = Const64(70)
; CHECK: Int64 [[V5:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V6:@[0-9]+]] = Trunc([[V3]])
; CHECK: Int64 [[V7:@[0-9]+]] = ZExt32([[V6]])
; CHECK: Int64 [[V8:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V9:@[0-9]+]] = Const32(6)
; CHECK: Int64 [[V10:@[0-9]+]] = ZShr([[V7]], [[V9]])
; CHECK: Int32 [[V11:@[0-9]+]] = Trunc([[V10]])
; CHECK: Int64 [[V12:@[0-9]+]] = Const64(-4096)
; CHECK: Int64 [[V13:@[0-9]+]] = Const64(-1)
; CHECK: Int64 [[V14:@[0-9]+]] = BitAnd([[V1]], [[V12]])
; CHECK: Int64 [[V15:@[0-9]+]] = BitAnd([[V3]], [[V13]])
; CHECK: Int64 [[V16:@[0-9]+]] = Const64(5)
; CHECK: Int64 [[V17:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V18:@[0-9]+]] = BitOr([[V14]], [[V16]])
; CHECK: Int64 [[V19:@[0-9]+]] = BitOr([[V15]], [[V17]])
; CHECK: Void [[V20:@[0-9]+]] = Store([[V18]], [[V0]])
; CHECK: Int32 [[V21:@[0-9]+]] = Trunc([[V19]])
; CHECK: Void [[V22:@[0-9]+]] = Store([[V21]], [[V0]], offset = 8)
; CHECK: Void [[V23:@[0-9]+]] = Return([[V11]])

; CHECK-LABEL: proc @bits152 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = Load([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = Load([[V0]], offset = 8)
; CHECK: Int32 [[V3:@[0-9]+]] = Load16Z([[V0]], offset = 16)
; CHECK: Int32 [[V4:@[0-9]+]] = Load8Z([[V0]], offset = 18)
; CHECK: Int32 [[V5:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V6:@[0-9]+]] = Shl([[V4]], [[V5]])
; CHECK: Int32 [[V7:@[0-9]+]] = BitOr([[V3]], [[V6]])
; CHECK: Int64 [[V8:@[0-9]+]] = ZExt32([[V7]])
; CHECK: Int64 [[V9:@[0-9]+]] = Const64(130)
; CHECK: Int64 [[V10:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V11:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V12:@[0-9]+]] = Const64(16777215)
; CHECK: Int64 [[V13:@[0-9]+]] = BitAnd([[V8]], [[V12]])
; CHECK: Int64 [[V14:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V15:@[0-9]+]] = Const32(2)
; CHECK: Int64 [[V16:@[0-9]+]] = ZShr([[V13]], [[V15]])
; CHECK: Int64 [[V17:@[0-9]+]] = Const64(1)
; CHECK: Int64 [[V18:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V19:@[0-9]+]] = Const64(0)
; CHECK: Int64 [[V20:@[0-9]+]] = BitXor([[V1]], [[V17]])
; CHECK: Int64 [[V21:@[0-9]+]] = BitXor([[V2]], [[V18]])
; CHECK: Int64 [[V22:@[0-9]+]] = BitXor([[V8]], [[V19]])
; CHECK: Void [[V23:@[0-9]+]] = Store([[V20]], [[V0]])
; CHECK: Void [[V24:@[0-9]+]] = Store([[V21]], [[V0]], offset = 8)
; CHECK: Int32 [[V25:@[0-9]+]] = Trunc([[V22]])
; CHECK: Void [[V26:@[0-9]+]] = Store16([[V25]], [[V0]], offset = 16)
; CHECK: Int32 [[V27:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V28:@[0-9]+]] = ZShr([[V25]], [[V27]])
; CHECK: Void [[V29:@[0-9]+]] = Store8([[V28]], [[V0]], offset = 18)
; CHECK: Void [[V30:@[0-9]+]] = Return([[V16]])

; CHECK-LABEL: proc @eq96 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V3:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V4:@[0-9]+]] = Trunc([[V1]])
; CHECK: Int64 [[V5:@[0-9]+]] = ZExt32([[V4]])
; CHECK: Int32 [[V6:@[0-9]+]] = Trunc([[V3]])
; CHECK: Int64 [[V7:@[0-9]+]] = ZExt32([[V6]])
; CHECK: Int64 [[V8:@[0-9]+]] = BitXor([[V0]], [[V2]])
; CHECK: Int64 [[V9:@[0-9]+]] = BitXor([[V5]], [[V7]])
; CHECK: Int64 [[V10:@[0-9]+]] = BitOr([[V8]], [[V9]])
; CHECK: Int64 [[V11:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V12:@[0-9]+]] = Equal([[V10]], [[V11]])
; CHECK: Void [[V13:@[0-9]+]] = Return([[V12]])
