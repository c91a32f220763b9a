/* The driver of exec/unwind-paths.b3: each drive_* calls one b3c path that
 * reaches a C function printing the stack backtrace() finds, up to main. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "print_backtrace.h"

int64_t up_entry_second(int64_t);
int64_t up_pp(int64_t, int64_t);
int64_t up_check(int64_t, int64_t);
int64_t up_early(int64_t);

__attribute__((noinline)) int64_t up_cb(int64_t x) {
    print_backtrace();
    return x + 1;
}
__attribute__((noinline)) int64_t up_pp_fn(int64_t a, int64_t b) {
    print_backtrace();
    return a + b;
}
__attribute__((noinline)) int64_t up_exit(int32_t a, int32_t b) {
    print_backtrace();
    return (int64_t)a - (int64_t)b - 6;
}

__attribute__((noinline)) int64_t drive_entry(int64_t x) { return up_entry_second(x); }
__attribute__((noinline)) int64_t drive_pp(int64_t a, int64_t b) { return up_pp(a, b); }
__attribute__((noinline)) int64_t drive_check(int64_t a, int64_t b) { return up_check(a, b); }
__attribute__((noinline)) int64_t drive_early(int64_t x) { return up_early(x); }

int main(void) {
    volatile int64_t v = 301, a = 40, b = 2, big = INT32_MAX, one = 1, e = 1005;
    int ok = 1;
    int64_t r;
    printf("entry:\n");
    r = drive_entry(v); /* cb(301) = 302; + 903 + 7 */
    printf("result %lld\n", (long long)r);
    ok &= r == 1212;
    printf("patchpoint:\n");
    r = drive_pp(a, b);
    printf("result %lld\n", (long long)r);
    ok &= r == 43;
    printf("check exit:\n");
    r = drive_check(one, big); /* 1 - INT32_MAX overflows: exit(1, INT32_MAX) */
    printf("result %lld\n", (long long)r);
    ok &= r == 1 - (int64_t)INT32_MAX - 6;
    printf("after early return:\n");
    r = drive_early(e); /* cb(1005) = 1006; + 1015 */
    printf("result %lld\n", (long long)r);
    ok &= r == 2021;
    printf("%s\n", ok ? "OK" : "FAIL");
    return 0;
}
