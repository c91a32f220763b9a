#include <stdio.h>

int sum_to(int n);

int main(void) {
    printf("sum_to(10) = %d\n", sum_to(10));
    return 0;
}
