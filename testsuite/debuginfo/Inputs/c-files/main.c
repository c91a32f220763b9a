#include <stdio.h>

#include "util.h"

__attribute__((noinline)) int work(int n) {
    int v[4] = {n, n + 1, n + 2, n + 3};
    int t = tally(v, 4);
    return t + twice(n);
}

int main(void) {
    printf("work %d\n", work(5));
    return 0;
}
