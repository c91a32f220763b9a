/* N-queens, counting all solutions with the recursive bitmask search: see
 * nqueens.b3. */
#include <stdint.h>

static int32_t nqueens_solve(uint32_t all, uint32_t cols, uint32_t d1, uint32_t d2)
{
    if (cols == all)
        return 1;
    int32_t count = 0;
    uint32_t avail = all & ~(cols | d1 | d2);
    while (avail != 0) {
        uint32_t bit = avail & -avail;
        avail = avail ^ bit;
        count += nqueens_solve(all, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return count;
}

uint64_t kernel_nqueens_c(int32_t n)
{
    return (uint64_t)nqueens_solve((1u << n) - 1, 0, 0, 0);
}
