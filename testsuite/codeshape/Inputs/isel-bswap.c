/* Driver for isel-bswap.b3: each assembled word against C's. */
#include <stdint.h>
#include <stdio.h>

uint32_t be32(const uint8_t *);
uint32_t be32_grouped(const uint8_t *);
uint32_t le32(const uint8_t *);
uint32_t be32_store(uint8_t *);
uint32_t gap(const uint8_t *);
uint32_t traps(const uint8_t *);

static int fails;
static void check(const char *what, uint32_t got, uint32_t want) {
    if (got != want) {
        printf("FAIL %s: got %08x want %08x\n", what, got, want);
        fails++;
    }
}

static uint32_t be(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int main(void) {
    uint8_t b[8] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
    check("be32", be32(b), be(b + 4));
    check("be32_grouped", be32_grouped(b), be(b));
    check("le32", le32(b), (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0]);
    check("gap", gap(b), (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[4]);
    check("traps", traps(b), be(b));
    uint8_t s[4] = {1, 2, 3, 4};
    check("be32_store", be32_store(s), 0x0102ff04u);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
