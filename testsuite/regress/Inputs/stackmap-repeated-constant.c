/* Driver for ../stackmap-repeated-constant.b3 */
#include <stdint.h>
#include <stdio.h>

int64_t sm_exit(int64_t a, int32_t b, int64_t c, int32_t d, int64_t e, int64_t f, int32_t g, int64_t h,
                int64_t i, int32_t j) {
    printf("exit %lld %d %lld %d %lld %lld %d %lld %lld %d -> 1001\n", (long long)a, b, (long long)c, d,
           (long long)e, (long long)f, g, (long long)h, (long long)i, j);
    return 1001;
}

int64_t sm_pp(int64_t x, int64_t y, int64_t z, int64_t w) {
    int64_t r = x + y + z + w;
    printf("patch %lld %lld %lld %lld -> %lld\n", (long long)x, (long long)y, (long long)z, (long long)w,
           (long long)r);
    return r;
}

int64_t check(int64_t);
int64_t patch(int64_t);

int main(void) {
    if (check(31) != 1001)
        printf("FAIL\n");
    printf("pass 5 -> %lld\n", (long long)check(5));
    patch(3);
    return 0;
}
