#include "ir/target.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *spelling;
    B3Target t;
    const char *canonical;
} triples[] = {
    {"x86_64-linux-gnu", {B3Arch_X86_64, B3OS_Linux}, "x86_64-linux-gnu"},
    {"x86_64-pc-linux-gnu", {B3Arch_X86_64, B3OS_Linux}, NULL},
    {"x86_64-unknown-linux-gnu", {B3Arch_X86_64, B3OS_Linux}, NULL},
    {"x86_64-linux", {B3Arch_X86_64, B3OS_Linux}, NULL},
    {"aarch64-linux-gnu", {B3Arch_ARM64, B3OS_Linux}, "aarch64-linux-gnu"},
    {"aarch64-unknown-linux-gnu", {B3Arch_ARM64, B3OS_Linux}, NULL},
    {"arm64-linux-gnu", {B3Arch_ARM64, B3OS_Linux}, NULL},
    {"aarch64-linux", {B3Arch_ARM64, B3OS_Linux}, NULL},
    {"x86_64-apple-macos", {B3Arch_X86_64, B3OS_MacOS}, "x86_64-apple-macos"},
    {"x86_64-apple-darwin", {B3Arch_X86_64, B3OS_MacOS}, NULL},
    {"x86_64-apple-macosx", {B3Arch_X86_64, B3OS_MacOS}, NULL},
    {"arm64-apple-macos", {B3Arch_ARM64, B3OS_MacOS}, "arm64-apple-macos"},
    {"arm64-apple-darwin", {B3Arch_ARM64, B3OS_MacOS}, NULL},
    {"aarch64-apple-darwin", {B3Arch_ARM64, B3OS_MacOS}, NULL},
    {"aarch64-apple-macos", {B3Arch_ARM64, B3OS_MacOS}, NULL},
    {"arm64-apple-macosx", {B3Arch_ARM64, B3OS_MacOS}, NULL},
};

bool b3_target_parse(const char *triple, B3Target *out) {
    for (size_t i = 0; i < sizeof triples / sizeof triples[0]; i++) {
        size_t n = strlen(triples[i].spelling);
        /* Apple triples may carry a version: arm64-apple-macos14.0 */
        if (!strcmp(triple, triples[i].spelling) ||
            (triples[i].t.os == B3OS_MacOS && !strncmp(triple, triples[i].spelling, n) &&
             strspn(triple + n, "0123456789.") == strlen(triple + n))) {
            *out = triples[i].t;
            return true;
        }
    }
    return false;
}

B3Target b3_target_host(void) {
#if defined(__aarch64__)
#if defined(__APPLE__)
    return (B3Target){B3Arch_ARM64, B3OS_MacOS};
#else
    return (B3Target){B3Arch_ARM64, B3OS_Linux};
#endif
#elif defined(__APPLE__)
    return (B3Target){B3Arch_X86_64, B3OS_MacOS};
#else
    return (B3Target){B3Arch_X86_64, B3OS_Linux};
#endif
}

const char *b3_target_name(B3Target t) {
    for (size_t i = 0; i < sizeof triples / sizeof triples[0]; i++)
        if (triples[i].canonical && triples[i].t.arch == t.arch && triples[i].t.os == t.os)
            return triples[i].canonical;
    return "unknown";
}

static const char *const x86_gpr[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                        "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static const char *const x86_fpr[16] = {"xmm0", "xmm1", "xmm2",  "xmm3",  "xmm4",  "xmm5",  "xmm6",  "xmm7",
                                        "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"};
static const char *const a64_gpr[32] = {
    "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
    "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
    "x22", "x23", "x24", "x25", "x26", "x27", "x28", "fp",  "lr",  "sp"};
static const char *const a64_fpr[32] = {
    "q0",  "q1",  "q2",  "q3",  "q4",  "q5",  "q6",  "q7",  "q8",  "q9",  "q10",
    "q11", "q12", "q13", "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21",
    "q22", "q23", "q24", "q25", "q26", "q27", "q28", "q29", "q30", "q31"};

static const B3Reg x86_arg_gpr[6] = {B3X_rdi, B3X_rsi, B3X_rdx, B3X_rcx, B3X_r8, B3X_r9};

unsigned b3_target_num_arg_gprs(B3Target t) { return t.arch == B3Arch_X86_64 ? 6 : 8; }
unsigned b3_target_num_arg_fprs(B3Target t) { (void)t; return 8; }
B3Reg b3_target_arg_gpr(B3Target t, unsigned i) {
    return t.arch == B3Arch_X86_64 ? x86_arg_gpr[i] : (B3Reg)(B3A_x0 + i);
}
B3Reg b3_target_arg_fpr(B3Target t, unsigned i) { (void)t; return (B3Reg)(B3_FPR_BASE + i); }
B3Reg b3_target_return_gpr(B3Target t) { (void)t; return 0; /* rax / x0 */ }
B3Reg b3_target_return_fpr(B3Target t) { (void)t; return B3_FPR_BASE; /* xmm0 / q0 */ }

