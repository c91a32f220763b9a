/* Driver of exec.b3: each procedure against the same loop in C, computed
 * with unsigned arithmetic where the B3 wraps. */
#include <stdint.h>
#include <stdio.h>

int64_t strided(int64_t *b, int32_t n, int32_t j, int32_t m);
uint32_t wrap(int32_t start, int32_t c, int32_t d, int32_t count);
int64_t down(int64_t *a, int64_t n, int64_t c);
int64_t stepped(int64_t *a, int64_t m, int64_t step, int64_t w);
int64_t indexed(int64_t *a, int64_t n);
int64_t bottom(int64_t *a, int64_t n, int64_t c);

static int failures;

static void check(const char *what, int64_t got, int64_t want) {
    if (got != want) {
        printf("FAIL %s: got %lld, want %lld\n", what, (long long)got, (long long)want);
        failures++;
    }
}

static int64_t data[4096];

int main(void) {
    for (int i = 0; i < 4096; i++)
        data[i] = (int64_t)i * 2654435761u % 1000003 - 500000;

    for (int32_t n = -3; n <= 9; n += 3)
        for (int32_t m = 0; m <= 40; m += 7) {
            int32_t j = 100;
            int64_t want = 0;
            for (int32_t k = 0; k < m; k++)
                want += data[k * n + j];
            check("strided", strided(data, n, j, m), want);
        }

    const int32_t starts[] = {0, -5, 2147483600, -2147483600, 12345};
    const int32_t cs[] = {1, -7, 65537, 2147483647, 3};
    for (unsigned a = 0; a < 5; a++)
        for (unsigned b = 0; b < 5; b++)
            for (int32_t count = 0; count <= 100; count += 33) {
                uint32_t s = 0, c = (uint32_t)cs[b], d = 0x9e3779b9u;
                for (int32_t t = 0; t < count; t++) {
                    s = s * 31 + (((uint32_t)t + (uint32_t)starts[a]) * c + d);
                    s ^= -((uint32_t)t * c - ((uint32_t)t << 3));
                }
                check("wrap", wrap(starts[a], cs[b], (int32_t)d, count), s);
            }

    for (int64_t n = 1; n <= 50; n += 7)
        for (int64_t c = -3; c <= 3; c++) {
            int64_t i = n, s = 0, x, y;
            do {
                y = i * c;
                x = data[y & 7] + y;
                s += x;
                i -= 1;
            } while (i > 0);
            check("down", down(data, n, c), s + (x + y) * 3);
        }

    for (int64_t n = 1; n <= 50; n += 7)
        for (int64_t c = -3; c <= 3; c++) {
            int64_t i = n, s = 0;
            do {
                int64_t y = i * c;
                s += data[y & 7] ^ y;
                i -= 1;
            } while (i > 0);
            check("bottom", bottom(data, n, c), s);
        }

    for (int64_t m = 0; m <= 1000; m += 111)
        for (int64_t step = 1; step <= 5; step++)
            for (int64_t w = 0; w <= 3; w++) {
                int64_t s = 0;
                for (int64_t k = 0; k < m; k += step)
                    s += data[k * w + 1];
                check("stepped", stepped(data, m, step, w), s);
            }

    for (int64_t n = 0; n <= 4000; n += 997) {
        int64_t s = 0;
        for (int64_t i = 0; i < n; i++)
            s += data[i];
        check("indexed", indexed(data, n), s);
    }
    if (!failures)
        printf("OK\n");
    return failures != 0;
}
