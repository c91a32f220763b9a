; Every icmp and fcmp predicate.  i16 operands are extended (signed: SExt16,
; unsigned: masked); the unordered fcmps are the negated ordered ones.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i1 @i_eq(i16 %a, i16 %b) {
  %c = icmp eq i16 %a, %b
  ret i1 %c
}

define i1 @i_ne(i16 %a, i16 %b) {
  %c = icmp ne i16 %a, %b
  ret i1 %c
}

define i1 @i_ugt(i16 %a, i16 %b) {
  %c = icmp ugt i16 %a, %b
  ret i1 %c
}

define i1 @i_uge(i16 %a, i16 %b) {
  %c = icmp uge i16 %a, %b
  ret i1 %c
}

define i1 @i_ult(i16 %a, i16 %b) {
  %c = icmp ult i16 %a, %b
  ret i1 %c
}

define i1 @i_ule(i16 %a, i16 %b) {
  %c = icmp ule i16 %a, %b
  ret i1 %c
}

define i1 @i_sgt(i16 %a, i16 %b) {
  %c = icmp sgt i16 %a, %b
  ret i1 %c
}

define i1 @i_sge(i16 %a, i16 %b) {
  %c = icmp sge i16 %a, %b
  ret i1 %c
}

define i1 @i_slt(i16 %a, i16 %b) {
  %c = icmp slt i16 %a, %b
  ret i1 %c
}

define i1 @i_sle(i16 %a, i16 %b) {
  %c = icmp sle i16 %a, %b
  ret i1 %c
}

define i1 @f_false(double %a, double %b) {
  %c = fcmp false double %a, %b
  ret i1 %c
}

define i1 @f_oeq(double %a, double %b) {
  %c = fcmp oeq double %a, %b
  ret i1 %c
}

define i1 @f_ogt(double %a, double %b) {
  %c = fcmp ogt double %a, %b
  ret i1 %c
}

define i1 @f_oge(double %a, double %b) {
  %c = fcmp oge double %a, %b
  ret i1 %c
}

define i1 @f_olt(double %a, double %b) {
  %c = fcmp olt double %a, %b
  ret i1 %c
}

define i1 @f_ole(double %a, double %b) {
  %c = fcmp ole double %a, %b
  ret i1 %c
}

define i1 @f_one(double %a, double %b) {
  %c = fcmp one double %a, %b
  ret i1 %c
}

define i1 @f_ord(double %a, double %b) {
  %c = fcmp ord double %a, %b
  ret i1 %c
}

define i1 @f_ueq(double %a, double %b) {
  %c = fcmp ueq double %a, %b
  ret i1 %c
}

define i1 @f_ugt(double %a, double %b) {
  %c = fcmp ugt double %a, %b
  ret i1 %c
}

define i1 @f_uge(double %a, double %b) {
  %c = fcmp uge double %a, %b
  ret i1 %c
}

define i1 @f_ult(double %a, double %b) {
  %c = fcmp ult double %a, %b
  ret i1 %c
}

define i1 @f_ule(double %a, double %b) {
  %c = fcmp ule double %a, %b
  ret i1 %c
}

define i1 @f_une(double %a, double %b) {
  %c = fcmp une double %a, %b
  ret i1 %c
}

define i1 @f_uno(double %a, double %b) {
  %c = fcmp uno double %a, %b
  ret i1 %c
}

define i1 @f_true(double %a, double %b) {
  %c = fcmp true double %a, %b
  ret i1 %c
}

define i1 @f_float(float %a, float %b) {
  %c = fcmp olt float %a, %b
  ret i1 %c
}



























