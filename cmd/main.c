/* b3c: the command-line driver. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/driver.h"
#include "cmd/pipeline.h"
#include "codegen/backend.h"
#include "ir/ir.h"
#include "ir/version.h"
#include "parser/parser.h"
#include "util/alloc.h"
#include "util/file.h"
#include "util/vec.h"

static void usage(FILE *f) {
    fputs("usage: b3c [OPTIONS] INPUT.b3 [-o OUTPUT]\n"
          "\n"
          "Compiles textual B3 IR, or LLVM IR (INPUT.ll, or bitcode), to an object file.\n"
          "\n"
          "options:\n"
          "  -o FILE               output path (default: INPUT's stem + .o, .s with -S);\n"
          "                        - is stdout; never the input file itself\n"
          "  -                     read the input from standard input (a bare body read\n"
          "                        this way is named b3c_stdin unless --name says)\n"
          "  --                    end of options: what follows is the input file\n"
          "  @FILE                 read more arguments from FILE (gcc's quoting; nested)\n"
          "  -c                    accepted and ignored: b3c always writes an object\n"
          "  -O0, -O1, -O2         optimization level (default -O2); -O is -O1;\n"
          "  -O3, -Os, -Oz         -O3, -Os and -Oz are -O2\n"
          "  --target=TRIPLE       the target (below); also --target TRIPLE,\n"
          "                        -target TRIPLE, -mtriple=TRIPLE\n"
          "  --emit=obj|asm|b3|air what to write (default obj): an object file, assembly\n"
          "                        (-S: GNU as / llvm-mc, AT&T syntax), the B3 IR after\n"
          "                        the B3 phases of the level (-O0: the input), or the\n"
          "                        Air after register allocation (b3 and air default to\n"
          "                        stdout)\n"
          "  -S                    --emit=asm\n"
          "  --asm-exact           with -S, also pin each long jump's size ({disp32});\n"
          "                        plain -S already assembles to the --emit=obj bytes\n"
          "  --name=NAME           symbol of a bare procedure body\n"
          "  -w                    do not print warnings\n"
          "  -Werror, -Wno-error   make warnings errors (exit status 1, no output), or not\n"
          "  -fcolor-diagnostics, -fno-color-diagnostics\n"
          "                        colour diagnostics or not (default: when stderr is a\n"
          "                        terminal and NO_COLOR is unset)\n"
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
          "  -g                    DWARF line tables mapping the code to INPUT's lines,\n"
          "                        and a compile unit with a subprogram per procedure\n"
          "                        and entrypoint (with -S: .file/.loc only; --emit=b3\n"
          "                        and air ignore it)\n"
          "  -fdebug-prefix-map=OLD=NEW\n"
          "                        with -g, record file and directory names starting\n"
          "                        with OLD as starting with NEW (repeatable; the last\n"
          "                        match wins)\n"
          "  -fverbose-asm, -fno-verbose-asm\n"
          "                        with -S, comment each run of instructions with the\n"
          "                        B3 value it came from and its line (default: off)\n"
          "  -fomit-frame-pointer, -fno-omit-frame-pointer\n"
          "                        at -O2, allocate the frame pointer like any\n"
          "                        callee-saved register (the default at -O2), or keep\n"
          "                        it (always at -O0 and -O1)\n"
          "  -fno-unwind-tables, -fno-asynchronous-unwind-tables\n"
          "                        ELF: no .eh_frame (and no .cfi_* in -S); the default,\n"
          "                        -funwind-tables, describes every frame for unwinders\n"
          "  -v                    print the version, the target and the phases that run\n"
          "                        to stderr (alone: the version and target)\n"
          "  --version             print the version and the default target\n"
          "  --help, -h            print this help\n"
          "\n"
          "targets:\n",
          f);
    B3Target t;
    for (unsigned i = 0; b3_target_nth(i, &t); i++)
        fprintf(f, "  %-21s %s objects; %s%s\n", b3_target_name(t),
                b3_target_obj_format(t) == B3ObjFormat_MachO ? "Mach-O" : "ELF",
                b3_backend_supports(t) ? "generates code" : "--emit=b3 only (no code generation yet)",
                b3_target_name(t) == b3_target_name(b3_target_host()) ? " (default)" : "");
    fputs("\n"
          "exit status: 0 success, 1 bad input, 2 bad usage, 3 internal error\n"
          "\n"
          "phases, in pipeline order (each level runs a subset):\n  ",
          f);
    b3_pipeline_list_phases(f, true);
    fputc('\n', f);
}

static void print_version(FILE *f) {
    fprintf(f, "b3c %s\nTarget: %s\n", B3C_VERSION, b3_target_name(b3_target_host()));
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

/* ---- @FILE response files ------------------------------------------------------------ */

