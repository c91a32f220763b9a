/* Driver for ../calls.b3. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>

int64_t sum10(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
double fsum10(double, double, double, double, double, double, double, double, double, double, int32_t);
float mixed_in(int32_t, float, int64_t, double, int32_t, float, int64_t, double, int32_t, int64_t, int64_t, float);
int64_t call_c_sum12(int64_t);
double call_c_mixed(int32_t, double);
void say(void);
int64_t fib_rec(int32_t);
double use_helper(double);
int64_t call_ptr(int64_t (*)(int64_t, int64_t), int64_t);
double live_across(int64_t, double);
int32_t narrow(int32_t);

static int fails;
#define CHECK_EQ(fmt, got, want)                                                 \
    do {                                                                         \
        if ((got) != (want)) {                                                   \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);   \
            fails++;                                                             \
        }                                                                        \
    } while (0)

int64_t c_sum12(int64_t a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5, int64_t a6, int64_t a7, int64_t a8,
                int64_t a9, int64_t a10, int64_t a11, int64_t a12) {
    return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a9 + 10 * a10 + 11 * a11 +
           12 * a12;
}

double c_mixed(int a, double b, long c, float d, int e, double f, long g, float h, int i, double j, long k, float l,
               double m, double n, double o, double p, int q, double r, int s, long t) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j + 11 * k + 12 * l + 13 * m +
           14 * n + 15 * o + 16 * p + 17 * q + 18 * r + 19 * s + 20 * t;
}

/* Changes every caller-saved register the compiler might keep values in. */
void c_clobber(void) {
    volatile double sink = 0;
    double x[16];
    for (int i = 0; i < 16; i++)
        x[i] = sink + i * 1.7;
    for (int i = 0; i < 16; i++)
        sink += x[i] * x[(i + 3) & 15];
#if defined(__x86_64__)
    __asm__ volatile("xor %%ecx, %%ecx; xor %%edx, %%edx; xor %%esi, %%esi; xor %%edi, %%edi;"
                     "xor %%r8d, %%r8d; xor %%r9d, %%r9d; xor %%r10d, %%r10d; xor %%r11d, %%r11d;"
                     "xorps %%xmm0, %%xmm0; xorps %%xmm1, %%xmm1; xorps %%xmm2, %%xmm2; xorps %%xmm3, %%xmm3;"
                     "xorps %%xmm4, %%xmm4; xorps %%xmm5, %%xmm5; xorps %%xmm6, %%xmm6; xorps %%xmm7, %%xmm7;"
                     "xorps %%xmm8, %%xmm8; xorps %%xmm9, %%xmm9; xorps %%xmm10, %%xmm10; xorps %%xmm11, %%xmm11;"
                     "xorps %%xmm12, %%xmm12; xorps %%xmm13, %%xmm13; xorps %%xmm14, %%xmm14; xorps %%xmm15, %%xmm15"
                     ::: "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
                     "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
#elif defined(__aarch64__)
    __asm__ volatile("mov x1, #0; mov x2, #0; mov x3, #0; mov x4, #0; mov x5, #0; mov x6, #0; mov x7, #0;"
                     "mov x8, #0; mov x9, #0; mov x10, #0; mov x11, #0; mov x12, #0; mov x13, #0; mov x14, #0;"
                     "mov x15, #0; mov x16, #0; mov x17, #0; movi v0.2d, #0; movi v1.2d, #0; movi v2.2d, #0;"
                     "movi v3.2d, #0; movi v4.2d, #0; movi v5.2d, #0; movi v6.2d, #0; movi v7.2d, #0;"
                     "movi v16.2d, #0; movi v17.2d, #0; movi v18.2d, #0; movi v19.2d, #0; movi v20.2d, #0;"
                     "movi v21.2d, #0; movi v22.2d, #0; movi v23.2d, #0; movi v24.2d, #0; movi v25.2d, #0;"
                     "movi v26.2d, #0; movi v27.2d, #0; movi v28.2d, #0; movi v29.2d, #0; movi v30.2d, #0;"
                     "movi v31.2d, #0"
                     ::: "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
                     "x15", "x16", "x17", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18",
                     "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");
#endif
}

/* Returns a char whose register upper bits are garbage. */
__attribute__((noinline)) signed char c_char(int x) {
    return (signed char)(x * 3);
}

static int64_t muladd(int64_t a, int64_t b) { return a * 1000 + b; }

int main(void) {
    CHECK_EQ("%" PRId64, sum10(1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
             (int64_t)(1 + 3 * 2 + 5 * 3 + 4 - 5 + 6 + 7 * 7 - 8 + 11 * 9 + 13 * 10));
    CHECK_EQ("%" PRId64, sum10(-1, INT64_MAX, 3, -4, 5, 6, -7, 8, INT64_MIN, 10),
             (int64_t)((uint64_t)-1 + 3 * (uint64_t)INT64_MAX + 15 - 4 - 5 + 6 - 49 - 8 + 11 * (uint64_t)INT64_MIN +
                       130));
    {
        double d[10] = {1.5, -2.25, 3, 0.5, 7, -1, 2, 0.125, 9, -3};
        double want = ((((((d[0] + d[1]) * d[2] - d[3]) / d[4]) + d[5]) * d[6] + d[7]) - d[8]) * d[9] + 17;
        CHECK_EQ("%a", fsum10(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], 17), want);
    }
    {
        double want = (double)-3 + 1.5f + (double)100000000000LL + 0.25 + 7 + -2.5f + (double)-9 + 1e9 + 11 +
                      (double)12 + (double)-13 + 4.75f;
        CHECK_EQ("%a", (double)mixed_in(-3, 1.5f, 100000000000LL, 0.25, 7, -2.5f, -9, 1e9, 11, 12, -13, 4.75f),
                 (double)(float)want);
    }
    for (int64_t x = -3; x < 3; x++)
        CHECK_EQ("%" PRId64, call_c_sum12(x),
                 c_sum12(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9, -5, 0x123456789abcLL));
    for (int a = -2; a < 3; a++) {
        double b = a * 1.25;
        double want = c_mixed(a, b, a, (float)b, a + 5, b + 0.25, -7, 1.5f, 9, -100.0, 0x100000000L, 0.0f, 3.0, b * b,
                              0.0, -b, -1, 1e100, a * a, 77);
        CHECK_EQ("%a", call_c_mixed(a, b), want);
    }
    say();
    fflush(stdout);
    {
        int64_t f0 = 0, f1 = 1;
        for (int n = 0; n <= 25; n++) {
            CHECK_EQ("%" PRId64, fib_rec(n), f0);
            int64_t t = f0 + f1;
            f0 = f1;
            f1 = t;
        }
    }
    CHECK_EQ("%a", use_helper(2.5), 2.5 * 3 + 0.5 + (double)(1 + 6 + 15 + 4 - 5 + 6 + 49 - 8 + 99 + 130));
    CHECK_EQ("%" PRId64, call_ptr(muladd, 21), (int64_t)(21 * 1000 + 42 + 1));
    for (int64_t a = -2; a < 3; a++) {
        double d = 0.75 * (double)a + 0.1;
        int64_t si = 0;
        double sd = 0;
        for (int k = 0; k < 12; k++) {
            si += a * (k + 3);
            sd += d * (k + 1.5);
        }
        /* the same association order as the B3 code */
        sd = d * 1.5;
        for (int k = 1; k < 12; k++)
            sd = sd + d * (k + 1.5);
        CHECK_EQ("%a", live_across(a, d), (double)si + sd);
    }
    for (int x = -100; x < 100; x += 7)
        CHECK_EQ("%d", narrow(x), (int)(signed char)(x * 3));
    if (fails) {
        printf("FAILED %d\n", fails);
        return 1;
    }
    printf("OK\n");
    return 0;
}
