// Saturating addition and subtraction (llvm.{u,s}{add,sub}.sat) on i8, i16,
// i32 and i64, from clang's __builtin_elementwise_{add,sub}_sat and from the
// `x + y < x ? MAX : x + y` / `x > y ? x - y : 0` patterns clang -O2 folds
// into them (SQLite's fts3UpdateDocTotals has the latter).  The values are
// clang's own native build's.
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: llvm-dis-16 %t2.bc -o - | FileCheck --check-prefix=IR %s
// IR-DAG: call i32 @llvm.usub.sat.i32
// IR-DAG: call i32 @llvm.uadd.sat.i32
// IR-DAG: call i8 @llvm.sadd.sat.i8
// IR-DAG: call i16 @llvm.ssub.sat.i16
// IR-DAG: call i64 @llvm.ssub.sat.i64
// IR-DAG: call i64 @llvm.uadd.sat.i64
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// RUN: %clang -O0 -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
#include <stdint.h>
#include <stdio.h>

#define N __attribute__((noinline))
/* The 32- and 64-bit builtins saturate in their type; the 8- and 16-bit ones
 * work on the promoted int, so those are clamps clang -O2 folds to
 * {s,u}{add,sub}.sat.i8/i16. */
#define SAT(T, name)                                                                \
    N static T add_##name(T a, T b) { return __builtin_elementwise_add_sat(a, b); } \
    N static T sub_##name(T a, T b) { return __builtin_elementwise_sub_sat(a, b); }
#define SAT_NARROW(T, name, LO, HI)           \
    N static T add_##name(T a, T b) {         \
        int s = a + b;                        \
        return s > HI ? HI : s < LO ? LO : s; \
    }                                         \
    N static T sub_##name(T a, T b) {         \
        int s = a - b;                        \
        return s > HI ? HI : s < LO ? LO : s; \
    }
SAT_NARROW(int8_t, i8, INT8_MIN, INT8_MAX)
SAT_NARROW(uint8_t, u8, 0, UINT8_MAX)
SAT_NARROW(int16_t, i16, INT16_MIN, INT16_MAX)
SAT_NARROW(uint16_t, u16, 0, UINT16_MAX)
SAT(int32_t, i32)
SAT(uint32_t, u32)
SAT(int64_t, i64)
SAT(uint64_t, u64)

N static uint32_t monus(uint32_t x, uint32_t y) { return x > y ? x - y : 0; }
N static uint32_t clamp_add(uint32_t x, uint32_t y) { return x + y < x ? UINT32_MAX : x + y; }

int main(void) {
    static const int64_t v[] = {0,     1,      -1,         100,         -100,      127,      -128,
                                30000, -30000, 2000000000, -2000000000, INT64_MAX, INT64_MIN};
    unsigned n = sizeof v / sizeof v[0];
    uint64_t h = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            int64_t a = v[i], b = v[j];
            h = h * 31 + (uint8_t)add_i8((int8_t)a, (int8_t)b);
            h = h * 31 + (uint8_t)sub_i8((int8_t)a, (int8_t)b);
            h = h * 31 + add_u8((uint8_t)a, (uint8_t)b);
            h = h * 31 + sub_u8((uint8_t)a, (uint8_t)b);
            h = h * 31 + (uint16_t)add_i16((int16_t)a, (int16_t)b);
            h = h * 31 + (uint16_t)sub_i16((int16_t)a, (int16_t)b);
            h = h * 31 + add_u16((uint16_t)a, (uint16_t)b);
            h = h * 31 + sub_u16((uint16_t)a, (uint16_t)b);
            h = h * 31 + (uint32_t)add_i32((int32_t)a, (int32_t)b);
            h = h * 31 + (uint32_t)sub_i32((int32_t)a, (int32_t)b);
            h = h * 31 + add_u32((uint32_t)a, (uint32_t)b);
            h = h * 31 + sub_u32((uint32_t)a, (uint32_t)b);
            h = h * 31 + (uint64_t)add_i64(a, b);
            h = h * 31 + (uint64_t)sub_i64(a, b);
            h = h * 31 + add_u64((uint64_t)a, (uint64_t)b);
            h = h * 31 + sub_u64((uint64_t)a, (uint64_t)b);
            h = h * 31 + monus((uint32_t)a, (uint32_t)b);
            h = h * 31 + clamp_add((uint32_t)a, (uint32_t)b);
        }
    printf("%d %d %u %u\n", add_i8(100, 100), sub_i8(-100, 100), add_u8(200, 100), sub_u8(5, 6));
    printf("%d %d %u %u\n", add_i16(30000, 30000), sub_i16(-30000, 30000), add_u16(60000, 6000),
           sub_u16(1, 2));
    printf("%d %d %u %u\n", add_i32(INT32_MAX, 1), sub_i32(INT32_MIN, 1), add_u32(UINT32_MAX, 2),
           sub_u32(3, 4));
    printf("%lld %lld %llu %llu\n", (long long)add_i64(INT64_MAX, 5), (long long)sub_i64(INT64_MIN, 5),
           (unsigned long long)add_u64(UINT64_MAX, 1), (unsigned long long)sub_u64(0, 1));
    printf("%d %d %u %u\n", add_i8(-100, 50), sub_i8(100, -27), monus(10, 3),
           clamp_add(4000000000u, 294967295u));
    printf("hash %llu\n", (unsigned long long)h);
    return 0;
}
// CHECK: 127 -128 255 0
// CHECK-NEXT: 32767 -32768 65535 0
// CHECK-NEXT: 2147483647 -2147483648 4294967295 0
// CHECK-NEXT: 9223372036854775807 -9223372036854775808 18446744073709551615 0
// CHECK-NEXT: -50 127 7 4294967295
// CHECK-NEXT: hash 7771813505914960005
