/* Driver for ../sparse-values.b3. */
#include <stdio.h>
long sparse(long);
int main(void) {
    if (sparse(5) != 15 || sparse(-7) != -21) {
        printf("FAIL %ld %ld\n", sparse(5), sparse(-7));
        return 1;
    }
    printf("OK\n");
    return 0;
}
