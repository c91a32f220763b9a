/* Sieve of Eratosthenes over a byte array: see sieve.b3. */
#include <stdint.h>
#include <string.h>

uint64_t kernel_sieve_c(uint8_t *flags, int32_t n)
{
    memset(flags, 1, (size_t)n + 1);
    flags[0] = 0;
    flags[1] = 0;
    for (int32_t i = 2; i * i <= n; i++) {
        if (flags[i]) {
            for (int32_t j = i * i; j <= n; j += i)
                flags[j] = 0;
        }
    }
    uint64_t count = 0, sum = 0;
    for (int32_t i = 0; i <= n; i++) {
        if (flags[i]) {
            count++;
            sum += (uint64_t)i;
        }
    }
    return (count << 40) ^ sum;
}
