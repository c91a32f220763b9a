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








