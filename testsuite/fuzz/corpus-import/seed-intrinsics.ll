; The intrinsics of import/llvm_intrinsics.c: memcpy/memmove/memset calls,
; lifetime/dbg/assume/prefetch ignored, expect passes its value, trap is Oops,
; objectsize unknown (-1), is.constant 0, bswap/ctpop/ctlz/cttz, funnel shifts
; (RotL/RotR when both operands are the same), abs/min/max as selects, fabs,
; copysign, sqrt, floor, ceil, libm calls for the rest, fmuladd unfused, and
; the overflow intrinsics.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare i64 @llvm.expect.i64(i64, i64)
declare void @llvm.assume(i1)
declare void @llvm.trap()
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)
declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)
declare i1 @llvm.is.constant.i32(i32)
declare i32 @llvm.bswap.i32(i32)
declare i16 @llvm.bswap.i16(i16)
declare i64 @llvm.bswap.i64(i64)
declare i32 @llvm.ctpop.i32(i32)
declare i8 @llvm.ctpop.i8(i8)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i16 @llvm.ctlz.i16(i16, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i64 @llvm.fshr.i64(i64, i64, i64)
declare i8 @llvm.fshl.i8(i8, i8, i8)
declare i32 @llvm.abs.i32(i32, i1)
declare i8 @llvm.smin.i8(i8, i8)
declare i32 @llvm.smax.i32(i32, i32)
declare i16 @llvm.umin.i16(i16, i16)
declare i64 @llvm.umax.i64(i64, i64)
declare double @llvm.fabs.f64(double)
declare float @llvm.copysign.f32(float, float)
declare double @llvm.sqrt.f64(double)
declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.round.f64(double)
declare float @llvm.rint.f32(float)
declare double @llvm.nearbyint.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.fmuladd.f64(double, double, double)
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare { i8, i1 } @llvm.ssub.with.overflow.i8(i8, i8)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64)
declare { i16, i1 } @llvm.umul.with.overflow.i16(i16, i16)

define void @mem(ptr %d, ptr %s, i64 %n) !dbg !2 {
  call void @llvm.lifetime.start.p0(i64 8, ptr %d)
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr %d, i8 -1, i64 %n, i1 false)
  call void @llvm.dbg.value(metadata ptr %d, metadata !1, metadata !DIExpression()), !dbg !5
  call void @llvm.lifetime.end.p0(i64 8, ptr %d)
  call void @llvm.prefetch.p0(ptr %s, i32 0, i32 3, i32 1)
  ret void
}

define i64 @hints(i64 %x, ptr %p) {
  %c = icmp sgt i64 %x, 0
  call void @llvm.assume(i1 %c)
  %e = call i64 @llvm.expect.i64(i64 %x, i64 1)
  %o = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 false, i1 true, i1 false)
  %k = call i1 @llvm.is.constant.i32(i32 5)
  %kz = zext i1 %k to i64
  %r1 = add i64 %e, %o
  %r2 = add i64 %r1, %kz
  ret i64 %r2
}

define void @stop() {
  call void @llvm.trap()
  unreachable
}

define i64 @bits(i32 %a, i16 %b, i64 %c, i8 %d) {
  %1 = call i32 @llvm.bswap.i32(i32 %a)
  %2 = call i16 @llvm.bswap.i16(i16 %b)
  %3 = call i64 @llvm.bswap.i64(i64 %c)
  %4 = call i32 @llvm.ctpop.i32(i32 %1)
  %5 = call i8 @llvm.ctpop.i8(i8 %d)
  %6 = call i64 @llvm.ctlz.i64(i64 %3, i1 false)
  %7 = call i16 @llvm.ctlz.i16(i16 %2, i1 true)
  %8 = call i32 @llvm.cttz.i32(i32 %4, i1 false)
  %z5 = zext i8 %5 to i64
  %z7 = zext i16 %7 to i64
  %z8 = zext i32 %8 to i64
  %s1 = add i64 %6, %z5
  %s2 = add i64 %s1, %z7
  %s3 = add i64 %s2, %z8
  ret i64 %s3
}

