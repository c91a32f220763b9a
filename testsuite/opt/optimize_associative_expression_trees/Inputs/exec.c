/* Driver for ../exec.b3: each procedure against the same wrapping
 * computation in C (unsigned arithmetic). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int32_t mul5(int32_t, int32_t, int32_t);
int64_t mix(int64_t, int64_t, int64_t);

int main(void) {
    static const int64_t vals[] = {0, 1, -1, 2, 3, 0x7fffffff, -0x7fffffff - 1, 0x123456789abcdefll,
                                   INT64_MIN, INT64_MAX, 65535, -65536};
    int fails = 0;
    unsigned n = sizeof vals / sizeof vals[0];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            for (unsigned k = 0; k < n; k++) {
                uint32_t a = (uint32_t)vals[i], b = (uint32_t)vals[j], c = (uint32_t)vals[k];
                int32_t want32 = (int32_t)(a * 65537u * b * 32767u * c * a);
                int32_t got32 = mul5((int32_t)a, (int32_t)b, (int32_t)c);
                uint64_t x = (uint64_t)vals[i], y = (uint64_t)vals[j], z = (uint64_t)vals[k];
                int64_t want = (int64_t)(((x + y + x + z + (uint64_t)INT64_MAX + x) ^ (y ^ z ^ y ^ x ^ 5)) |
                                         (x | 3 | y | z));
                int64_t got = mix(vals[i], vals[j], vals[k]);
                if (got32 != want32 || got != want) {
                    printf("FAIL %u %u %u: %d %d %" PRId64 " %" PRId64 "\n", i, j, k, got32, want32, got, want);
                    fails++;
                }
            }
    puts(fails ? "FAILED" : "OK");
    return fails != 0;
}
