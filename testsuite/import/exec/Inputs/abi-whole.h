/* Shared by abi-whole.c (through b3c) and abi-whole-main.c (the system
 * compiler): each function is defined on both sides, with the prefix P
 * (b3_ or c_), so that each side calls the other's. */
struct F2 { float a, b; };
struct F3 { float a, b, c; };
struct D3 { double a, b, c; };
struct D4 { double a, b, c, d; };
typedef __int128 i128;

#define DEFINE_ALL(P)                                                                              \
    struct F3 P##mk3(float x) {                                                                    \
        struct F3 r = {x, x * 2, x * 3};                                                           \
        return r;                                                                                  \
    }                                                                                              \
    struct D4 P##mk4(double x) {                                                                   \
        struct D4 r = {x, x + 0.5, x + 0.25, x + 0.125};                                          \
        return r;                                                                                  \
    }                                                                                              \
    struct D3 P##rot3(struct D3 s) {                                                               \
        struct D3 r = {s.b, s.c, s.a};                                                             \
        return r;                                                                                  \
    }                                                                                              \
    /* Six doubles leave two vector registers: t does not fit, goes on the                       \
     * stack whole, and f2 and z after it too (AAPCS64). */                                        \
    double P##hfa_stack(struct F3 s, double a, double b, double c, double d, double e, struct F3 t,  \
                        struct F2 f2, double z) {                                                  \
        return s.a + s.b * 2 + s.c * 3 + a + b * 2 + c * 3 + d * 4 + e * 5 + t.a * 6 + t.b * 7 +     \
               t.c * 8 + f2.a * 9 + f2.b * 10 + z * 11;                                            \
    }                                                                                              \
    /* Seven doubles leave one register: the pair of floats goes on the                          \
     * stack (AAPCS64), the double after it too. */                                               \
    double P##f2_stack(double a, double b, double c, double d, double e, double f, double g,      \
                       struct F2 p, double z) {                                                    \
        return a + b + c + d + e + f + g * 2 + p.a * 3 + p.b * 4 + z * 5;                          \
    }                                                                                              \
    /* Five integers: x86-64 has one register left, so x goes on the stack                       \
     * whole and y takes r9; arm64 takes the pair x6/x7 (x5 unused). */                            \
    long P##i128_last(long a, long b, long c, long d, long e, i128 x, long y) {                   \
        return (long)(x >> 64) * 1000 + (long)x + a + b * 2 + c * 3 + d * 4 + e * 5 + y * 6;      \
    }                                                                                              \
    /* Seven integers: arm64 skips x7, x goes on the stack 16-byte aligned                       \
     * and y after it; x86-64: g on the stack, x at the next 16-byte offset. */                     \
    long P##i128_seven(long a, long b, long c, long d, long e, long f, long g, i128 x, long y) {  \
        return (long)(x >> 64) * 1000 + (long)x + a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 +     \
               g * 7 + y * 8;                                                                      \
    }                                                                                              \
    /* Six integers and a stack word first: x at offset 16 on both. */                            \
    long P##i128_after(long a, long b, long c, long d, long e, long f, long g, long h, long k,     \
                       i128 x) {                                                                   \
        return (long)(x >> 64) * 1000 + (long)x + a + b + c + d + e + f + g * 2 + h * 3 + k * 4;  \
    }
