/* A tiny stackmap runtime for the tests: reads the machine state at a
 * patchpoint (a call to sm_capture, which saves every register) or at a trap
 * (SIGILL from x86-64's ud2, SIGTRAP from arm64's brk #0, from the signal's
 * ucontext) and checks a record (from the header
 * smreader.py generates: SM_NRECORDS, sm_records) against the values the
 * test expects: the record's offset must be the state's pc minus the
 * function's address, and each location must read back the expected bits.
 * Include after that header; compile with -D_GNU_SOURCE. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

#if defined(__x86_64__)
typedef struct {
    uint64_t gpr[17];    /* by DWARF number: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 */
    uint64_t xmm[16][2]; /* DWARF 17..32 */
    uint64_t pc;         /* the return address (a call) or the faulting instruction (a trap) */
} SMState;

SMState sm_state;
static int sm_fails;

/* sm_capture: the generator of the patchpoints under test.  It saves the
 * registers as they were at the call (rsp before the call pushed its return
 * address), calls sm_on_capture() and returns what that returns. */
int64_t sm_on_capture(void);
__asm__(".text\n"
        ".globl sm_capture\n"
        ".type sm_capture, @function\n"
        "sm_capture:\n"
        "  movq %rax, sm_state+0(%rip)\n  movq %rdx, sm_state+8(%rip)\n  movq %rcx, sm_state+16(%rip)\n"
        "  movq %rbx, sm_state+24(%rip)\n  movq %rsi, sm_state+32(%rip)\n  movq %rdi, sm_state+40(%rip)\n"
        "  movq %rbp, sm_state+48(%rip)\n  leaq 8(%rsp), %rax\n  movq %rax, sm_state+56(%rip)\n"
        "  movq %r8, sm_state+64(%rip)\n  movq %r9, sm_state+72(%rip)\n  movq %r10, sm_state+80(%rip)\n"
        "  movq %r11, sm_state+88(%rip)\n  movq %r12, sm_state+96(%rip)\n  movq %r13, sm_state+104(%rip)\n"
        "  movq %r14, sm_state+112(%rip)\n  movq %r15, sm_state+120(%rip)\n"
        "  movdqu %xmm0, sm_state+136(%rip)\n  movdqu %xmm1, sm_state+152(%rip)\n"
        "  movdqu %xmm2, sm_state+168(%rip)\n  movdqu %xmm3, sm_state+184(%rip)\n"
        "  movdqu %xmm4, sm_state+200(%rip)\n  movdqu %xmm5, sm_state+216(%rip)\n"
        "  movdqu %xmm6, sm_state+232(%rip)\n  movdqu %xmm7, sm_state+248(%rip)\n"
        "  movdqu %xmm8, sm_state+264(%rip)\n  movdqu %xmm9, sm_state+280(%rip)\n"
        "  movdqu %xmm10, sm_state+296(%rip)\n  movdqu %xmm11, sm_state+312(%rip)\n"
        "  movdqu %xmm12, sm_state+328(%rip)\n  movdqu %xmm13, sm_state+344(%rip)\n"
        "  movdqu %xmm14, sm_state+360(%rip)\n  movdqu %xmm15, sm_state+376(%rip)\n"
        "  movq (%rsp), %rax\n  movq %rax, sm_state+392(%rip)\n"
        "  subq $8, %rsp\n  call sm_on_capture\n  addq $8, %rsp\n  ret\n");
int64_t sm_capture(void);

_Static_assert(__builtin_offsetof(SMState, xmm) == 136, "layout used by sm_capture");
_Static_assert(__builtin_offsetof(SMState, pc) == 392, "layout used by sm_capture");

#elif defined(__aarch64__)
typedef struct {
    uint64_t gpr[32];    /* by DWARF number: x0..x30, sp */
    uint64_t fpr[32][2]; /* v0..v31, DWARF 64..95 */
    uint64_t pc;         /* the return address (a call) or the trapping brk (a trap) */
} SMState;

SMState sm_state;
static int sm_fails;

/* sm_capture: as on x86-64; sp needs no adjustment (bl pushes nothing) and
 * the return address is x30.  x16, the base register here, is never
 * allocated, so no record names it. */
