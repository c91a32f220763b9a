#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    double x = argc > 1 ? atof(argv[1]) : 2.0;
    printf("sqrt %.6f pow %.3f sin %.6f\n", sqrt(x), pow(x, 10.0), sin(x));
    return 0;
}
