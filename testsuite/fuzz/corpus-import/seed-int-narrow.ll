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









