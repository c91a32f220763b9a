/* The driver of exec/unwind-backtrace.b3: main -> drive -> unwind_a ->
 * unwind_b -> unwind_c (b3c) -> unwind_cb, which prints the stack that
 * backtrace() finds, one function a line, up to main. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int64_t unwind_a(int64_t);

__attribute__((noinline)) int64_t unwind_cb(int64_t *p) {
    void *pcs[64];
    int n = backtrace(pcs, 64);
    char **names = backtrace_symbols(pcs, n);
    for (int i = 0; names && i < n; i++) {
        /* "path(name+0xoff) [0xaddr]": the name, or the whole line if there is none. */
        const char *s = strchr(names[i], '('), *e = s ? strchr(s, '+') : NULL;
        if (s && e && e > s + 1)
            printf("frame: %.*s\n", (int)(e - s - 1), s + 1);
        else
            printf("frame: ? %s\n", names[i]);
        if (s && e && e - s - 1 == 4 && !strncmp(s + 1, "main", 4))
            break;
    }
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
