/* Driver for ../pinned.b3: assembly trampolines load the pinned registers,
 * call the B3 procedure, and store what the registers hold afterwards. */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

int64_t wasm_load(int64_t);
int64_t wasm_addr(int64_t);
int64_t wasm_store_rbx(int64_t, int64_t);
int64_t two_pins(int64_t);
int64_t pe_0(int64_t);
int64_t pe_1(int64_t);
int64_t press_pinned(int64_t);

/* int64_t call_pinned(fn, r15, r12, a0, a1, int64_t out[3]):
 * %r15 = r15, %r12 = r12, %rbx = r15 ^ 0x5a5a; returns fn(a0, a1);
 * out[0] = %r15 afterwards, out[1] = %r12 afterwards, out[2] = %rbx afterwards.
 * On arm64 (../pinned-arm64.b3) the registers are x28, x27 and x19. */
int64_t call_pinned(void *fn, int64_t r15, int64_t r12, int64_t a0, int64_t a1, int64_t *out);
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl call_pinned\n"
        ".type call_pinned, @function\n"
        "call_pinned:\n"
        "    pushq %r15\n"
        "    pushq %r12\n"
        "    pushq %rbx\n"
        "    pushq %r13\n"
        "    pushq %r9\n" /* out; keeps %rsp 16-byte aligned at the call */
        "    movq %rdi, %rax\n"
        "    movq %rsi, %r15\n"
        "    movq %rdx, %r12\n"
        "    movq %rsi, %rbx\n"
        "    xorq $0x5a5a, %rbx\n"
        "    movq %rcx, %rdi\n"
        "    movq %r8, %rsi\n"
        "    callq *%rax\n"
        "    popq %r9\n"
        "    movq %r15, 0(%r9)\n"
        "    movq %r12, 8(%r9)\n"
        "    movq %rbx, 16(%r9)\n"
        "    popq %r13\n"
        "    popq %rbx\n"
        "    popq %r12\n"
        "    popq %r15\n"
        "    ret\n"
        ".size call_pinned, .-call_pinned\n");
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl call_pinned\n"
        ".type call_pinned, %function\n"
        "call_pinned:\n"
        "    stp x29, x30, [sp, #-48]!\n"
        "    mov x29, sp\n"
        "    stp x19, x27, [sp, #16]\n"
        "    stp x28, x5, [sp, #32]\n" /* x5 = out */
        "    mov x9, x0\n"
        "    mov x28, x1\n"
        "    mov x27, x2\n"
        "    mov x10, #0x5a5a\n"
        "    eor x19, x1, x10\n"
        "    mov x0, x3\n"
        "    mov x1, x4\n"
        "    blr x9\n"
        "    ldr x5, [sp, #40]\n"
        "    str x28, [x5]\n"
        "    str x27, [x5, #8]\n"
        "    str x19, [x5, #16]\n"
        "    ldp x19, x27, [sp, #16]\n"
        "    ldr x28, [sp, #32]\n"
        "    ldp x29, x30, [sp], #48\n"
        "    ret\n"
        ".size call_pinned, .-call_pinned\n");
#endif

static int fails;
#define CHECK_EQ(got, want)                                                                        \
    do {                                                                                           \
        int64_t g_ = (got), w_ = (want);                                                           \
        if (g_ != w_) {                                                                            \
            printf("FAIL line %d: %s = %" PRId64 ", want %" PRId64 "\n", __LINE__, #got, g_, w_); \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* Called by press_pinned while twenty values are live. */
int64_t pinned_clobber(int64_t k) {
    volatile int64_t x = k;
    return x * 3 - 1;
}

static int64_t mem[64];
static int64_t mem2[64];

/* Calls fn with the pinned registers set and checks they survived. */
static int64_t call(void *fn, void *r15, void *r12, int64_t a0, int64_t a1, int line) {
    int64_t out[3];
    int64_t r = call_pinned(fn, (int64_t)(intptr_t)r15, (int64_t)(intptr_t)r12, a0, a1, out);
    if (out[0] != (int64_t)(intptr_t)r15 || out[1] != (int64_t)(intptr_t)r12 ||
        out[2] != ((int64_t)(intptr_t)r15 ^ 0x5a5a)) {
        printf("FAIL line %d: a callee-saved register was not preserved\n", line);
        fails++;
    }
    return r;
}
#define CALL(fn, r15, r12, a0, a1) call((void *)(fn), (r15), (r12), (a0), (a1), __LINE__)

int main(void) {
    for (int i = 0; i < 64; i++) {
        mem[i] = (int64_t)(i * 1000003) ^ ((int64_t)i << 40);
        mem2[i] = 17 - 5 * i;
    }

    /* wasm_load: 32-bit load at r15 + off + 4. */
    for (int64_t off = 0; off < 64; off += 4) {
        int32_t want;
        memcpy(&want, (char *)mem + off + 4, 4);
        CHECK_EQ(CALL(wasm_load, mem, 0, off, 0), want);
    }
    CHECK_EQ(CALL(wasm_addr, mem, 0, 24, 0), (int64_t)(intptr_t)((char *)mem + 24));
    CHECK_EQ(CALL(wasm_addr, (void *)(intptr_t)1000, 0, -1, 0), 999);

    /* %rbx is pinned here: call_pinned sets it to r15 ^ 0x5a5a. */
    {
        int64_t base = (int64_t)(intptr_t)mem2 ^ 0x5a5a;
        int64_t got = CALL(wasm_store_rbx, (void *)(intptr_t)base, 0, 16, 4242);
        CHECK_EQ(got, (int64_t)(intptr_t)mem2);
        CHECK_EQ(mem2[3], 4242); /* mem2 + 16 + 8 */
        mem2[3] = 17 - 15;
    }

    for (int64_t n = 0; n < 40; n++) {
        int64_t want = 0;
        for (int64_t i = 0; i < n; i++)
            want += mem2[i] * mem[i];
        CHECK_EQ(CALL(two_pins, mem, mem2, n, 0), want);
    }

    for (int64_t off = 0; off < 128; off += 8) {
        CHECK_EQ(CALL(pe_0, mem, 0, off, 0), mem[off / 8] + 1);
        CHECK_EQ(CALL(pe_1, mem, 0, off, 0), mem[off / 8 + 1] * 2);
    }

    for (int64_t k = -2; k < 3; k++) {
        int64_t want = 0;
        for (int i = 0; i < 20; i++)
            want += (i + 1) * mem[i];
        want += mem[20] * (k * 3 - 1);
        CHECK_EQ(CALL(press_pinned, mem, 0, k, 0), want);
    }

    printf("%s\n", fails ? "FAILED" : "OK");
    return fails != 0;
}
