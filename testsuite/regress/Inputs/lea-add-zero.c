#include <stdio.h>
int add32(int, int);
long add64(long, long);
long mul3(long);
int main(void) {
    printf("add32 40 2 -> %d\n", add32(40, 2));
    printf("add64 -5 5000000000 -> %ld\n", add64(-5, 5000000000L));
    printf("mul3 7 -> %ld\n", mul3(7));
    return 0;
}
