/* Quicksort (Hoare partition, middle pivot, recursive) of n int32s filled
 * from a linear congruential generator; returns a hash of the sorted array:
 * see quicksort.b3. */
#include <stdint.h>

static void quicksort_rec(int32_t *a, int32_t lo, int32_t hi)
{
    if (lo >= hi)
        return;
    int32_t pivot = a[lo + (hi - lo) / 2];
    int32_t i = lo - 1, j = hi + 1;
    for (;;) {
        do
            i++;
        while (a[i] < pivot);
        do
            j--;
        while (a[j] > pivot);
        if (i >= j)
            break;
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    quicksort_rec(a, lo, j);
    quicksort_rec(a, j + 1, hi);
}

uint64_t kernel_quicksort_c(int32_t *a, int32_t n, uint32_t seed)
{
    uint32_t x = seed;
    for (int32_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        a[i] = (int32_t)x >> 4;
    }
    quicksort_rec(a, 0, n - 1);
    uint64_t hash = 0;
    for (int32_t i = 0; i < n; i++)
        hash = hash * 31 + (uint32_t)a[i];
    return hash;
}
