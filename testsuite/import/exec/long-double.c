// C's long double (docs/c-extensions.md, "Long double"): x86_fp80 on
// x86-64 (X87 values), fp128 on arm64 Linux (libgcc's soft-float calls,
// values whole in q registers: Float128 pairs).
// Arithmetic, every comparison with NaN and -0.0, conversions to and from
// every integer width (unsigned 64-bit at 2^63 and 2^64 - 1), float and
// double, constants and initialized data, arrays and structs in memory,
// phis and selects, calls with long double arguments on the stack among
// others and results, function pointers, variadic functions reading long
// doubles with va_arg and printf's %Lf/%La/%Lg, the libm calls and the
// intrinsics clang makes (fabsl, copysignl, floorl, fmodl, ...).  The
// output is compared with the same program compiled by gcc.
// RUN: %cc -O0 %s -o %t.gcc -lm
// RUN: %run %t.gcc > %t.want
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %t0.o -o %t0 -lm
// RUN: %run %t0 > %t0.out
// RUN: diff %t.want %t0.out
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %t2.o -o %t2 -lm
// RUN: %run %t2 > %t2.out
// RUN: diff %t.want %t2.out
// RUN: FileCheck %s < %t2.out
// CHECK: pi 3.14159265358979323{{851|846}}
// CHECK: OK
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N __attribute__((noinline))

typedef long double LD;

static LD table[] = {0.0L,     -0.0L,     1.0L,     -1.5L,        0.1L,
                     1e-4000L, LDBL_MIN,  LDBL_MAX, LDBL_EPSILON, 3.14159265358979323846264338327950288L,
                     1e300L,   -2.5e-310L};
static const int ntable = sizeof table / sizeof table[0];
struct point {
    char tag;
    LD x;
    int k;
    LD y;
};
static struct point origin = {'o', 0.5L, 7, -1.0L / 3};

static void show(const char *what, LD x) { printf("%s %La %.21Lg %Lf\n", what, x, x, x); }

N static LD add(LD a, LD b) { return a + b; }
N static LD sub(LD a, LD b) { return a - b; }
N static LD mul(LD a, LD b) { return a * b; }
N static LD dvd(LD a, LD b) { return a / b; }
N static LD neg(LD a) { return -a; }

N static int cmps(LD a, LD b) {
    return (a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5 |
           __builtin_isunordered(a, b) << 6 | __builtin_islessgreater(a, b) << 7 | !(a < b) << 8 |
           !(a <= b) << 9 | !(a > b) << 10 | !(a >= b) << 11 | !(a == b) << 12;
}

N static signed char to_s8(LD x) { return (signed char)x; }
N static unsigned char to_u8(LD x) { return (unsigned char)x; }
N static short to_s16(LD x) { return (short)x; }
N static unsigned short to_u16(LD x) { return (unsigned short)x; }
N static int to_s32(LD x) { return (int)x; }
N static unsigned to_u32(LD x) { return (unsigned)x; }
N static long long to_s64(LD x) { return (long long)x; }
N static unsigned long long to_u64(LD x) { return (unsigned long long)x; }
N static float to_f(LD x) { return (float)x; }
N static double to_d(LD x) { return (double)x; }
N static LD from_s8(signed char x) { return x; }
N static LD from_u8(unsigned char x) { return x; }
N static LD from_s16(short x) { return x; }
N static LD from_u16(unsigned short x) { return x; }
N static LD from_s32(int x) { return x; }
N static LD from_u32(unsigned x) { return x; }
N static LD from_s64(long long x) { return x; }
N static LD from_u64(unsigned long long x) { return x; }
N static LD from_f(float x) { return x; }
N static LD from_d(double x) { return x; }

// Many arguments: long doubles on the stack among integers and doubles
// in registers and on the stack.
N static LD many(int a, LD b, double c, long d, LD e, int f, int g, int h, int i, LD j, double k, int l,
                 LD m) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f + g + h + i + j * 6 + k * 7 + l + m * 8;
}

// A loop carrying long doubles in phis; a select.
N static LD horner(const LD *c, int n, LD x) {
    LD r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}
