/* Driver for ../exec-patchpoint.b3 and ../exec-patchpoint-arm64.b3. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int fails;
#define CHECK_EQ(fmt, got, want)                                               \
    do {                                                                       \
        if ((got) != (want)) {                                                 \
            printf("FAIL line %d: " fmt " != " fmt "\n", __LINE__, got, want); \
            fails++;                                                           \
        }                                                                      \
    } while (0)

int64_t pp_add(int64_t, int64_t);
int64_t pp_swap(int64_t, int64_t);
double pp_fadd(double, double);
int32_t pp_mul32(int32_t);
int64_t pp_sum7(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
int64_t pp_smash(int64_t);
int64_t pp_nop(int64_t);
int64_t pp_loop(int64_t);
int64_t pp_trap(int64_t);
#if defined(__aarch64__)
int64_t pp_sum10(int64_t, int64_t, int64_t);
#endif

int64_t c_add(int64_t a, int64_t b) { return a + 2 * b; }
double c_fadd(double a, double b) { return a - b; }
int32_t c_mul32(int32_t a, int32_t b) { return a * b; }
int64_t c_sum7(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}
int64_t c_count(int64_t i) { return i * i; }
int64_t c_sum10(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g, int64_t h,
                int64_t i, int64_t j) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

/* smash: destroys every general-purpose register but the stack and frame
 * pointers (and, on arm64, x18 and the link register), returns 7.
 * call_preserving(fn, arg): calls fn(arg) with known values in the
 * callee-saved registers and sets preserved_ok when they survive. */
int preserved_ok;
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl smash\n"
        ".type smash, @function\n"
        "smash:\n"
        "  movq $-1, %rbx\n  movq $-1, %rcx\n  movq $-1, %rdx\n  movq $-1, %rsi\n  movq $-1, %rdi\n"
        "  movq $-1, %r8\n  movq $-1, %r9\n  movq $-1, %r10\n  movq $-1, %r11\n  movq $-1, %r12\n"
        "  movq $-1, %r13\n  movq $-1, %r14\n  movq $-1, %r15\n  movq $7, %rax\n  ret\n"
        ".globl call_preserving\n"
        ".type call_preserving, @function\n"
        "call_preserving:\n"
        "  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq $0x1111, %rbx\n  movq $0x1212, %r12\n  movq $0x1313, %r13\n  movq $0x1414, %r14\n"
        "  movq $0x1515, %r15\n"
        "  movq %rdi, %rax\n  movq %rsi, %rdi\n  call *%rax\n"
        "  xorl %ecx, %ecx\n"
        "  cmpq $0x1111, %rbx\n  jne 1f\n  cmpq $0x1212, %r12\n  jne 1f\n  cmpq $0x1313, %r13\n  jne 1f\n"
        "  cmpq $0x1414, %r14\n  jne 1f\n  cmpq $0x1515, %r15\n  jne 1f\n  movl $1, %ecx\n"
        "1:\n  movl %ecx, preserved_ok(%rip)\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  ret\n");
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl smash\n"
        ".type smash, %function\n"
        "smash:\n"
        "  mov x1, #-1\n  mov x2, #-1\n  mov x3, #-1\n  mov x4, #-1\n  mov x5, #-1\n  mov x6, #-1\n"
        "  mov x7, #-1\n  mov x8, #-1\n  mov x9, #-1\n  mov x10, #-1\n  mov x11, #-1\n  mov x12, #-1\n"
        "  mov x13, #-1\n  mov x14, #-1\n  mov x15, #-1\n  mov x16, #-1\n  mov x17, #-1\n"
        "  mov x19, #-1\n  mov x20, #-1\n  mov x21, #-1\n  mov x22, #-1\n  mov x23, #-1\n"
        "  mov x24, #-1\n  mov x25, #-1\n  mov x26, #-1\n  mov x27, #-1\n  mov x28, #-1\n"
        "  mov x0, #7\n  ret\n"
        ".globl call_preserving\n"
        ".type call_preserving, %function\n"
        "call_preserving:\n"
        "  stp x29, x30, [sp, #-96]!\n  mov x29, sp\n"
        "  stp x19, x20, [sp, #16]\n  stp x21, x22, [sp, #32]\n  stp x23, x24, [sp, #48]\n"
        "  stp x25, x26, [sp, #64]\n  stp x27, x28, [sp, #80]\n"
        "  mov x19, #1019\n  mov x20, #1020\n  mov x21, #1021\n  mov x22, #1022\n  mov x23, #1023\n"
        "  mov x24, #1024\n  mov x25, #1025\n  mov x26, #1026\n  mov x27, #1027\n  mov x28, #1028\n"
        "  mov x9, x0\n  mov x0, x1\n  blr x9\n"
        "  mov w9, #0\n"
        "  cmp x19, #1019\n  b.ne 1f\n  cmp x20, #1020\n  b.ne 1f\n  cmp x21, #1021\n  b.ne 1f\n"
        "  cmp x22, #1022\n  b.ne 1f\n  cmp x23, #1023\n  b.ne 1f\n  cmp x24, #1024\n  b.ne 1f\n"
        "  cmp x25, #1025\n  b.ne 1f\n  cmp x26, #1026\n  b.ne 1f\n  cmp x27, #1027\n  b.ne 1f\n"
        "  cmp x28, #1028\n  b.ne 1f\n  mov w9, #1\n"
        "1:\n  adrp x10, preserved_ok\n  str w9, [x10, :lo12:preserved_ok]\n"
        "  ldp x19, x20, [sp, #16]\n  ldp x21, x22, [sp, #32]\n  ldp x23, x24, [sp, #48]\n"
        "  ldp x25, x26, [sp, #64]\n  ldp x27, x28, [sp, #80]\n"
        "  ldp x29, x30, [sp], #96\n  ret\n");
