; long double (x86_fp80) on x86-64 (docs/c-extensions.md, "Long double"):
; two parts (Int64 significand, Int32 sign and exponent) stored to scratch
; slots for X87 values; parameters read from the caller's argument area,
; arguments ByVal(16, 16), results from st(0) (X87 result right after the
; Void CCall) and returned through st(0) (X87 ret right before Return).
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@third = global x86_fp80 0xK3FFDAAAAAAAAAAAAAAAB, align 16
; CHECK: data @third align 16 {
; CHECK-NEXT: Int64 -6148914691236517205
; CHECK-NEXT: Int16 16381

define x86_fp80 @add(x86_fp80 %a, x86_fp80 %b) {
  %r = fadd x86_fp80 %a, %b
  ret x86_fp80 %r
}
; CHECK-LABEL: proc @add
; CHECK: Int64 [[FP:@[0-9]+]] = FramePointer()
; CHECK: Int64 [[ALO:@[0-9]+]] = Load([[FP]], offset = 16)
; CHECK: Int32 [[AHI:@[0-9]+]] = Load16Z([[FP]], offset = 24)
; CHECK: Int64 [[BLO:@[0-9]+]] = Load({{@[0-9]+}}, offset = 32)
; CHECK: Int32 [[BHI:@[0-9]+]] = Load16Z({{@[0-9]+}}, offset = 40)
; CHECK: Int64 [[S1:@[0-9]+]] = SlotBase([[SLOT1:ld[0-9]+]])
; CHECK: Void {{@[0-9]+}} = Store([[ALO]], [[S1]]
; CHECK: Void {{@[0-9]+}} = Store16([[AHI]], [[S1]], offset = 8
; CHECK: Int64 [[S2:@[0-9]+]] = SlotBase([[SLOT2:ld[0-9]+]])
; CHECK: Int64 [[S0:@[0-9]+]] = SlotBase([[SLOT0:ld[0-9]+]])
; CHECK: Void {{@[0-9]+}} = X87([[S0]], [[S1]], [[S2]], op = add)
; CHECK: Int64 [[RLO:@[0-9]+]] = Load([[S0]]
; CHECK: Int32 [[RHI:@[0-9]+]] = Load16Z([[S0]], offset = 8
; CHECK: Void {{@[0-9]+}} = X87({{@[0-9]+}}, op = ret)
; CHECK-NEXT: Void {{@[0-9]+}} = Return()
; CHECK: [[SLOT1]]: byteSize = 16, align = 16

define i32 @cmp(x86_fp80 %a, x86_fp80 %b) {
  %lt = fcmp olt x86_fp80 %a, %b
  %eq = fcmp oeq x86_fp80 %a, %b
  %une = fcmp une x86_fp80 %a, %b
  %ult = fcmp ult x86_fp80 %a, %b
  %x = and i1 %lt, %eq
  %y = or i1 %une, %ult
  %z = xor i1 %x, %y
  %r = zext i1 %z to i32
  ret i32 %r
}
; olt is gt with the operands swapped; oeq ueq and ord; une one or uno.
; CHECK-LABEL: proc @cmp
; CHECK: Int32 {{@[0-9]+}} = X87([[B:@[0-9]+]], [[A:@[0-9]+]], op = gt)
; CHECK: Int32 [[E1:@[0-9]+]] = X87({{@[0-9]+}}, {{@[0-9]+}}, op = ueq)
; CHECK: Int32 [[E2:@[0-9]+]] = X87({{@[0-9]+}}, {{@[0-9]+}}, op = ord)
; CHECK: BitAnd([[E1]], [[E2]])
; CHECK: Int32 [[N1:@[0-9]+]] = X87({{@[0-9]+}}, {{@[0-9]+}}, op = one)
; CHECK: Int32 [[N2:@[0-9]+]] = X87({{@[0-9]+}}, {{@[0-9]+}}, op = uno)
; CHECK: BitOr([[N1]], [[N2]])
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, op = ult)

define i64 @to_u64(x86_fp80 %x) {
  %r = fptoui x86_fp80 %x to i64
  ret i64 %r
}
; At or above 2^63 (0x403E 8000000000000000) the conversion is of x - 2^63.
; CHECK-LABEL: proc @to_u64
; CHECK: Int32 [[GE:@[0-9]+]] = X87({{@[0-9]+}}, {{@[0-9]+}}, op = ge)
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, op = toi64)
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, {{@[0-9]+}}, op = sub)
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, op = toi64)
; CHECK: Int64 {{@[0-9]+}} = Select([[GE]],

define x86_fp80 @from(i32 %i, i64 %u, double %d) {
  %a = sitofp i32 %i to x86_fp80
  %b = uitofp i64 %u to x86_fp80
  %c = fpext double %d to x86_fp80
  %s = fadd x86_fp80 %a, %b
  %t = fadd x86_fp80 %s, %c
  ret x86_fp80 %t
}
; CHECK-LABEL: proc @from
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, op = fromi32)
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, op = fromi64)
; CHECK: Int32 [[NEG:@[0-9]+]] = LessThan(
; CHECK: Int64 {{@[0-9]+}} = Select([[NEG]],
; CHECK: X87({{@[0-9]+}}, {{@[0-9]+}}, op = fromdouble)

define double @to_d(x86_fp80 %x) {
  %r = fptrunc x86_fp80 %x to double
  ret double %r
}
; CHECK-LABEL: proc @to_d
; CHECK: X87([[D:@[0-9]+]], {{@[0-9]+}}, op = todouble)
; CHECK: Double {{@[0-9]+}} = Load([[D]]

define x86_fp80 @callit(ptr %f, i32 %k, x86_fp80 %x) {
  %r = call x86_fp80 %f(x86_fp80 %x, x86_fp80 0xK3FFF8000000000000000)
  %n = fneg x86_fp80 %r
  ret x86_fp80 %n
}
; The constant 1.0 is 0x3FFF 8000000000000000; fneg flips bit 15 of the high part.
; CHECK-LABEL: proc @callit
; CHECK: Int64 {{@[0-9]+}} = Const64(-9223372036854775808)
; CHECK: Int32 {{@[0-9]+}} = Const32(16383)
; CHECK: Void [[C:@[0-9]+]] = CCall({{@[0-9]+}}, {{@[0-9]+}}:ByVal(16, 16), {{@[0-9]+}}:ByVal(16, 16))
; CHECK-NEXT: Void {{@[0-9]+}} = X87({{@[0-9]+}}, op = result)
; CHECK: Int32 [[M:@[0-9]+]] = Const32(32768)
; CHECK-NEXT: BitXor({{@[0-9]+}}, [[M]])

declare i32 @printf(ptr, ...)
@fmt = constant [5 x i8] c"%Lf\0A\00"
define void @show(x86_fp80 %x) {
  %1 = call i32 (ptr, ...) @printf(ptr @fmt, x86_fp80 %x)
  ret void
}
; A variadic long double is in memory too (no vector register).
; CHECK-LABEL: proc @show
; CHECK: CCall({{@[0-9]+}}, {{@[0-9]+}}, {{@[0-9]+}}:ByVal(16, 16), variadic = 1)

declare x86_fp80 @llvm.fabs.f80(x86_fp80)
declare x86_fp80 @llvm.floor.f80(x86_fp80)
define x86_fp80 @intrinsics(x86_fp80 %x) {
  %a = call x86_fp80 @llvm.fabs.f80(x86_fp80 %x)
  %b = call x86_fp80 @llvm.floor.f80(x86_fp80 %a)
  %c = frem x86_fp80 %b, %x
  ret x86_fp80 %c
}
; CHECK-LABEL: proc @intrinsics
; CHECK: Int32 [[M:@[0-9]+]] = Const32(32767)
; CHECK-NEXT: BitAnd({{@[0-9]+}}, [[M]])
; CHECK: SymbolAddress(@floorl)
; CHECK: X87({{@[0-9]+}}, op = result)
; CHECK: SymbolAddress(@fmodl)
; CHECK: X87({{@[0-9]+}}, op = result)
