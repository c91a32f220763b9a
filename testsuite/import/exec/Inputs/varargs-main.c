/* Driver of import/exec/varargs.c, compiled by the system C compiler: its
 * variadic calls follow the target's C convention, and the callees are
 * b3c's. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double mix(const char *kinds, ...);
int copies(char *out, size_t size, int n, ...);
int log_to(FILE *f, char *buf, size_t size, const char *fmt, ...);
double named(long a, long b, long c, long d, long e, long f, long g, long h, long i, double x0, double x1,
             double x2, double x3, double x4, double x5, double x6, double x7, double x8, const char *kinds, ...);
int chars(char *out, size_t size, ...);
double call_inner(void);

static int failures;

static void expect_d(const char *what, double got, double want) {
    if (got != want) {
        printf("FAIL %s: %.17g, expected %.17g\n", what, got, want);
        failures++;
    }
}

int main(void) {
    /* 12 longs, 12 doubles. */
    double m = mix("ldldldldldldldldldldldld", 1L, 0.5, 2L, 1.5, 3L, 2.5, 4L, 3.5, 5L, 4.5, 6L, 5.5, 7L, 6.5, 8L,
                   7.5, 9L, 8.5, 10L, 9.5, 11L, 10.5, 5000L, 300.25);
    printf("mix %g\n", m);
    expect_d("mix", m, 66 + 5000 + 60.5 + 300.25);
    char buf[256];
    copies(buf, sizeof buf, 3, 3, 2, 1);
    printf("copies %s\n", buf);
    fflush(stdout);
    int n = log_to(stdout, buf, sizeof buf, "[log] %d %s %.2f %ld %c %g\n", 42, "forty-two", 4.2, -9L, 'x', 1e100);
    printf("logged %d: %s", n, buf);
    if (n != (int)strlen(buf) || strcmp(buf, "[log] 42 forty-two 4.20 -9 x 1e+100\n"))
        failures++;
    fflush(stdout);
    double r = named(1, 2, 3, 4, 5, 6, 7, 8, 9, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, "ldid", 7L, 2.5, 1000000, 0.0);
    printf("named %g + 7 + 2.5 + 1e+06\n", r - 7 - 2.5 - 1000000);
    expect_d("named", r, 45 + 22.5 + 7 + 2.5 + 1000000);
    chars(buf, sizeof buf, 'a', (char)'b', (signed char)-1, (unsigned short)65535, 3.5f);
    printf("chars %s\n", buf);
    double in = call_inner();
    printf("inner %g\n", in);
    expect_d("inner", in, 1 + 3 + 5 + 7 + 9 - 11 + 2.25 + 4.5 + 6.75 + 8 + 10.25 + 24);
    printf(failures ? "FAILED\n" : "OK\n");
    return failures != 0;
}
