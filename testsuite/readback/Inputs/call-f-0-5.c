#include <stdio.h>
int f(int);
int main(void) {
    printf("%d %d\n", f(0), f(5));
    return 0;
}
