/* Driver for ../memory.b3. */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

int32_t idx_i32(const int32_t *, int64_t);
int64_t idx_i64(const int64_t *, int64_t);
double idx_f64(const double *, int32_t);
void idx_store16(int16_t *, int64_t, int32_t);
int64_t narrow(const void *);
void stores(char *, int64_t, double, float);
int64_t no_fuse(int64_t *, int64_t);
int32_t no_fuse_call(int32_t *);
void rmw(int32_t *, int32_t);
int64_t slots(int64_t);
int64_t fused(const int64_t *, const int64_t *);
int32_t chase(int32_t **, int64_t);
void rmw_alias(int32_t *, int32_t *, int32_t);

static int fails;
#define CHECK_EQ(fmt, got, want)                                                 \
    do {                                                                         \
        if ((got) != (want)) {                                                   \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);   \
            fails++;                                                             \
        }                                                                        \
    } while (0)

static int escape_calls;
void escape(void *p) {
    escape_calls++;
    if (((uintptr_t)p & 15) && escape_calls > 1) /* the second caller passes the 16-aligned slot */
        { printf("FAIL: slot not 16-byte aligned: %p\n", p); fails++; }
    int32_t v;
    memcpy(&v, p, 4);
    v += 17;
    memcpy((char *)p + 4, &v, 4);
    memcpy(p, &v, 4);
}

int main(void) {
    int32_t a32[16];
    int64_t a64[16];
    double ad[16];
    for (int i = 0; i < 16; i++) {
        a32[i] = i * i - 7;
        a64[i] = (int64_t)i << 40 | i;
        ad[i] = i * 1.5 - 3;
    }
    for (int64_t i = -3; i < 12; i++)
        CHECK_EQ("%d", idx_i32(a32 + 3, i), a32[3 + i + 3]);
    for (int64_t i = 1; i < 16; i++)
        CHECK_EQ("%" PRId64, idx_i64(a64, i), a64[i - 1]);
    for (int32_t i = -4; i < 10; i++)
        CHECK_EQ("%a", idx_f64(ad + 5, i), ad[5 + i] * ad[6 + i]);
    {
        int16_t h[12] = {0};
        idx_store16(h, 3, 0x12345);
        CHECK_EQ("%d", h[4], (int16_t)0x2345);
        CHECK_EQ("%d", h[3], (int16_t)0x2346);
    }
    {
        unsigned char b[8] = {0xfe, 0x80, 0xff, 0xff, 0x01, 0x80, 0x85, 0x90};
        int64_t want = 0xfe + (int64_t)(int8_t)0x80 * 1000 + 0xffff * 1000000LL +
                       (int64_t)(int16_t)0x8001 * 1000000000000LL - (int8_t)0x85 + 0x90;
        CHECK_EQ("%" PRId64, narrow(b), want);
    }
    {
        char buf[80];
        memset(buf, 0x77, sizeof buf);
        stores(buf, 0x1122334455667788LL, -6.25, 3.5f);
        uint8_t u8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        double d;
        float f;
        memcpy(&u8, buf, 1); CHECK_EQ("%x", u8, 0x88);
        CHECK_EQ("%x", (unsigned char)buf[1], 0x77);
        memcpy(&i16, buf + 2, 2); CHECK_EQ("%x", i16, 0x7788);
        memcpy(&i32, buf + 4, 4); CHECK_EQ("%x", i32, 0x55667788);
        memcpy(&i64, buf + 8, 8); CHECK_EQ("%" PRIx64, i64, (int64_t)0x1122334455667788LL);
        memcpy(&d, buf + 16, 8); CHECK_EQ("%a", d, -6.25);
        memcpy(&f, buf + 24, 4); CHECK_EQ("%a", f, 3.5f);
        memcpy(&i32, buf + 28, 4); CHECK_EQ("%x", i32, 0x12345678);
        memcpy(&i64, buf + 32, 8); CHECK_EQ("%" PRIx64, i64, (int64_t)0x123456789abcdef0LL);
        memcpy(&d, buf + 40, 8); CHECK_EQ("%a", d, 1.5);
        memcpy(&f, buf + 48, 4); CHECK_EQ("%a", f, -2.0f);
        CHECK_EQ("%x", (unsigned char)buf[52], 0xff);
        CHECK_EQ("%x", (unsigned char)buf[53], 0x77);
        memcpy(&i16, buf + 54, 2); CHECK_EQ("%d", i16, -2);
        memcpy(&i64, buf + 56, 8); CHECK_EQ("%" PRId64, i64, (int64_t)-3);
        uint64_t bits;
        memcpy(&bits, buf + 64, 8); CHECK_EQ("%" PRIx64, bits, (uint64_t)0);
        memcpy(&bits, buf + 72, 8); CHECK_EQ("%" PRIx64, bits, (uint64_t)0x8000000000000000ull);
    }
    {
        int64_t x = 40;
        CHECK_EQ("%" PRId64, no_fuse(&x, 2), (int64_t)42);
        CHECK_EQ("%" PRId64, x, (int64_t)2);
        int32_t y[2] = {100, 0};
        escape_calls = 1000; /* no alignment check for this one */
        CHECK_EQ("%d", no_fuse_call(y), -17);
        escape_calls = 0;
    }
    {
        int32_t r[4] = {0, 10, 0x0f, 9};
        rmw(r, 5);
        CHECK_EQ("%d", r[1], 15);
        CHECK_EQ("%d", r[2], 0x5a);
        CHECK_EQ("%d", r[3], -9);
    }
    for (int64_t x = -5; x < 5; x++) {
        escape_calls = 1;
        int64_t want = x + 3 * (x * x) - (x + 1) + x + ((int32_t)x + 17) + (int64_t)(int8_t)x;
        CHECK_EQ("%" PRId64, slots(x), want);
        CHECK_EQ("%d", escape_calls, 2);
    }
    {
        int64_t p[3] = {5, 0, 7}, q[4] = {0, 11, 0, -3};
        CHECK_EQ("%" PRId64, fused(p, q), (int64_t)(5 + 11 - 7 * -3));
    }
    {
        int32_t row0[4] = {1, 2, 3, 4}, row1[4] = {5, 6, 7, 8}, row2[4] = {9, 10, 11, 12};
        int32_t *rows[3] = {row0, row1, row2};
        for (int64_t i = 0; i < 3; i++)
            CHECK_EQ("%d", chase(rows, i), rows[i][i]);
    }
    {
        int32_t a = 5, b = 0;
        rmw_alias(&a, &a, 3);
        CHECK_EQ("%d", a, 8);
        rmw_alias(&a, &b, 3);
        CHECK_EQ("%d", a, 11);
        CHECK_EQ("%d", b, 1000);
    }
    if (fails) {
        printf("FAILED %d\n", fails);
        return 1;
    }
    printf("OK\n");
    return 0;
}
