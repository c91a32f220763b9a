/* Decimal formatting (itoa): count numbers from a 64-bit LCG, each printed
 * as an unsigned 64-bit and a signed 32-bit decimal into buf (digits by % 10
 * and / 10, so divisions by constants), then a hash of the text: see
 * itoa.b3. */
#include <stdint.h>

uint64_t kernel_itoa_c(uint8_t *buf, int32_t count, uint64_t seed)
{
    uint8_t tmp[24];
    uint64_t x = seed;
    int64_t pos = 0;
    for (int32_t k = 0; k < count; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t u = x >> (k & 63);
        int32_t len = 0;
        do {
            tmp[len] = (uint8_t)('0' + u % 10);
            len++;
            u = u / 10;
        } while (u != 0);
        while (len > 0) {
            len--;
            buf[pos] = tmp[len];
            pos++;
        }
        buf[pos] = ' ';
        pos++;
        int32_t s = (int32_t)(x >> 32);
        int32_t neg = s < 0;
        do {
            int32_t d = s % 10;
            if (d < 0)
                d = -d;
            tmp[len] = (uint8_t)('0' + d);
            len++;
            s = s / 10;
        } while (s != 0);
        if (neg) {
            tmp[len] = '-';
            len++;
        }
        while (len > 0) {
            len--;
            buf[pos] = tmp[len];
            pos++;
        }
        buf[pos] = '\n';
        pos++;
    }
    uint64_t hash = 0;
    for (int64_t i = 0; i < pos; i++)
        hash = hash * 31 + buf[i];
    return hash ^ (uint64_t)pos;
}
