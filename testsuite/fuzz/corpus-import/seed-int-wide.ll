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







