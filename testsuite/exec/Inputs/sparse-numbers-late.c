/* Driver for ../sparse-numbers-late.b3: late(x) = 4x - 1 below 0, 4x + 3 from 0. */
#include <stdio.h>
long late(long);
int main(void) {
    if (late(5) != 23 || late(-7) != -29 || late(0) != 3) {
        printf("FAIL %ld %ld %ld\n", late(5), late(-7), late(0));
        return 1;
    }
    printf("OK\n");
    return 0;
}
