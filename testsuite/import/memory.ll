; Loads and stores of every width: i24/i40/i48/i56 as pieces, narrow loads
; zero-extend, aggregates as their leaves; volatile accesses carry <Traps> so
; no phase removes them.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @widths(ptr %p, ptr %q) {
  %1 = load i1, ptr %p
  store i1 %1, ptr %q
  %2 = load i8, ptr %p
  store i8 %2, ptr %q
  %3 = load i16, ptr %p
  store i16 %3, ptr %q
  %4 = load i24, ptr %p
  store i24 %4, ptr %q
  %5 = load i32, ptr %p
  store i32 %5, ptr %q
  %6 = load i40, ptr %p
  store i40 %6, ptr %q
  %7 = load i48, ptr %p
  store i48 %7, ptr %q
  %8 = load i56, ptr %p
  store i56 %8, ptr %q
  %9 = load i64, ptr %p
  store i64 %9, ptr %q
  %10 = load float, ptr %p
  store float %10, ptr %q
  %11 = load double, ptr %p
  store double %11, ptr %q
  %12 = load ptr, ptr %p
  store ptr %12, ptr %q
  ret void
}

define i32 @narrow_use(ptr %p) {
  %b = load i8, ptr %p
  %s = sext i8 %b to i32
  %h = load i16, ptr %p
  %z = zext i16 %h to i32
  %r = add i32 %s, %z
  ret i32 %r
}

define void @aggregate(ptr %p, ptr %q) {
  %s = load { i32, double }, ptr %p
  %x = extractvalue { i32, double } %s, 0
  %y = insertvalue { i32, double } %s, i32 7, 0
  store { i32, double } %y, ptr %q
  ret void
}

define void @volatile(ptr %p, ptr %q) {
  %a = load volatile i32, ptr %p
  store volatile i32 %a, ptr %q
  %b = load volatile i8, ptr %p
  store volatile i8 %b, ptr %q
  %c = load volatile double, ptr %p
  store volatile double %c, ptr %q
  ret void
}

