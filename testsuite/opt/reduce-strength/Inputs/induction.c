/* Driver for induction.b3. */
#include <stdint.h>
#include <stdio.h>

void sched(int32_t *);
int64_t near_max(void);
int64_t unknown_bound(const int32_t *, int64_t);
int32_t bytes(const uint8_t *);

static int fails;
static void check(const char *what, long long got, long long want) {
    if (got != want) {
        printf("FAIL %s: got %lld want %lld\n", what, got, want);
        fails++;
    }
}

int main(void) {
    int32_t w[64], r[64];
    for (int i = 0; i < 64; i++)
        w[i] = r[i] = i * 7919 + 3;
    for (int i = 16; i < 64; i++)
        r[i] = (int32_t)((uint32_t)r[i - 15] + (uint32_t)r[i - 2]);
    sched(w);
    for (int i = 0; i < 64; i++)
        check("sched", w[i], r[i]);
    int64_t want = 0;
    for (int64_t i = 2147483640; i < 2147483647; i++)
        want += (i + 1) + (int32_t)(uint32_t)(i + 2); /* i + 2 wraps at the end */
    check("near_max", near_max(), want);
    int32_t a[11];
    for (int i = 0; i < 11; i++)
        a[i] = i * i;
    check("unknown_bound", unknown_bound(a, 10), 385);
    check("unknown_bound(0)", unknown_bound(a, 0), 0);
    uint8_t b[64];
    int32_t rb = 0;
    for (int i = 0; i < 64; i++)
        b[i] = (uint8_t)(i * 37 + 5);
    for (int i = 0; i < 16; i++)
        rb += b[4 * i] + b[4 * i + 3];
    check("bytes", bytes(b), rb);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
