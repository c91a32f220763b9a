// Thread-local variables from C: each thread increments its own copies
// (an initialized one, a zero one in .tbss, a static one, a pointer to a
// thread-local, and an extern defined in a shared library), main's copies
// are unchanged.  The models are the ones LLVM would pick: local-exec and
// initial-exec in the executable, general- and local-dynamic in the -fPIC
// shared library (Inputs/tls-lib.c), and -ftls-model=initial-exec asking
// for a stronger one than -fPIC's (an -fPIC object linked into a program).
// RUN: %clang -O2 -fPIC -fno-vectorize -fno-slp-vectorize -c -emit-llvm %S/Inputs/tls-lib.c -o %tl.bc
// RUN: %b3c %tl.bc -o %tl.o
// RUN: %b3c --emit=b3 %tl.bc | FileCheck --check-prefix=LIB %s
// RUN: %cc -shared %tl.o -o %t-lib.so
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %b3c --emit=b3 %t2.bc | FileCheck --check-prefix=EXE %s
// RUN: %cc %t2.o %t-lib.so -Wl,-rpath,%T -o %t2 -lpthread
// RUN: %run %t2 | FileCheck %s
// RUN: %clang -O0 -fPIC -ftls-model=initial-exec -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %b3c --emit=b3 %t0.bc | FileCheck --check-prefix=IE %s
// RUN: %cc -no-pie %t0.o %t-lib.so -Wl,-rpath,%T -o %t0 -lpthread
// RUN: %run %t0 | FileCheck %s
// LIB-DAG: data @lib_counter threadlocal(generaldynamic)
// LIB-DAG: data @lib_hidden internal threadlocal(localdynamic)
// EXE-DAG: data @counter threadlocal(localexec)
// EXE-DAG: data @zero threadlocal(localexec)
// EXE-DAG: extern @lib_counter threadlocal(initialexec)
// IE-DAG: data @counter threadlocal(initialexec)
// IE-DAG: data @local internal threadlocal(initialexec)
// IE-DAG: extern @lib_counter threadlocal(initialexec)
// CHECK: thread 1: 101 1 1 1 1001 1001
// CHECK: thread 2: 102 2 2 2 1002 1002
// CHECK: thread 3: 103 3 3 3 1003 1003
// CHECK: main: 100 0 0 0 1000 1000
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

_Thread_local long counter = 100;
_Thread_local int zero;
static _Thread_local short local;
_Thread_local long *ptr;
extern _Thread_local long lib_counter;
long lib_bump(long n);

__attribute__((noinline)) static void bump(long n) {
    ptr = &counter;
    for (long i = 0; i < n; i++) {
        ++*ptr;
        zero++;
        local++;
    }
    lib_counter += n;
    lib_bump(n);
}

static void *thread(void *arg) {
    long n = (long)(intptr_t)arg;
    bump(n);
    long lib = lib_bump(0);
    printf("thread %ld: %ld %d %d %d %ld %ld\n", n, counter, zero, local, (int)(ptr == &counter) * (int)n,
           lib_counter, lib);
    return NULL;
}

int main(void) {
    for (long i = 1; i <= 3; i++) {
        pthread_t t;
        pthread_create(&t, NULL, thread, (void *)(intptr_t)i);
        pthread_join(t, NULL);
    }
    printf("main: %ld %d %d %d %ld %ld\n", counter, zero, local, ptr == &counter, lib_counter, lib_bump(0));
    return 0;
}
