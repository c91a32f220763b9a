/* b3c: the command-line driver. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/driver.h"
#include "cmd/pipeline.h"
#include "ir/ir.h"
#include "parser/parser.h"

#define B3C_VERSION "0.1.0"

static void usage(FILE *f) {
    fputs("usage: b3c [OPTIONS] INPUT.b3 [-o OUTPUT]\n"
          "\n"
          "Compiles textual B3 IR to an object file.\n"
          "\n"
          "options:\n"
          "  -o FILE               output path (default: INPUT's stem + .o, .s with -S); - is stdout\n"
          "  -                     read the input from standard input\n"
          "  -O0, -O1, -O2         optimization level (default -O2)\n"
          "  --target=TRIPLE       x86_64-linux-gnu (default), aarch64-linux-gnu,\n"
          "                        x86_64-apple-macos, arm64-apple-macos\n"
          "  --emit=obj|asm|b3|air what to write (default obj): an ELF object, assembly\n"
          "                        (-S: GNU as / llvm-mc, AT&T syntax), the B3 IR after\n"
          "                        the B3 phases of the level (-O0: the input), or the\n"
          "                        Air after register allocation (b3 and air default to\n"
          "                        stdout)\n"
          "  --asm-exact           with -S, also pin each long jump's size ({disp32}); plain\n"
          "                        -S already assembles to the --emit=obj bytes\n"
          "  --name=NAME           symbol of a bare procedure body\n"
          "  --print-after=PHASE   print the IR after PHASE (or all) to stderr; the\n"
          "                        phases are listed below\n"
          "  --verify-each         validate the IR after every phase\n"
          "  --debug-internal      on an internal error, print the procedure's IR (as\n"
          "                        B3C_DEBUG=1 in the environment does)\n"
          "  --inject-internal-error=PHASE\n"
          "                        fail with an internal error as PHASE starts (to test\n"
          "                        how internal errors are reported)\n"
          "  --no-fast-parse       read every line through the grammar (the parser's\n"
          "                        fast path for plain value lines is off; to test it)\n"
          "  --time-passes         print each phase's time to stderr\n"
          "  -mattr=+lse, -mattr=-lse\n"
          "                        aarch64: use the ARMv8.1 LSE atomics (cas, ldadd,\n"
          "                        swp, ...) or not (the default: ARMv8.0 ldaxr/stlxr\n"
          "                        loops, which run on every arm64 CPU)\n"
          "  -g                    DWARF line tables mapping the code to INPUT's lines\n"
          "                        (objects only; --emit=b3 and air ignore it)\n"
          "  -fomit-frame-pointer, -fno-omit-frame-pointer\n"
          "                        at -O2, allocate rbp like any callee-saved register\n"
          "                        (the default at -O2), or keep it as the frame pointer\n"
          "                        (always at -O0 and -O1)\n"
          "  -fno-unwind-tables, -fno-asynchronous-unwind-tables\n"
          "                        ELF: no .eh_frame (and no .cfi_* in -S); the default,\n"
          "                        -funwind-tables, describes every frame for unwinders\n"
          "  --version, --help     as usual\n"
          "\n"
          "exit status: 0 success, 1 bad input, 2 bad usage, 3 internal error\n"
          "\n"
          "phases, in pipeline order (each level runs a subset):\n  ",
          f);
    b3_pipeline_list_phases(f, true);
    fputc('\n', f);
}

static _Noreturn void bad_usage(const char *fmt, const char *arg) {
    fprintf(stderr, "b3c: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: b3c [OPTIONS] INPUT.b3 [-o OUTPUT]  (see b3c --help)\n");
    exit(2);
}

/* An unknown phase name: the message lists the pipeline's phases. */
static _Noreturn void unknown_phase(const char *option, const char *name) {
    fprintf(stderr, "b3c: error: unknown phase '%s' for %s (expected one of: ", name, option);
    b3_pipeline_list_phases(stderr, false);
    fprintf(stderr, "%s)\nusage: b3c [OPTIONS] INPUT.b3 [-o OUTPUT]  (see b3c --help)\n",
            strcmp(option, "--print-after") ? "" : ", or all");
    exit(2);
}

static bool starts(const char *s, const char *prefix, const char **rest) {
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n))
        return false;
    *rest = s + n;
    return true;
}

/* -mattr=[+-]FEATURE[,...]: sets *on and *off bits; the architecture is
 * checked once --target is known. */