define i64 @funnel(i32 %a, i32 %b, i64 %c, i64 %n, i8 %x) {
  %1 = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 5)
  %2 = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 %b)
  %3 = call i64 @llvm.fshr.i64(i64 %c, i64 %c, i64 %n)
  %4 = call i64 @llvm.fshr.i64(i64 %c, i64 %n, i64 %n)
  %5 = call i8 @llvm.fshl.i8(i8 %x, i8 %x, i8 3)
  %s = add i32 %1, %2
  %z = zext i32 %s to i64
  %y = zext i8 %5 to i64
  %t = add i64 %3, %4
  %u = add i64 %t, %z
  %v = add i64 %u, %y
  ret i64 %v
}

define i64 @minmax(i32 %a, i8 %b, i8 %c, i16 %d, i64 %e) {
  %1 = call i32 @llvm.abs.i32(i32 %a, i1 false)
  %2 = call i8 @llvm.smin.i8(i8 %b, i8 %c)
  %3 = call i32 @llvm.smax.i32(i32 %1, i32 %a)
  %4 = call i16 @llvm.umin.i16(i16 %d, i16 -1)
  %5 = call i64 @llvm.umax.i64(i64 %e, i64 3)
  %z2 = sext i8 %2 to i32
  %z4 = zext i16 %4 to i32
  %s = add i32 %3, %z2
  %t = add i32 %s, %z4
  %w = zext i32 %t to i64
  %r = add i64 %w, %5
  ret i64 %r
}

define double @math(double %x, float %f, float %g) {
  %1 = call double @llvm.fabs.f64(double %x)
  %2 = call float @llvm.copysign.f32(float %f, float %g)
  %3 = call double @llvm.sqrt.f64(double %1)
  %4 = call double @llvm.floor.f64(double %3)
  %5 = call double @llvm.ceil.f64(double %4)
  %6 = call double @llvm.trunc.f64(double %5)
  %7 = call double @llvm.round.f64(double %6)
  %8 = call float @llvm.rint.f32(float %2)
  %9 = call double @llvm.nearbyint.f64(double %7)
  %10 = call double @llvm.fma.f64(double %9, double %x, double %x)
  %11 = call double @llvm.fmuladd.f64(double %10, double %x, double %x)
  %12 = fpext float %8 to double
  %13 = fadd double %11, %12
  ret double %13
}

define i32 @overflow(i32 %a, i64 %b, i8 %c, i16 %d) {
  %1 = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %a, i32 %a)
  %2 = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 %b, i64 %b)
  %3 = call { i8, i1 } @llvm.ssub.with.overflow.i8(i8 %c, i8 %c)
  %4 = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 %a, i32 1)
  %5 = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %b, i64 %b)
  %6 = call { i16, i1 } @llvm.umul.with.overflow.i16(i16 %d, i16 %d)
  %o1 = extractvalue { i32, i1 } %1, 1
  %o2 = extractvalue { i64, i1 } %2, 1
  %o3 = extractvalue { i8, i1 } %3, 1
  %o4 = extractvalue { i32, i1 } %4, 1
  %o5 = extractvalue { i64, i1 } %5, 1
  %o6 = extractvalue { i16, i1 } %6, 1
  %a1 = or i1 %o1, %o2
  %a2 = or i1 %a1, %o3
  %a3 = or i1 %a2, %o4
  %a4 = or i1 %a3, %o5
  %a5 = or i1 %a4, %o6
  %v = extractvalue { i32, i1 } %1, 0
  %r = select i1 %a5, i32 %v, i32 0
  ret i32 %r
}
!llvm.dbg.cu = !{!3}
!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !DILocalVariable(name: "d", scope: !2, file: !4, line: 1)
!2 = distinct !DISubprogram(name: "mem", scope: !4, file: !4, line: 1, spFlags: DISPFlagDefinition, unit: !3)
!3 = distinct !DICompileUnit(language: DW_LANG_C99, file: !4, emissionKind: FullDebug)
!4 = !DIFile(filename: "x.c", directory: "/")
!5 = !DILocation(line: 2, column: 3, scope: !2)








