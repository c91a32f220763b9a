/* Driver for isel-mul-shift.b3: the products against C's (wrapping, unsigned). */
#include <stdint.h>
#include <stdio.h>

int64_t m31(int64_t);
int32_t m17(int64_t);
int32_t m_int_max(int64_t);
int64_t m_2_63_plus_1(int64_t);
int64_t m11(int64_t);
int32_t m31_load(const int32_t *);

static int fails;
static void check(const char *what, uint64_t got, uint64_t want) {
    if (got != want) {
        printf("FAIL %s: got %llu want %llu\n", what, (unsigned long long)got, (unsigned long long)want);
        fails++;
    }
}

int main(void) {
    static const int64_t xs[] = {0, 1, -1, 7, -123456789, INT64_MAX, INT64_MIN, 0x123456789abcdefll};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        uint64_t x = (uint64_t)xs[i];
        check("m31", (uint64_t)m31(xs[i]), x * 31);
        check("m17", (uint32_t)m17(xs[i]), (uint32_t)x * 17u);
        check("m_int_max", (uint32_t)m_int_max(xs[i]), (uint32_t)x * 2147483647u);
        check("m_2_63_plus_1", (uint64_t)m_2_63_plus_1(xs[i]), x * 0x8000000000000001ull);
        check("m11", (uint64_t)m11(xs[i]), x * 11);
        int32_t y = (int32_t)x;
        check("m31_load", (uint32_t)m31_load(&y), (uint32_t)y * 31u);
    }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
