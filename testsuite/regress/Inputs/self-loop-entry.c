/* Driver for ../self-loop-entry.b3 */
#include <stdint.h>
#include <stdio.h>

void spin(void);
void count_to_ten(void);
extern int32_t spin_count;

int main(void) {
    /* spin never returns: only its address is taken, so it must link. */
    void (*volatile f)(void) = spin;
    printf("spin is %s\n", f ? "linked" : "missing");
    count_to_ten();
    printf("count %d\n", spin_count);
    return 0;
}
