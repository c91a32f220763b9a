/* The C side of exec/c-abi.b3: small structs returned in two registers,
 * struct results through an sret pointer, in both directions. */
#include <stdint.h>
#include <stdio.h>

struct ii {
    int64_t a, b;
};
struct dd {
    double x, y;
};
struct id {
    int64_t a;
    double b;
};
struct di {
    double a;
    int32_t b;
};
struct big {
    int64_t a, b, c;
};

struct ii c_pair_ii(int64_t x) {
    return (struct ii){x + 1, x * 2};
}
struct dd c_pair_dd(double x) {
    return (struct dd){x + 0.5, x * 3};
}
struct id c_pair_id(int64_t x) {
    return (struct id){x - 7, x / 4.0};
}
struct di c_pair_di(int32_t x) {
    return (struct di){x * 1.5, -x};
}
struct big c_make_big(int64_t x, int64_t y) {
    return (struct big){x, y, x * y};
}

/* Defined in b3. */
struct ii b3_pair_ii(int64_t a, int64_t b);
struct dd b3_pair_dd(double a, double b);
struct id b3_pair_id(int64_t a, double b);
struct di b3_pair_di(double a, int32_t b);
struct big b3_make_big(int64_t x);
int64_t b3_calls(void);
int64_t b3_calls_mixed(void);
int64_t b3_byval(void);

static int fails;
static void check(const char *what, int ok) {
    if (!ok) {
        printf("FAIL %s\n", what);
        fails++;
    }
}

int main(void) {
    struct ii ii = b3_pair_ii(3, 4);
    check("b3_pair_ii", ii.a == 3 && ii.b == 4);
    struct dd dd = b3_pair_dd(1.25, -2.5);
    check("b3_pair_dd", dd.x == 1.25 && dd.y == -2.5);
#ifdef __x86_64__
    /* A struct of both banks comes back in rax and xmm0 (AAPCS64: x0, x1). */
    struct id id = b3_pair_id(-9, 0.75);
    check("b3_pair_id", id.a == -9 && id.b == 0.75);
    struct di di = b3_pair_di(6.5, -12);
    check("b3_pair_di", di.a == 6.5 && di.b == -12);
    di = b3_pair_di(6.5, 12);
    check("b3_pair_di 2", di.a == 99 && di.b == 0);
    check("b3_calls_mixed", b3_calls_mixed() == 13 + 5 + 6 - 4);
#endif
    struct big big = b3_make_big(5);
    check("b3_make_big", big.a == 5 && big.b == 6 && big.c == 30);
    int64_t r = b3_calls();
    printf("b3_calls %ld\n", (long)r);
    r = b3_byval();
    printf("b3_byval %ld\n", (long)r);
    puts(fails ? "FAILED" : "OK");
    return fails != 0;
}
