; The intrinsics of import/llvm_intrinsics.c: memcpy/memmove/memset calls
; (inline loads, then stores, for a small constant length),
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

; CHECK-LABEL: proc @mem 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V3:@[0-9]+]] = SymbolAddress(@memcpy)
; CHECK: Int64 [[V4:@[0-9]+]] = CCall([[V3]], [[V0]], [[V1]], [[V2]])
; CHECK: Int64 [[V5:@[0-9]+]] = Load([[V1]])
; CHECK: Int64 [[V6:@[0-9]+]] = Load([[V1]], offset = 8)
; CHECK: Void [[V7:@[0-9]+]] = Store([[V5]], [[V0]])
; CHECK: Void [[V8:@[0-9]+]] = Store([[V6]], [[V0]], offset = 8)
; CHECK: Int32 [[V9:@[0-9]+]] = Const32(-1)
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V11:@[0-9]+]] = BitAnd([[V9]], [[V10]])
; CHECK: Int64 [[V12:@[0-9]+]] = SymbolAddress(@memset)
; CHECK: Int64 [[V13:@[0-9]+]] = CCall([[V12]], [[V0]], [[V11]], [[V2]])
; CHECK: Void [[V14:@[0-9]+]] = Return()

; CHECK-LABEL: proc @hints 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V2:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V3:@[0-9]+]] = GreaterThan([[V0]], [[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = Const64(-1)
; CHECK: Int32 [[V5:@[0-9]+]] = Const32(0)
; CHECK: Int64 [[V6:@[0-9]+]] = ZExt32([[V5]])
; CHECK: Int64 [[V7:@[0-9]+]] = Add([[V0]], [[V4]])
; CHECK: Int64 [[V8:@[0-9]+]] = Add([[V7]], [[V6]])
; CHECK: Void [[V9:@[0-9]+]] = Return([[V8]])

; CHECK-LABEL: proc @stop 
; CHECK: Void [[V0:@[0-9]+]] = Oops()

; CHECK-LABEL: proc @bits 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V5:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V6:@[0-9]+]] = Trunc([[V5]])
; CHECK: Int32 [[V7:@[0-9]+]] = Const32(16711935)
; CHECK: Int32 [[V8:@[0-9]+]] = Const32(8)
; CHECK: Int32 [[V9:@[0-9]+]] = BitAnd([[V1]], [[V7]])
; CHECK: Int32 [[V10:@[0-9]+]] = Shl([[V9]], [[V8]])
; CHECK: Int32 [[V11:@[0-9]+]] = Const32(8)
; CHECK: Int32 [[V12:@[0-9]+]] = ZShr([[V1]], [[V11]])
; CHECK: Int32 [[V13:@[0-9]+]] = BitAnd([[V12]], [[V7]])
; CHECK: Int32 [[V14:@[0-9]+]] = BitOr([[V13]], [[V10]])
; CHECK: Int32 [[V15:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V16:@[0-9]+]] = RotR([[V14]], [[V15]])
; CHECK: Int32 [[V17:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V18:@[0-9]+]] = BitAnd([[V3]], [[V17]])
; CHECK: Int32 [[V19:@[0-9]+]] = Const32(65280)
; CHECK: Int32 [[V20:@[0-9]+]] = Const32(8)
; CHECK: Int32 [[V21:@[0-9]+]] = Shl([[V18]], [[V20]])
; CHECK: Int32 [[V22:@[0-9]+]] = BitAnd([[V21]], [[V19]])
; CHECK: Int32 [[V23:@[0-9]+]] = Const32(8)
; CHECK: Int32 [[V24:@[0-9]+]] = ZShr([[V18]], [[V23]])
; CHECK: Int32 [[V25:@[0-9]+]] = BitOr([[V24]], [[V22]])
; CHECK: Int64 [[V26:@[0-9]+]] = Const64(71777214294589695)
; CHECK: Int32 [[V27:@[0-9]+]] = Const32(8)
; CHECK: Int64 [[V28:@[0-9]+]] = BitAnd([[V4]], [[V26]])
; CHECK: Int64 [[V29:@[0-9]+]] = Shl([[V28]], [[V27]])
; CHECK: Int32 [[V30:@[0-9]+]] = Const32(8)
; CHECK: Int64 [[V31:@[0-9]+]] = ZShr([[V4]], [[V30]])
; CHECK: Int64 [[V32:@[0-9]+]] = BitAnd([[V31]], [[V26]])
; CHECK: Int64 [[V33:@[0-9]+]] = BitOr([[V32]], [[V29]])
; CHECK: Int64 [[V34:@[0-9]+]] = Const64(281470681808895)
; CHECK: Int32 [[V35:@[0-9]+]] = Const32(16)
; CHECK: Int64 [[V36:@[0-9]+]] = BitAnd([[V33]], [[V34]])
; CHECK: Int64 [[V37:@[0-9]+]] = Shl([[V36]], [[V35]])
; CHECK: Int32 [[V38:@[0-9]+]] = Const32(16)
; CHECK: Int64 [[V39:@[0-9]+]] = ZShr([[V33]], [[V38]])
; CHECK: Int64 [[V40:@[0-9]+]] = BitAnd([[V39]], [[V34]])
; CHECK: Int64 [[V41:@[0-9]+]] = BitOr([[V40]], [[V37]])
; CHECK: Int32 [[V42:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V43:@[0-9]+]] = RotR([[V41]], [[V42]])
; CHECK: Int32 [[V44:@[0-9]+]] = Const32(1431655765)
; CHECK: Int32 [[V45:@[0-9]+]] = Const32(858993459)
; CHECK: Int32 [[V46:@[0-9]+]] = Const32(252645135)
; CHECK: Int32 [[V47:@[0-9]+]] = Const32(16843009)
; CHECK: Int32 [[V48:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V49:@[0-9]+]] = ZShr([[V16]], [[V48]])
; CHECK: Int32 [[V50:@[0-9]+]] = BitAnd([[V49]], [[V44]])
; CHECK: Int32 [[V51:@[0-9]+]] = Sub([[V16]], [[V50]])
; CHECK: Int32 [[V52:@[0-9]+]] = Const32(2)
; CHECK: Int32 [[V53:@[0-9]+]] = ZShr([[V51]], [[V52]])
; CHECK: Int32 [[V54:@[0-9]+]] = BitAnd([[V53]], [[V45]])
; CHECK: Int32 [[V55:@[0-9]+]] = BitAnd([[V51]], [[V45]])
; CHECK: Int32 [[V56:@[0-9]+]] = Add([[V55]], [[V54]])
; CHECK: Int32 [[V57:@[0-9]+]] = Const32(4)
; CHECK: Int32 [[V58:@[0-9]+]] = ZShr([[V56]], [[V57]])
; CHECK: Int32 [[V59:@[0-9]+]] = Add([[V56]], [[V58]])
; CHECK: Int32 [[V60:@[0-9]+]] = BitAnd([[V59]], [[V46]])
; CHECK: Int32 [[V61:@[0-9]+]] = Const32(24)
; CHECK: Int32 [[V62:@[0-9]+]] = Mul([[V60]], [[V47]])
; CHECK: Int32 [[V63:@[0-9]+]] = ZShr([[V62]], [[V61]])
; CHECK: Int32 [[V64:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V65:@[0-9]+]] = BitAnd([[V6]], [[V64]])
; CHECK: Int32 [[V66:@[0-9]+]] = Const32(1431655765)
; CHECK: Int32 [[V67:@[0-9]+]] = Const32(858993459)
; CHECK: Int32 [[V68:@[0-9]+]] = Const32(252645135)
; CHECK: Int32 [[V69:@[0-9]+]] = Const32(16843009)
; CHECK: Int32 [[V70:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V71:@[0-9]+]] = ZShr([[V65]], [[V70]])
; CHECK: Int32 [[V72:@[0-9]+]] = BitAnd([[V71]], [[V66]])
; CHECK: Int32 [[V73:@[0-9]+]] = Sub([[V65]], [[V72]])
; CHECK: Int32 [[V74:@[0-9]+]] = Const32(2)
; CHECK: Int32 [[V75:@[0-9]+]] = ZShr([[V73]], [[V74]])
; CHECK: Int32 [[V76:@[0-9]+]] = BitAnd([[V75]], [[V67]])
; CHECK: Int32 [[V77:@[0-9]+]] = BitAnd([[V73]], [[V67]])
; CHECK: Int32 [[V78:@[0-9]+]] = Add([[V77]], [[V76]])
; CHECK: Int32 [[V79:@[0-9]+]] = Const32(4)
; CHECK: Int32 [[V80:@[0-9]+]] = ZShr([[V78]], [[V79]])
; CHECK: Int32 [[V81:@[0-9]+]] = Add([[V78]], [[V80]])
; CHECK: Int32 [[V82:@[0-9]+]] = BitAnd([[V81]], [[V68]])
; CHECK: Int32 [[V83:@[0-9]+]] = Const32(24)
; CHECK: Int32 [[V84:@[0-9]+]] = Mul([[V82]], [[V69]])
; CHECK: Int32 [[V85:@[0-9]+]] = ZShr([[V84]], [[V83]])
; CHECK: Int64 [[V86:@[0-9]+]] = Clz([[V43]])
; CHECK: Int32 [[V87:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V88:@[0-9]+]] = BitAnd([[V25]], [[V87]])
; CHECK: Int32 [[V89:@[0-9]+]] = Clz([[V88]])
; CHECK: Int32 [[V90:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V91:@[0-9]+]] = Sub([[V89]], [[V90]])
; CHECK: Int32 [[V92:@[0-9]+]] = Neg([[V63]])
; CHECK: Int32 [[V93:@[0-9]+]] = BitAnd([[V63]], [[V92]])
; CHECK: Int32 [[V94:@[0-9]+]] = Clz([[V93]])
; CHECK: Int32 [[V95:@[0-9]+]] = Const32(31)
; CHECK: Int32 [[V96:@[0-9]+]] = Sub([[V95]], [[V94]])
; CHECK: Int32 [[V97:@[0-9]+]] = Const32(32)
; CHECK: Int32 [[V98:@[0-9]+]] = Const32(0)
; CHECK: Int32 [[V99:@[0-9]+]] = Equal([[V63]], [[V98]])
; CHECK: Int32 [[V100:@[0-9]+]] = Select([[V99]], [[V97]], [[V96]])
; CHECK: Int64 [[V101:@[0-9]+]] = ZExt32([[V85]])
; CHECK: Int32 [[V102:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V103:@[0-9]+]] = BitAnd([[V91]], [[V102]])
; CHECK: Int64 [[V104:@[0-9]+]] = ZExt32([[V103]])
; CHECK: Int64 [[V105:@[0-9]+]] = ZExt32([[V100]])
; CHECK: Int64 [[V106:@[0-9]+]] = Add([[V86]], [[V101]])
; CHECK: Int64 [[V107:@[0-9]+]] = Add([[V106]], [[V104]])
; CHECK: Int64 [[V108:@[0-9]+]] = Add([[V107]], [[V105]])
; CHECK: Void [[V109:@[0-9]+]] = Return([[V108]])

; CHECK-LABEL: proc @funnel 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int64 [[V5:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int64 [[V6:@[0-9]+]] = ArgumentReg(%r8)
; CHECK: Int32 [[V7:@[0-9]+]] = Trunc([[V6]])
; CHECK: Int32 [[V8:@[0-9]+]] = Const32(5)
; CHECK: Int32 [[V9:@[0-9]+]] = Const32(31)
; CHECK: Int32 [[V10:@[0-9]+]] = BitAnd([[V8]], [[V9]])
; CHECK: Int32 [[V11:@[0-9]+]] = Const32(31)
; CHECK: Int32 [[V12:@[0-9]+]] = Sub([[V11]], [[V10]])
; CHECK: Int32 [[V13:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V14:@[0-9]+]] = ZShr([[V3]], [[V13]])
; CHECK: Int32 [[V15:@[0-9]+]] = ZShr([[V14]], [[V12]])
; CHECK: Int32 [[V16:@[0-9]+]] = Shl([[V1]], [[V10]])
; CHECK: Int32 [[V17:@[0-9]+]] = BitOr([[V16]], [[V15]])
; CHECK: Int32 [[V18:@[0-9]+]] = RotL([[V1]], [[V3]])
; CHECK: Int32 [[V19:@[0-9]+]] = Trunc([[V5]])
; CHECK: Int64 [[V20:@[0-9]+]] = RotR([[V4]], [[V19]])
; CHECK: Int32 [[V21:@[0-9]+]] = Trunc([[V5]])
; CHECK: Int32 [[V22:@[0-9]+]] = Const32(63)
; CHECK: Int32 [[V23:@[0-9]+]] = BitAnd([[V21]], [[V22]])
; CHECK: Int32 [[V24:@[0-9]+]] = Const32(63)
; CHECK: Int32 [[V25:@[0-9]+]] = Sub([[V24]], [[V23]])
; CHECK: Int32 [[V26:@[0-9]+]] = Const32(1)
; CHECK: Int64 [[V27:@[0-9]+]] = Shl([[V4]], [[V26]])
; CHECK: Int64 [[V28:@[0-9]+]] = Shl([[V27]], [[V25]])
; CHECK: Int64 [[V29:@[0-9]+]] = ZShr([[V5]], [[V23]])
; CHECK: Int64 [[V30:@[0-9]+]] = BitOr([[V29]], [[V28]])
; CHECK: Int32 [[V31:@[0-9]+]] = Const32(3)
; CHECK: Int32 [[V32:@[0-9]+]] = Const32(8)
; CHECK: Int32 [[V33:@[0-9]+]] = UMod([[V31]], [[V32]])
; CHECK: Int32 [[V34:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V35:@[0-9]+]] = BitAnd([[V7]], [[V34]])
; CHECK: Int32 [[V36:@[0-9]+]] = Const32(7)
; CHECK: Int32 [[V37:@[0-9]+]] = Sub([[V36]], [[V33]])
; CHECK: Int32 [[V38:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V39:@[0-9]+]] = ZShr([[V35]], [[V38]])
; CHECK: Int32 [[V40:@[0-9]+]] = ZShr([[V39]], [[V37]])
; CHECK: Int32 [[V41:@[0-9]+]] = Shl([[V7]], [[V33]])
; CHECK: Int32 [[V42:@[0-9]+]] = BitOr([[V41]], [[V40]])
; CHECK: Int32 [[V43:@[0-9]+]] = Add([[V17]], [[V18]])
; CHECK: Int64 [[V44:@[0-9]+]] = ZExt32([[V43]])
; CHECK: Int32 [[V45:@[0-9]+]] = Const32(255)
; CHECK: Int32 [[V46:@[0-9]+]] = BitAnd([[V42]], [[V45]])
; CHECK: Int64 [[V47:@[0-9]+]] = ZExt32([[V46]])
; CHECK: Int64 [[V48:@[0-9]+]] = Add([[V20]], [[V30]])
; CHECK: Int64 [[V49:@[0-9]+]] = Add([[V48]], [[V44]])
; CHECK: Int64 [[V50:@[0-9]+]] = Add([[V49]], [[V47]])
; CHECK: Void [[V51:@[0-9]+]] = Return([[V50]])

; CHECK-LABEL: proc @minmax 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V3:@[0-9]+]] = Trunc([[V2]])
; CHECK: Int64 [[V4:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V5:@[0-9]+]] = Trunc([[V4]])
; CHECK: Int64 [[V6:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V7:@[0-9]+]] = Trunc([[V6]])
; CHECK: Int64 [[V8:@[0-9]+]] = ArgumentReg(%r8)
; CHECK: Int32 [[V9:@[0-9]+]] = Neg([[V1]])
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(0)
; CHECK: Int32 [[V11:@[0-9]+]] = LessThan([[V1]], [[V10]])
; CHECK: Int32 [[V12:@[0-9]+]] = Select([[V11]], [[V9]], [[V1]])
; CHECK: Int32 [[V13:@[0-9]+]] = SExt8([[V3]])
; CHECK: Int32 [[V14:@[0-9]+]] = SExt8([[V5]])
; CHECK: Int32 [[V15:@[0-9]+]] = LessThan([[V13]], [[V14]])
; CHECK: Int32 [[V16:@[0-9]+]] = Select([[V15]], [[V3]], [[V5]])
; CHECK: Int32 [[V17:@[0-9]+]] = GreaterThan([[V12]], [[V1]])
; CHECK: Int32 [[V18:@[0-9]+]] = Select([[V17]], [[V12]], [[V1]])
; CHECK: Int32 [[V19:@[0-9]+]] = Const32(-1)
; CHECK: Int32 [[V20:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V21:@[0-9]+]] = BitAnd([[V7]], [[V20]])
; CHECK: Int32 [[V22:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V23:@[0-9]+]] = BitAnd([[V19]], [[V22]])
; CHECK: Int32 [[V24:@[0-9]+]] = Below([[V21]], [[V23]])
; CHECK: Int32 [[V25:@[0-9]+]] = Select([[V24]], [[V7]], [[V19]])
; CHECK: Int64 [[V26:@[0-9]+]] = Const64(3)
; CHECK: Int32 [[V27:@[0-9]+]] = Above([[V8]], [[V26]])
; CHECK: Int64 [[V28:@[0-9]+]] = Select([[V27]], [[V8]], [[V26]])
; CHECK: Int32 [[V29:@[0-9]+]] = SExt8([[V16]])
; CHECK: Int32 [[V30:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V31:@[0-9]+]] = BitAnd([[V25]], [[V30]])
; CHECK: Int32 [[V32:@[0-9]+]] = Add([[V18]], [[V29]])
; CHECK: Int32 [[V33:@[0-9]+]] = Add([[V32]], [[V31]])
; CHECK: Int64 [[V34:@[0-9]+]] = ZExt32([[V33]])
; CHECK: Int64 [[V35:@[0-9]+]] = Add([[V34]], [[V28]])
; CHECK: Void [[V36:@[0-9]+]] = Return([[V35]])

; CHECK-LABEL: proc @math 
; CHECK: Double [[V0:@[0-9]+]] = ArgumentReg(%xmm0)
; CHECK: Double [[V1:@[0-9]+]] = ArgumentReg(%xmm1)
; CHECK: Float [[V2:@[0-9]+]] = Trunc([[V1]])
; CHECK: Double [[V3:@[0-9]+]] = ArgumentReg(%xmm2)
; CHECK: Float [[V4:@[0-9]+]] = Trunc([[V3]])
; CHECK: Double [[V5:@[0-9]+]] = Abs([[V0]])
; CHECK: Int32 [[V6:@[0-9]+]] = BitwiseCast([[V2]])
; CHECK: Int32 [[V7:@[0-9]+]] = BitwiseCast([[V4]])
; CHECK: Int32 [[V8:@[0-9]+]] = Const32(-2147483648)
; CHECK: Int32 [[V9:@[0-9]+]] = BitAnd([[V7]], [[V8]])
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(2147483647)
; CHECK: Int32 [[V11:@[0-9]+]] = BitAnd([[V6]], [[V10]])
; CHECK: Int32 [[V12:@[0-9]+]] = BitOr([[V11]], [[V9]])
; CHECK: Float [[V13:@[0-9]+]] = BitwiseCast([[V12]])
; CHECK: Double [[V14:@[0-9]+]] = Sqrt([[V5]])
; CHECK: Double [[V15:@[0-9]+]] = Floor([[V14]])
; CHECK: Double [[V16:@[0-9]+]] = Ceil([[V15]])
; CHECK: Int64 [[V17:@[0-9]+]] = SymbolAddress(@trunc)
; CHECK: Double [[V18:@[0-9]+]] = CCall([[V17]], [[V16]])
; CHECK: Int64 [[V19:@[0-9]+]] = SymbolAddress(@round)
; CHECK: Double [[V20:@[0-9]+]] = CCall([[V19]], [[V18]])
; CHECK: Int64 [[V21:@[0-9]+]] = SymbolAddress(@rintf)
; CHECK: Float [[V22:@[0-9]+]] = CCall([[V21]], [[V13]])
; CHECK: Int64 [[V23:@[0-9]+]] = SymbolAddress(@nearbyint)
; CHECK: Double [[V24:@[0-9]+]] = CCall([[V23]], [[V20]])
; CHECK: Int64 [[V25:@[0-9]+]] = SymbolAddress(@fma)
; CHECK: Double [[V26:@[0-9]+]] = CCall([[V25]], [[V24]], [[V0]], [[V0]])
; CHECK: Double [[V27:@[0-9]+]] = Mul([[V26]], [[V0]])
; CHECK: Double [[V28:@[0-9]+]] = Add([[V27]], [[V0]])
; CHECK: Double [[V29:@[0-9]+]] = FloatToDouble([[V22]])
; CHECK: Double [[V30:@[0-9]+]] = Add([[V28]], [[V29]])
; CHECK: Void [[V31:@[0-9]+]] = Return([[V30]])

; CHECK-LABEL: proc @overflow 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Trunc([[V0]])
; CHECK: Int64 [[V2:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int64 [[V3:@[0-9]+]] = ArgumentReg(%rdx)
; CHECK: Int32 [[V4:@[0-9]+]] = Trunc([[V3]])
; CHECK: Int64 [[V5:@[0-9]+]] = ArgumentReg(%rcx)
; CHECK: Int32 [[V6:@[0-9]+]] = Trunc([[V5]])
; CHECK: Int32 [[V7:@[0-9]+]] = Add([[V1]], [[V1]])
; CHECK: Int32 [[V8:@[0-9]+]] = Const32(0)
; CHECK: Int32 [[V9:@[0-9]+]] = BitXor([[V1]], [[V7]])
; CHECK: Int32 [[V10:@[0-9]+]] = BitXor([[V1]], [[V7]])
; CHECK: Int32 [[V11:@[0-9]+]] = BitAnd([[V10]], [[V9]])
; CHECK: Int32 [[V12:@[0-9]+]] = LessThan([[V11]], [[V8]])
; CHECK: Int64 [[V13:@[0-9]+]] = Add([[V2]], [[V2]])
; CHECK: Int64 [[V14:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V15:@[0-9]+]] = Below([[V13]], [[V2]])
; CHECK: Int32 [[V16:@[0-9]+]] = SExt8([[V4]])
; CHECK: Int32 [[V17:@[0-9]+]] = SExt8([[V4]])
; CHECK: Int32 [[V18:@[0-9]+]] = Sub([[V16]], [[V17]])
; CHECK: Int32 [[V19:@[0-9]+]] = SExt8([[V18]])
; CHECK: Int32 [[V20:@[0-9]+]] = NotEqual([[V19]], [[V18]])
; CHECK: Int32 [[V21:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V22:@[0-9]+]] = Sub([[V1]], [[V21]])
; CHECK: Int32 [[V23:@[0-9]+]] = Const32(0)
; CHECK: Int32 [[V24:@[0-9]+]] = Below([[V1]], [[V21]])
; CHECK: Int64 [[V25:@[0-9]+]] = Mul([[V2]], [[V2]])
; CHECK: Int64 [[V26:@[0-9]+]] = Const64(0)
; CHECK: Int32 [[V27:@[0-9]+]] = Const32(63)
; CHECK: Int64 [[V28:@[0-9]+]] = SShr([[V25]], [[V27]])
; CHECK: Int64 [[V29:@[0-9]+]] = MulHigh([[V2]], [[V2]])
; CHECK: Int32 [[V30:@[0-9]+]] = NotEqual([[V29]], [[V28]])
; CHECK: Int32 [[V31:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V32:@[0-9]+]] = BitAnd([[V6]], [[V31]])
; CHECK: Int32 [[V33:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V34:@[0-9]+]] = BitAnd([[V6]], [[V33]])
; CHECK: Int32 [[V35:@[0-9]+]] = Mul([[V32]], [[V34]])
; CHECK: Int32 [[V36:@[0-9]+]] = Const32(65535)
; CHECK: Int32 [[V37:@[0-9]+]] = BitAnd([[V35]], [[V36]])
; CHECK: Int32 [[V38:@[0-9]+]] = NotEqual([[V37]], [[V35]])
; CHECK: Int32 [[V39:@[0-9]+]] = BitOr([[V12]], [[V15]])
; CHECK: Int32 [[V40:@[0-9]+]] = BitOr([[V39]], [[V20]])
; CHECK: Int32 [[V41:@[0-9]+]] = BitOr([[V40]], [[V24]])
; CHECK: Int32 [[V42:@[0-9]+]] = BitOr([[V41]], [[V30]])
; CHECK: Int32 [[V43:@[0-9]+]] = BitOr([[V42]], [[V38]])
; CHECK: Int32 [[V44:@[0-9]+]] = Const32(1)
; CHECK: Int32 [[V45:@[0-9]+]] = BitAnd([[V43]], [[V44]])
; CHECK: Int32 [[V46:@[0-9]+]] = Const32(0)
; CHECK: Int32 [[V47:@[0-9]+]] = Select([[V45]], [[V7]], [[V46]])
; CHECK: Void [[V48:@[0-9]+]] = Return([[V47]])
; CHECK: extern @memcpy
; CHECK: extern @memset
; CHECK: extern @trunc
; CHECK: extern @round
; CHECK: extern @rintf
; CHECK: extern @nearbyint
; CHECK: extern @fma

