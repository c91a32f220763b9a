/* Driver for ../exec-records.b3: checks each stackmap record against the
 * machine state at its stackmap point (Inputs/smrt.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "smrt.h"

int64_t rec_call(int64_t, int64_t);
int64_t rec_trap(int64_t, int64_t);
int32_t rec_checkadd(const int32_t *, int64_t);
int32_t rec_bounds(int64_t);
int64_t rec_checkmul(int64_t);

static int fails;
#define CHECK_EQ(fmt, got, want)                                               \
    do {                                                                       \
        if ((got) != (want)) {                                                 \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want); \
            fails++;                                                           \
        }                                                                      \
    } while (0)

int64_t c_opaque(int64_t x) { return x * 31 + 5; }

/* B3's DToI: saturating, NaN -> 0. */
static int64_t dtoi(double d) {
    if (d != d)
        return 0;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    if (d < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

static uint64_t dbits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* v_k = a * (k + 2) + (b ^ k), wrapping. */
static uint64_t v(int64_t a, int64_t b, int k) {
    return (uint64_t)a * (uint64_t)(k + 2) + ((uint64_t)b ^ (uint64_t)k);
}

static uint64_t expect[64];
static int nexpect, ncaptures;
static uint64_t expect_id;

int64_t sm_on_capture(void) {
    ncaptures++;
    sm_verify(expect_id, &sm_state, expect, nexpect, "capture");
    return 1000;
}

static void run_call(int64_t a, int64_t b) {
    nexpect = 0;
    uint64_t sum = 0;
    for (int k = 0; k < 16; k++)
        sum += expect[nexpect++] = v(a, b, k);
    expect[nexpect++] = dbits((double)a);
    expect[nexpect++] = dbits((double)b);
    expect[nexpect++] = (uint32_t)(a + b);
    expect[nexpect++] = 42;
    expect[nexpect++] = 0x123456789abcdefull;
    expect[nexpect++] = (uint64_t)a;
    expect[nexpect++] = (uint64_t)b;
    expect[nexpect++] = (uint64_t)a + (uint64_t)b;
    expect[nexpect++] = dbits((double)b);
    expect_id = 1001;
    ncaptures = 0;
    int64_t got = rec_call(a, b);
    CHECK_EQ("%d", ncaptures, 1);
    uint64_t want = sum + 1000 + (uint64_t)a + (uint64_t)b + (uint64_t)dtoi((double)a + (double)b);
    CHECK_EQ("%" PRId64, got, (int64_t)want);
}

static void run_trap(int64_t a, int64_t b) {
    nexpect = 0;
    uint64_t sum = 0;
    for (int k = 0; k < 16; k++)
        sum += expect[nexpect++] = v(a, b, k);
    expect[nexpect++] = dbits((double)b);
    expect[nexpect++] = (uint32_t)(a + b);
    expect[nexpect++] = (uint64_t)-7;
    expect[nexpect++] = 0x123456789abcdefull;
    expect[nexpect++] = (uint64_t)c_opaque(a);
    if (a < b) {
        if (!SM_EXPECT_TRAP(rec_trap(a, b), 50, expect, nexpect, "rec_trap")) {
            printf("FAIL: rec_trap(%" PRId64 ", %" PRId64 ") did not trap\n", a, b);
            fails++;
        }
    } else {
        CHECK_EQ("%" PRId64, rec_trap(a, b), (int64_t)(sum + (uint64_t)c_opaque(a)));
    }
}

int main(void) {
    sm_install_sigill();
    static const int64_t vals[] = {0, 1, -1, 77, -1000, 123456789, INT32_MAX, INT64_MAX, INT64_MIN};
    const int nv = sizeof vals / sizeof vals[0];
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) {
            run_call(vals[i], vals[j]);
            run_trap(vals[i], vals[j]);
        }
    /* CheckAdd with a fused load: the record reads the operand from memory. */
    static const int32_t m[] = {0, 1, -1, INT32_MAX, INT32_MIN};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < nv; j++) {
            int32_t mem = m[i], r;
            int64_t b = vals[j];
            if (!__builtin_add_overflow((int32_t)b, mem, &r)) {
                CHECK_EQ("%d", rec_checkadd(&mem, b), r);
                continue;
            }
            uint64_t e[3] = {(uint32_t)b, (uint32_t)mem, (uint64_t)b};
            if (!SM_EXPECT_TRAP(rec_checkadd(&mem, b), 3003, e, 3, "rec_checkadd")) {
                printf("FAIL: rec_checkadd(%d, %" PRId64 ") did not trap\n", mem, b);
                fails++;
            }
        }
    for (int64_t i = -3; i < 12; i++) {
        if ((uint64_t)(uint32_t)i + 2 < 10) {
            CHECK_EQ("%d", rec_bounds(i), 1);
        } else if (!SM_EXPECT_TRAP(rec_bounds(i), 2, NULL, 0, "rec_bounds")) {
            printf("FAIL: rec_bounds(%" PRId64 ") did not trap\n", i);
            fails++;
        }
    }
    for (int j = 0; j < nv; j++) {
        int64_t a = vals[j], r;
        if (!__builtin_mul_overflow(a, (int64_t)0x100000001ll, &r)) {
            CHECK_EQ("%" PRId64, rec_checkmul(a), r);
        } else {
            uint64_t e[2] = {(uint64_t)a, 0x100000001ull};
            if (!SM_EXPECT_TRAP(rec_checkmul(a), 5005, e, 2, "rec_checkmul")) {
                printf("FAIL: rec_checkmul(%" PRId64 ") did not trap\n", a);
                fails++;
            }
        }
    }
    fails += sm_fails;
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
