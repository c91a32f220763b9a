/* Driver for ../exec.b3: each procedure against the same computation in C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int64_t alias_reload(int64_t *, int64_t *, int64_t);
int64_t narrow(uint8_t *, int64_t);
int64_t diamond(int64_t *, int64_t *, int64_t);
int64_t loop_store(int64_t *, int64_t *, int32_t);
int32_t dead_store(int32_t *, int32_t *, int32_t);
int32_t restore(int32_t *, int32_t *);
int32_t atomic(int32_t *);
int64_t call_between(int64_t *, void (*)(int64_t *));

static int fails;
#define CHECK_EQ(fmt, got, want)                                                                       \
    do {                                                                                               \
        if ((got) != (want)) {                                                                         \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);                         \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

static int64_t narrow_c(uint8_t *p, int64_t x) {
    int32_t x32 = (int32_t)x;
    p[0] = (uint8_t)x32;
    int32_t a = (int8_t)p[0], b = p[0];
    uint16_t h = (uint16_t)x32;
    memcpy(p + 2, &h, 2);
    int16_t hs;
    memcpy(&hs, p + 2, 2);
    int32_t c = hs, d = h, e = (int8_t)p[2];
    memcpy(p + 8, &x, 8);
    int32_t f;
    int16_t g;
    memcpy(&f, p + 8, 4);
    memcpy(&g, p + 8, 2);
    int32_t k = p[8];
    int64_t w;
    memcpy(&w, p + 8, 8);
    uint32_t r = (uint32_t)(a + b);
    r *= (uint32_t)c;
    r ^= (uint32_t)d;
    r += (uint32_t)e;
    r *= (uint32_t)f;
    r ^= (uint32_t)(int32_t)g;
    r += (uint32_t)k;
    return (int64_t)(int32_t)r ^ w;
}

static void bump(int64_t *p) { *p += 3; }

int main(void) {
    for (int alias = 0; alias < 2; alias++) {
        int64_t a = 4, b = 9;
        int64_t *q = alias ? &a : &b;
        CHECK_EQ("%" PRId64, alias_reload(&a, q, 6), alias ? 4006 : 4004);
        for (int c = 0; c < 2; c++) {
            a = 4;
            b = 9;
            CHECK_EQ("%" PRId64, diamond(&a, q, c), alias && c ? 405 : 404);
        }
        for (int32_t n = 1; n < 5; n++) {
            a = 10;
            b = 0;
            int64_t want = 0, ca = 10, cb = 0, *cq = alias ? &ca : &cb, first = ca;
            for (int32_t i = n; i > 0; i--) {
                want += ca;
                *cq += 1;
            }
            CHECK_EQ("%" PRId64, loop_store(&a, q, n), want + first);
        }
        int32_t x = 1, y = 50;
        int32_t *qy = alias ? &x : &y;
        CHECK_EQ("%d", dead_store(&x, qy, 20), alias ? 20 : 50);
        CHECK_EQ("%d", x, alias ? 21 : 51);
        x = 1;
        y = 50;
        CHECK_EQ("%d", restore(&x, qy), alias ? 1 : 7);
        CHECK_EQ("%d", x, 1);
    }
    int64_t xs[] = {0, 1, -1, 0x7f, 0x80, 0xff, 0x1234, 0x8000, 0xffff, 0x12345678, -0x7654321, INT64_MIN,
                    0x0123456789abcdefLL};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        uint8_t m1[16] = {0}, m2[16] = {0};
        CHECK_EQ("%" PRId64, narrow(m1, xs[i]), narrow_c(m2, xs[i]));
        CHECK_EQ("%d", memcmp(m1, m2, 16), 0);
    }
    int32_t v = 11;
    CHECK_EQ("%d", atomic(&v), 5);
    CHECK_EQ("%d", v, 16);
    int64_t cv = 5;
    CHECK_EQ("%" PRId64, call_between(&cv, bump), 18);
    CHECK_EQ("%" PRId64, cv, 8);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
