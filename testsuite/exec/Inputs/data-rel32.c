/* Driver for ../data-rel32.b3. */
#include <stdint.h>
#include <stdio.h>

extern int32_t rel32_data[4];
int32_t rel32_fn(void);
void *rel32_at(int64_t);

static int fails;
static void check(int line, void *got, void *want) {
    if (got != want) {
        printf("FAIL line %d: %p != %p\n", line, got, want);
        fails++;
    }
}

int main(void) {
    check(__LINE__, rel32_at(0), rel32_data);
    check(__LINE__, rel32_at(1), rel32_data + 2);
    check(__LINE__, rel32_at(2), (void *)rel32_fn);
    check(__LINE__, rel32_at(3), (char *)rel32_data - 4);
    if (*(int64_t *)rel32_at(4) != 222)
        printf("FAIL: rel32_local + 8\n"), fails++;
    if (((int32_t(*)(void))rel32_at(2))() != 7)
        printf("FAIL: rel32_fn\n"), fails++;
    puts(fails ? "FAILED" : "OK");
    return fails != 0;
}
