/* Driver for ../patchpoint-clobber-copy.b3 */
#include <stdint.h>
#include <stdio.h>

double pp_twice(double x) { return 2 * x; }
int64_t pp_inc(int64_t x) { return x + 1; }
void pp_nothing(void) {}

double fp(double, double);
int64_t gp(int64_t, int64_t);
double both(int64_t *, double, float, int64_t);

int main(void) {
    int64_t k = 0;
    printf("fp %g\n", fp(1.5, 0.25));
    printf("gp %lld\n", (long long)gp(6, 100));
    double r = both(&k, 3.5, 0.5f, 7);
    printf("both %g %lld\n", r, (long long)k);
    printf("%s\n", r == 11 && k == 7 ? "OK" : "FAIL");
    return 0;
}
