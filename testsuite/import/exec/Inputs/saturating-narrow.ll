; Saturating add and subtract of i8 and i16 (clang promotes C's narrow
; operands to int, so these come from IR); called from saturating.c.
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
define zeroext i8 @add_u8(i8 zeroext %a, i8 zeroext %b) {
  %r = call i8 @llvm.uadd.sat.i8(i8 %a, i8 %b)
  ret i8 %r
}
declare i8 @llvm.uadd.sat.i8(i8, i8)

define zeroext i8 @sub_u8(i8 zeroext %a, i8 zeroext %b) {
  %r = call i8 @llvm.usub.sat.i8(i8 %a, i8 %b)
  ret i8 %r
}
declare i8 @llvm.usub.sat.i8(i8, i8)

define signext i8 @add_s8(i8 signext %a, i8 signext %b) {
  %r = call i8 @llvm.sadd.sat.i8(i8 %a, i8 %b)
  ret i8 %r
}
declare i8 @llvm.sadd.sat.i8(i8, i8)

define signext i8 @sub_s8(i8 signext %a, i8 signext %b) {
  %r = call i8 @llvm.ssub.sat.i8(i8 %a, i8 %b)
  ret i8 %r
}
declare i8 @llvm.ssub.sat.i8(i8, i8)

define zeroext i16 @add_u16(i16 zeroext %a, i16 zeroext %b) {
  %r = call i16 @llvm.uadd.sat.i16(i16 %a, i16 %b)
  ret i16 %r
}
declare i16 @llvm.uadd.sat.i16(i16, i16)

define zeroext i16 @sub_u16(i16 zeroext %a, i16 zeroext %b) {
  %r = call i16 @llvm.usub.sat.i16(i16 %a, i16 %b)
  ret i16 %r
}
declare i16 @llvm.usub.sat.i16(i16, i16)

define signext i16 @add_s16(i16 signext %a, i16 signext %b) {
  %r = call i16 @llvm.sadd.sat.i16(i16 %a, i16 %b)
  ret i16 %r
}
declare i16 @llvm.sadd.sat.i16(i16, i16)

define signext i16 @sub_s16(i16 signext %a, i16 signext %b) {
  %r = call i16 @llvm.ssub.sat.i16(i16 %a, i16 %b)
  ret i16 %r
}
declare i16 @llvm.ssub.sat.i16(i16, i16)
