#include <stdio.h>
#include "util.h"
#ifndef GREETING
#define GREETING "hello"
#endif
int main(void) {
    printf("%s, %d\n", GREETING, twice(21));
    return 0;
}
