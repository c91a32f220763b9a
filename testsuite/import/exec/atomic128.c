// 128-bit atomics (docs/llvm-import.md): _Atomic __int128 and, on arm64
// Linux, _Atomic long double (clang makes both i128 load atomic, store
// atomic, cmpxchg and atomicrmw) are calls of libatomic's
// __atomic_load_16, __atomic_store_16 and __atomic_compare_exchange_16
// (atomicrmw a compare-and-swap loop around it), as gcc compiles them.
// Four threads adding at once lose no update.  The output is compared
// with gcc's.
// RUN: %cc -O0 %s -o %t.gcc -latomic -lpthread
// RUN: %run %t.gcc > %t.want
// RUN: %clang -O0 -Wno-atomic-alignment -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0 -latomic -lpthread
// RUN: %run %t0 > %t0.out
// RUN: diff %t.want %t0.out
// RUN: %clang -O2 -Wno-atomic-alignment -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2 -latomic -lpthread
// RUN: %run %t2 > %t2.out
// RUN: diff %t.want %t2.out
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>

static _Atomic __int128 counter;
static _Atomic long double ldv;

static void *work(void *arg) {
    (void)arg;
    for (int i = 0; i < 20000; i++)
        atomic_fetch_add(&counter, ((__int128)1 << 64) + 1);
    return NULL;
}

static void show(const char *what, unsigned __int128 v) {
    printf("%s %016llx%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void) {
    atomic_store(&counter, (__int128)5);
    show("load", atomic_load(&counter));
    __int128 exp = 5;
    int ok = atomic_compare_exchange_strong(&counter, &exp, (__int128)-7);
    show("cas1", atomic_load(&counter));
    printf("ok %d\n", ok);
    exp = 5;
    ok = atomic_compare_exchange_strong(&counter, &exp, (__int128)9);
    show("cas2 seen", exp);
    printf("ok %d\n", ok);
    show("xchg", atomic_exchange(&counter, (__int128)0));
    atomic_fetch_or(&counter, (__int128)0xf0);
    atomic_fetch_and(&counter, (__int128)0x3c);
    atomic_fetch_xor(&counter, ((__int128)1 << 100));
    atomic_fetch_sub(&counter, (__int128)1);
    show("ops", atomic_load(&counter));
    atomic_store(&counter, (__int128)0);
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    show("threads", atomic_load(&counter));
    ldv = 1.5L;
    ldv += 2.25L;
    printf("ld %.3Lf\n", (long double)ldv);
    return 0;
}
