; llvm.load.relative is imported only for a relative lookup table (an i32
; table of offsets from itself, which the import keeps as pointers): of any
; other pointer it is an error, as is a table whose entries are relative to
; something else (it stays an i32 table, so no load.relative of it works).
; RUN: rm -f %t.o
; RUN: not %b3c %s -o %t.o 2>&1 | FileCheck %s
; RUN: test ! -e %t.o
; CHECK: load-relative.ll:14:1: error: in the initializer of 'other': this constant initializer is not supported
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@s = private unnamed_addr constant [2 x i8] c"a\00"
@t = private unnamed_addr constant [1 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr @s to i64), i64 ptrtoint (ptr @t to i64)) to i32)]
@other = private unnamed_addr constant [1 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr @s to i64), i64 ptrtoint (ptr @t to i64)) to i32)]
declare ptr @llvm.load.relative.i64(ptr, i64)

; CHECK-NOT: in function 'good'
define ptr @good(i64 %i) {
  %p = call ptr @llvm.load.relative.i64(ptr @t, i64 %i)
  ret ptr %p
}

; CHECK: load-relative.ll:[[@LINE+1]]:1: error: in function 'arg': llvm.load.relative of anything but a relative lookup table is not supported
define ptr @arg(ptr %t, i64 %i) {
  %p = call ptr @llvm.load.relative.i64(ptr %t, i64 %i)
  ret ptr %p
}

; CHECK: load-relative.ll:[[@LINE+1]]:1: error: in function 'notself': llvm.load.relative of anything but a relative lookup table is not supported
define ptr @notself(i64 %i) {
  %p = call ptr @llvm.load.relative.i64(ptr @other, i64 %i)
  ret ptr %p
}
