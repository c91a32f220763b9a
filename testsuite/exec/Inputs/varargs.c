/* Driver of exec/varargs.b3: C calls the b3 variadic procedures, which hand
 * their va_list to vsnprintf and to c_sum_va below. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int b3_format(char *buf, size_t size, const char *fmt, ...);
double b3_sum_twice(const char *kinds, ...);
double b3_scaled(const char *kinds, long base, double scale, ...);
int b3_no_va_start(int x, ...);

/* kinds: 'l' a long, 'i' an int, 'd' a double. */
double c_sum_va(const char *kinds, va_list ap) {
    double s = 0;
    for (const char *k = kinds; *k; k++) {
        if (*k == 'l')
            s += (double)va_arg(ap, long);
        else if (*k == 'i')
            s += va_arg(ap, int);
        else
            s += va_arg(ap, double);
    }
    return s;
}

static int failures;

static void expect(const char *what, double got, double want) {
    printf("%s %g\n", what, got);
    if (got != want) {
        printf("FAIL %s: %g, expected %g\n", what, got, want);
        failures++;
    }
}

int main(void) {
    char buf[128];
    int n = b3_format(buf, sizeof buf, "%d|%s|%.3f|%ld|%c|%g %g %g %g %g %g %g %g %g", -7, "str", 2.71828,
                      1234567890123L, 'z', 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5);
    printf("format %d %s\n", n, buf);
    if (strcmp(buf, "-7|str|2.718|1234567890123|z|1.5 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5") || n != (int)strlen(buf)) {
        printf("FAIL format\n");
        failures++;
    }
    /* Ten integers and ten doubles: beyond the registers of both banks. */
    expect("sum_twice",
           b3_sum_twice("ldldldldldldldldldld", 1L, 0.5, 2L, 1.5, 3L, 2.5, 4L, 3.5, 5L, 4.5, 6L, 5.5, 7L, 6.5, 8L,
                        7.5, 9L, 8.5, 10L, 9.5),
           2 * (55 + 50));
    expect("sum_short", b3_sum_twice("i", -3), -6);
    expect("sum_none", b3_sum_twice(""), 0);
    /* Two named integers and a named double, then variadic ones. */
    expect("scaled",
           b3_scaled("dididididilldd", 100L, 2.0, 0.25, 1, 0.25, 2, 0.25, 3, 0.25, 4, 0.25, 5, 6L, 7L, 0.5, 0.5),
           100 + 2 * (1.25 + 15 + 13 + 1)); /* 1.25 + (1+..+5) + 6 + 7 + 1 */
    printf("no_va_start %d\n", b3_no_va_start(41, 1, 2, 3));
    printf(failures ? "FAILED\n" : "OK\n");
    return failures != 0;
}
