/* Driver for ../exec.b3: each procedure against the same computation in C. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

double poly(double *, int64_t);
int64_t signs(double);

static int64_t bits(double d) {
    int64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

int main(void) {
    int fails = 0;
    double p[16];
    for (int i = 0; i < 16; i++)
        p[i] = i * 1.25 - 3;
    for (int n = 0; n <= 16; n++) {
        volatile double s = n ? 0 : -1;
        for (int i = 0; i < n; i++)
            s = s * 0.5 + p[i] * 0.5 - 1.5f;
        if (poly(p, n) != s) {
            printf("FAIL poly %d: %g != %g\n", n, poly(p, n), s);
            fails++;
        }
    }
    static const double xs[] = {1.0, -1.0, 0.0, -0.0, 3.5, -1e300};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        volatile double x = xs[i], z = 0.0, nz = -0.0;
        int64_t want = bits(x * z) ^ bits(x * nz) ^ (int64_t)((uint64_t)bits(-x * z) * 3);
        if (signs(x) != want) {
            printf("FAIL signs %g: %" PRIx64 " != %" PRIx64 "\n", x, signs(x), want);
            fails++;
        }
    }
    puts(fails ? "FAILED" : "OK");
    return fails != 0;
}
