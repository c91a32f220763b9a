; fp128 (long double on arm64 Linux, docs/c-extensions.md, "Long double on
; arm64 Linux"): two Int64 parts (low, high); parameters from ArgumentReg
; and ArgumentRegHigh of their q register (past q7: 16 aligned bytes of the
; caller's area), arithmetic, comparisons and conversions as libgcc calls
; with Float128 pair arguments and float128 = 1 results, fneg on the high
; part, constants from the 0xL text (low word first) in code and data,
; selects of both parts, printf's variadic long double in a q register.
; RUN: %b3c-bin --target=aarch64-linux-gnu -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

@third = global fp128 0xL5555555555555555BFFD555555555555, align 16
; CHECK: data @third align 16 {
; CHECK-NEXT: Int64 6148914691236517205, -4612436618365282987

define fp128 @add(fp128 %a, fp128 %b) {
  %r = fadd fp128 %a, %b
  ret fp128 %r
}
; CHECK-LABEL: proc @add
; CHECK: Double [[A:@[0-9]+]] = ArgumentReg(%q0)
; CHECK-NEXT: Int64 [[AHI:@[0-9]+]] = ArgumentRegHigh(%q0)
; CHECK-NEXT: Int64 [[ALO:@[0-9]+]] = BitwiseCast([[A]])
; CHECK: Int64 [[BHI:@[0-9]+]] = ArgumentRegHigh(%q1)
; CHECK-NEXT: Int64 [[BLO:@[0-9]+]] = BitwiseCast(
; CHECK: Int64 [[F:@[0-9]+]] = SymbolAddress(@__addtf3)
; CHECK-NEXT: Int64 [[R:@[0-9]+]] = CCall([[F]], [[ALO]]:Float128, [[AHI]], [[BLO]]:Float128, [[BHI]], float128 = 1)
; CHECK-NEXT: Int64 [[RHI:@[0-9]+]] = SecondResult([[R]])
; CHECK-NEXT: Void {{@[0-9]+}} = Return([[R]]:Float128, [[RHI]])

define i32 @cmp(fp128 %a, fp128 %b) {
  %lt = fcmp olt fp128 %a, %b
  %one = fcmp one fp128 %a, %b
  %ugt = fcmp ugt fp128 %a, %b
  %x = and i1 %lt, %one
  %y = xor i1 %x, %ugt
  %r = zext i1 %y to i32
  ret i32 %r
}
; CHECK-LABEL: proc @cmp
; CHECK: SymbolAddress(@__lttf2)
; CHECK-NEXT: Int32 [[LT:@[0-9]+]] = CCall({{.*}}:Float128, {{.*}}:Float128,
; CHECK: LessThan([[LT]],
; CHECK: SymbolAddress(@__unordtf2)
; CHECK: Equal(
; CHECK: SymbolAddress(@__eqtf2)
; CHECK: NotEqual(
; CHECK: SymbolAddress(@__letf2)
; CHECK: GreaterThan(

define fp128 @neg(fp128 %a, i1 %c) {
  %n = fneg fp128 %a
  %r = select i1 %c, fp128 %n, fp128 0xL00000000000000003FFF000000000000
  ret fp128 %r
}
; CHECK-LABEL: proc @neg
; CHECK: Int64 [[AHI:@[0-9]+]] = ArgumentRegHigh(%q0)
; CHECK: Int64 [[SIGN:@[0-9]+]] = Const64(-9223372036854775808)
; CHECK-NEXT: Int64 [[NHI:@[0-9]+]] = BitXor([[AHI]], [[SIGN]])
; CHECK: Int64 {{@[0-9]+}} = Const64(4611404543450677248)
; CHECK: Int64 [[SLO:@[0-9]+]] = Select(
; CHECK-NEXT: Int64 [[SHI:@[0-9]+]] = Select({{.*}}, [[NHI]],
; CHECK-NEXT: Void {{@[0-9]+}} = Return([[SLO]]:Float128, [[SHI]])

define double @conv(fp128 %a, i64 %n, float %f) {
  %b = sitofp i64 %n to fp128
  %c = fpext float %f to fp128
  %d = fmul fp128 %a, %b
  %e = fsub fp128 %d, %c
  %u = fptoui fp128 %e to i64
  %v = uitofp i64 %u to fp128
  %r = fptrunc fp128 %v to double
  ret double %r
}
; CHECK-LABEL: proc @conv
; CHECK: SymbolAddress(@__floatditf)
; CHECK-NEXT: CCall({{@[0-9]+}}, {{@[0-9]+}}, float128 = 1)
; CHECK: SymbolAddress(@__extendsftf2)
; CHECK: SymbolAddress(@__multf3)
; CHECK: SymbolAddress(@__subtf3)
; CHECK: SymbolAddress(@__fixunstfdi)
; CHECK-NEXT: Int64 {{@[0-9]+}} = CCall({{@[0-9]+}}, {{@[0-9]+}}:Float128, {{@[0-9]+}})
; CHECK: SymbolAddress(@__floatunditf)
; CHECK: SymbolAddress(@__trunctfdf2)
; CHECK-NEXT: Double [[D:@[0-9]+]] = CCall({{@[0-9]+}}, {{@[0-9]+}}:Float128, {{@[0-9]+}})
; CHECK-NEXT: Return([[D]])

define fp128 @last(double %d, fp128 %a, fp128 %b, fp128 %c, fp128 %e, fp128 %f, fp128 %g, fp128 %h, i32 %k, fp128 %i, fp128 %j) {
  ret fp128 %j
}
; CHECK-LABEL: proc @last
; CHECK: ArgumentRegHigh(%q7)
; CHECK-NOT: ArgumentRegHigh
; CHECK: Int64 [[FP:@[0-9]+]] = FramePointer()
; CHECK-NEXT: Load([[FP]], offset = 16)
; CHECK-NEXT: Load([[FP]], offset = 24)
; CHECK: Int64 [[FP2:@[0-9]+]] = FramePointer()
; CHECK-NEXT: Int64 [[JLO:@[0-9]+]] = Load([[FP2]], offset = 32)
; CHECK-NEXT: Int64 [[JHI:@[0-9]+]] = Load([[FP2]], offset = 40)
; CHECK-NEXT: Return([[JLO]]:Float128, [[JHI]])

declare i32 @printf(ptr, ...)
@fmt = constant [5 x i8] c"%Lf\0A\00"
define void @show(fp128 %x) {
  %r = call i32 (ptr, ...) @printf(ptr @fmt, fp128 %x)
  ret void
}
; CHECK-LABEL: proc @show
; CHECK: Int32 {{@[0-9]+}} = CCall({{@[0-9]+}}, {{@[0-9]+}}, {{@[0-9]+}}:Float128, {{@[0-9]+}}, variadic = 1)
