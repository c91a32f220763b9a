// Atomics: fetch-add/sub/and/or/xor/nand on 8- to 64-bit values (old value
// and new), exchange, strong and weak compare-exchange (8/16/64 bits, negative
// expected values), fetch-min/max (a CAS loop), seq_cst stores, fences, and
// four threads incrementing one counter.
// Checked against gcc.  Bitcode from clang-16 at -O0 and -O2, compiled by b3c
// (at the configuration's level), linked with the C library and run.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0 -lm -lpthread
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2 -lm -lpthread
// RUN: %run %t2 | FileCheck %s
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define N __attribute__((noinline))
#ifndef __clang__ /* gcc (which checked the expected output) has no fetch_min/max */
#define __atomic_fetch_min(p, v, o) ({ __typeof__(*(p)) o_ = *(p), v_ = (v); *(p) = v_ < o_ ? v_ : o_; o_; })
#define __atomic_fetch_max(p, v, o) ({ __typeof__(*(p)) o_ = *(p), v_ = (v); *(p) = v_ > o_ ? v_ : o_; o_; })
#endif
static _Atomic int counter;
static int8_t b8 = -128;
static int16_t h16 = 0x7fff;
static uint32_t w32 = 0x80000000u;
static int64_t d64 = -1;

N static void *worker(void *arg) {
    for (int i = 0; i < 10000; i++)
        atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    (void)arg;
    return NULL;
}

/* The old value, then the variable after the operation (in that order:
 * printf's arguments are evaluated in no fixed order). */
#define SHOW(name, expr, var)                                                                 \
    do {                                                                                      \
        long long o_ = (expr);                                                                \
        printf("%s %lld %lld\n", name, o_, (long long)(var));                                 \
    } while (0)

int main(void) {
    SHOW("add8", __atomic_fetch_add(&b8, -1, __ATOMIC_SEQ_CST), b8);
    SHOW("sub16", __atomic_fetch_sub(&h16, -1, __ATOMIC_ACQ_REL), h16);
    SHOW("and", __atomic_fetch_and(&w32, 0xf0000001u, __ATOMIC_RELAXED), w32);
    SHOW("or", __atomic_fetch_or(&w32, 0x11u, __ATOMIC_RELEASE), w32);
    SHOW("xor", __atomic_fetch_xor(&w32, 0xffffffffu, __ATOMIC_ACQUIRE), w32);
    SHOW("nand", __atomic_fetch_nand(&w32, 0x0000ffffu, __ATOMIC_SEQ_CST), w32);
    SHOW("nand8", __atomic_fetch_nand(&b8, 0x0f, __ATOMIC_SEQ_CST), b8);
    SHOW("xchg", __atomic_exchange_n(&d64, INT64_MIN, __ATOMIC_SEQ_CST), d64);
    int64_t expect = 5;
    int ok = __atomic_compare_exchange_n(&d64, &expect, 7, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    printf("cas %d %lld %lld\n", ok, (long long)expect, (long long)d64);
    ok = __atomic_compare_exchange_n(&d64, &expect, 7, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    while (!ok) /* a weak CAS may fail spuriously */
        ok = __atomic_compare_exchange_n(&d64, &expect, 7, 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    printf("cas %d %lld %lld\n", ok, (long long)expect, (long long)d64);
    int8_t e8 = -128;
    b8 = -128;
    ok = __atomic_compare_exchange_n(&b8, &e8, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
    printf("cas8 %d %d %d\n", ok, e8, b8);
    int16_t e16 = 1;
    h16 = -2;
    ok = __atomic_compare_exchange_n(&h16, &e16, 3, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
    printf("cas16 %d %d %d\n", ok, e16, h16);
    int32_t m = -5;
    SHOW("min", __atomic_fetch_min(&m, -7, __ATOMIC_SEQ_CST), m);
    SHOW("max", __atomic_fetch_max(&m, 3, __ATOMIC_SEQ_CST), m);
    uint32_t um = 0x80000000u;
    SHOW("umin", __atomic_fetch_min(&um, 5u, __ATOMIC_SEQ_CST), um);
    SHOW("umax", __atomic_fetch_max(&um, 0xffffffffu, __ATOMIC_SEQ_CST), um);
    int8_t s8 = 100;
    SHOW("min8", __atomic_fetch_min(&s8, -100, __ATOMIC_SEQ_CST), s8);
    uint16_t u16 = 0x8000;
    SHOW("umax16", __atomic_fetch_max(&u16, 0x7fff, __ATOMIC_SEQ_CST), u16);
    __atomic_store_n(&d64, 42, __ATOMIC_SEQ_CST);
    atomic_thread_fence(memory_order_seq_cst);
    printf("load %lld %lld\n", (long long)__atomic_load_n(&d64, __ATOMIC_ACQUIRE), (long long)__atomic_load_n(&d64, __ATOMIC_RELAXED));
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("threads %d\n", atomic_load(&counter));
    return 0;
}

// CHECK: add8 -128 127
// CHECK-NEXT: sub16 32767 -32768
// CHECK-NEXT: and 2147483648 2147483648
// CHECK-NEXT: or 2147483648 2147483665
// CHECK-NEXT: xor 2147483665 2147483630
// CHECK-NEXT: nand 2147483630 4294901777
// CHECK-NEXT: nand8 127 -16
// CHECK-NEXT: xchg -1 -9223372036854775808
// CHECK-NEXT: cas 0 -9223372036854775808 -9223372036854775808
// CHECK-NEXT: cas 1 -9223372036854775808 7
// CHECK-NEXT: cas8 1 -128 1
// CHECK-NEXT: cas16 0 -2 -2
// CHECK-NEXT: min -5 -7
// CHECK-NEXT: max -7 3
// CHECK-NEXT: umin 2147483648 5
// CHECK-NEXT: umax 5 4294967295
// CHECK-NEXT: min8 100 -100
// CHECK-NEXT: umax16 32768 32768
// CHECK-NEXT: load 42 42
// CHECK-NEXT: threads 40000
