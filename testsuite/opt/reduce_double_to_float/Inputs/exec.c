/* Driver for ../exec.b3: each procedure against the same computation in C,
 * compared bit for bit (NaNs: both NaN). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

float binop(int32_t op, float a, float b);
float muladd(float a, float b, float c);
float addtenth(float a);
int32_t less(float a, float b);

static int fails;

static void same(int line, float got, float want) {
    uint32_t g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    if (g != w && !(isnan(got) && isnan(want))) {
        printf("FAIL line %d: %a (0x%08x) != %a (0x%08x)\n", line, got, g, want, w);
        fails++;
    }
}

static float ref(int op, float a, float b) {
    volatile double x = a, y = b;
    switch (op) {
    case 0: return (float)(x + y);
    case 1: return (float)(x - y);
    case 2: return (float)(x * y);
    case 3: return (float)(x / y);
    case 4: return (float)sqrt(x);
    default: return (float)(x + 0.5);
    }
}

int main(void) {
    static const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 0.1f, 1.0f + 0x1p-23f, 1.0f + 0x1p-12f,
                                 0x1p-149f, 0x1p-126f, FLT_MAX, -FLT_MAX, 16777217.0f, 1e-30f, 7e30f,
                                 INFINITY, -INFINITY, NAN, 2.5f, 1.0f / 3.0f};
    unsigned n = sizeof vals / sizeof vals[0];
    for (int op = 0; op < 6; op++)
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                same(__LINE__, binop(op, vals[i], vals[j]), ref(op, vals[i], vals[j]));
    float e = 1.0f + 0x1p-12f;
    for (unsigned i = 0; i < n; i++) {
        volatile double a = vals[i], c = -(double)(1.0f + 0x1p-11f);
        same(__LINE__, muladd(vals[i], vals[i], (float)c), (float)(a * a + c));
        same(__LINE__, addtenth(vals[i]), (float)(a + 0.1));
        for (unsigned j = 0; j < n; j++)
            if (less(vals[i], vals[j]) != ((double)vals[i] < (double)vals[j])) {
                printf("FAIL less %u %u\n", i, j);
                fails++;
            }
    }
    /* The product rounded to float first would give 0 here. */
    same(__LINE__, muladd(e, e, -(1.0f + 0x1p-11f)), 0x1p-24f);
    puts(fails ? "FAILED" : "OK");
    return fails != 0;
}
