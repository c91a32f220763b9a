/* Fuzz target for the whole backend: every input that parses and validates
 * is compiled, in memory, as the driver would with
 *
 *   b3c -O0 --verify-each          (an ELF object)
 *   b3c -O2 -g                     (an ELF object with DWARF line tables)
 *   b3c -O2 -S                     (assembly)
 *   b3c -O2 -S --asm-exact         (assembly keeping each jump's size)
 *
 * so a crash, a sanitizer report or an internal error anywhere from
 * lower_macros to the object writers is a finding.  Build with -DB3_ICE_ABORT
 * (testsuite/fuzz/fuzz.mk does) so that an internal error aborts instead of
 * exiting.  Inputs the front end rejects are user errors: ignored.
 *
 * The backend lowers the module in place, so each configuration parses the
 * input again.  Inputs for aarch64 ("; target=aarch64" first) are compiled
 * for arm64 (not with -S while that backend writes no assembly).  Set B3_FUZZ_BACKEND_CONFIGS to
 * a subset of "0gSx" (the four lines above) to run fewer configurations.
 *
 * Under libFuzzer (B3_FUZZ_LIBFUZZER) a custom mutator does half of the
 * mutations on the text's structure, which byte-level mutation almost never
 * keeps valid: make an operand name another value (a value used one more
 * time, e.g. a fused compare also needed in a register), swap an opcode for
 * one of the same shape, duplicate a line (renumbered) or delete one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/driver.h"
#include "codegen/backend.h"
#include "ir/ice.h"
#include "ir/ir.h"
#include "objwriter/asm_writer.h"
#include "objwriter/obj.h"
#include "parser/parser.h"
#include "testsuite/fuzz/fuzz.h"

static FILE *null_stream(void) {
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    if (!null) {
        perror("fuzz: /dev/null");
        abort();
    }
    return null;
}

typedef struct {
    char key;
    int opt_level;
    bool verify_each, debug_info;
    int asm_text; /* as b3_compile_to_obj's: -1 object, 0 -S, 1 -S --asm-exact */
} Config;

static const Config configs[] = {
    {'0', 0, true, false, -1},
    {'g', 2, false, true, -1},
    {'S', 2, false, false, 0},
    {'x', 2, false, false, 1},
};

static bool config_enabled(char key) {
    static const char *want;
    static bool read;
    if (!read) {
        want = getenv("B3_FUZZ_BACKEND_CONFIGS");
        if (want && !*want)
            want = NULL;
        read = true;
    }
    return !want || strchr(want, key);
}

/* One configuration: parse, validate, compile, write.  Returns false if the
 * front end rejected the input (then no configuration runs). */
static bool compile_one(const char *src, size_t len, B3Target target, const Config *c) {
    B3Diag diag;
    b3_diag_init(&diag, "fuzz.b3", src, len);
    diag.out = null_stream();
    B3Module m;
    b3_module_init(&m, target);
    /* Internal errors name the phase and value, then abort (B3_ICE_ABORT). */
    B3Ice ice = {.diag = &diag, .module = &m};
    b3_ice_install(&ice);
    b3_ice_enter("parse", NULL);
    B3ParseOptions popt = {.bare_name = "fuzz"};
    bool ok = b3_parse(&m, &diag, src, len, &popt);
    if (ok) {
        b3_ice_enter("validate", NULL);
        ok = b3_validate(&m, &diag) && !diag.errors;
    }
    /* A backend that writes no assembly yet (arm64) refuses -S up front. */
    if (ok && b3_backend_supports(target) && (c->asm_text < 0 || b3_backend(target)->write_asm)) {
        /* --asm-exact also with -fverbose-asm: every value's comment printed. */
        B3PipelineOptions bopt = {.opt_level = c->opt_level,
                                  .verify_each = c->verify_each,
                                  .diag = &diag,
                                  .verbose_asm = c->asm_text > 0};
        B3Obj obj;
        /* The backend's own refusals are user errors (printed, not findings). */
        if (b3_compile_to_obj(&m, &bopt, c->debug_info ? "fuzz.b3" : NULL, c->asm_text, &obj)) {
            char *buf = NULL;
            size_t n = 0;
            FILE *mem = open_memstream(&buf, &n);
            if (!mem)
                abort();
            const B3Backend *be = b3_backend(target); /* as the driver writes */
            if (c->asm_text < 0)
                b3_write_object(&obj, mem);
            else
                be->write_asm(&obj, mem);
            fclose(mem);
            free(buf);
        }
        b3_compiled_obj_free(&obj);
    }
    b3_ice_install(NULL);
    b3_module_free(&m);
    b3_diag_free(&diag);
    return ok;
}

