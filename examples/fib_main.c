/* Calls examples/fib.b3 from C:  b3c examples/fib.b3 -o fib.o && cc examples/fib_main.c fib.o */
#include <inttypes.h>
#include <stdio.h>

int64_t fib(int32_t n);

int main(void) {
    static const int64_t expect[] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55};
    for (int32_t n = 0; n <= 10; n++) {
        if (fib(n) != expect[n]) {
            printf("fib(%d) = %" PRId64 ", expected %" PRId64 "\n", n, fib(n), expect[n]);
            return 1;
        }
    }
    printf("fib(10) = %" PRId64 ", fib(50) = %" PRId64 "\n", fib(10), fib(50));
    return fib(50) == 12586269025 ? 0 : 1;
}
