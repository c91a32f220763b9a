/* Static inline functions in a header: their code belongs to this file. */
static inline int twice(int x) {
    int y = x * 2;
    return y + 1;
}

static inline int tally(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += twice(v[i]);
    return s;
}
