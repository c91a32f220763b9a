; llvm.bitreverse at every width clang emits: __builtin_bitreverse8/16/32/64
; and, from its optimizer's bit tricks on booleans, i1 (a csmith program,
; seed 431871, stopped b3cc with "the intrinsic llvm.bitreverse.i1 is not
; supported").  Odd widths too.  Checked against a bit-by-bit loop in C.
; RUN: %b3c -O0 %s -o %t0.o
; RUN: %b3c -O2 %s -o %t2.o
; RUN: %cc -O0 -o %t0 %S/Inputs/bitreverse.c %t0.o
; RUN: %cc -O0 -o %t2 %S/Inputs/bitreverse.c %t2.o
; RUN: %run %t0 | FileCheck %s
; RUN: %run %t2 | FileCheck %s
; CHECK-NOT: FAIL
; CHECK: OK

define i32 @rev1(i32 %x) {
  %t = trunc i32 %x to i1
  %r = call i1 @llvm.bitreverse.i1(i1 %t)
  %z = zext i1 %r to i32
  ret i32 %z
}

define i32 @rev7(i32 %x) {
  %t = trunc i32 %x to i7
  %r = call i7 @llvm.bitreverse.i7(i7 %t)
  %z = zext i7 %r to i32
  ret i32 %z
}

define i32 @rev8(i32 %x) {
  %t = trunc i32 %x to i8
  %r = call i8 @llvm.bitreverse.i8(i8 %t)
  %z = zext i8 %r to i32
  ret i32 %z
}

define i32 @rev16(i32 %x) {
  %t = trunc i32 %x to i16
  %r = call i16 @llvm.bitreverse.i16(i16 %t)
  %z = zext i16 %r to i32
  ret i32 %z
}

define i32 @rev32(i32 %x) {
  %r = call i32 @llvm.bitreverse.i32(i32 %x)
  ret i32 %r
}

define i64 @rev33(i64 %x) {
  %t = trunc i64 %x to i33
  %r = call i33 @llvm.bitreverse.i33(i33 %t)
  %z = zext i33 %r to i64
  ret i64 %z
}

define i64 @rev64(i64 %x) {
  %r = call i64 @llvm.bitreverse.i64(i64 %x)
  ret i64 %r
}

declare i1 @llvm.bitreverse.i1(i1)
declare i7 @llvm.bitreverse.i7(i7)
declare i8 @llvm.bitreverse.i8(i8)
declare i16 @llvm.bitreverse.i16(i16)
declare i32 @llvm.bitreverse.i32(i32)
declare i33 @llvm.bitreverse.i33(i33)
declare i64 @llvm.bitreverse.i64(i64)
