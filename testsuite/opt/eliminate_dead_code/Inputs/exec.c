/* Driver for ../exec.b3. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int64_t loop(int32_t, int64_t *);
int32_t vars(int32_t);

static int fails;
#define CHECK_EQ(fmt, got, want)                                                                       \
    do {                                                                                               \
        if ((got) != (want)) {                                                                         \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);                         \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

static int64_t counted;
int64_t count(int64_t i) { return counted += i + 1; }
static int exits;
int32_t on_exit(int32_t x) {
    exits++;
    return -x;
}

int main(void) {
    for (int32_t n = 0; n < 6; n++) {
        int64_t out = 99;
        counted = 0;
        CHECK_EQ("%" PRId64, loop(n, &out), 1 + (int64_t)n * (n - 1) / 2);
        CHECK_EQ("%" PRId64, out, 1 + (int64_t)n * (n - 1) / 2);
        CHECK_EQ("%" PRId64, counted, (int64_t)n * (n + 1) / 2);
    }
    CHECK_EQ("%d", vars(7), 21);
    CHECK_EQ("%d", exits, 0);
    CHECK_EQ("%d", vars(101), -101);
    CHECK_EQ("%d", exits, 1);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
