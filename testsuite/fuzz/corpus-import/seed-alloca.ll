; Allocas become stack slots of their size and alignment.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @use(ptr)

define i32 @locals(i32 %x) {
  %a = alloca i32, align 4
  %b = alloca [3 x i64], align 16
  %c = alloca i8, align 1
  store i32 %x, ptr %a, align 4
  call void @use(ptr %b)
  call void @use(ptr %c)
  %v = load i32, ptr %a, align 4
  ret i32 %v
}

define void @count() {
  %a = alloca i32, i32 4, align 4
  call void @use(ptr %a)
  ret void
}


