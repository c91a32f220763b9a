/* Driver for rotates.b3: each procedure against its C definition. */
#include <stdint.h>
#include <stdio.h>

int32_t rotl_const(int32_t);
int64_t rotl_xor64(int64_t);
int32_t rotl_add(int32_t);
int32_t rotl_var(int32_t, int32_t);
int64_t rotr_var64(int64_t, int32_t);
int32_t xor_var_stays(int32_t, int32_t);
int32_t not_rotate(int32_t);

static uint32_t rl32(uint32_t x, unsigned n) { n &= 31; return n ? x << n | x >> (32 - n) : x; }
static uint64_t rr64(uint64_t x, unsigned n) { n &= 63; return n ? x >> n | x << (64 - n) : x; }

static int fails;
#define CHECK(got, want, fmt, ...)                                                        \
    do {                                                                                   \
        if ((got) != (want)) {                                                             \
            printf("FAIL " fmt ": got %llx want %llx\n", __VA_ARGS__, (unsigned long long)(got), \
                   (unsigned long long)(want));                                            \
            fails++;                                                                       \
        }                                                                                  \
    } while (0)

int main(void) {
    static const uint64_t xs[] = {0, 1, 2, 0x80000000u, 0x7fffffffu, 0xffffffffu, 0x12345678u,
                                  0x8000000000000000ull, 0xdeadbeefcafef00dull, ~0ull, 0x0123456789abcdefull};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        uint64_t x = xs[i];
        uint32_t x32 = (uint32_t)x;
        CHECK((uint32_t)rotl_const((int32_t)x32), rl32(x32, 7), "rotl_const(%llx)", (unsigned long long)x);
        CHECK((uint64_t)rotl_xor64((int64_t)x), rr64(x, 51), "rotl_xor64(%llx)", (unsigned long long)x);
        CHECK((uint32_t)rotl_add((int32_t)x32), rl32(x32, 16), "rotl_add(%llx)", (unsigned long long)x);
        CHECK((uint32_t)not_rotate((int32_t)x32), x32 << 8 | x32 >> 25, "not_rotate(%llx)", (unsigned long long)x);
        for (int n = -70; n <= 70; n++) {
            CHECK((uint32_t)rotl_var((int32_t)x32, n), rl32(x32, (unsigned)n), "rotl_var(%llx, %d)",
                  (unsigned long long)x, n);
            CHECK((uint64_t)rotr_var64((int64_t)x, n), rr64(x, (unsigned)n), "rotr_var64(%llx, %d)",
                  (unsigned long long)x, n);
            unsigned s = (unsigned)n & 31;
            CHECK((uint32_t)xor_var_stays((int32_t)x32, n), (x32 << s) ^ (x32 >> ((32 - s) & 31)),
                  "xor_var_stays(%llx, %d)", (unsigned long long)x, n);
        }
    }
    printf(fails ? "FAILED\n" : "OK\n");
    return fails != 0;
}
