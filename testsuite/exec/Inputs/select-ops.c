/* Driver of select-ops.b3: each procedure against C. */
#include <stdint.h>
#include <stdio.h>

typedef int64_t I64;
#define P(name, ret) ret name(I64, I64, I64, I64);
P(csinc, I64)
P(csinc_then, int32_t)
P(sel_one, I64) P(cset_add, int32_t) P(cset_add64, I64) P(csetm, int32_t) P(csetm_sel, I64) P(cneg, I64)
    P(csinv, I64) P(cmp_shift, int32_t) P(cmp_shift_left, int32_t) P(tst_shift, int32_t) P(cneg32, int32_t)
        P(mixed_width, int32_t) P(tst_shift32, int32_t) P(cmp_sshr32, int32_t) P(csinv32_then, int32_t)

            static int fails;
#define EQ(got, want)                                                                             \
    do {                                                                                          \
        I64 g_ = (I64)(got), w_ = (I64)(want);                                                    \
        if (g_ != w_) {                                                                           \
            if (fails++ < 20)                                                                     \
                printf("FAIL %s(%lld, %lld, %lld, %lld) = %lld, want %lld\n", #got, (long long)a, \
                       (long long)b, (long long)c, (long long)d, (long long)g_, (long long)w_);   \
        }                                                                                         \
    } while (0)

int main(void) {
    static const I64 vals[] = {0,
                               1,
                               -1,
                               2,
                               7,
                               -8,
                               0x7fffffff,
                               0xffffffff,
                               0x80000000,
                               0x7fffffffffffffff,
                               (I64)0x8000000000000000,
                               0x123456789,
                               -0x123456789,
                               3,
                               16,
                               0xfffffffe};
    const int n = sizeof vals / sizeof vals[0];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                I64 a = vals[i], b = vals[j], c = vals[k], d = vals[(i + 3 * j + k) % n];
                int32_t a32 = (int32_t)a, b32 = (int32_t)b, c32 = (int32_t)c;
                uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
                EQ(csinc(a, b, c, d), a < b ? c : (I64)((uint64_t)d + 1));
                EQ(csinc_then(a, b, c, d), a32 == b32 ? (int32_t)((uint32_t)c32 + 1) : a32);
                EQ(sel_one(a, b, c, d), (uint64_t)a > (uint64_t)b ? a : 1);
                EQ(cset_add(a, b, c, d), (int32_t)((uint32_t)c32 + (a32 < b32)));
                EQ(cset_add64(a, b, c, d), (I64)((uint64_t)c + ((uint64_t)a < (uint64_t)b)));
                EQ(csetm(a, b, c, d), a32 > b32 ? -1 : 0);
                EQ(csetm_sel(a, b, c, d), a <= b ? -1 : 0);
                EQ(cneg(a, b, c, d), a < 0 ? (I64)(0 - (uint64_t)a) : a);
                EQ(csinv(a, b, c, d), a != b ? a : ~c);
                EQ(cmp_shift(a, b, c, d), a < (I64)((uint64_t)b << 3) ? 7 : 9);
                EQ(cmp_shift_left(a, b, c, d), (ub >> 5) < ua ? 7 : 9);
                EQ(tst_shift(a, b, c, d), (a & (b >> 2)) == 0 ? 7 : 9);
                EQ(cneg32(a, b, c, d), a32 >= 0 ? a32 : (int32_t)(0u - ua));
                EQ(mixed_width(a, b, c, d), a < b ? c32 : (int32_t)((uint32_t)c32 + 1));
                EQ(tst_shift32(a, b, c, d), ((ub << 7) & ua) ? 7 : 9);
                EQ(cmp_sshr32(a, b, c, d), (b32 >> 1) >= a32 ? 7 : 9);
                EQ(csinv32_then(a, b, c, d), ua >= ub ? (int32_t)~ub : a32);
                EQ(cmn_br(a, b, c, d), (uint64_t)a == 0 - (uint64_t)b ? 7 : 9);
                EQ(cmn_shift(a, b, c, d), 0u - (ub >> 4) != ua ? 7 : 9);
            }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