bool b3_fuzz_one(const uint8_t *data, size_t size, char *why, size_t whylen) {
    (void)why;
    (void)whylen;
    /* NUL-terminated, exactly size+1 bytes, so ASan sees a read past the end. */
    char *src = malloc(size + 1);
    if (!src)
        abort();
    if (size)
        memcpy(src, data, size);
    src[size] = 0;

    B3Target target = {B3Arch_X86_64, B3OS_Linux, 0, 0};
    static const char arm[] = "; target=aarch64";
    if (size >= sizeof arm - 1 && !memcmp(src, arm, sizeof arm - 1))
        target.arch = B3Arch_ARM64;

    for (size_t i = 0; i < sizeof configs / sizeof *configs; i++) {
        if (!config_enabled(configs[i].key))
            continue;
        if (!compile_one(src, size, target, &configs[i]))
            break; /* rejected: the same for every configuration */
    }
    free(src);
    return true;
}

#ifdef B3_FUZZ_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static uint64_t rng;

static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (uint32_t)(rng % n) : 0;
}

static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }
static bool is_word(uint8_t c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* The "@N" value names in d: definitions ("@N =") or uses (the others,
 * not Phi references "^@N"); up to max start offsets into out. */
static size_t value_names(const uint8_t *d, size_t n, bool defs, size_t *out, size_t max) {
    size_t k = 0;
    for (size_t i = 0; i + 1 < n && k < max; i++) {
        if (d[i] != '@' || !is_digit(d[i + 1]) || (i && d[i - 1] == '^'))
            continue;
        size_t j = i + 1;
        while (j < n && is_digit(d[j]))
            j++;
        bool def = j + 1 < n && d[j] == ' ' && d[j + 1] == '=';
        if (def == defs)
            out[k++] = i;
        i = j - 1;
    }
    return k;
}

static size_t name_len(const uint8_t *d, size_t n, size_t at) {
    size_t j = at + 1;
    while (j < n && is_digit(d[j]))
        j++;
    return j - at;
}

/* Replaces [at, at+len) of d (size n) with rep (rlen bytes) into out. */
static size_t splice(const uint8_t *d, size_t n, size_t at, size_t len, const uint8_t *rep, size_t rlen,
                     uint8_t *out, size_t max) {
    if (n - len + rlen > max)
        return 0;
    memcpy(out, d, at);
    memcpy(out + at, rep, rlen);
    memcpy(out + at + rlen, d + at + len, n - at - len);
    return n - len + rlen;
}

/* Opcodes that can stand for each other (same operands, same result type). */
static const char *const groups[][11] = {
    {"Equal", "NotEqual", "LessThan", "GreaterThan", "LessEqual", "GreaterEqual", "Above", "Below",
     "AboveEqual", "BelowEqual", NULL},
    {"Add", "Sub", "Mul", "BitAnd", "BitOr", "BitXor", NULL},
    {"Shl", "SShr", "ZShr", "RotR", "RotL", NULL},
    {"Div", "Mod", "UDiv", "UMod", NULL},
    {"Neg", "Identity", "Opaque", "Abs", "Clz", NULL},
    {"Load", "Load8Z", "Load8S", "Load16Z", "Load16S", NULL},
    {"Check", "CheckAdd", "CheckSub", "CheckMul", NULL},
};

static size_t structural(const uint8_t *d, size_t n, uint8_t *out, size_t max) {
    static size_t pos[4096], defs[4096];
    switch (rnd(4)) {
    case 0:
    case 1: { /* an operand names another value */
        size_t nu = value_names(d, n, false, pos, 4096), nd = value_names(d, n, true, defs, 4096);
        if (!nu || !nd)
            return 0;
        size_t u = pos[rnd((uint32_t)nu)], def = defs[rnd((uint32_t)nd)];
        return splice(d, n, u, name_len(d, n, u), d + def, name_len(d, n, def), out, max);
    }
    case 2: { /* an opcode of the same group */
        for (int tries = 0; tries < 8; tries++) {
            size_t at = rnd((uint32_t)n);
            /* Back up to the start of an opcode: "= NAME(" or "= NAME<". */
            while (at > 2 && !(d[at - 1] == ' ' && d[at - 2] == '='))
                at--;
            if (at <= 2)
                continue;
            size_t e = at;
            while (e < n && is_word(d[e]))
                e++;
            for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
                for (size_t i = 0; groups[g][i]; i++) {
                    size_t len = strlen(groups[g][i]);
                    if (len != e - at || memcmp(d + at, groups[g][i], len))
                        continue;
                    size_t cnt = 0;
                    while (groups[g][cnt])
                        cnt++;
                    const char *rep = groups[g][rnd((uint32_t)cnt)];
                    return splice(d, n, at, len, (const uint8_t *)rep, strlen(rep), out, max);
                }
        }
        return 0;
    }
    default: { /* duplicate a line elsewhere (renumbered) or delete one */
        size_t nl = 0;
        for (size_t i = 0; i < n && nl < 4096; i++)
            if (i == 0 || d[i - 1] == '\n')
                pos[nl++] = i;
        if (nl < 2)
            return 0;
        size_t li = rnd((uint32_t)nl), start = pos[li], end = li + 1 < nl ? pos[li + 1] : n;
        if (rnd(3) == 0)
            return splice(d, n, start, end - start, (const uint8_t *)"", 0, out, max);
        char line[512];
        size_t len = end - start;
        if (len == 0 || len >= sizeof line || d[end - 1] != '\n')
            return 0;
        memcpy(line, d + start, len);
        /* A defined name becomes a fresh one (past any name in use). */
        size_t ndef = value_names(d, n, true, defs, 4096);
        unsigned long top = 0;
        for (size_t i = 0; i < ndef; i++) {
            unsigned long v = strtoul((const char *)d + defs[i] + 1, NULL, 10);
            if (v > top)
                top = v;
        }
        size_t at_def;
        if (value_names((const uint8_t *)line, len, true, &at_def, 1)) {
            char fresh[24];
            int fl = snprintf(fresh, sizeof fresh, "@%lu", top + 1 + rnd(4));
            size_t old = name_len((const uint8_t *)line, len, at_def);
            if (len - old + (size_t)fl >= sizeof line)
                return 0;
            memmove(line + at_def + fl, line + at_def + old, len - at_def - old);
            memcpy(line + at_def, fresh, (size_t)fl);
            len = len - old + (size_t)fl;
        }
        size_t to = pos[rnd((uint32_t)nl)];
        return splice(d, n, to, 0, (const uint8_t *)line, len, out, max);
    }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    rng = (uint64_t)seed * 0x9E3779B97F4A7C15u + 1;
    if (rnd(2)) {
        static uint8_t out[1 << 20];
        size_t cap = max_size < sizeof out ? max_size : sizeof out;
        size_t n = structural(data, size, out, cap);
        if (n) {
            memcpy(data, out, n);
            return n;
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char why[256];
    b3_fuzz_one(data, size, why, sizeof why);
    return 0;
}
