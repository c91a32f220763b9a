; Loads and stores of every width: i24/i40/i48/i56 as pieces, narrow loads
; zero-extend, aggregates as their leaves; volatile accesses carry <Traps> so
; no phase removes them.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @widths(ptr %p, ptr %q) {
  %1 = load i1, ptr %p
  store i1 %1, ptr %q
  %2 = load i8, ptr %p
  store i8 %2, ptr %q
  %3 = load i16, ptr %p
  store i16 %3, ptr %q
  %4 = load i24, ptr %p
  store i24 %4, ptr %q
  %5 = load i32, ptr %p
  store i32 %5, ptr %q
  %6 = load i40, ptr %p
  store i40 %6, ptr %q
  %7 = load i48, ptr %p
  store i48 %7, ptr %q
  %8 = load i56, ptr %p
  store i56 %8, ptr %q
  %9 = load i64, ptr %p
  store i64 %9, ptr %q
  %10 = load float, ptr %p
  store float %10, ptr %q
  %11 = load double, ptr %p
  store double %11, ptr %q
  %12 = load ptr, ptr %p
  store ptr %12, ptr %q
  ret void
}

define i32 @narrow_use(ptr %p) {
  %b = load i8, ptr %p
  %s = sext i8 %b to i32
  %h = load i16, ptr %p
  %z = zext i16 %h to i32
  %r = add i32 %s, %z
  ret i32 %r
}

define void @aggregate(ptr %p, ptr %q) {
  %s = load { i32, double }, ptr %p
  %x = extractvalue { i32, double } %s, 0
  %y = insertvalue { i32, double } %s, i32 7, 0
  store { i32, double } %y, ptr %q
  ret void
}

define void @volatile(ptr %p, ptr %q) {
  %a = load volatile i32, ptr %p
  store volatile i32 %a, ptr %q
  %b = load volatile i8, ptr %p
  store volatile i8 %b, ptr %q
  %c = load volatile double, ptr %p
  store volatile double %c, ptr %q
  ret void
}




