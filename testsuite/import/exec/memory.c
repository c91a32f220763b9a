// Memory: arrays of structs, initializers with relocations (string + offset,
// element addresses), a packed struct with unaligned fields, a 7-byte memcpy,
// struct copy, memmove, .bss, volatile.
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
#include <string.h>

#define N __attribute__((noinline))
struct S {
    char c;
    int i;
    short s[3];
    const char *name;
};
static const char hello[] = "hello";
struct S table[3] = {{'a', -1, {1, 2, 3}, hello}, {'b', 0x7fff0000, {-1, -2, -3}, hello + 2}, {0}};
static int *ptrs[2] = {&table[1].i, 0};
#pragma pack(push, 1)
struct U {
    char c;
    int32_t i;
    int64_t l;
    int16_t h;
} packed = {1, -2, -3, -4};
#pragma pack(pop)
static uint8_t bytes[7] = {1, 2, 3, 4, 5, 6, 7};
static int zeros[64];

N static int sum(struct S *t, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += t[i].c + t[i].i + t[i].s[i % 3];
    return s;
}
N static uint64_t load56(const uint8_t *p) {
    uint64_t x = 0;
    memcpy(&x, p, 7);
    return x;
}
N static void copy(struct S *d, const struct S *s) { *d = *s; }

int main(void) {
    printf("sum %d\n", sum(table, 3));
    printf("str %s %s %d\n", table[0].name, table[1].name, *ptrs[0]);
    printf("packed %d %d %lld %d size %zu\n", packed.c, packed.i, (long long)packed.l, packed.h, sizeof packed);
    packed.i += 10;
    packed.l *= 2;
    packed.h ^= 0x7fff;
    printf("packed %d %lld %d\n", packed.i, (long long)packed.l, packed.h);
    printf("load56 %llx\n", (unsigned long long)load56(bytes));
    struct S local;
    memset(&local, 0xff, sizeof local);
    copy(&local, &table[1]);
    printf("copy %c %d %d\n", local.c, local.i, local.s[2]);
    memmove(bytes + 1, bytes, 6);
    printf("memmove %d %d %d\n", bytes[0], bytes[1], bytes[6]);
    int z = 0;
    for (int i = 0; i < 64; i++)
        z |= zeros[i];
    volatile int v = 5;
    v += 1;
    printf("zeros %d volatile %d\n", z, v);
    return 0;
}

// CHECK: sum 2147418305
// CHECK-NEXT: str hello llo 2147418112
// CHECK-NEXT: packed 1 -2 -3 -4 size 15
// CHECK-NEXT: packed 8 -6 -32765
// CHECK-NEXT: load56 7060504030201
// CHECK-NEXT: copy b 2147418112 -3
// CHECK-NEXT: memmove 1 1 6
// CHECK-NEXT: zeros 0 volatile 6