typedef struct {
    char **v;
    int n, cap;
} Args;

static void args_push(Args *a, char *s) { B3_VEC_PUSH("command line", a->v, a->n, a->cap, s); }

/* Splits a response file's text as gcc does (libiberty's buildargv):
 * whitespace separates arguments, '...' and "..." quote, and a backslash
 * takes the next character literally, inside quotes too. */
static void split_response(const char *text, Args *out, Args *pool) {
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')
            p++;
        if (!*p)
            return;
        char *arg = b3_xmalloc("command line", strlen(p) + 1), *w = arg;
        char quote = 0;
        for (; *p; p++) {
            if (*p == '\\' && p[1]) {
                *w++ = *++p;
            } else if (quote) {
                if (*p == quote)
                    quote = 0;
                else
                    *w++ = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f') {
                break;
            } else {
                *w++ = *p;
            }
        }
        *w = 0;
        args_push(out, arg);
        args_push(pool, arg);
    }
}

/* Appends args, expanding each @FILE into the arguments it holds (again
 * expanded: response files nest).  As gcc: a file that cannot be read
 * leaves the argument as it is.  After "--" nothing is expanded.  The
 * strings read are also put in pool, to be freed. */
static void expand_args(int argc, char **argv, Args *out, int depth, bool *ended, Args *pool) {
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!*ended && !strcmp(a, "--"))
            *ended = true;
        char *text = !*ended && a[0] == '@' && a[1] ? b3_read_file(a + 1, &(size_t){0}) : NULL;
        if (!text) {
            args_push(out, argv[i]);
            continue;
        }
        if (depth >= 32) {
            fprintf(stderr, "b3c: error: response files nested too deeply (at '%s')\n", a);
            exit(2);
        }
        Args inner = {0};
        split_response(text, &inner, pool);
        free(text);
        expand_args(inner.n, inner.v, out, depth + 1, ended, pool);
        free(inner.v);
    }
}

/* ---- options ------------------------------------------------------------------------------ */

/* An option with a value, as "NAME VALUE" or "NAME=VALUE". */
static bool value_option(const char *a, const char *name, int argc, char **argv, int *i, const char **v) {
    size_t n = strlen(name);
    if (strncmp(a, name, n))
        return false;
    if (a[n] == '=') {
        *v = a + n + 1;
        return true;
    }
    if (a[n])
        return false;
    if (++*i >= argc)
        bad_usage("%s needs a value", name);
    *v = argv[*i];
    return true;
}

static void set_target(B3Options *o, const char *v) {
    if (!b3_target_parse(v, &o->target))
        bad_usage("unknown target '%s' (expected x86_64-linux-gnu, aarch64-linux-gnu, "
                  "x86_64-apple-macos or arm64-apple-macos)",
                  v);
}

