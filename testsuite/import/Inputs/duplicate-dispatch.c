/* Driver of duplicate-dispatch.ll: two programs of the interpreter
 * (0 halt, 1 inc, 2 dbl, 3 dec, 4 neg; 8 and up masked to 0..7). */
#include <stdio.h>

long run(const unsigned char *code, long acc);

int main(void) {
    static const unsigned char p1[] = {1, 2, 2, 9, 2, 3, 0};   /* (1+1)*2*2+1, *2, -1: 17 */
    static const unsigned char p2[] = {10, 3, 12, 1, 1, 1, 8}; /* -(3*2-1)+3: -2 */
    printf("%ld %ld\n", run(p1, 1), run(p2, 3));
    return 0;
}
