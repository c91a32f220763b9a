// __int128 (multiply, variable shifts, compares, add/sub carries) and
// bit-fields of packed structs (clang reads them as i160 runs): read, modify
// and write back.
// Checked against gcc.  Bitcode from clang-16 at -O0 and -O2, compiled by b3c
// (at the configuration's level), linked with the C library and run.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
#include <stdint.h>
#include <stdio.h>

#define N __attribute__((noinline))
typedef unsigned __int128 u128;
typedef __int128 s128;

N static uint64_t mulhi(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a * b) >> 64); }
N static int64_t smulhi(int64_t a, int64_t b) { return (int64_t)(((s128)a * b) >> 64); }
N static uint64_t mul_lo_hi(u128 a, u128 b, uint64_t *hi) {
    u128 p = a * b;
    *hi = (uint64_t)(p >> 64);
    return (uint64_t)p;
}
N static uint64_t shl_var(u128 a, int n) { return (uint64_t)((a << n) >> 64); }
N static int64_t sar_var(s128 a, int n) { return (int64_t)(a >> n); }
N static uint64_t shr_var(u128 a, int n) { return (uint64_t)(a >> n); }
N static int cmp(s128 a, s128 b) { return (a < b) * 4 + (a == b) * 2 + (a > b); }
N static int ucmp(u128 a, u128 b) { return (a < b) * 4 + (a == b) * 2 + (a > b); }
N static uint64_t add_carry(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a + b) >> 64); }
N static int64_t sub_hi(s128 a, s128 b) { return (int64_t)((a - b) >> 64); }

#pragma pack(push, 1)
struct P {
    uint8_t tag;
    uint64_t a : 37;
    int64_t b : 23;
    uint32_t c : 30;
    int32_t d : 5;
    uint64_t e : 60;
    uint8_t f : 1;
};
#pragma pack(pop)

struct B {
    int x : 3;
    unsigned y : 7;
    long z : 33;
};

N static void bump(struct P *p) {
    p->a += 1;
    p->b -= 1;
    p->c ^= 0x3fffffff;
    p->d += 17;
    p->e = p->e * 3;
    p->f = !p->f;
}

int main(void) {
    printf("mulhi %016llx %lld\n", (unsigned long long)mulhi(UINT64_MAX, UINT64_MAX), (long long)smulhi(INT64_MIN, -1));
    printf("smulhi %lld %lld\n", (long long)smulhi(-1, 1), (long long)smulhi(INT64_MIN, INT64_MIN));
    uint64_t hi;
    uint64_t lo = mul_lo_hi(((u128)1 << 100) + 3, ((u128)5 << 64) + 7, &hi);
    printf("mul %016llx %016llx\n", (unsigned long long)hi, (unsigned long long)lo);
    u128 one = 1;
    printf("shl %llx %llx %llx\n", (unsigned long long)shl_var(one, 127), (unsigned long long)shl_var(one, 64),
           (unsigned long long)shl_var(one | ((u128)1 << 63), 1));
    s128 neg = -((s128)1 << 100);
    printf("sar %lld %lld %lld\n", (long long)sar_var(neg, 127), (long long)sar_var(neg, 64), (long long)sar_var(neg, 99));
    printf("shr %llx %llx\n", (unsigned long long)shr_var((u128)-1, 127), (unsigned long long)shr_var((u128)-1, 60));
    s128 min = (s128)((u128)1 << 127);
    printf("cmp %d %d %d %d\n", cmp(min, 0), cmp(-1, 0), cmp(5, 5), cmp((s128)1 << 64, (s128)-1));
    printf("ucmp %d %d %d\n", ucmp((u128)min, 0), ucmp((u128)-1, 1), ucmp((u128)1 << 64, UINT64_MAX));
    printf("carry %llu %llu\n", (unsigned long long)add_carry(UINT64_MAX, 1), (unsigned long long)add_carry(5, 6));
    printf("subhi %lld %lld\n", (long long)sub_hi(0, 1), (long long)sub_hi((s128)1 << 64, 1));

    struct P p = {0x5a, (1ull << 37) - 1, -(1 << 22), 0x12345678, -16, (1ull << 60) - 2, 1};
    printf("P size %zu: %x %llx %lld %x %d %llx %d\n", sizeof p, p.tag, (unsigned long long)p.a, (long long)p.b, p.c,
           p.d, (unsigned long long)p.e, p.f);
    bump(&p);
    printf("P %x %llx %lld %x %d %llx %d\n", p.tag, (unsigned long long)p.a, (long long)p.b, p.c, p.d,
           (unsigned long long)p.e, p.f);
    bump(&p);
    printf("P %x %llx %lld %x %d %llx %d\n", p.tag, (unsigned long long)p.a, (long long)p.b, p.c, p.d,
           (unsigned long long)p.e, p.f);
    volatile struct B b = {-4, 127, -(1L << 32)};
    b.x = b.x - 1;
    b.y = b.y + 1;
    b.z = b.z - 1;
    printf("B %d %u %ld\n", b.x, b.y, (long)b.z);
    return 0;
}

// CHECK: mulhi fffffffffffffffe 0
// CHECK-NEXT: smulhi -1 4611686018427387904
// CHECK-NEXT: mul 000000700000000f 0000000000000015
// CHECK-NEXT: shl 8000000000000000 1 1
// CHECK-NEXT: sar -1 -68719476736 -2
// CHECK-NEXT: shr 1 ffffffffffffffff
// CHECK-NEXT: cmp 4 4 2 1
// CHECK-NEXT: ucmp 1 1 1
// CHECK-NEXT: carry 1 0
// CHECK-NEXT: subhi -1 0
// CHECK-NEXT: P size 21: 5a 1fffffffff -4194304 12345678 -16 ffffffffffffffe 1
// CHECK-NEXT: P 5a 0 4194303 2dcba987 1 ffffffffffffffa 0
// CHECK-NEXT: P 5a 1 4194302 12345678 -14 fffffffffffffee 1
// CHECK-NEXT: B 3 0 4294967295