N static LD pick(int c, LD a, LD b) { return c ? a : b; }
N static LD maxof(const LD *v, int n) {
    LD m = v[0];
    for (int i = 1; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

// sqlite's decimal-to-binary loop, in long double.
N static LD atof_ld(const char *s) {
    LD r = 0, scale = 1;
    int seen_dot = 0;
    for (; *s; s++) {
        if (*s == '.') {
            seen_dot = 1;
            continue;
        }
        r = r * 10.0 + (*s - '0');
        if (seen_dot)
            scale *= 10.0;
    }
    return r / scale;
}

N static LD sum_va(int n, ...) {
    va_list ap;
    va_start(ap, n);
    LD s = 0;
    for (int i = 0; i < n; i++) {
        if (i % 2)
            s += va_arg(ap, double);
        else
            s += va_arg(ap, LD) * (i + 1);
    }
    va_end(ap);
    return s;
}

N static LD apply(LD (*f)(LD, LD), LD a, LD b) { return f(a, b); }

// A result nobody reads is still popped off the x87 stack (eight would
// fill it, and every later load would give NaN).
static int counter;
N static LD counted(LD x) {
    counter++;
    return x * 2;
}

N static struct point move(struct point p, LD dx) {
    p.x += dx;
    p.y -= dx;
    p.k++;
    return p;
}

int main(void) {
    LD pi = table[9];
    printf("pi %.21Lg\n", pi);
    for (int i = 0; i < ntable; i++) {
        show("t", table[i]);
        for (int j = 0; j < ntable; j += 3) {
            LD a = table[i], b = table[j];
            printf(" %La %La %La %La %d\n", add(a, b), sub(a, b), mul(a, b), dvd(a, b), cmps(a, b));
        }
    }
    LD nan = table[0] / table[0], inf = 1.0L / table[0];
    LD specials[] = {nan, -nan, inf, -inf, 0.0L, -0.0L, 1.0L};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++)
            printf("%x%c", cmps(specials[i], specials[j]), j == 6 ? '\n' : ' ');
    show("neg", neg(table[3]));
    show("negzero", neg(0.0L));

    LD ints[] = {0,
                 1,
                 -1,
                 127.9L,
                 -128.9L,
                 255.5L,
                 32767,
                 -32768.75L,
                 65535.25L,
                 2147483647.5L,
                 -2147483648.0L,
                 4294967295.0L,
                 9223372036854775807.0L,
                 -9223372036854775808.0L,
                 9223372036854775808.0L,
                 18446744073709551615.0L,
                 12345678901234567890.0L,
                 0.999L};
    for (int i = 0; i < (int)(sizeof ints / sizeof ints[0]); i++) {
        LD x = ints[i];
        if (x >= -128 && x < 128)
            printf("s8 %d ", to_s8(x));
        if (x >= 0 && x < 256)
            printf("u8 %u ", to_u8(x));
        if (x >= -32768 && x < 32768)
            printf("s16 %d ", to_s16(x));
        if (x >= 0 && x < 65536)
            printf("u16 %u ", to_u16(x));
        if (x >= -2147483648.0L && x < 2147483648.0L)
            printf("s32 %d ", to_s32(x));
        if (x >= 0 && x < 4294967296.0L)
            printf("u32 %u ", to_u32(x));
        if (x >= -9223372036854775808.0L && x < 9223372036854775808.0L)
            printf("s64 %lld ", to_s64(x));
        if (x >= 0 && x < 18446744073709551616.0L)
            printf("u64 %llu ", to_u64(x));
        printf("f %a d %a\n", to_f(x), to_d(x));
    }
    show("from s8", from_s8(-128));
    show("from u8", from_u8(255));
    show("from s16", from_s16(-32768));
    show("from u16", from_u16(65535));
    show("from s32", from_s32(INT32_MIN));
    show("from u32", from_u32(UINT32_MAX));
    show("from s64", from_s64(INT64_MIN));
    show("from s64", from_s64(INT64_MAX));
    show("from u64", from_u64(UINT64_MAX));
    show("from u64", from_u64(0x8000000000000001ull));
    show("from u64", from_u64(0xFFFFFFFFFFFFF801ull));
    show("from u64", from_u64(12345));
    show("from f", from_f(0.1f));
    show("from d", from_d(0.1));
    show("from d", from_d(-1e-310));
    printf("to f %a %a %a\n", to_f(1e-4000L), to_f(LDBL_MAX), to_f(1.0L + LDBL_EPSILON));
    printf("to d %a %a %a\n", to_d(0.1L), to_d(-LDBL_MAX), to_d(1.0L / 3));

    show("many", many(1, 2.5L, 3.5, 4, 5.25L, 6, 7, 8, 9, 10.125L, 11.0, 12, 13.5L));
    LD coef[] = {1, -0.5L, 1.0L / 6, -1.0L / 24, 1.0L / 120};
    show("horner", horner(coef, 5, 0.7L));
    show("pick", pick(1, 1.5L, 2.5L) + pick(0, 10.0L, 20.0L));
    show("max", maxof(table, ntable));
    show("atof", atof_ld("3.14159265358979323846"));
    show("atof", atof_ld("0.1"));
    show("va", sum_va(5, 1.5L, 2.5, 3.25L, -4.0, 0.1L));
    printf("printf %Lf %.3Le %Lg %La %d %Lg\n", 1.0L / 7, 123456.789L, LDBL_MIN, -2.0L, 42, table[10]);
    show("apply", apply(mul, 3.0L, pi));
    for (int i = 0; i < 20; i++)
        counted(i);
    show("after ignored results", add(counter, pi));
    struct point p = move(origin, 0.25L);
    printf("move %c %La %d %La\n", p.tag, p.x, p.k, p.y);

    volatile LD v = -2.75L, w = 0.3L;
    show("fabs", fabsl(v));
    show("copysign", copysignl(w, v));
    show("floor", floorl(v));
    show("ceil", ceill(v));
    show("trunc", truncl(v));
    show("round", roundl(v));
    show("sqrt", sqrtl(w));
    show("fmod", fmodl(v, w));
    show("pow", powl(w, v));
    show("fma", fmal(v, w, pi));
    show("fmin", fminl(v, w));
    show("fmax", fmaxl(v, nan));
    printf("isnan %d %d isinf %d %d\n", isnan(nan), isnan(v), isinf(inf), isinf(v));
    LD arr[4];
    memcpy(arr, table, sizeof arr);
    arr[3] += arr[2];
    show("arr", arr[3]);
    printf("OK\n");
    return 0;
}
