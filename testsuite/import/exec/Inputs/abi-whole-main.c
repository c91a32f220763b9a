/* The system compiler's side of abi-whole.c. */
#include <stdio.h>

#include "abi-whole.h"

DEFINE_ALL(c_)

struct F3 b3_mk3(float x);
struct D4 b3_mk4(double x);
struct D3 b3_rot3(struct D3 s);
double b3_hfa_stack(struct F3 s, double a, double b, double c, double d, double e, struct F3 t, struct F2 f2,
                    double z);
double b3_f2_stack(double a, double b, double c, double d, double e, double f, double g, struct F2 p,
                   double z);
long b3_i128_last(long a, long b, long c, long d, long e, i128 x, long y);
long b3_i128_seven(long a, long b, long c, long d, long e, long f, long g, i128 x, long y);
long b3_i128_after(long a, long b, long c, long d, long e, long f, long g, long h, long k, i128 x);
void b3_calls_c(void);

int main(void) {
    struct F3 f = b3_mk3(1.5f);
    struct D4 d = b3_mk4(2);
    struct D3 r = b3_rot3((struct D3){1, 2, 3});
    printf("results %g %g %g | %g %g %g %g | %g %g %g\n", f.a, f.b, f.c, d.a, d.b, d.c, d.d, r.a, r.b, r.c);
    struct F3 s = {1, 2, 3}, t = {4, 5, 6};
    struct F2 p = {7, 8};
    printf("hfa %g %g\n", b3_hfa_stack(s, 1, 2, 3, 4, 5, t, p, 9), b3_f2_stack(1, 2, 3, 4, 5, 6, 7, p, 9));
    i128 x = ((i128)5 << 64) | 77;
    printf("i128 %ld %ld %ld\n", b3_i128_last(1, 2, 3, 4, 5, x, 6), b3_i128_seven(1, 2, 3, 4, 5, 6, 7, x, 8),
           b3_i128_after(1, 2, 3, 4, 5, 6, 7, 8, 9, x));
    b3_calls_c();
    return 0;
}
