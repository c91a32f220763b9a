/* Driver for ../data.b3. */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>

int32_t table_at(int64_t);
int64_t bump(int64_t);
int64_t extern_data(void);
int64_t via_ptrs(void);
double dconst_use(double);
void *addr_of_puts(void);
void *addr_of_table_end(void);
void *addr_of_counter_plus(void);
void *addr_of_self(void);
extern int64_t counter;
int64_t c_data[4] = {1, 2, 30, 400};

static int fails;
#define CHECK_EQ(fmt, got, want)                                                 \
    do {                                                                         \
        if ((got) != (want)) {                                                   \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want);   \
            fails++;                                                             \
        }                                                                        \
    } while (0)

int main(void) {
    for (int64_t i = 0; i < 5; i++)
        CHECK_EQ("%d", table_at(i), (int32_t)((i + 1) * 10 + 30));
    CHECK_EQ("%" PRId64, bump(5), (int64_t)5);
    CHECK_EQ("%" PRId64, bump(-12), (int64_t)-7);
    CHECK_EQ("%" PRId64, counter, (int64_t)-7);
    CHECK_EQ("%" PRId64, extern_data(), (int64_t)430);
    CHECK_EQ("%" PRId64, c_data[0], (int64_t)99);
    CHECK_EQ("%" PRId64, via_ptrs(), (int64_t)(30 + 30));
    CHECK_EQ("%a", dconst_use(3.0), 3.0 * 2.5 - 0.125);
    CHECK_EQ("%p", addr_of_puts(), (void *)puts);
    CHECK_EQ("%p", (void *)((char *)addr_of_counter_plus() - 4), (void *)&counter);
    CHECK_EQ("%p", addr_of_self(), (void *)addr_of_self);
    CHECK_EQ("%d", ((int32_t *)addr_of_table_end())[-1], 50);
    if (fails) {
        printf("FAILED %d\n", fails);
        return 1;
    }
    printf("OK\n");
    return 0;
}
