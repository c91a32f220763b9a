/* Mandelbrot (the Computer Language Benchmarks Game program): a size x size
 * bitmap, 50 iterations, escape at |z|^2 > 4, eight pixels a byte, written to
 * out; returns a hash of the bytes: see mandelbrot.b3. */
#include <stdint.h>

uint64_t kernel_mandelbrot_c(int32_t size, uint8_t *out)
{
    uint64_t hash = 0;
    int32_t pos = 0;
    for (int32_t y = 0; y < size; y++) {
        double ci = 2.0 * (double)y / (double)size - 1.0;
        uint32_t bits = 0;
        int32_t nbits = 0;
        for (int32_t x = 0; x < size; x++) {
            double cr = 2.0 * (double)x / (double)size - 1.5;
            double zr = 0.0, zi = 0.0, tr = 0.0, ti = 0.0;
            int32_t i = 0;
            while (i < 50 && tr + ti <= 4.0) {
                zi = 2.0 * zr * zi + ci;
                zr = tr - ti + cr;
                tr = zr * zr;
                ti = zi * zi;
                i++;
            }
            bits = (bits << 1) | (tr + ti <= 4.0);
            nbits++;
            if (nbits == 8 || x == size - 1) {
                bits = bits << (8 - nbits);
                out[pos] = (uint8_t)bits;
                hash = hash * 31 + (bits & 0xff);
                pos++;
                bits = 0;
                nbits = 0;
            }
        }
    }
    return hash;
}
