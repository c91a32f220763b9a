/* Driver for ranges.b3. */
#include <stdint.h>
#include <stdio.h>

int32_t sext_range(const uint8_t *);
int32_t umod_bits(int32_t);

int main(void) {
    int fails = 0;
    for (int b = 0; b < 256; b++) {
        uint8_t byte = (uint8_t)b;
        int8_t d = (int8_t)(uint8_t)(b + 1);
        int32_t want = (d ? 1000 / d : 0) + (d < 128) + (d > 0);
        int32_t got = sext_range(&byte);
        if (got != want) {
            printf("FAIL sext_range(%d): got %d want %d\n", b, got, want);
            fails++;
        }
    }
    for (int32_t x = -8; x <= 8; x++)
        if (umod_bits(x) != (((uint32_t)x & 4) % 3 == 1)) {
            printf("FAIL umod_bits(%d)\n", x);
            fails++;
        }
    printf(fails ? "FAILED\n" : "OK\n");
    return fails != 0;
}
