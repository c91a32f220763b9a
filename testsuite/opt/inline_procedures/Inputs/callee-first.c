/* Driver for ../callee-first.b3. */
#include <stdint.h>
#include <stdio.h>

int32_t chill_div(int32_t, int32_t);
int32_t plus_one_quotient(int32_t, int32_t);

static int fails;
#define CHECK_EQ(got, want)                                                        \
    do {                                                                           \
        if ((got) != (want)) {                                                     \
            printf("FAIL line %d: %d != %d\n", __LINE__, (int)(got), (int)(want)); \
            fails++;                                                               \
        }                                                                          \
    } while (0)

int main(void) {
    CHECK_EQ(chill_div(7, 2), 3);
    CHECK_EQ(chill_div(7, 0), 0);
    CHECK_EQ(plus_one_quotient(7, 2), 4);
    CHECK_EQ(plus_one_quotient(-9, 3), -2);
    CHECK_EQ(plus_one_quotient(7, 0), 1);
    CHECK_EQ(plus_one_quotient(INT32_MIN, -1), INT32_MIN + 1);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
