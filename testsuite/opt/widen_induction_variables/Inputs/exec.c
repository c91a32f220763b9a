/* Driver of exec.b3: each procedure against the same loop in C, with
 * unsigned arithmetic where the B3 wraps. */
#include <stdint.h>
#include <stdio.h>

int64_t index_sum(const int64_t *a, int32_t n);
uint64_t zext_sum(uint32_t n);
int64_t sext_sum(int32_t c, int32_t m, int32_t n);
int64_t ne_sum(int32_t start, int32_t n);

static int failures;

static void check(const char *what, int64_t got, int64_t want) {
    if (got != want) {
        printf("FAIL %s: got %lld, want %lld\n", what, (long long)got, (long long)want);
        failures++;
    }
}

static int64_t data[1000];

int main(void) {
    for (int i = 0; i < 1000; i++)
        data[i] = (int64_t)i * 2654435761u % 1000003 - 500000;
    for (int32_t n = -2; n <= 1000; n += 97) {
        int64_t want = 0;
        for (int32_t i = 0; i < n; i++)
            want += data[i];
        check("index_sum", index_sum(data, n), want);
    }
    const uint32_t zn[] = {0, 1, 7, 1000, 0x80000005u};
    for (unsigned i = 0; i < 5; i++) {
        uint64_t want = 0;
        for (uint32_t k = 0; k < zn[i] && k < 2000; k++)
            want += k;
        if (zn[i] < 2000)
            check("zext_sum", (int64_t)zext_sum(zn[i]), (int64_t)want);
    }
    /* both ends in range, one end out of range, the middle wrapping */
    const int32_t cs[] = {0, -5, 2147483600, -2147483600, 12345, 2147483647};
    const int32_t ms[] = {1, -7, 65537, 2147483647, 3, 0, -2147483647 - 1};
    const int32_t ns[] = {0, 1, 2, 50, 300};
    for (unsigned a = 0; a < 6; a++)
        for (unsigned b = 0; b < 7; b++)
            for (unsigned c = 0; c < 5; c++) {
                int64_t s = 0;
                int32_t k = 0;
                for (; k < ns[c]; k++)
                    s += (int32_t)((uint32_t)k * (uint32_t)ms[b] + (uint32_t)cs[a]);
                check("sext_sum", sext_sum(cs[a], ms[b], ns[c]), (int64_t)((uint64_t)s * 31 + (uint64_t)k));
            }
    const int32_t starts[] = {0, 2147483640, -3};
    const int32_t ends[] = {10, -2147483640, 4};
    for (unsigned i = 0; i < 3; i++) {
        int64_t want = 0;
        for (int32_t k = starts[i]; k != ends[i]; k = (int32_t)((uint32_t)k + 1))
            want += k;
        check("ne_sum", ne_sum(starts[i], ends[i]), want);
    }
    if (!failures)
        printf("OK\n");
    return failures != 0;
}
