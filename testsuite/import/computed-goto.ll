; Computed goto: a block address is the block's position (from 1) among the
; blocks of its function whose address is taken (%mid's is not), in code a
; constant and in a static table's initializer an integer (also a
; difference of two, truncated to i32, as the relative tables of GNU C's
; "Labels as Values" have it); indirectbr is a Switch on that number over
; its distinct destinations, the first one the default and case 0, or on
; the index into a constant table of labels the address is loaded from.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
; The same as bitcode, whose function bodies are read after the tables that
; name their blocks.
; RUN: llvm-as-16 %s -o %t.bc
; RUN: %b3c -O0 --emit=b3 %t.bc -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: data @tab internal readonly align 16 {
; CHECK-NEXT: Int64 1, 2, 3
@tab = internal constant [3 x ptr] [ptr blockaddress(@f, %a), ptr blockaddress(@f, %b), ptr blockaddress(@f, %c)], align 16
; CHECK: data @rel internal readonly {
; CHECK-NEXT: Int32 0, 1, -1
; CHECK: data @vtab internal align 16 {
; CHECK-NEXT: Int64 1, 2, 3
@rel = internal constant [3 x i32] [
  i32 trunc (i64 sub (i64 ptrtoint (ptr blockaddress(@f, %a) to i64), i64 ptrtoint (ptr blockaddress(@f, %a) to i64)) to i32),
  i32 trunc (i64 sub (i64 ptrtoint (ptr blockaddress(@f, %b) to i64), i64 ptrtoint (ptr blockaddress(@f, %a) to i64)) to i32),
  i32 trunc (i64 sub (i64 ptrtoint (ptr blockaddress(@f, %a) to i64), i64 ptrtoint (ptr blockaddress(@f, %b) to i64)) to i32)], align 4

; `goto *tab[i]` from a constant internal table of the function's own
; labels: a Switch on the index itself, case k going where element k does
; (the load of the address is left for dead code elimination).
; CHECK-LABEL: proc @f
; CHECK: Int64 @[[I:[0-9]+]] = ArgumentReg(
; CHECK: Void @{{[0-9]+}} = Switch(@[[I]])
; CHECK-NEXT: Successors: 0->#[[A:[0-9]+]], 1->#[[B:[0-9]+]], 2->#[[C:[0-9]+]], default->#[[A]]
; CHECK: BB#[[C]]:
; CHECK: Const32(3)
; CHECK: BB#[[B]]:
; CHECK: Const32(2)
; CHECK: BB#[[A]]:
; CHECK: Const32(1)
define i32 @f(i64 %i) {
entry:
  %p = getelementptr [3 x ptr], ptr @tab, i64 0, i64 %i
  %d = load ptr, ptr %p
  indirectbr ptr %d, [label %a, label %b, label %c, label %a]
a:
  br label %mid
mid:
  ret i32 1
b:
  ret i32 2
c:
  ret i32 3
}

; A table the program may change: a Switch on the loaded number over the
; distinct destinations, the first one the default and case 0.
@vtab = internal global [3 x ptr] [ptr blockaddress(@h, %a), ptr blockaddress(@h, %b), ptr blockaddress(@h, %c)], align 16
; CHECK-LABEL: proc @h
; CHECK: Int64 @[[P:[0-9]+]] = Load(
; CHECK: Void @{{[0-9]+}} = Switch(@[[P]])
; CHECK-NEXT: Successors: 0->#[[A:[0-9]+]], 2->#[[B:[0-9]+]], 3->#[[C:[0-9]+]], default->#[[A]]
define i32 @h(i64 %i) {
entry:
  %p = getelementptr [3 x ptr], ptr @vtab, i64 0, i64 %i
  %d = load ptr, ptr %p
  indirectbr ptr %d, [label %a, label %b, label %c, label %a]
a:
  ret i32 1
b:
  ret i32 2
c:
  ret i32 3
}

; A block address in code is a constant; an indirectbr with one destination
; is a Jump.
; CHECK-LABEL: proc @g
; CHECK: Int64 @{{[0-9]+}} = Const64(1)
; CHECK: Void @{{[0-9]+}} = Jump()
define ptr @g(i1 %c) {
entry:
  %x = select i1 %c, ptr blockaddress(@g, %l), ptr null
  indirectbr ptr %x, [label %l]
l:
  ret ptr blockaddress(@g, %l)
}