#endif
int64_t call_preserving(int64_t (*fn)(int64_t), int64_t arg);

static int64_t smash_expect(int64_t x) {
    int64_t v10 = x * 3, v11 = x + 3, v12 = x - 3, v13 = x << 2, v14 = x ^ 3;
    int64_t v15 = v10 + v11, v16 = v11 * v12, v17 = v13 + v14, v18 = v16 - v10, v19 = x | v17;
    int64_t v20 = v18 + 3, v21 = v19 * 3;
    return (v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21) * 7;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "trap")) {
        pp_trap(1);
        printf("FAIL: pp_trap returned\n");
        return 1;
    }
    static const int64_t vals[] = {0, 1, -1, 5, -7, 1000003, INT64_MAX, INT64_MIN, 0x123456789ll};
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++)
        for (unsigned j = 0; j < sizeof vals / sizeof vals[0]; j++) {
            int64_t a = vals[i], b = vals[j];
            CHECK_EQ(
                "%" PRId64, pp_add(a, b),
                (int64_t)((uint64_t)c_add(a, b) + (uint64_t)a * (uint64_t)b + ((uint64_t)a - (uint64_t)b)));
            CHECK_EQ("%" PRId64, pp_swap(a, b), (int64_t)((uint64_t)c_add(b, a) + ((uint64_t)a << 1)));
            CHECK_EQ("%" PRId64, pp_sum7(a, b, a ^ b, 3, -4, b),
                     (int64_t)((uint64_t)c_sum7(a, b, a ^ b, 3, -4, b, a + b) + (uint64_t)(a + b)));
        }
    CHECK_EQ("%g", pp_fadd(1.5, 0.25), (1.5 - 0.25) + 1.5 * 0.25);
    CHECK_EQ("%g", pp_fadd(-3.0, 8.0), (-3.0 - 8.0) + -3.0 * 8.0);
    CHECK_EQ("%d", pp_mul32(7), 7 * 7 + 7);
    CHECK_EQ("%d", pp_mul32(-46341), (int32_t)((uint32_t)-46341 * (uint32_t)-46341 - 46341u));
    for (int64_t x = -3; x < 40; x += 5) {
        CHECK_EQ("%" PRId64, pp_smash(x), smash_expect(x));
        preserved_ok = 0;
        CHECK_EQ("%" PRId64, call_preserving(pp_smash, x), smash_expect(x));
        CHECK_EQ("%d", preserved_ok, 1);
        CHECK_EQ("%" PRId64, pp_nop(x), x + 1);
    }
#if defined(__aarch64__)
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++)
        for (unsigned j = 0; j < sizeof vals / sizeof vals[0]; j++) {
            int64_t a = vals[i], b = vals[j], c = vals[(i + j) % (sizeof vals / sizeof vals[0])];
            int64_t s = (int64_t)((uint64_t)a + (uint64_t)b), d = (int64_t)((uint64_t)a - (uint64_t)c);
            CHECK_EQ("%" PRId64, pp_sum10(a, b, c),
                     (int64_t)((uint64_t)c_sum10(a, b, c, a, b, c, a, s, d, c) + (uint64_t)d));
        }
#endif
    CHECK_EQ("%" PRId64, pp_loop(1), (int64_t)0);
    CHECK_EQ("%" PRId64, pp_loop(10), (int64_t)285);
    CHECK_EQ("%" PRId64, pp_loop(100), (int64_t)328350);
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
