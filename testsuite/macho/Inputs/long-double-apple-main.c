/* Driver of macho/long-double.test (Inputs/long-double-apple.c). */
#include <stdio.h>

double run_scale(void);
double run_horner(void);
unsigned long long run_u64(void);
int run_precision(void);

int main(void) {
    printf("scale %.17g\n", run_scale());
    printf("horner %.9g\n", run_horner());
    printf("u64 %llu\n", run_u64());
    printf("precision %d\n", run_precision());
    return 0;
}
