#include "ir/target.h"

#include "ir/ir.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The descriptions (codegen/<arch>/target_desc.c).  arm64 has two: the
 * AAPCS64 of Linux and Apple's variant of it (docs/design.md, "Apple arm64
 * ABI"); x86-64 is SysV on both systems. */
extern const B3TargetDesc b3_x86_64_target_desc, b3_arm64_target_desc, b3_arm64_apple_target_desc;

static const char *const x86_64_linux[] = {"x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu", "x86_64-linux",
                                           NULL};
static const char *const arm64_linux[] = {"aarch64-unknown-linux-gnu", "arm64-linux-gnu", "aarch64-linux",
                                          NULL};
static const char *const x86_64_macos[] = {"x86_64-apple-darwin", "x86_64-apple-macosx", NULL};
static const char *const arm64_macos[] = {"arm64-apple-darwin", "aarch64-apple-darwin", "aarch64-apple-macos",
                                          "arm64-apple-macosx", NULL};

const B3TargetRow b3_targets[B3_NUM_TARGETS] = {
    [B3TargetId_X86_64_Linux] = {"x86_64-linux-gnu", x86_64_linux, B3Arch_X86_64, B3OS_Linux,
                                 &b3_x86_64_target_desc},
    [B3TargetId_ARM64_Linux] = {"aarch64-linux-gnu", arm64_linux, B3Arch_ARM64, B3OS_Linux,
                                &b3_arm64_target_desc},
    [B3TargetId_X86_64_MacOS] = {"x86_64-apple-macos", x86_64_macos, B3Arch_X86_64, B3OS_MacOS,
                                 &b3_x86_64_target_desc},
    [B3TargetId_ARM64_MacOS] = {"arm64-apple-macos", arm64_macos, B3Arch_ARM64, B3OS_MacOS,
                                &b3_arm64_apple_target_desc},
};

/* "", "13", "13.1" or "13.1.2" (the patch level is ignored): the minimum
 * macOS version; "" is 11.0, as clang's default for arm64. */
static bool parse_os_version(const char *s, B3Target *t) {
    unsigned v[3] = {11, 0, 0}, n = 0;
    if (!*s)
        goto done;
    for (;;) {
        if (*s < '0' || *s > '9' || n == 3)
            return false;
        unsigned x = 0;
        while (*s >= '0' && *s <= '9') {
            x = x * 10 + (unsigned)(*s++ - '0');
            if (x > 255)
                return false;
        }
        v[n++] = x;
        if (!*s)
            break;
        if (*s++ != '.')
            return false;
    }
    if (n == 1)
        v[1] = 0;
done:
    t->os_major = (uint8_t)v[0];
    t->os_minor = (uint8_t)v[1];
    return true;
}

/* Does triple spell row r's target as s (an Apple one with a version after
 * it)?  Then *out is that target. */
static bool parse_spelling(const char *triple, const B3TargetRow *r, const char *s, B3Target *out) {
    size_t n = strlen(s);
    if (strcmp(triple, s) && (r->os != B3OS_MacOS || strncmp(triple, s, n) ||
                              strspn(triple + n, "0123456789.") != strlen(triple + n)))
        return false;
    *out = (B3Target){r->arch, r->os, 0, 0};
    if (out->os == B3OS_MacOS && !parse_os_version(triple + n, out))
        return false;
    /* darwinN names the kernel: darwin20 is macOS 11, darwin19 10.15. */
    if (out->os == B3OS_MacOS && n >= 6 && !strcmp(s + n - 6, "darwin") && triple[n]) {
        unsigned k = out->os_major;
        out->os_major = (uint8_t)(k >= 20 ? k - 9 : 10);
        out->os_minor = (uint8_t)(k >= 20 ? 0 : k >= 4 ? k - 4 : 0);
    }
    return true;
}

bool b3_target_parse(const char *triple, B3Target *out) {
    for (unsigned i = 0; i < B3_NUM_TARGETS; i++) {
        const B3TargetRow *r = &b3_targets[i];
        if (parse_spelling(triple, r, r->triple, out))
            return true;
        for (const char *const *s = r->spellings; s && *s; s++)
            if (parse_spelling(triple, r, *s, out))
                return true;
    }
    return false;
}

B3Target b3_target_host(void) {
#if defined(__aarch64__)
#if defined(__APPLE__)
    return (B3Target){B3Arch_ARM64, B3OS_MacOS, 11, 0};
#else
    return (B3Target){B3Arch_ARM64, B3OS_Linux, 0, 0};
#endif
#elif defined(__APPLE__)
    return (B3Target){B3Arch_X86_64, B3OS_MacOS, 11, 0};
#else
    return (B3Target){B3Arch_X86_64, B3OS_Linux, 0, 0};
#endif
}

bool b3_target_nth(unsigned i, B3Target *out) {
    if (i >= B3_NUM_TARGETS)
        return false;
    *out = (B3Target){b3_targets[i].arch, b3_targets[i].os, 0, 0};
    if (out->os == B3OS_MacOS)
        parse_os_version("", out);
    return true;
}

const char *b3_target_name(B3Target t) { return b3_targets[b3_target_id(t)].triple; }

uint32_t b3_target_place_byval(uint32_t *area, uint32_t size, uint32_t align) {
    uint32_t a = align > 8 ? align : 8;
    uint32_t off = (*area + a - 1) & ~(a - 1);
    *area = off + ((size + 7) & ~7u);
    return off;
}

