#include <stdio.h>

int outer(int n);

int main(void) {
    printf("outer(5) = %d\n", outer(5));
    return 0;
}
