/* The driver of exec/unwind-backtrace.b3: main -> drive -> unwind_a ->
 * unwind_b -> unwind_c (b3c) -> unwind_cb, which prints the stack that
 * backtrace() finds, one function a line, up to main. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "print_backtrace.h"

int64_t unwind_a(int64_t);

__attribute__((noinline)) int64_t unwind_cb(int64_t *p) {
    print_backtrace();
    return *p + 1;
}

__attribute__((noinline)) int64_t drive(int64_t x) { return unwind_a(x) + 1; }

int main(void) {
    volatile int64_t x = 5;
    int64_t r = drive(x);
    /* a = 5 + 1000 = 1005; c(1005) = cb + 1005 = 1006 + 1005 = 2011;
     * b = 2011 + 3015 - 1005 = 4021; a's result = 4021 + 25 + 1005 = 5051; + 1. */
    printf("result %lld\n", (long long)r);
    printf("%s\n", r == 5052 ? "OK" : "FAIL");
    return 0;
}
