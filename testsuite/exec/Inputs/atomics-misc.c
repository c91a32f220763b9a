/* Driver for ../atomics-misc.b3. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int32_t depend32(int32_t);
int64_t depend64(int64_t);
int64_t depend_const(void);
int64_t chase(int64_t *);
int64_t fences(int64_t *);
int32_t acq_rel(int32_t *, int32_t);
int64_t acq_rel_misaligned(char *, int64_t);
int64_t slot_cas(int64_t);
int64_t sym_add(int64_t);
int64_t sym_read(void);
int32_t cas_shared(int32_t *, int32_t, int32_t);
int32_t cas_across(int32_t *, int32_t, int32_t);

static int fails;
#define EXPECT(what, got, want)                                                                        \
    do {                                                                                               \
        if ((int64_t)(got) != (int64_t)(want)) {                                                       \
            printf("FAIL %s: %" PRId64 ", expected %" PRId64 "\n", what, (int64_t)(got), (int64_t)(want)); \
            fails++;                                                                                   \
        }                                                                                              \
    } while (0)

int main(void) {
    static const int64_t ins[] = {0, 1, -1, 2, 0x7f, 0x80, 0xff, 0x7fffffff, INT32_MIN, 0x100000000ll,
                                  INT64_MAX, INT64_MIN, 0x5555555555555555ll, -12345678987654321ll};
    for (unsigned i = 0; i < sizeof ins / sizeof ins[0]; i++) {
        EXPECT("depend32", depend32((int32_t)ins[i]), 0);
        EXPECT("depend64", depend64(ins[i]), 0);
    }
    EXPECT("depend_const", depend_const(), 5);

    int64_t chain[2] = {12345, 678};
    EXPECT("chase", chase(chain), 678);
    chain[0] = 0;
    EXPECT("chase (zero)", chase(chain), 678);

    int64_t two[2] = {0, 0};
    EXPECT("fences", fences(two), 7);
    EXPECT("fences mem", two[0] * 10 + two[1], 34);

    int32_t ar[2] = {5, 6};
    EXPECT("acq_rel", acq_rel(ar, 9), 11);
    EXPECT("acq_rel mem", ar[1], 9);

    static _Alignas(16) char buf[32];
    for (unsigned i = 0; i < sizeof ins / sizeof ins[0]; i++) {
        int64_t v = ins[i], m8;
        int32_t m4;
        int16_t m2;
        EXPECT("acq_rel_misaligned", acq_rel_misaligned(buf, v), v + (int32_t)v + (int16_t)v);
        memcpy(&m8, buf + 1, 8);
        memcpy(&m4, buf + 11, 4);
        memcpy(&m2, buf + 17, 2);
        EXPECT("acq_rel_misaligned mem8", m8, v);
        EXPECT("acq_rel_misaligned mem4", m4, (int32_t)v);
        EXPECT("acq_rel_misaligned mem2", m2, (int16_t)v);
    }

    /* CAS(10 -> x) succeeds: old 10; then xadd x: old x, memory 2x. */
    EXPECT("slot_cas", slot_cas(7), 10 + 7 + 14);
    EXPECT("slot_cas", slot_cas(-3), 10 - 3 - 6);

    EXPECT("sym_add", sym_add(2), 40);
    EXPECT("sym_add", sym_add(-50), 42);
    EXPECT("sym_read", sym_read(), -8);

    int32_t w = 3;
    EXPECT("cas_shared success", cas_shared(&w, 3, 9), 9 * 100 + 10 + 3);
    EXPECT("cas_shared failure", cas_shared(&w, 3, 5), 9 * 100 + 0 + 1);
    w = 4;
    EXPECT("cas_across success", cas_across(&w, 4, 8), 1);
    EXPECT("cas_across mem", w, 77);
    EXPECT("cas_across failure", cas_across(&w, 4, 8), 0);
    EXPECT("cas_across mem", w, 77);

    if (!fails)
        puts("OK");
    return fails != 0;
}
