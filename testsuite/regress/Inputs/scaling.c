/* Driver for ../scaling-*.test: checks the procedures that bench/scaling_gen.py
 * makes (the pathological shapes of bench/scaling.sh) against the results its
 * docstring gives.  Build with -DSHAPE_<NAME> (and -DN=size, -DINNER=K for
 * the loop nest) to test one shape. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int fails;

static void check(const char *what, int64_t arg, int64_t got, int64_t want) {
    if (got != want) {
        printf("FAIL %s(%" PRId64 "): got %" PRId64 ", want %" PRId64 "\n", what, arg, got, want);
        fails++;
    }
}

#ifdef SHAPE_JUMPCHAIN
int64_t jumpchain(int64_t);
static void run(void) {
    for (int64_t a = -3; a < 40; a += 7)
        check("jumpchain", a, jumpchain(a), 3 * a + 1);
}
#endif

#ifdef SHAPE_SWITCH
int64_t sw(int64_t);
static void run(void) {
    int64_t nb = N / 2 > 0 ? N / 2 : 1;
    for (int64_t x = -5; x < 3 * N + 5; x++) {
        int64_t want = -1;
        if (x >= 0 && x % 3 == 0 && x / 3 < N)
            want = 13 * ((7 * (x / 3)) % nb) + 5;
        check("switch", x, sw(x), want);
    }
}
#endif

#ifdef SHAPE_LOOPNEST
#ifndef INNER
#define INNER N
#endif
int64_t loopnest(int32_t);
static int32_t ctr[N];

/* The nest of loops, simulated one level at a time. */
static uint64_t nest(int level, int32_t m, uint64_t acc) {
    int32_t bound = level >= N - INNER ? m : 1;
    for (ctr[level] = 0; ctr[level] < bound; ctr[level]++) {
        if (level < N - 1) {
            acc = nest(level + 1, m, acc);
        } else {
            int32_t outer = ctr[level > 0 ? level - 1 : 0];
            acc = acc * 31 + (uint64_t)(int64_t)ctr[level] + 2 * (uint64_t)(int64_t)outer +
                  3 * (uint64_t)(int64_t)ctr[0];
        }
    }
    return acc;
}

static void run(void) {
    for (int32_t m = 0; m <= 3; m++)
        check("loopnest", m, loopnest(m), (int64_t)nest(0, m, 0));
}
#endif

#ifdef SHAPE_PHIS
int64_t phis(int64_t, int64_t);
static void run(void) {
    static const int64_t args[][2] = {{5, 3}, {3, 5}, {-7, 100}, {1000, -1000}, {0, 0}};
    for (unsigned i = 0; i < sizeof args / sizeof args[0]; i++) {
        int64_t a = args[i][0], b = args[i][1];
        uint64_t want = 0;
        for (int64_t k = 0; k < N; k++)
            want += (uint64_t)(k + 1) * (uint64_t)(a > b ? a + k : b * k);
        check("phis", a, phis(a, b), (int64_t)want);
    }
}
#endif

#ifdef SHAPE_CALLLIVE
int64_t calllive(int64_t);
int64_t scaling_ext(int64_t x) { return x * 1000003 + 17; }
static void run(void) {
    for (int64_t a = -2; a < 5; a++) {
        uint64_t want = (uint64_t)scaling_ext(a);
        for (int64_t k = 0; k < N; k++)
            want += ((uint64_t)a * (uint64_t)k + (uint64_t)k) ^ (uint64_t)k;
        check("calllive", a, calllive(a), (int64_t)want);
    }
}
#endif

#ifdef SHAPE_BLOCKS
int64_t blocks(int64_t);
static void run(void) {
    static const int64_t args[] = {-5, 0, 3, 8, 9, 100, 12345, INT64_MAX};
    for (unsigned i = 0; i < sizeof args / sizeof args[0]; i++) {
        int64_t a = args[i], s = 3;
        for (int64_t k = 1; k <= N; k++) {
            s += 7 * k + 1;
            if (s > a)
                break;
        }
        check("blocks", a, blocks(a), s);
    }
}
#endif

int main(void) {
    run();
    if (fails)
        return 1;
    printf("OK\n");
    return 0;
}
