/* Driver of macho/varargs.test: the fixed-argument entries of the b3c
 * functions (Inputs/varargs-apple.c), whose variadic calls stay inside the
 * Mach-O object. */
#include <stdio.h>

double run_mix(void);
long run_copies(void);
double run_named(void);
double run_pass_on(void);

int main(void) {
    printf("mix %g\n", run_mix());
    printf("copies %ld\n", run_copies());
    printf("named %g\n", run_named());
    printf("pass_on %g\n", run_pass_on());
    return 0;
}
