; Globals: external (extern), internal/private (internal), constants
; (readonly), zero-initialized (Zero), relocations in initializers (Addr, with
; an addend), strings, a packed struct with unaligned fields, i128.
; The object: zero-initialized data in .bss (nm B), constants in .rodata.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.P = type <{ i8, i32, i16, i8, ptr }>
@ext = external global i32
@counter = global i32 42, align 4
@zeros = global [100 x i64] zeroinitializer, align 16
@local = internal global i16 -2, align 2
@str = private unnamed_addr constant [6 x i8] c"hi\0A\00\FF\00", align 1
@ptrs = global [3 x ptr] [ptr @counter, ptr getelementptr (i8, ptr @str, i64 2), ptr null], align 8
@packed = global %struct.P <{ i8 1, i32 -1, i16 4660, i8 -128, ptr @ext }>, align 1
@fp = internal constant { float, double } { float 1.5, double -0.0 }, align 8
@fn = global ptr @get, align 8
@big = global i128 18446744073709551617, align 16

define i32 @get() {
  %a = load i32, ptr @counter
  %b = load i32, ptr @ext
  %c = add i32 %a, %b
  ret i32 %c
}











; RUN: %b3c -O0 %s -o %t.o
; RUN: llvm-nm %t.o | FileCheck --check-prefix=OBJ %s
