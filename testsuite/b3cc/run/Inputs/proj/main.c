#include <stdio.h>
#include "stats.h"

struct sample {
    const char *name;
    double v[N];
};

int main(void) {
    struct sample s = {"squares", {0}};
    for (int i = 0; i < N; i++)
        s.v[i] = (double)(i * i);
    printf("%s: n=%d mean=%.4f stddev=%.4f\n", s.name, N, mean(s.v, N), stddev(s.v, N));
    return 0;
}