static void parse_args(int argc, char **argv, B3Options *o) {
    unsigned feat_on = 0, feat_off = 0;
    memset(o, 0, sizeof *o);
    o->opt_level = 2;
    o->emit = B3Emit_Obj;
    o->target = b3_target_host();
    o->version = B3C_VERSION;
    bool options_ended = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (options_ended || a[0] != '-' || !a[1]) {
            if (o->input)
                bad_usage("more than one input file ('%s')", a);
            o->input = a;
        } else if (!strcmp(a, "--")) {
            options_ended = true;
        } else if (!strcmp(a, "-o")) {
            if (++i >= argc)
                bad_usage("%s needs a file name", "-o");
            o->output = argv[i];
        } else if (starts(a, "-o", &v) && *v) {
            o->output = v;
        } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2")) {
            o->opt_level = a[2] - '0';
        } else if (!strcmp(a, "-O3") || !strcmp(a, "-Os") || !strcmp(a, "-Oz")) {
            o->opt_level = 2; /* b3c has no more aggressive or size-tuned level */
        } else if (!strcmp(a, "-O")) {
            o->opt_level = 1;
        } else if (!strcmp(a, "-c")) {
            /* cc's "compile only": what b3c always does */
        } else if (!strcmp(a, "-S")) {
            o->emit = B3Emit_Asm;
        } else if (!strcmp(a, "--asm-exact")) {
            o->asm_exact = true;
        } else if (!strcmp(a, "-g")) {
            o->debug_info = true;
        } else if (!strcmp(a, "-fverbose-asm") || !strcmp(a, "-fno-verbose-asm")) {
            o->verbose_asm = a[2] == 'v';
        } else if (starts(a, "-fdebug-prefix-map=", &v)) {
            if (!strchr(v, '='))
                bad_usage("-fdebug-prefix-map needs OLD=NEW, not '%s'", v);
            o->debug_prefix_map =
                b3_xrealloc("command line", o->debug_prefix_map, (o->ndebug_prefix_map + 1) * sizeof(char *));
            o->debug_prefix_map[o->ndebug_prefix_map++] = v;
        } else if (!strcmp(a, "-w")) {
            o->warnings = B3Warn_None;
            o->no_warnings = true;
        } else if (!strcmp(a, "-Werror")) {
            o->werror = true;
        } else if (!strcmp(a, "-Wno-error")) {
            o->werror = false;
        } else if (!strcmp(a, "-fcolor-diagnostics")) {
            o->color = 1;
        } else if (!strcmp(a, "-fno-color-diagnostics")) {
            o->color = -1;
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
        } else if (value_option(a, "--target", argc, argv, &i, &v) ||
                   value_option(a, "-target", argc, argv, &i, &v) ||
                   value_option(a, "-mtriple", argc, argv, &i, &v) ||
                   value_option(a, "--mtriple", argc, argv, &i, &v)) {
            set_target(o, v);
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
        } else if (!strcmp(a, "-v")) {
            o->verbose = true;
        } else if (!strcmp(a, "--version")) {
            print_version(stdout);
            exit(0);
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else {
            bad_usage("unknown option '%s'", a);
        }
    }
    /* -w wins over -Werror, as in gcc: no warning is left to be an error. */
    o->warnings = o->no_warnings ? B3Warn_None : o->werror ? B3Warn_Error : B3Warn_Show;
    if (!o->input && o->verbose) { /* cc -v: the version alone */
        print_version(stderr);
        exit(0);
    }
    if (!o->input)
        bad_usage("%s", "no input file");
    if ((feat_on & B3Feature_LSE) && o->target.arch != B3Arch_ARM64)
        bad_usage("-mattr=+lse is an aarch64 feature (the target is %s)", b3_target_name(o->target));
    o->target_features = (uint8_t)(feat_on & ~feat_off);
}

int main(int argc, char **argv) {
    /* Blocks of 256 KiB and more (the allocators' and liveness's arrays of a
     * big procedure) are mapped for themselves and unmapped when freed.  Kept
     * in the heap (a threshold of 256 MiB, or glibc's own, which it raises up
     * to 32 MiB once such a block is freed), one procedure's freed arrays
     * stayed resident between the next one's, and the -O2 peak was a third
     * higher.  The arenas keep their own chunks for the next procedure
     * (ir/arena.c), which is what reusing mapped pages saved most. */
    mallopt(M_MMAP_THRESHOLD, 256 << 10);
    Args args = {0}, pool = {0};
    bool ended = false;
    expand_args(argc, argv, &args, 0, &ended, &pool);
    B3Options o;
    parse_args(args.n, args.v, &o);
    int status = b3_drive(&o);
    for (int i = 0; i < pool.n; i++)
        free(pool.v[i]);
    free(pool.v);
    free(args.v);
    free(o.debug_prefix_map);
    return status;
}
