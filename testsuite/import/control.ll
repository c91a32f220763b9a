; Control flow: br, phi (as Upsilon/Phi), switch (an i8 switch on the
; zero-extended value, so -128 is case 128), select, swapped phis in a loop
; (the Upsilons read the old values), unreachable as Oops.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @branch(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %yes, label %no
yes:
  br label %join
no:
  br label %join
join:
  %r = phi i32 [ 1, %yes ], [ 2, %no ]
  ret i32 %r
}

define i32 @sw(i32 %x) {
entry:
  switch i32 %x, label %def [
    i32 0, label %a
    i32 7, label %b
    i32 -5, label %a
  ]
a:
  ret i32 10
b:
  ret i32 20
def:
  ret i32 30
}

define i32 @sw8(i8 %x) {
entry:
  switch i8 %x, label %def [
    i8 -128, label %a
    i8 -1, label %b
    i8 127, label %b
  ]
a:
  ret i32 1
b:
  ret i32 2
def:
  ret i32 3
}

; swapped phis: each iteration exchanges a and b (the copies must be parallel)
define i32 @swap(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = sub i32 %a, %b
  ret i32 %r
}

define double @sel(i1 %c, double %x, double %y, i8 %a, i8 %b) {
  %s = select i1 %c, double %x, double %y
  %t = select i1 %c, i8 %a, i8 %b
  %u = sitofp i8 %t to double
  %r = fadd double %s, %u
  ret double %r
}

define void @dead(i1 %c) {
entry:
  br i1 %c, label %bad, label %ok
bad:
  unreachable
ok:
  ret void
}

; CHECK-LABEL: proc @branch 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @2 = Trunc(@1)
; CHECK-NEXT: Int32 @3 = Const32(0)
; CHECK-NEXT: Int32 @4 = Equal(@2, @3)
; CHECK-NEXT: Void @5 = Branch(@4)
; CHECK-NEXT: Successors: Then:#2, Else:#1
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @6 = Const32(2)
; CHECK-NEXT: Void @7 = Upsilon(@6, ^@0)
; CHECK-NEXT: Void @8 = Jump()
; CHECK-NEXT: Successors: #3
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @9 = Const32(1)
; CHECK-NEXT: Void @10 = Upsilon(@9, ^@0)
; CHECK-NEXT: Void @11 = Jump()
; CHECK-NEXT: Successors: #3
; CHECK: BB#3:
; CHECK-NEXT: Predecessors: #1, #2
; CHECK-NEXT: Int32 @0 = Phi()
; CHECK-NEXT: Void @12 = Return(@0)

; CHECK-LABEL: proc @sw 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @1 = Trunc(@0)
; CHECK-NEXT: Void @2 = Switch(@1)
; CHECK-NEXT: Successors: 0->#2, 7->#1, -5->#2, default->#3
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @3 = Const32(20)
; CHECK-NEXT: Void @4 = Return(@3)
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @5 = Const32(10)
; CHECK-NEXT: Void @6 = Return(@5)
; CHECK: BB#3:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @7 = Const32(30)
; CHECK-NEXT: Void @8 = Return(@7)

; CHECK-LABEL: proc @sw8 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @1 = Trunc(@0)
; CHECK-NEXT: Int32 @2 = Const32(255)
; CHECK-NEXT: Int32 @3 = BitAnd(@1, @2)
; CHECK-NEXT: Void @4 = Switch(@3)
; CHECK-NEXT: Successors: 128->#2, 255->#1, 127->#1, default->#3
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @5 = Const32(2)
; CHECK-NEXT: Void @6 = Return(@5)
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @7 = Const32(1)
; CHECK-NEXT: Void @8 = Return(@7)
; CHECK: BB#3:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Int32 @9 = Const32(3)
; CHECK-NEXT: Void @10 = Return(@9)

; CHECK-LABEL: proc @swap 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @3 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @4 = Trunc(@3)
; CHECK-NEXT: Int32 @5 = Const32(0)
; CHECK-NEXT: Void @6 = Upsilon(@5, ^@0)
; CHECK-NEXT: Int32 @7 = Const32(1)
; CHECK-NEXT: Void @8 = Upsilon(@7, ^@1)
; CHECK-NEXT: Int32 @9 = Const32(2)
; CHECK-NEXT: Void @10 = Upsilon(@9, ^@2)
; CHECK-NEXT: Void @11 = Jump()
; CHECK-NEXT: Successors: #1
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0, #1
; CHECK-NEXT: Int32 @0 = Phi()
; CHECK-NEXT: Int32 @1 = Phi()
; CHECK-NEXT: Int32 @2 = Phi()
; CHECK-NEXT: Int32 @12 = Const32(1)
; CHECK-NEXT: Int32 @13 = Add(@0, @12)
; CHECK-NEXT: Int32 @14 = LessThan(@13, @4)
; CHECK-NEXT: Void @15 = Upsilon(@13, ^@0)
; CHECK-NEXT: Void @16 = Upsilon(@2, ^@1)
; CHECK-NEXT: Void @17 = Upsilon(@1, ^@2)
; CHECK-NEXT: Void @18 = Branch(@14)
; CHECK-NEXT: Successors: Then:#1, Else:#2
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #1
; CHECK-NEXT: Int32 @19 = Sub(@1, @2)
; CHECK-NEXT: Void @20 = Return(@19)

; CHECK-LABEL: proc @sel 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @1 = Trunc(@0)
; CHECK-NEXT: Double @2 = ArgumentReg(%xmm0)
; CHECK-NEXT: Double @3 = ArgumentReg(%xmm1)
; CHECK-NEXT: Int64 @4 = ArgumentReg(%rsi)
; CHECK-NEXT: Int32 @5 = Trunc(@4)
; CHECK-NEXT: Int64 @6 = ArgumentReg(%rdx)
; CHECK-NEXT: Int32 @7 = Trunc(@6)
; CHECK-NEXT: Int32 @8 = Const32(1)
; CHECK-NEXT: Int32 @9 = BitAnd(@1, @8)
; CHECK-NEXT: Double @10 = Select(@9, @2, @3)
; CHECK-NEXT: Int32 @11 = Const32(1)
; CHECK-NEXT: Int32 @12 = BitAnd(@1, @11)
; CHECK-NEXT: Int32 @13 = Select(@12, @5, @7)
; CHECK-NEXT: Int32 @14 = SExt8(@13)
; CHECK-NEXT: Double @15 = IToD(@14)
; CHECK-NEXT: Double @16 = Add(@10, @15)
; CHECK-NEXT: Void @17 = Return(@16)

; CHECK-LABEL: proc @dead 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @1 = Trunc(@0)
; CHECK-NEXT: Int32 @2 = Const32(1)
; CHECK-NEXT: Int32 @3 = BitAnd(@1, @2)
; CHECK-NEXT: Void @4 = Branch(@3)
; CHECK-NEXT: Successors: Then:#2, Else:#1
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Void @5 = Return()
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #0
; CHECK-NEXT: Void @6 = Oops()
