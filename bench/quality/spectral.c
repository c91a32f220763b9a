/* Spectral norm (the Computer Language Benchmarks Game program): ten power
 * iterations of A^T A on vectors of n doubles, where A(i, j) = 1 / ((i + j) *
 * (i + j + 1) / 2 + i + 1).  Returns the bits of sqrt(u.v / v.v): see
 * spectral.b3. */
#include <math.h>
#include <stdint.h>
#include <string.h>

static double eval_A(int32_t i, int32_t j)
{
    return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
}

static void mul_Av(int32_t n, const double *v, double *av)
{
    for (int32_t i = 0; i < n; i++) {
        double s = 0.0;
        for (int32_t j = 0; j < n; j++)
            s += eval_A(i, j) * v[j];
        av[i] = s;
    }
}

static void mul_Atv(int32_t n, const double *v, double *atv)
{
    for (int32_t i = 0; i < n; i++) {
        double s = 0.0;
        for (int32_t j = 0; j < n; j++)
            s += eval_A(j, i) * v[j];
        atv[i] = s;
    }
}

static void mul_AtAv(int32_t n, const double *v, double *atav, double *tmp)
{
    mul_Av(n, v, tmp);
    mul_Atv(n, tmp, atav);
}

uint64_t kernel_spectral_c(int32_t n, double *u, double *v, double *tmp)
{
    for (int32_t i = 0; i < n; i++)
        u[i] = 1.0;
    for (int32_t k = 0; k < 10; k++) {
        mul_AtAv(n, u, v, tmp);
        mul_AtAv(n, v, u, tmp);
    }
    double vBv = 0.0, vv = 0.0;
    for (int32_t i = 0; i < n; i++) {
        vBv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    double r = sqrt(vBv / vv);
    uint64_t bits;
    memcpy(&bits, &r, sizeof bits);
    return bits;
}
