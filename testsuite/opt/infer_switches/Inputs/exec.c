/* Driver for ../exec.b3: each chain against the same tests in C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int64_t dense(int64_t);
int32_t sparse(int32_t);

static int fails;

static int64_t dense_c(int64_t x) { return x >= 10 && x <= 17 ? 100 * (x - 10) + 7 : -1; }

static int32_t sparse_c(int32_t x) {
    static const int32_t v[] = {INT32_MIN, -5, 0, 3, 1000, 65536, INT32_MAX};
    for (int32_t k = 0; k < 7; k++)
        if (x == v[k])
            return k;
    return 99;
}

int main(void) {
    for (int64_t x = -20; x < 40; x++)
        if (dense(x) != dense_c(x)) {
            printf("FAIL dense(%" PRId64 ") = %" PRId64 "\n", x, dense(x));
            fails++;
        }
    const int64_t big[] = {INT64_MIN, INT64_MAX, 10 + (1ll << 32), 13 - (1ll << 32)};
    for (int i = 0; i < 4; i++)
        if (dense(big[i]) != dense_c(big[i])) {
            printf("FAIL dense(%" PRId64 ")\n", big[i]);
            fails++;
        }
    const int32_t xs[] = {INT32_MIN, INT32_MIN + 1, -6, -5, -4, -1, 0, 1, 2, 3, 4, 999, 1000, 1001, 65535, 65536, 65537, INT32_MAX - 1, INT32_MAX};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++)
        if (sparse(xs[i]) != sparse_c(xs[i])) {
            printf("FAIL sparse(%" PRId32 ") = %" PRId32 "\n", xs[i], sparse(xs[i]));
            fails++;
        }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
