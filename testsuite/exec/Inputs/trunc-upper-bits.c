#include <stdint.h>
#include <stdio.h>

int32_t dense(int64_t);
int64_t zext(int64_t);
int32_t index_load(const int32_t *, int64_t);

static int failures;
#define EXPECT(got, want)                                                              \
    do {                                                                               \
        long long g_ = (long long)(got), w_ = (long long)(want);                       \
        if (g_ != w_) {                                                                \
            printf("FAIL %s: got %lld want %lld\n", #got, g_, w_);                     \
            failures++;                                                                \
        }                                                                              \
    } while (0)

int main(void) {
    static const int32_t table[8] = {100, 101, 102, 103, 104, 105, 106, 107};
    for (int64_t hi = 0; hi < 4; hi++) {
        int64_t h = hi == 3 ? (int64_t)0xffffffff00000000ull : hi << 32;
        for (int64_t i = 0; i < 5; i++)
            EXPECT(dense(h | i), 10 + i);
        EXPECT(dense(h | 5), -1);
        EXPECT(dense(h | 0xffffffffll), -1);
        EXPECT(zext(h | 7), 7);
        EXPECT(index_load(table, h | 6), 106);
    }
    if (!failures)
        puts("OK");
    return failures != 0;
}
