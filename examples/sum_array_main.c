/* Calls examples/sum_array.b3 from C:
 *   b3c examples/sum_array.b3 -o sum_array.o && cc examples/sum_array_main.c sum_array.o */
#include <inttypes.h>
#include <stdio.h>

int64_t sum_array(const int32_t *p, int64_t n);

int main(void) {
    int32_t a[1000];
    int64_t expect = 0;
    for (int i = 0; i < 1000; i++) {
        a[i] = i % 2 ? -i * 1000 : i * 7919;
        expect += a[i];
    }
    int64_t got = sum_array(a, 1000);
    printf("sum_array(a, 1000) = %" PRId64 "\n", got);
    return got == expect && sum_array(a, 0) == 0 ? 0 : 1;
}
