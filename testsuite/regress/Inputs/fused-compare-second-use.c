/* Driver for ../fused-compare-second-use.b3 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

int32_t ups_lt64(int64_t, int64_t);
int32_t ret_lt64(int64_t, int64_t);
int32_t ret_ge64(int64_t, int64_t);
int64_t sel_zext_lt64(int64_t, int64_t);
int32_t check_ret_lt64(int64_t, int64_t);
int32_t check_ret_ge64(int64_t, int64_t);
int32_t nested_outer(int64_t, int64_t);
int32_t nested_inner(int64_t, int64_t);
int32_t ups_ltd(double, double);
int32_t ret_ned(double, double);
double sel_zext_ltd(double, double);
int32_t check_ret_ltd(double, double);
int32_t ups_lt32(int32_t, int32_t);

/* Check exits: the handler's result is returned by the procedure. */
int32_t on_exit(int64_t a, int64_t b) {
    printf("exit %lld %lld -> ", (long long)a, (long long)b);
    return (int32_t)(1000 + a);
}

int32_t on_exit_d(double b) {
    printf("exit -> ");
    return (int32_t)(b * 1000);
}

#define I2(f, a, b)                                                     \
    do {                                                                \
        printf("%s %lld %lld -> ", #f, (long long)(a), (long long)(b)); \
        fflush(stdout);                                                 \
        printf("%lld\n", (long long)f(a, b));                           \
    } while (0)

static void show_d(double x) {
    if (isnan(x))
        printf("nan");
    else
        printf("%g", x);
}

#define D2(f, a, b)                   \
    do {                              \
        printf("%s ", #f);            \
        show_d(a);                    \
        printf(" ");                  \
        show_d(b);                    \
        printf(" -> ");               \
        fflush(stdout);               \
        printf("%d\n", (int)f(a, b)); \
    } while (0)

int main(void) {
    I2(ups_lt64, 3, 5);
    I2(ups_lt64, 5, 3);
    I2(ups_lt64, 4, 4);
    I2(ups_lt64, -1, 0);
    I2(ret_lt64, 3, 5);
    I2(ret_lt64, 5, 3);
    I2(ret_ge64, 3, 5);
    I2(ret_ge64, 5, 3);
    I2(sel_zext_lt64, 3, 5);
    I2(sel_zext_lt64, 5, 3);
    I2(sel_zext_lt64, -7, 2);
    I2(check_ret_lt64, 3, 5);
    I2(check_ret_lt64, 5, 3);
    I2(check_ret_ge64, 3, 5);
    I2(check_ret_ge64, 5, 3);
    I2(nested_outer, 3, 5);
    I2(nested_outer, 5, 3);
    I2(nested_inner, 3, 5);
    I2(nested_inner, 5, 3);
    D2(ups_ltd, 1.0, 2.0);
    D2(ups_ltd, 2.0, 1.0);
    D2(ups_ltd, NAN, 1.0);
    D2(ret_ned, 1.0, 2.0);
    D2(ret_ned, 2.0, 2.0);
    D2(ret_ned, NAN, NAN);
    printf("sel_zext_ltd 1 2 -> ");
    show_d(sel_zext_ltd(1.0, 2.0));
    printf("\nsel_zext_ltd 2 1 -> ");
    show_d(sel_zext_ltd(2.0, 1.0));
    printf("\nsel_zext_ltd nan 1 -> ");
    show_d(sel_zext_ltd(NAN, 1.0));
    printf("\n");
    D2(check_ret_ltd, 1.0, 2.0);
    D2(check_ret_ltd, 2.0, 1.0);
    D2(check_ret_ltd, NAN, 1.0);
    I2(ups_lt32, -3, 5);
    I2(ups_lt32, 5, -3);
    printf("OK\n");
    return 0;
}
