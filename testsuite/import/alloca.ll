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

; CHECK-LABEL: proc @locals 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = SlotBase(stack0)
; CHECK: Int64 [[V3:@[0-9]+]] = SlotBase(stack1)
; CHECK: Int64 [[V4:@[0-9]+]] = SlotBase(stack2)
; CHECK: Void [[V5:@[0-9]+]] = Store([[V1]], [[V2]])
; CHECK: Int64 [[V6:@[0-9]+]] = SymbolAddress(@use)
; CHECK: Void [[V7:@[0-9]+]] = CCall([[V6]], [[V3]])
; CHECK: Int64 [[V8:@[0-9]+]] = SymbolAddress(@use)
; CHECK: Void [[V9:@[0-9]+]] = CCall([[V8]], [[V4]])
; CHECK: Int32 [[V10:@[0-9]+]] = Load([[V2]])
; CHECK: Void [[V11:@[0-9]+]] = Return([[V10]])
; CHECK: Stack slots:
; CHECK: stack0: byteSize = 4, align = 4
; CHECK: stack1: byteSize = 24, align = 16
; CHECK: stack2: byteSize = 1, align = 1

; CHECK-LABEL: proc @count 
; CHECK: Int64 [[V0:@[0-9]+]] = SlotBase(stack0)
; CHECK: Int64 [[V1:@[0-9]+]] = SymbolAddress(@use)
; CHECK: Void [[V2:@[0-9]+]] = CCall([[V1]], [[V0]])
; CHECK: Void [[V3:@[0-9]+]] = Return()
; CHECK: Stack slots:
; CHECK: stack0: byteSize = 16, align = 4
