/* Driver for ../bitreverse.ll: each width against a bit-by-bit reversal. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

uint32_t rev1(uint32_t), rev7(uint32_t), rev8(uint32_t), rev16(uint32_t), rev32(uint32_t);
uint64_t rev33(uint64_t), rev64(uint64_t);

static uint64_t ref(uint64_t x, unsigned n) {
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++)
        if (x >> i & 1)
            r |= 1ull << (n - 1 - i);
    return r;
}

int main(void) {
    const uint64_t v[] = {0, 1, 2, 3, 0x80, 0xa5, 0x1234, 0x8001, 0xdeadbeef, 0x80000000u,
                          0x123456789abcdef0ull, 0xffffffffffffffffull, 0x1ffffffffull, 0x100000001ull};
    int fails = 0;
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint64_t x = v[i];
        struct { const char *name; uint64_t got, want; } c[] = {
            {"rev1", rev1((uint32_t)x), ref(x & 1, 1)},
            {"rev7", rev7((uint32_t)x), ref(x & 0x7f, 7)},
            {"rev8", rev8((uint32_t)x), ref(x & 0xff, 8)},
            {"rev16", rev16((uint32_t)x), ref(x & 0xffff, 16)},
            {"rev32", rev32((uint32_t)x), ref(x & 0xffffffffu, 32)},
            {"rev33", rev33(x), ref(x & 0x1ffffffffull, 33)},
            {"rev64", rev64(x), ref(x, 64)},
        };
        for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++)
            if (c[k].got != c[k].want) {
                printf("FAIL %s(%#" PRIx64 ") = %#" PRIx64 ", expected %#" PRIx64 "\n", c[k].name, x, c[k].got,
                       c[k].want);
                fails++;
            }
    }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