static void parse_mattr(const char *v, unsigned *on, unsigned *off) {
    if (!*v)
        bad_usage("%s needs a feature list (e.g. +lse)", "-mattr");
    while (*v) {
        const char *end = strchr(v, ',');
        size_t n = end ? (size_t)(end - v) : strlen(v);
        if (n == 4 && (v[0] == '+' || v[0] == '-') && !strncmp(v + 1, "lse", 3)) {
            *(v[0] == '+' ? on : off) |= B3Feature_LSE;
            *(v[0] == '+' ? off : on) &= ~(unsigned)B3Feature_LSE;
        } else {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(n < 60 ? n : 60), v);
            bad_usage("unknown -mattr feature '%s' (expected +lse or -lse)", name);
        }
        v += n + (end != NULL);
    }
}

static void parse_args(int argc, char **argv, B3Options *o) {
    unsigned feat_on = 0, feat_off = 0;
    memset(o, 0, sizeof *o);
    o->opt_level = 2;
    o->emit = B3Emit_Obj;
    o->target = b3_target_host();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "-o")) {
            if (++i >= argc)
                bad_usage("%s needs a file name", "-o");
            o->output = argv[i];
        } else if (starts(a, "-o", &v) && *v) {
            o->output = v;
        } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2")) {
            o->opt_level = a[2] - '0';
        } else if (!strcmp(a, "-O")) {
            o->opt_level = 1;
        } else if (!strcmp(a, "-S")) {
            o->emit = B3Emit_Asm;
        } else if (!strcmp(a, "--asm-exact")) {
            o->asm_exact = true;
        } else if (!strcmp(a, "-g")) {
            o->debug_info = true;
        } else if (!strcmp(a, "-fomit-frame-pointer")) {
            o->frame_pointer = 1;
        } else if (!strcmp(a, "-fno-omit-frame-pointer")) {
            o->frame_pointer = -1;
        } else if (!strcmp(a, "-fno-unwind-tables") || !strcmp(a, "-fno-asynchronous-unwind-tables") ||
                   !strcmp(a, "-funwind-tables") || !strcmp(a, "-fasynchronous-unwind-tables")) {
            o->no_unwind_tables = !strncmp(a, "-fno-", 5);
        } else if (starts(a, "-mattr=", &v)) {
            parse_mattr(v, &feat_on, &feat_off);
        } else if (starts(a, "--emit=", &v)) {
            if (!strcmp(v, "obj"))
                o->emit = B3Emit_Obj;
            else if (!strcmp(v, "asm"))
                o->emit = B3Emit_Asm;
            else if (!strcmp(v, "b3"))
                o->emit = B3Emit_B3;
            else if (!strcmp(v, "air"))
                o->emit = B3Emit_Air;
            else
                bad_usage("unknown --emit kind '%s' (expected obj, asm, b3 or air)", v);
        } else if (starts(a, "--target=", &v)) {
            if (!b3_target_parse(v, &o->target))
                bad_usage("unknown target '%s' (expected x86_64-linux-gnu, aarch64-linux-gnu, "
                          "x86_64-apple-macos or arm64-apple-macos)",
                          v);
        } else if (starts(a, "--name=", &v)) {
            if (!*v)
                bad_usage("%s needs a symbol name", "--name");
            o->name = v;
        } else if (starts(a, "--print-after=", &v)) {
            if (!b3_pipeline_is_phase(v))
                unknown_phase("--print-after", v);
            o->print_after = v;
        } else if (starts(a, "--inject-internal-error=", &v)) {
            if (!b3_pipeline_is_phase(v) || !strcmp(v, "all"))
                unknown_phase("--inject-internal-error", v);
            o->inject_internal_error = v;
        } else if (!strcmp(a, "--debug-internal")) {
            o->debug_internal = true;
        } else if (!strcmp(a, "--no-fast-parse")) {
            o->no_fast_parse = true;
        } else if (!strcmp(a, "--verify-each")) {
            o->verify_each = true;
        } else if (!strcmp(a, "--time-passes")) {
            o->time_passes = true;
        } else if (!strcmp(a, "--version")) {
            printf("b3c %s\n", B3C_VERSION);
            exit(0);
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-' && a[1]) {
            bad_usage("unknown option '%s'", a);
        } else {
            if (o->input)
                bad_usage("more than one input file ('%s')", a);
            o->input = a;
        }
    }
    if (!o->input)
        bad_usage("%s", "no input file");
    if ((feat_on & B3Feature_LSE) && o->target.arch != B3Arch_ARM64)
        bad_usage("-mattr=+lse is an aarch64 feature (the target is %s)", b3_target_name(o->target));
    o->target_features = (uint8_t)(feat_on & ~feat_off);
}

int main(int argc, char **argv) {
    /* Big blocks (arena chunks, per-procedure arrays) come from the heap and
     * go back to it rather than to the kernel, so the next procedure reuses
     * pages already mapped instead of faulting in fresh zeroed ones. */
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    B3Options o;
    parse_args(argc, argv, &o);
    return b3_drive(&o);
}
