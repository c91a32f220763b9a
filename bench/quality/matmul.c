/* Naive matrix multiply c = a * b of n x n doubles (i, j, k order, the dot
 * product summed in a local), then the sum of c: see matmul.b3. */
#include <stdint.h>
#include <string.h>

uint64_t kernel_matmul_c(int32_t n, const double *a, const double *b, double *c)
{
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = 0; j < n; j++) {
            double s = 0.0;
            for (int32_t k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
    }
    double total = 0.0;
    for (int32_t i = 0; i < n * n; i++)
        total += c[i];
    uint64_t bits;
    memcpy(&bits, &total, sizeof bits);
    return bits;
}
