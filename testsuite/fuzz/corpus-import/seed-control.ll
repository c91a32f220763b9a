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






