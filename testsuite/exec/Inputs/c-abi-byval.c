/* The C side of exec/c-abi-byval.b3 (x86-64): structs passed by value in
 * memory, in order with the other stack arguments. */
#include <stdint.h>
#include <stdio.h>

struct big {
    int64_t a, b, c;
};
struct odd {
    int64_t a, b;
    int32_t c;
    int16_t d;
    int8_t e;
}; /* 24 bytes, 23 used: in memory */

int64_t c_sum_big(int64_t k, struct big s, int64_t m) { return k + s.a * 2 + s.b * 3 + s.c * 5 + m * 7; }
/* Six integers in registers, then s on the stack, then a7 after it. */
int64_t c_many(int64_t a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5, int64_t a6, struct big s,
               int64_t a7) {
    return a1 + a2 + a3 + a4 + a5 + a6 + s.a * 10 + s.b * 100 + s.c * 1000 + a7 * 10000;
}
int64_t c_odd(struct odd o, double x) { return o.a + o.b + o.c + o.d + o.e + (int64_t)x; }

int64_t b3_byval_c(void);
int64_t b3_takes_big(struct big s, int64_t k); /* defined in b3: reads s at FramePointer() + 16 */

int main(void) {
    int64_t r = b3_byval_c();
    printf("b3_byval_c %ld\n", (long)r);
    struct big s = {1, 2, 3};
    printf("b3_takes_big %ld\n", (long)b3_takes_big(s, 40));
    return 0;
}