uint32_t b3_target_classify_in_order(const B3TargetDesc *d, uint32_t n, const uint8_t *types,
                                     const B3ByVal *byval, int32_t nfixed, B3Reg *where,
                                     uint32_t *stack_off) {
    (void)nfixed;
    unsigned ngpr = 0, nfpr = 0;
    uint32_t area = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (byval && byval[i].size) {
            where[i] = B3_NO_REG;
            stack_off[i] = b3_target_place_byval(&area, byval[i].size, byval[i].align);
            continue;
        }
        if (byval && byval[i].f128 == B3F128_Low && i + 1 < n) {
            /* A Float128 pair: one FP register for both halves, or 16
             * bytes of the area at a 16-byte aligned offset. */
            where[i] = where[i + 1] = nfpr < d->narg_fprs ? d->arg_fprs[nfpr++] : B3_NO_REG;
            stack_off[i] = stack_off[i + 1] = 0;
            if (where[i] == B3_NO_REG) {
                stack_off[i] = b3_target_place_byval(&area, 16, 16);
                stack_off[i + 1] = stack_off[i] + 8;
            }
            i++;
            continue;
        }
        if (b3_type_is_float((B3Type)types[i]))
            where[i] = nfpr < d->narg_fprs ? d->arg_fprs[nfpr++] : B3_NO_REG;
        else
            where[i] = ngpr < d->narg_gprs ? d->arg_gprs[ngpr++] : B3_NO_REG;
        stack_off[i] = where[i] == B3_NO_REG ? area : 0;
        if (where[i] == B3_NO_REG)
            area += 8;
    }
    return area;
}

bool b3_target_result_regs(const B3TargetDesc *d, uint32_t n, const uint8_t *types, B3Reg *regs) {
    unsigned ngpr = 0, nfpr = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool fp = b3_type_is_float((B3Type)types[i]);
        unsigned *k = fp ? &nfpr : &ngpr;
        if (*k >= (fp ? d->nret_fprs : d->nret_gprs))
            return false;
        regs[i] = (fp ? d->ret_fprs : d->ret_gprs)[(*k)++];
    }
    return true;
}

unsigned b3_target_num_arg_gprs(B3Target t) { return b3_target_desc(t)->narg_gprs; }
unsigned b3_target_num_arg_fprs(B3Target t) { return b3_target_desc(t)->narg_fprs; }
B3Reg b3_target_arg_gpr(B3Target t, unsigned i) { return b3_target_desc(t)->arg_gprs[i]; }
B3Reg b3_target_arg_fpr(B3Target t, unsigned i) { return b3_target_desc(t)->arg_fprs[i]; }
B3Reg b3_target_return_gpr(B3Target t) { return b3_target_desc(t)->ret_gpr; }
B3Reg b3_target_return_fpr(B3Target t) { return b3_target_desc(t)->ret_fpr; }

bool b3_target_is_callee_saved(B3Target t, B3Reg r) {
    return r < 64 && b3_regset_has(&b3_target_desc(t)->callee_saved, r);
}

bool b3_reg_valid(B3Target t, B3Reg r) {
    const B3TargetDesc *d = b3_target_desc(t);
    return r < d->ngprs || (r >= B3_FPR_BASE && r < B3_FPR_BASE + d->nfprs);
}

const char *b3_reg_name(B3Target t, B3Reg r) {
    const B3TargetDesc *d = b3_target_desc(t);
    if (!b3_reg_valid(t, r))
        return "?";
    return r < B3_FPR_BASE ? d->gpr_names[r] : d->fpr_names[r - B3_FPR_BASE];
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

int b3_reg_parse_numbered(const char *s, size_t n, const char *prefix, int limit) {
    return numbered(s, n, prefix, limit);
}

static B3Reg parse_on(const B3TargetDesc *d, const char *s, size_t n) {
    int k;
    if ((k = numbered(s, n, "argumentGPR", (int)d->narg_gprs)) >= 0)
        return d->arg_gprs[k];
    if ((k = numbered(s, n, "argumentFPR", (int)d->narg_fprs)) >= 0)
        return d->arg_fprs[k];
    if (eq(s, n, "returnValueGPR"))
        return d->ret_gpr;
    if (eq(s, n, "returnValueFPR"))
        return d->ret_fpr;
    for (unsigned i = 0; i < d->ngprs || i < d->nfprs; i++) {
        if (i < d->ngprs && eq(s, n, d->gpr_names[i]))
            return (B3Reg)i;
        if (i < d->nfprs && eq(s, n, d->fpr_names[i]))
            return (B3Reg)(B3_FPR_BASE + i);
    }
    return d->parse_alias ? d->parse_alias(s, n) : B3_NO_REG;
}

B3Reg b3_reg_parse(B3Target t, const char *name, size_t len, bool *elsewhere) {
    const B3TargetDesc *d = b3_target_desc(t);
    B3Reg r = parse_on(d, name, len);
    if (elsewhere) {
        *elsewhere = false;
        for (unsigned i = 0; r == B3_NO_REG && i < B3_NUM_TARGETS && !*elsewhere; i++)
            if (b3_targets[i].desc != d)
                *elsewhere = parse_on(b3_targets[i].desc, name, len) != B3_NO_REG;
    }
    return r;
}

const B3TargetInfo *b3_target_info(B3Target t) { return &b3_target_desc(t)->info; }

bool b3_target_offset_ok(B3Target t, unsigned bytes, bool atomic, int64_t off) {
    const B3TargetInfo *ti = b3_target_info(t);
    if (atomic)
        return off >= ti->atomic_min && off <= ti->atomic_max;
    if (off >= ti->unscaled_min && off <= ti->unscaled_max)
        return true;
    return bytes && off >= 0 && off % bytes == 0 && (uint64_t)(off / bytes) <= ti->scaled_max;
}
