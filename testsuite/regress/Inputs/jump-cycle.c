/* Driver for ../jump-cycle.b3 */
#include <stdint.h>
#include <stdio.h>

int64_t jcycle(int64_t);

int main(void) {
    for (int64_t a = -5; a < 5; a++)
        if (jcycle(a) != a + 1) {
            printf("FAIL jcycle(%lld) = %lld\n", (long long)a, (long long)jcycle(a));
            return 1;
        }
    printf("OK\n");
    return 0;
}