int64_t sm_on_capture(void);
__asm__(".text\n"
        ".globl sm_capture\n"
        ".type sm_capture, %function\n"
        "sm_capture:\n"
        "  adrp x16, sm_state\n  add x16, x16, :lo12:sm_state\n"
        "  stp x0, x1, [x16, #0]\n  stp x2, x3, [x16, #16]\n  stp x4, x5, [x16, #32]\n"
        "  stp x6, x7, [x16, #48]\n  stp x8, x9, [x16, #64]\n  stp x10, x11, [x16, #80]\n"
        "  stp x12, x13, [x16, #96]\n  stp x14, x15, [x16, #112]\n  stp x16, x17, [x16, #128]\n"
        "  stp x18, x19, [x16, #144]\n  stp x20, x21, [x16, #160]\n  stp x22, x23, [x16, #176]\n"
        "  stp x24, x25, [x16, #192]\n  stp x26, x27, [x16, #208]\n  stp x28, x29, [x16, #224]\n"
        "  mov x17, sp\n  stp x30, x17, [x16, #240]\n"
        "  stp q0, q1, [x16, #256]\n  stp q2, q3, [x16, #288]\n  stp q4, q5, [x16, #320]\n"
        "  stp q6, q7, [x16, #352]\n  stp q8, q9, [x16, #384]\n  stp q10, q11, [x16, #416]\n"
        "  stp q12, q13, [x16, #448]\n  stp q14, q15, [x16, #480]\n  stp q16, q17, [x16, #512]\n"
        "  stp q18, q19, [x16, #544]\n  stp q20, q21, [x16, #576]\n  stp q22, q23, [x16, #608]\n"
        "  stp q24, q25, [x16, #640]\n  stp q26, q27, [x16, #672]\n  stp q28, q29, [x16, #704]\n"
        "  stp q30, q31, [x16, #736]\n  str x30, [x16, #768]\n"
        "  stp x29, x30, [sp, #-16]!\n  mov x29, sp\n  bl sm_on_capture\n"
        "  ldp x29, x30, [sp], #16\n  ret\n");
int64_t sm_capture(void);

_Static_assert(__builtin_offsetof(SMState, fpr) == 256, "layout used by sm_capture");
_Static_assert(__builtin_offsetof(SMState, pc) == 768, "layout used by sm_capture");

#endif

/* The bits a location holds in state s (size bytes, zero-extended). */
static uint64_t sm_read(const SMLoc *l, const SMState *s) {
    uint64_t v = 0;
    switch (l->kind) {
    case 1: /* Register */
#if defined(__x86_64__)
        if (l->reg <= 16)
            v = s->gpr[l->reg];
        else if (l->reg >= 17 && l->reg <= 32)
            v = s->xmm[l->reg - 17][0];
#else
        if (l->reg <= 31)
            v = s->gpr[l->reg];
        else if (l->reg >= 64 && l->reg <= 95)
            v = s->fpr[l->reg - 64][0];
#endif
        else
            printf("FAIL: register R#%d\n", l->reg), sm_fails++;
        break;
    case 2: /* Direct */
        v = s->gpr[l->reg] + (uint64_t)l->value;
        break;
    case 3: /* Indirect */
        memcpy(&v, (const char *)(uintptr_t)(s->gpr[l->reg] + (uint64_t)l->value), (size_t)l->size);
        break;
    case 4: /* Constant (pooled or not) */
        v = (uint64_t)l->value;
        break;
    default:
        printf("FAIL: location kind %d\n", l->kind), sm_fails++;
    }
    return l->size >= 8 ? v : v & ((1ull << (8 * l->size)) - 1);
}

