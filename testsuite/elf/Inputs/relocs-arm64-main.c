/* Drives relocs-arm64.b3 (linked directly or as a shared library). Prints "ok". */
#include <stdint.h>
#include <stdio.h>

int64_t load_ext(void);
int64_t bump(void);
int64_t use_secret(void);
int64_t call_ext(int64_t);
void *addr_of_bump(void);
int32_t sum_small(void);
void *addr_of_small(void);
extern int64_t counter;
extern void *fns[2];

int64_t ext_var = 1234;
int64_t ext_add(int64_t a, int64_t b) { return a + b; }

static int fails;
#define CHECK(c)                                        \
    do {                                                \
        if (!(c)) {                                     \
            printf("FAIL line %d: %s\n", __LINE__, #c); \
            fails++;                                    \
        }                                               \
    } while (0)

int main(void) {
    CHECK(load_ext() == 1234);
    ext_var = -5;
    CHECK(load_ext() == -5);
    /* The executable's view of counter (perhaps a copy relocation) and the
     * code's view are the same object. */
    CHECK(counter == 100);
    CHECK(bump() == 101 && counter == 101);
    counter = 200;
    CHECK(bump() == 201);
    CHECK(use_secret() == 14);
    CHECK(call_ext(1000) == 1202 && counter == 202);
    CHECK(addr_of_bump() == (void *)bump);
    CHECK(sum_small() == -3 - 300 - 70000);
    const int8_t *small = addr_of_small();
    CHECK(small[0] == -3);
    /* fns = {bump, twice}: the internal one is reached through its address. */
    CHECK(fns[0] == (void *)bump);
    CHECK(((int64_t(*)(int64_t))fns[1])(21) == 42);
    if (!fails)
        printf("ok\n");
    return fails != 0;
}
