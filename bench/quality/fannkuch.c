/* Fannkuch-redux (the Computer Language Benchmarks Game program): for every
 * permutation of 0..n-1, count the prefix reversals until 0 comes first.
 * Returns checksum << 32 | maximum flips: see fannkuch.b3. */
#include <stdint.h>

uint64_t kernel_fannkuch_c(int32_t n)
{
    int32_t perm[16], perm1[16], count[16];
    int32_t maxflips = 0, checksum = 0, permcount = 0, r = n;
    for (int32_t i = 0; i < n; i++)
        perm1[i] = i;
    for (;;) {
        while (r != 1) {
            count[r - 1] = r;
            r--;
        }
        for (int32_t i = 0; i < n; i++)
            perm[i] = perm1[i];
        int32_t flips = 0;
        int32_t k = perm[0];
        while (k != 0) {
            int32_t k2 = (k + 1) >> 1;
            for (int32_t i = 0; i < k2; i++) {
                int32_t t = perm[i];
                perm[i] = perm[k - i];
                perm[k - i] = t;
            }
            flips++;
            k = perm[0];
        }
        if (flips > maxflips)
            maxflips = flips;
        checksum += (permcount % 2 == 0) ? flips : -flips;
        for (;;) {
            if (r == n)
                return ((uint64_t)(uint32_t)checksum << 32) | (uint32_t)maxflips;
            int32_t perm0 = perm1[0];
            for (int32_t i = 0; i < r; i++)
                perm1[i] = perm1[i + 1];
            perm1[r] = perm0;
            count[r] = count[r] - 1;
            if (count[r] > 0)
                break;
            r++;
        }
        permcount++;
    }
}
