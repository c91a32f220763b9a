// Variadic function definitions (docs/c-extensions.md, "Variadic
// procedures"): compiled through b3c from clang-16's IR at -O0 and -O2, called
// from C compiled by the system compiler (Inputs/varargs-main.c): integers
// and doubles mixed beyond both banks' registers, named parameters that fill
// the registers and the stack, a printf wrapper handing its va_list to
// vfprintf and vsnprintf, va_copy used twice, a va_list passed down, and a
// variadic call between two b3c functions.
// RUN: %clang -O0 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t0.bc
// RUN: %b3c %t0.bc -o %t0.o
// RUN: %cc %S/Inputs/varargs-main.c %t0.o -o %t0
// RUN: %run %t0 | FileCheck %s
// RUN: %clang -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm %s -o %t2.bc
// RUN: %b3c %t2.bc -o %t2.o
// RUN: %cc %S/Inputs/varargs-main.c %t2.o -o %t2
// RUN: %run %t2 | FileCheck %s
// CHECK: mix 5426.75
// CHECK-NEXT: copies 3 2 1 | 3 2 1 | 6
// CHECK-NEXT: [log] 42 forty-two 4.20 -9 x 1e+100
// CHECK-NEXT: logged 36: [log] 42 forty-two 4.20 -9 x 1e+100
// CHECK-NEXT: named 67.5 + 7 + 2.5 + 1e+06
// CHECK-NEXT: chars 'a' 'b' -1 65535 3.5
// CHECK-NEXT: inner 69.75
// CHECK-NEXT: OK
#include <stdarg.h>
#include <stdio.h>

#define N __attribute__((noinline))

// kinds: 'l' long, 'i' int, 'd' double, 'c' char (promoted), 's' short.
N double sum_list(const char *kinds, va_list ap) {
    double s = 0;
    for (const char *k = kinds; *k; k++) {
        switch (*k) {
        case 'l': s += (double)va_arg(ap, long); break;
        case 'd': s += va_arg(ap, double); break;
        default: s += va_arg(ap, int); break;
        }
    }
    return s;
}

// Integers and doubles interleaved: past six/eight integer and eight
// floating-point registers, the rest from the overflow area.
N double mix(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    double s = 0;
    for (const char *k = kinds; *k; k++)
        s += *k == 'd' ? va_arg(ap, double) : (double)va_arg(ap, long);
    va_end(ap);
    return s;
}

// va_copy twice: each copy walks the same arguments on its own; the
// original is read after both copies.
N int copies(char *out, size_t size, int n, ...) {
    va_list ap, c1, c2;
    va_start(ap, n);
    va_copy(c1, ap);
    va_copy(c2, c1);
    int len = 0, total = 0;
    for (int i = 0; i < n; i++)
        len += snprintf(out + len, size - len, "%d ", va_arg(c1, int));
    len += snprintf(out + len, size - len, "|");
    for (int i = 0; i < n; i++)
        len += snprintf(out + len, size - len, " %d", va_arg(c2, int));
    for (int i = 0; i < n; i++)
        total += va_arg(ap, int);
    snprintf(out + len, size - len, " | %d", total);
    va_end(c2);
    va_end(c1);
    va_end(ap);
    return n;
}

// A printf-style logger: vsnprintf into a buffer and vfprintf to a stream,
// each from its own va_list.
N int log_to(FILE *f, char *buf, size_t size, const char *fmt, ...) {
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(buf, size, fmt, ap);
    vfprintf(f, fmt, aq);
    va_end(aq);
    va_end(ap);
    return n;
}

// Named parameters that take every integer and floating-point argument
// register and some stack: the variadic ones start after them.
N double named(long a, long b, long c, long d, long e, long f, long g, long h, long i, double x0, double x1,
               double x2, double x3, double x4, double x5, double x6, double x7, double x8, const char *kinds,
               ...) {
    va_list ap;
    va_start(ap, kinds);
    double s = sum_list(kinds, ap);
    va_end(ap);
    return (double)(a + b + c + d + e + f + g + h + i) + x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + s;
}

// Narrow integers arrive promoted to int.
N int chars(char *out, size_t size, ...) {
    va_list ap;
    va_start(ap, size);
    int a = va_arg(ap, int), b = va_arg(ap, int), c = va_arg(ap, int), d = va_arg(ap, int);
    double e = va_arg(ap, double);
    va_end(ap);
    return snprintf(out, size, "'%c' '%c' %d %d %g", (char)a, (char)b, (signed char)c, (unsigned short)d, e);
}

// A variadic call from b3c code to b3c code.
N double inner(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += i % 2 ? va_arg(ap, double) : (double)va_arg(ap, int);
    va_end(ap);
    return s;
}
double call_inner(void) {
    return inner(12, 1, 2.25, 3, 4.5, 5, 6.75, 7, 8.0, 9, 10.25, -11, 24.0);
}