bool b3_target_is_callee_saved(B3Target t, B3Reg r) {
    if (t.arch == B3Arch_X86_64)
        return r == B3X_rbx || r == B3X_rbp || (r >= B3X_r12 && r <= B3X_r15);
    return (r >= 19 && r <= 29) || (r >= B3_FPR_BASE + 8 && r <= B3_FPR_BASE + 15);
}

bool b3_reg_valid(B3Target t, B3Reg r) {
    if (t.arch == B3Arch_X86_64)
        return r < 16 || (r >= B3_FPR_BASE && r < B3_FPR_BASE + 16);
    return r < 64;
}

const char *b3_reg_name(B3Target t, B3Reg r) {
    if (!b3_reg_valid(t, r))
        return "?";
    if (t.arch == B3Arch_X86_64)
        return r < 16 ? x86_gpr[r] : x86_fpr[r - B3_FPR_BASE];
    return r < 32 ? a64_gpr[r] : a64_fpr[r - B3_FPR_BASE];
}

static bool eq(const char *a, size_t n, const char *b) { return strlen(b) == n && !memcmp(a, b, n); }

/* "prefixN" with N in [0, limit): returns N or -1. */
static int numbered(const char *s, size_t n, const char *prefix, int limit) {
    size_t p = strlen(prefix);
    if (n <= p || n > p + 2 || memcmp(s, prefix, p))
        return -1;
    int v = 0;
    for (size_t i = p; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    if (n == p + 2 && s[p] == '0')
        return -1;
    return v < limit ? v : -1;
}

static B3Reg parse_on(B3Target t, const char *s, size_t n) {
    int k;
    if ((k = numbered(s, n, "argumentGPR", (int)b3_target_num_arg_gprs(t))) >= 0)
        return b3_target_arg_gpr(t, (unsigned)k);
    if ((k = numbered(s, n, "argumentFPR", 8)) >= 0)
        return b3_target_arg_fpr(t, (unsigned)k);
    if (eq(s, n, "returnValueGPR"))
        return b3_target_return_gpr(t);
    if (eq(s, n, "returnValueFPR"))
        return b3_target_return_fpr(t);
    if (t.arch == B3Arch_X86_64) {
        for (int i = 0; i < 16; i++) {
            if (eq(s, n, x86_gpr[i]))
                return (B3Reg)i;
            if (eq(s, n, x86_fpr[i]))
                return (B3Reg)(B3_FPR_BASE + i);
        }
        return B3_NO_REG;
    }
    for (int i = 0; i < 32; i++) {
        if (eq(s, n, a64_gpr[i]))
            return (B3Reg)i;
        if (eq(s, n, a64_fpr[i]))
            return (B3Reg)(B3_FPR_BASE + i);
    }
    if ((k = numbered(s, n, "d", 32)) >= 0)
        return (B3Reg)(B3_FPR_BASE + k);
    if ((k = numbered(s, n, "x", 31)) >= 0) /* x29, x30 */
        return (B3Reg)k;
    return B3_NO_REG;
}

B3Reg b3_reg_parse(B3Target t, const char *name, size_t len, bool *elsewhere) {
    B3Reg r = parse_on(t, name, len);
    if (elsewhere) {
        *elsewhere = false;
        if (r == B3_NO_REG) {
            B3Target other = t;
            other.arch = t.arch == B3Arch_X86_64 ? B3Arch_ARM64 : B3Arch_X86_64;
            *elsewhere = parse_on(other, name, len) != B3_NO_REG;
        }
    }
    return r;
}

/* x86-64: [base + index*scale + disp32] for every access, atomics included.
 * arm64: ldur/stur's signed 9-bit offset, ldr/str's unsigned 12-bit offset
 * scaled by the access size; atomics take no offset. */
static const B3TargetInfo target_info[] = {
    [B3Arch_X86_64] = {INT32_MIN, INT32_MAX, 0, INT32_MIN, INT32_MAX, false},
    [B3Arch_ARM64] = {-256, 255, 4095, 0, 0, true},
};

const B3TargetInfo *b3_target_info(B3Target t) { return &target_info[t.arch]; }

bool b3_target_offset_ok(B3Target t, unsigned bytes, bool atomic, int64_t off) {
    const B3TargetInfo *ti = b3_target_info(t);
    if (atomic)
        return off >= ti->atomic_min && off <= ti->atomic_max;
    if (off >= ti->unscaled_min && off <= ti->unscaled_max)
        return true;
    return bytes && off >= 0 && off % bytes == 0 && (uint64_t)(off / bytes) <= ti->scaled_max;
}
