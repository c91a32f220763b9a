/* Longest Collatz chain over 2..n-1 with a memo array of chain lengths: see
 * collatz.b3. */
#include <stdint.h>

uint64_t kernel_collatz_c(int32_t n, uint32_t *memo) {
    int32_t best = 0, arg = 1;
    memo[1] = 1;
    for (int32_t i = 2; i < n; i++) {
        uint64_t x = (uint64_t)i;
        int32_t len = 0;
        while (x >= (uint64_t)i) {
            if ((x & 1) != 0)
                x = x * 3 + 1;
            else
                x = x >> 1;
            len++;
        }
        len = len + (int32_t)memo[x];
        memo[i] = (uint32_t)len;
        if (len > best) {
            best = len;
            arg = i;
        }
    }
    return ((uint64_t)(uint32_t)arg << 32) | (uint32_t)best;
}