; CHECK-LABEL: proc @widths 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V2:@[0-9]+]] = Load8Z([[V0]])
; CHECK: Void [[V3:@[0-9]+]] = Store8([[V2]], [[V1]])
; CHECK: Int32 [[V4:@[0-9]+]] = Load8Z([[V0]])
; CHECK: Void [[V5:@[0-9]+]] = Store8([[V4]], [[V1]])
; CHECK: Int32 [[V6:@[0-9]+]] = Load16Z([[V0]])
; CHECK: Void [[V7:@[0-9]+]] = Store16([[V6]], [[V1]])
; CHECK: Int32 [[V8:@[0-9]+]] = Load16Z([[V0]])
; CHECK: Int32 [[V9:@[0-9]+]] = Load8Z([[V0]], offset = 2)
; CHECK: Int32 [[V10:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V11:@[0-9]+]] = Shl([[V9]], [[V10]])
; CHECK: Int32 [[V12:@[0-9]+]] = BitOr([[V8]], [[V11]])
; CHECK: Void [[V13:@[0-9]+]] = Store16([[V12]], [[V1]])
; CHECK: Int32 [[V14:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V15:@[0-9]+]] = ZShr([[V12]], [[V14]])
; CHECK: Void [[V16:@[0-9]+]] = Store8([[V15]], [[V1]], offset = 2)
; CHECK: Int32 [[V17:@[0-9]+]] = Load([[V0]])
; CHECK: Void [[V18:@[0-9]+]] = Store([[V17]], [[V1]])
; CHECK: Int32 [[V19:@[0-9]+]] = Load([[V0]])
; CHECK: Int64 [[V20:@[0-9]+]] = ZExt32([[V19]])
; CHECK: Int32 [[V21:@[0-9]+]] = Load8Z([[V0]], offset = 4)
; CHECK: Int64 [[V22:@[0-9]+]] = ZExt32([[V21]])
; CHECK: Int32 [[V23:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V24:@[0-9]+]] = Shl([[V22]], [[V23]])
; CHECK: Int64 [[V25:@[0-9]+]] = BitOr([[V20]], [[V24]])
; CHECK: Int32 [[V26:@[0-9]+]] = Trunc([[V25]])
; CHECK: Void [[V27:@[0-9]+]] = Store([[V26]], [[V1]])
; CHECK: Int32 [[V28:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V29:@[0-9]+]] = ZShr([[V25]], [[V28]])
; CHECK: Int32 [[V30:@[0-9]+]] = Trunc([[V29]])
; CHECK: Void [[V31:@[0-9]+]] = Store8([[V30]], [[V1]], offset = 4)
; CHECK: Int32 [[V32:@[0-9]+]] = Load([[V0]])
; CHECK: Int64 [[V33:@[0-9]+]] = ZExt32([[V32]])
; CHECK: Int32 [[V34:@[0-9]+]] = Load16Z([[V0]], offset = 4)
; CHECK: Int64 [[V35:@[0-9]+]] = ZExt32([[V34]])
; CHECK: Int32 [[V36:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V37:@[0-9]+]] = Shl([[V35]], [[V36]])
; CHECK: Int64 [[V38:@[0-9]+]] = BitOr([[V33]], [[V37]])
; CHECK: Int32 [[V39:@[0-9]+]] = Trunc([[V38]])
; CHECK: Void [[V40:@[0-9]+]] = Store([[V39]], [[V1]])
; CHECK: Int32 [[V41:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V42:@[0-9]+]] = ZShr([[V38]], [[V41]])
; CHECK: Int32 [[V43:@[0-9]+]] = Trunc([[V42]])
; CHECK: Void [[V44:@[0-9]+]] = Store16([[V43]], [[V1]], offset = 4)
; CHECK: Int32 [[V45:@[0-9]+]] = Load([[V0]])
; CHECK: Int64 [[V46:@[0-9]+]] = ZExt32([[V45]])
; CHECK: Int32 [[V47:@[0-9]+]] = Load16Z([[V0]], offset = 4)
; CHECK: Int32 [[V48:@[0-9]+]] = Load8Z([[V0]], offset = 6)
; CHECK: Int32 [[V49:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V50:@[0-9]+]] = Shl([[V48]], [[V49]])
; CHECK: Int32 [[V51:@[0-9]+]] = BitOr([[V47]], [[V50]])
; CHECK: Int64 [[V52:@[0-9]+]] = ZExt32([[V51]])
; CHECK: Int32 [[V53:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V54:@[0-9]+]] = Shl([[V52]], [[V53]])
; CHECK: Int64 [[V55:@[0-9]+]] = BitOr([[V46]], [[V54]])
; CHECK: Int32 [[V56:@[0-9]+]] = Trunc([[V55]])
; CHECK: Void [[V57:@[0-9]+]] = Store([[V56]], [[V1]])
; CHECK: Int32 [[V58:@[0-9]+]] = Const32(32)
; CHECK: Int64 [[V59:@[0-9]+]] = ZShr([[V55]], [[V58]])
; CHECK: Int32 [[V60:@[0-9]+]] = Trunc([[V59]])
; CHECK: Void [[V61:@[0-9]+]] = Store16([[V60]], [[V1]], offset = 4)
; CHECK: Int32 [[V62:@[0-9]+]] = Const32(16)
; CHECK: Int32 [[V63:@[0-9]+]] = ZShr([[V60]], [[V62]])
; CHECK: Void [[V64:@[0-9]+]] = Store8([[V63]], [[V1]], offset = 6)
; CHECK: Int64 [[V65:@[0-9]+]] = Load([[V0]])
; CHECK: Void [[V66:@[0-9]+]] = Store([[V65]], [[V1]])
; CHECK: Float [[V67:@[0-9]+]] = Load([[V0]])
; CHECK: Void [[V68:@[0-9]+]] = Store([[V67]], [[V1]])
; CHECK: Double [[V69:@[0-9]+]] = Load([[V0]])
; CHECK: Void [[V70:@[0-9]+]] = Store([[V69]], [[V1]])
; CHECK: Int64 [[V71:@[0-9]+]] = Load([[V0]])
; CHECK: Void [[V72:@[0-9]+]] = Store([[V71]], [[V1]])
; CHECK: Void [[V73:@[0-9]+]] = Return()

; CHECK-LABEL: proc @narrow_use 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int32 [[V1:@[0-9]+]] = Load8Z([[V0]])
; CHECK: Int32 [[V2:@[0-9]+]] = SExt8([[V1]])
; CHECK: Int32 [[V3:@[0-9]+]] = Load16Z([[V0]])
; CHECK: Int32 [[V4:@[0-9]+]] = Add([[V2]], [[V3]])
; CHECK: Void [[V5:@[0-9]+]] = Return([[V4]])

; CHECK-LABEL: proc @aggregate 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V2:@[0-9]+]] = Load([[V0]])
; CHECK: Double [[V3:@[0-9]+]] = Load([[V0]], offset = 8)
; CHECK: Int32 [[V4:@[0-9]+]] = Const32(7)
; CHECK: Void [[V5:@[0-9]+]] = Store([[V4]], [[V1]])
; CHECK: Void [[V6:@[0-9]+]] = Store([[V3]], [[V1]], offset = 8)
; CHECK: Void [[V7:@[0-9]+]] = Return()

; CHECK-LABEL: proc @volatile 
; CHECK: Int64 [[V0:@[0-9]+]] = ArgumentReg(%rdi)
; CHECK: Int64 [[V1:@[0-9]+]] = ArgumentReg(%rsi)
; CHECK: Int32 [[V2:@[0-9]+]] = Load<Traps>([[V0]])
; CHECK: Void [[V3:@[0-9]+]] = Store<Traps>([[V2]], [[V1]])
; CHECK: Int32 [[V4:@[0-9]+]] = Load8Z<Traps>([[V0]])
; CHECK: Void [[V5:@[0-9]+]] = Store8<Traps>([[V4]], [[V1]])
; CHECK: Double [[V6:@[0-9]+]] = Load<Traps>([[V0]])
; CHECK: Void [[V7:@[0-9]+]] = Store<Traps>([[V6]], [[V1]])
; CHECK: Void [[V8:@[0-9]+]] = Return()
