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







