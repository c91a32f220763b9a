/* Reads back the data of data-layout.b3. Prints "ok" on success. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern unsigned char all[], zeros[], zint[], abc[], a8[];
extern int table[];
extern void *ptrs[];
extern double negzero;
extern void *get_hidden_ptr[];

static int fails;
#define CHECK(c)                                        \
    do {                                                \
        if (!(c)) {                                     \
            printf("FAIL line %d: %s\n", __LINE__, #c); \
            fails++;                                    \
        }                                               \
    } while (0)

static uint64_t rd(const unsigned char *p, int n) {
    uint64_t v = 0;
    memcpy(&v, p, (size_t)n);
    return v;
}

int main(void) {
    CHECK(((uintptr_t)all & 7) == 0);
    CHECK(all[0] == 7 && rd(all + 2, 2) == 0xffff && rd(all + 4, 4) == 0xbaadbeef && all[8] == 0xff);
    CHECK(rd(all + 16, 8) == (uint64_t)-2);
    float f;
    double d;
    memcpy(&f, all + 24, 4);
    memcpy(&d, all + 32, 8);
    CHECK(f == 1.5f && d == 0.125);
    CHECK(!memcmp(all + 40, "hi\0\0\0\0", 6));
    CHECK(rd(all + 48, 8) == (uintptr_t)&puts);
    CHECK(rd(all + 56, 8) == (uintptr_t)table + 8);
    CHECK(rd(all + 64, 8) == (uintptr_t)all - 4);
    uint64_t hidden = rd(all + 72, 8);
    CHECK(*(int64_t *)(uintptr_t)hidden == 5);
    CHECK(((uintptr_t)table & 15) == 0 && table[0] == 1 && table[2] == 3);
    CHECK(ptrs[0] == (void *)all && (uintptr_t)ptrs[1] == hidden);
    CHECK((uintptr_t)get_hidden_ptr[0] == hidden);
    for (int i = 0; i < 100; i++)
        CHECK(zeros[i] == 0);
    CHECK(((uintptr_t)zint & 7) == 0 && rd(zint, 8) == 0 && rd(zint + 8, 8) == 0);
    CHECK(negzero == 0 && 1 / negzero < 0);
    CHECK(!memcmp(abc, "abc", 3));
    CHECK(((uintptr_t)a8 & 7) == 0 && a8[0] == 1);
    zeros[3] = 1;
    CHECK(zeros[3] == 1);
    if (!fails)
        printf("ok\n");
    return fails != 0;
}
