/* Driver for ../exec-wasm-bounds.b3. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int32_t (*Fn)(int64_t);
int32_t wb_max100(int64_t), wb_off8_max100(int64_t), wb_big(int64_t), wb_max0(int64_t), wb_two(int64_t);
int32_t wb_pinned(int64_t), wb_trap(int64_t);

static int fails, ncalls;
int32_t oob(void) { return ncalls++, -12345; }

/* call_r15(fn, arg, size): fn(arg) with %r15 = size (restored after); on
 * arm64 (../exec-wasm-bounds-arm64.b3) the pinned register is x28. */
#if defined(__x86_64__)
__asm__(".text\n.globl call_r15\n.type call_r15, @function\ncall_r15:\n"
        "  pushq %r15\n  movq %rdx, %r15\n  movq %rdi, %rax\n  movq %rsi, %rdi\n  call *%rax\n"
        "  popq %r15\n  ret\n");
#elif defined(__aarch64__)
__asm__(".text\n.globl call_r15\n.type call_r15, %function\ncall_r15:\n"
        "  stp x29, x30, [sp, #-32]!\n  mov x29, sp\n  str x28, [sp, #16]\n  mov x28, x2\n"
        "  mov x9, x0\n  mov x0, x1\n  blr x9\n  ldr x28, [sp, #16]\n  ldp x29, x30, [sp], #32\n  ret\n");
#endif
int32_t call_r15(Fn fn, int64_t arg, uint64_t size);

static void check(const char *name, int32_t i, uint64_t offset, uint64_t bound, int32_t got) {
    int in = (uint64_t)(uint32_t)i + offset < bound;
    int32_t want = in ? i : -12345;
    if (got != want || ncalls != !in) {
        printf("FAIL %s(%d) [offset %" PRIu64 ", bound %#" PRIx64 "]: %d, want %d (%d handler calls)\n", name,
               i, offset, bound, got, want, ncalls);
        fails++;
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "trap")) {
        call_r15(wb_trap, 10, 10); /* out of bounds: traps */
        printf("FAIL: no trap\n");
        return 1;
    }
    static const int32_t is[] = {0,   1,   2,    7,          8,  91, 92, 95,        96,         99,
                                 100, 101, 1000, 0x7fffffff, -1, -2, -8, INT32_MIN, 0x7ffffffc, 0x7ffffffd};
    for (unsigned k = 0; k < sizeof is / sizeof is[0]; k++) {
        int32_t i = is[k];
        ncalls = 0, check("wb_max100", i, 0, 100, wb_max100(i));
        ncalls = 0, check("wb_off8_max100", i, 8, 100, wb_off8_max100(i));
        ncalls = 0, check("wb_big", i, 0xffffffffull, 0x100000064ull, wb_big(i));
        ncalls = 0, check("wb_max0", i, 0, 0, wb_max0(i));
        ncalls = 0, check("wb_two", i, 3, 0x80000000ull, wb_two(i));
        static const uint64_t sizes[] = {
            0, 1, 4, 5, 100, 105, 0x80000003ull, 0xffffffffull, 0x100000003ull, 0x100000004ull, UINT64_MAX};
        for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            ncalls = 0;
            check("wb_pinned", i, 4, sizes[s], call_r15(wb_pinned, i, sizes[s]));
        }
    }
    if (!fails)
        printf("OK\n");
    return fails != 0;
}
