// Saturating add and subtract (llvm.{u,s}{add,sub}.sat) at their edges: i32
// and i64 from __builtin_elementwise_{add,sub}_sat, i8 and i16 from IR
// (Inputs/saturating-narrow.ll: C promotes those operands to int), and the
// `m >= n ? m - n : 0` clamp that clang -O2 turns into llvm.usub.sat (zlib's
// hash slide).  Checked against gcc's arithmetic.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %b3c %S/Inputs/saturating-narrow.ll -o %tn.o
// RUN: %cc %t0.o %tn.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o %tn.o -o %t2
// RUN: %run %t2 | FileCheck %s
#include <stdint.h>
#include <stdio.h>

#define N __attribute__((noinline))
#define NARROW(T, name) T add_##name(T a, T b), sub_##name(T a, T b);
NARROW(uint8_t, u8)
NARROW(int8_t, s8)
NARROW(uint16_t, u16)
NARROW(int16_t, s16)
#define OPS(T, name)                                                                \
    N static T add_##name(T a, T b) { return __builtin_elementwise_add_sat(a, b); } \
    N static T sub_##name(T a, T b) { return __builtin_elementwise_sub_sat(a, b); }
OPS(uint32_t, u32)
OPS(int32_t, s32)
OPS(uint64_t, u64)
OPS(int64_t, s64)

N static unsigned slide(unsigned m, unsigned n) { return m >= n ? m - n : 0; }
N static unsigned short slide16(unsigned short m, unsigned short n) {
    return (unsigned short)(m >= n ? m - n : 0);
}

int main(void) {
    // CHECK: u8 255 255 0 3
    printf("u8 %d %d %d %d\n", add_u8(200, 100), add_u8(255, 0), sub_u8(3, 4), sub_u8(7, 4));
    // CHECK-NEXT: s8 127 -128 -128 127 -2
    printf("s8 %d %d %d %d %d\n", add_s8(100, 100), add_s8(-100, -100), sub_s8(-100, 100), sub_s8(100, -100),
           add_s8(-1, -1));
    // CHECK-NEXT: u16 65535 0 65534
    printf("u16 %d %d %d\n", add_u16(65535, 1), sub_u16(0, 1), sub_u16(65535, 1));
    // CHECK-NEXT: s16 32767 -32768 -1
    printf("s16 %d %d %d\n", add_s16(32767, 1), sub_s16(-32768, 1), sub_s16(32766, 32767));
    // CHECK-NEXT: u32 4294967295 0 5 4294967294
    printf("u32 %u %u %u %u\n", add_u32(4000000000u, 400000000u), sub_u32(1, 2), sub_u32(7, 2),
           add_u32(4294967294u, 0));
    // CHECK-NEXT: s32 2147483647 -2147483648 -2147483648 2147483647 -5
    printf("s32 %d %d %d %d %d\n", add_s32(INT32_MAX, 1), add_s32(INT32_MIN, -1), sub_s32(INT32_MIN, 1),
           sub_s32(INT32_MAX, -1), add_s32(-2, -3));
    // CHECK-NEXT: u64 18446744073709551615 0 1
    printf("u64 %llu %llu %llu\n", (unsigned long long)add_u64(UINT64_MAX, 2),
           (unsigned long long)sub_u64(2, 3), (unsigned long long)sub_u64(3, 2));
    // CHECK-NEXT: s64 9223372036854775807 -9223372036854775808 -9223372036854775808 9223372036854775807 0
    printf("s64 %lld %lld %lld %lld %lld\n", (long long)add_s64(INT64_MAX, 1),
           (long long)add_s64(INT64_MIN, -1), (long long)sub_s64(INT64_MIN, 1),
           (long long)sub_s64(INT64_MAX, -1), (long long)add_s64(-5, 5));
    // CHECK-NEXT: slide 0 0 32768 0 1
    printf("slide %u %u %u %u %u\n", slide(5, 32768), slide(32768, 32768), slide(65536, 32768), slide16(1, 2),
           slide16(65535, 65534));
    return 0;
}