/* Checks the record with this id whose offset matches the state's pc. */
static void sm_verify(uint64_t id, const SMState *s, const uint64_t *expect, int n, const char *what) {
    const SMRecord *r = NULL;
    for (int i = 0; i < SM_NRECORDS; i++)
        if (sm_records[i].id == id && (uintptr_t)sm_records[i].addr + sm_records[i].offset == s->pc)
            r = &sm_records[i];
    if (!r) {
        printf("FAIL %s: no record with id %llu at pc %#llx\n", what, (unsigned long long)id,
               (unsigned long long)s->pc);
        for (int i = 0; i < SM_NRECORDS; i++)
            if (sm_records[i].id == id)
                printf("  (record %llu is at %s+%u = %p)\n", (unsigned long long)id, sm_records[i].fn,
                       sm_records[i].offset, (void *)((uintptr_t)sm_records[i].addr + sm_records[i].offset));
        sm_fails++;
        return;
    }
    if (r->nlocs != n) {
        printf("FAIL %s: %d locations, expected %d\n", what, r->nlocs, n);
        sm_fails++;
        return;
    }
    for (int i = 0; i < n; i++) {
        const SMLoc *l = &r->locs[i];
        uint64_t want = l->size >= 8 ? expect[i] : expect[i] & ((1ull << (8 * l->size)) - 1);
        uint64_t got = sm_read(l, s);
        if (got != want) {
            printf("FAIL %s: location %d (kind %d size %d R#%d %+lld) reads %#llx, expected %#llx\n", what, i,
                   l->kind, l->size, l->reg, (long long)l->value, (unsigned long long)got,
                   (unsigned long long)want);
            sm_fails++;
        }
    }
}

/* ---- traps ---- */

static sigjmp_buf sm_trap_jmp;
static volatile int sm_trapped;
/* What the trap's record must say; checked in the handler, while the frame
 * that trapped is still there (the handler runs below it on the stack). */
static uint64_t sm_trap_id;
static const uint64_t *sm_trap_expect;
static int sm_trap_n;
static const char *sm_trap_what;

static void sm_on_sigill(int sig, siginfo_t *info, void *vctx) {
    (void)sig;
    (void)info;
    const ucontext_t *uc = vctx;
    memset(&sm_state, 0, sizeof sm_state);
#if defined(__x86_64__)
    const greg_t *g = uc->uc_mcontext.gregs;
    static const int order[17] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                                  REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                  REG_R12, REG_R13, REG_R14, REG_R15, -1};
    for (int i = 0; i < 16; i++)
        sm_state.gpr[i] = (uint64_t)g[order[i]];
    for (int i = 0; i < 16; i++)
        memcpy(sm_state.xmm[i], uc->uc_mcontext.fpregs->_xmm[i].element, 16);
    sm_state.pc = (uint64_t)g[REG_RIP];
#else
    for (int i = 0; i < 31; i++)
        sm_state.gpr[i] = uc->uc_mcontext.regs[i];
    sm_state.gpr[31] = uc->uc_mcontext.sp;
    sm_state.pc = uc->uc_mcontext.pc;
    /* The vector registers: the FPSIMD record among the context records
     * (magic, size, fpsr, fpcr, then v0..v31). */
    const unsigned char *r = uc->uc_mcontext.__reserved;
    for (unsigned off = 0; off + 8 <= sizeof uc->uc_mcontext.__reserved;) {
        uint32_t magic, size;
        memcpy(&magic, r + off, 4);
        memcpy(&size, r + off + 4, 4);
        if (!magic || size < 8)
            break;
        if (magic == 0x46508001u) {
            memcpy(sm_state.fpr, r + off + 16, sizeof sm_state.fpr);
            break;
        }
        off += size;
    }
#endif
    sm_verify(sm_trap_id, &sm_state, sm_trap_expect, sm_trap_n, sm_trap_what);
    sm_trapped = 1;
    siglongjmp(sm_trap_jmp, 1);
}

static void sm_install_sigill(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sm_on_sigill;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGTRAP, &sa, NULL); /* arm64's brk #0 */
}

/* Runs call() expecting a trap whose record (id) holds the n expected
 * values; returns 1 if it trapped (the record was then checked). */
#define SM_EXPECT_TRAP(call, id, expect, n, what)                                                          \
    (sm_trap_id = (id), sm_trap_expect = (expect), sm_trap_n = (n), sm_trap_what = (what), sm_trapped = 0, \
     sigsetjmp(sm_trap_jmp, 1) == 0 ? ((void)(call), 0) : sm_trapped)
