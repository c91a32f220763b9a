/* Driver for ../edges.b3: each procedure against the same computation in C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int64_t find0(const int64_t *, int64_t);
int64_t carried(int64_t, int64_t, int64_t *);
int64_t twice(int64_t, int64_t, int64_t *);

static int fails;

static void check(const char *what, int64_t got, int64_t want) {
    if (got != want) {
        printf("FAIL %s: %" PRId64 ", expected %" PRId64 "\n", what, got, want);
        fails++;
    }
}

int main(void) {
    const int64_t a[] = {5, 3, 0, 9, 0}, b[] = {1, 2, 3}, c[] = {0};
    check("find0 a", find0(a, 5), 2);
    check("find0 a 2", find0(a, 2), -1);
    check("find0 b", find0(b, 3), -1);
    check("find0 c", find0(c, 1), 0);
    check("find0 empty", find0(c, 0), -1);
    int64_t out[4] = {0, 0, 1, 100};
    check("carried 1", carried(4, 9, out), 9);
    check("carried 2", carried(4, -9, out), -9);
    check("carried 3", carried(-4, 9, out), -4);
    check("carried 4", carried(0, 0, out), 0);
    check("carried out0", out[0], 0);
    check("carried out1", out[1], 3);
    check("carried out2", out[2], 0);
    check("carried out3", out[3], 104);
    int64_t o2[4] = {0, 0, 1, 0};
    for (int64_t k = -1; k < 5; k++) {
        int64_t want = k == 0 || k == 2 ? 11 : k == 1 ? 30 : 7;
        check("twice", twice(k, 10, o2), want);
    }
    check("twice out2", o2[2], 11 * 30 * 11);
    check("twice out3", o2[3], -52);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
