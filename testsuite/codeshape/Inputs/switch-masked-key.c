/* Driver of switch-masked-key.b3: every masked key, and two past the mask. */
#include <stdio.h>

long masked(long);

int main(void) {
    for (long i = 0; i < 10; i++)
        printf("%ld%s", masked(i), i < 9 ? " " : "\n");
    return 0;
}
