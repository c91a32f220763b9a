/* Links against objgen's object (directly, or through a shared library) and
 * checks every function and the data layout. Prints "ok" on success. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int get42(void);
int *get_table(void);
int (*get_get42(void))(void);
long *get_ext(void);
int call_ext(void);
int call_helper(void);
long *get_hidden(void);
extern unsigned char all[], zeros[], zero32[];
extern int table[];
extern void *ptrs[];
extern double negzero;

long ext_var = 1234;
int ext_fn(void) { return 99; }

static int fails;
#define CHECK(c)                                                 \
    do {                                                         \
        if (!(c)) {                                              \
            printf("FAIL line %d: %s\n", __LINE__, #c);          \
            fails++;                                             \
        }                                                        \
    } while (0)

static uint64_t rd(const unsigned char *p, int n) {
    uint64_t v = 0;
    memcpy(&v, p, (size_t)n);
    return v;
}

int main(void) {
    CHECK(get42() == 42);
    CHECK(get_get42() == get42 && get_get42()() == 42);
    CHECK(get_table() == table && table[0] == 1 && table[3] == 4);
    CHECK(((uintptr_t)table & 15) == 0);
    CHECK(get_ext() == &ext_var && *get_ext() == 1234);
    CHECK(call_ext() == 99);
    CHECK(call_helper() == 7);
    CHECK(*get_hidden() == 5);

    CHECK(((uintptr_t)all & 7) == 0);
    CHECK(all[0] == 7 && all[1] == 0);
    CHECK(rd(all + 2, 2) == 0xffff);
    CHECK(rd(all + 4, 4) == 0xbaadbeef);
    CHECK(all[8] == 0xff);
    CHECK(rd(all + 16, 8) == (uint64_t)-2);
    float f;
    memcpy(&f, all + 24, 4);
    CHECK(f == 1.5f);
    double d;
    memcpy(&d, all + 32, 8);
    CHECK(d == 0.125);
    CHECK(!memcmp(all + 40, "hi\0\0\0\0", 6));
    CHECK(rd(all + 48, 8) == (uintptr_t)&get42);
    CHECK(rd(all + 56, 8) == (uintptr_t)table + 8);
    CHECK(rd(all + 64, 8) == (uintptr_t)&ext_var - 4);
    CHECK(rd(all + 72, 8) == (uintptr_t)get_hidden());

    CHECK(ptrs[0] == (void *)all && ptrs[1] == (void *)&get_table);
    for (int i = 0; i < 100; i++)
        CHECK(zeros[i] == 0);
    CHECK(zero32[0] == 0 && rd(zero32 + 4, 4) == 0);
    CHECK(negzero == 0 && 1 / negzero < 0);
    /* Writable data really is writable. */
    zeros[5] = 1;
    all[0] = 8;
    CHECK(zeros[5] == 1 && all[0] == 8);
    if (!fails)
        printf("ok\n");
    return fails != 0;
}
