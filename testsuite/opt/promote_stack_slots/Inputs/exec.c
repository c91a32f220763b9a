/* Driver for ../exec.b3: each kernel against the same computation in C. */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

int32_t count(int32_t);
int32_t narrow(int32_t);
int64_t wrap(int32_t);
int64_t pun(double, double);
int64_t fib(int32_t);
int64_t root_loop(int64_t, int64_t *);
int32_t escape(int32_t);
int32_t array(const int32_t *, int32_t);

void bump(int32_t *p) { *p += 1; }

static int fails;
#define CHECK_EQ(fmt, got, want)                                                                       \
    do {                                                                                               \
        if ((got) != (want)) {                                                                         \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);                         \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

int main(void) {
    for (int32_t n = -2; n < 50; n++) {
        uint32_t s = 0;
        for (int32_t i = 0; i < n; i++)
            s += (uint32_t)i * (uint32_t)i;
        CHECK_EQ("%" PRId32, count(n), (int32_t)s);
        printf("count %d %d\n", n, count(n));
    }
    int32_t xs[] = {0, 1, 127, 128, 255, 256, 0x7fff, 0x8000, 0xffff, 0x12345, -1, -129, INT32_MIN, INT32_MAX};
    for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; k++) {
        int32_t x = xs[k];
        uint32_t want = (uint8_t)x + 3u * (uint32_t)(int8_t)x + 5u * (uint16_t)x + 7u * (uint32_t)(int16_t)x;
        CHECK_EQ("%" PRId32, narrow(x), (int32_t)want);
        printf("narrow %d %d\n", x, narrow(x));
    }
    for (int32_t n = 0; n < 300; n += 7) {
        int8_t c = 120;
        int64_t s = 0;
        for (int32_t k = 0; k < n; k++) {
            c = (int8_t)(c + 1);
            s += c;
        }
        CHECK_EQ("%" PRId64, wrap(n), s);
        printf("wrap %d %" PRId64 "\n", n, wrap(n));
    }
    double ds[] = {0.0, -0.0, 1.5, -3.25, 1e300, 3.4e38, 1e-45};
    for (unsigned k = 0; k < sizeof ds / sizeof ds[0]; k++)
        for (unsigned j = 0; j < sizeof ds / sizeof ds[0]; j++) {
            float f = (float)ds[k];
            double d = ds[j];
            int32_t fi;
            int64_t dl;
            memcpy(&fi, &f, 4);
            memcpy(&dl, &d, 8);
            int64_t r = (int64_t)fi ^ dl;
            fi = (int32_t)((uint32_t)fi + 1);
            dl ^= 1;
            memcpy(&f, &fi, 4);
            memcpy(&d, &dl, 8);
            double sum = (double)f + d;
            int64_t sb;
            memcpy(&sb, &sum, 8);
            CHECK_EQ("%" PRId64, pun(ds[k], ds[j]), (int64_t)((uint64_t)r + (uint64_t)sb));
            printf("pun %g %g %" PRId64 "\n", ds[k], ds[j], pun(ds[k], ds[j]));
        }
    for (int32_t n = 0; n < 60; n++) {
        int64_t a = 0, b = 1;
        for (int32_t k = 0; k < n; k++) {
            int64_t t = (int64_t)((uint64_t)a + (uint64_t)b);
            a = b;
            b = t;
            if ((k & 3) == 0)
                a = (int64_t)((uint64_t)a * 7);
            else if ((k & 3) == 1)
                b = (int64_t)((uint64_t)b - 3);
        }
        CHECK_EQ("%" PRId64, fib(n), (int64_t)((uint64_t)a * 1000003 + (uint64_t)b));
        printf("fib %d %" PRId64 "\n", n, fib(n));
    }
    for (int64_t n = 0; n < 20; n++) {
        int64_t mask = 0, acc = 0, i = 0;
        do {
            i = i + 1;
            acc += i * i;
        } while (i < n);
        CHECK_EQ("%" PRId64, root_loop(n, &mask), acc);
        printf("root_loop %" PRId64 " %" PRId64 "\n", n, acc);
    }
    static const int32_t in[4] = {5, -7, 11, 13};
    for (int32_t n = -1; n < 12; n++) {
        int32_t x[4], i = 0;
        for (int k = 0; k < 4; k++)
            x[k] = in[k];
        for (; i < n; i++) {
            x[2] = (int32_t)((uint32_t)x[0] + (uint32_t)x[1]);
            x[0] = x[1];
        }
        CHECK_EQ("%" PRId32, array(in, n), x[i & 3]);
        printf("array %d %d\n", n, array(in, n));
    }
    for (int32_t x = -3; x < 3; x++) {
        CHECK_EQ("%" PRId32, escape(x), x + 1);
        printf("escape %d %d\n", x, escape(x));
    }
    printf(fails ? "FAIL: %d\n" : "OK\n", fails);
    return fails != 0;
}
