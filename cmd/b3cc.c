/* b3cc: a cc-compatible C compiler driver.
 *
 * Each C input goes through clang (clang-16) to LLVM bitcode with the
 * user's front-end flags, then through b3c to an object at the matching
 * level; the objects are linked by the system cc (the cross gcc for
 * aarch64-linux-gnu).  Assembly inputs go to cc; -E and -M are clang's.
 * Options and where each goes: b3cc_options.c; running the commands and the
 * temporary files: b3cc_run.c.  Manual: docs/b3cc.1. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/b3cc_options.h"
#include "cmd/b3cc_run.h"
#include "ir/version.h"
#include "util/vec.h"

/* ---- facts: optimization levels and targets ------------------------------- */

/* What each -O spelling asks of clang and of b3c.  At -O2 and up clang's
 * vectorizers are off: b3c has no vector types. */
static const struct {
    const char *flag;
    const char *clang;
    bool no_vectorize;
    const char *b3c;
} levels[] = {
    {"-O0", "-O0", false, "-O0"}, {"-O", "-O1", false, "-O1"}, {"-O1", "-O1", false, "-O1"},
    {"-Og", "-O1", false, "-O1"}, {"-O2", "-O2", true, "-O2"}, {"-O3", "-O3", true, "-O2"},
    {"-Os", "-Os", true, "-O2"},  {"-Oz", "-Oz", true, "-O2"}, {"-Ofast", "-Ofast", true, "-O2"},
};

/* The targets b3c generates code for.  A Linux target other than the host's
 * compiles against the Debian cross sysroot and links with the cross gcc;
 * the macOS ones make objects only. */
typedef struct {
    const char *arch;
    bool apple;
    const char *b3c_triple;
    const char *cross_cc; /* links (and assembles) when it is not the host */
    const char *sysroot;  /* clang's headers when it is not the host */
} Target;

static const Target targets[] = {
    {"x86_64", false, "x86_64-linux-gnu", "x86_64-linux-gnu-gcc", "/usr/x86_64-linux-gnu"},
    {"aarch64", false, "aarch64-linux-gnu", "aarch64-linux-gnu-gcc", "/usr/aarch64-linux-gnu"},
    {"x86_64", true, "x86_64-apple-macos", NULL, NULL},
    {"aarch64", true, "arm64-apple-macos", NULL, NULL},
};

#if defined(__aarch64__)
static const char host_arch[] = "aarch64";
#else
static const char host_arch[] = "x86_64";
#endif
static const char *host_triple(void) {
    return host_arch[0] == 'x' ? "x86_64-linux-gnu" : "aarch64-linux-gnu";
}

/* ---- the command line ------------------------------------------------------- */

typedef enum { Lang_C, Lang_Asm, Lang_AsmCpp, Lang_Object } Lang;

typedef struct {
    const char *path;
    Lang lang;
    const char *x; /* the -x language in force for it, or NULL */
    char *object;  /* what the link takes for it */
} Input;

typedef struct {
    const char *arg;
    int input; /* an input's index (its object goes here), or -1 for arg */
} LinkItem;

typedef enum { Mode_Link, Mode_Object, Mode_Asm, Mode_Preprocess, Mode_Syntax } Mode;

static struct {
    bool c, S, E, M, syntax_only, verbose, dry_run, debug;
    bool md, mf, mt; /* -MD or -MMD; -MF given; -MT or -MQ given */
    const char *output;
    int level;
    const char *target_arg, *sysroot, *ask_cc;
    const Target *target;
    bool native;
    B3ccArgs clang, b3c, asm_flags, cpp_asm;
    Input *inputs;
    int ninputs, inputscap;
    LinkItem *link;
    int nlink, linkcap;
    B3ccArgs *cmds;
    int ncmds, cmdscap;
    bool used_tmp;
} d;

static _Noreturn void fail(const char *fmt, const char *arg) {
    fputs("b3cc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static void usage(FILE *f) {
    fputs("usage: b3cc [OPTIONS] FILE...\n"
          "\n"
          "Compiles C with clang's front end and b3c's code generator, and links\n"
          "with the system cc.  Takes cc's options; see b3cc(1) for every one.\n"
          "\n"
          "options:\n"
          "  -c                    compile each input to an object, do not link\n"
          "  -S                    write b3c's assembly (.s) for each C input\n"
          "  -E                    preprocess only (clang)\n"
          "  -fsyntax-only         check the C only (clang)\n"
          "  -o FILE               the output (default a.out, INPUT.o, INPUT.s)\n"
          "  -x LANGUAGE           c, assembler, assembler-with-cpp or none, for the\n"
          "                        inputs after it\n"
          "  -O0, -O1, -O2         optimization level (default -O0); -O, -Og are -O1;\n"
          "  -O3, -Os, -Oz, -Ofast clang at that level, b3c at -O2\n"
          "  -g                    debug information (b3c -g: line tables)\n"
          "  --target=TRIPLE       x86_64-linux-gnu, aarch64-linux-gnu (cross gcc,\n"
          "                        its sysroot), x86_64-apple-macos, arm64-apple-macos\n"
          "                        (-c and -S only); also -target TRIPLE\n"
          "  --sysroot=DIR         clang's and the link's system root\n"
          "  -I, -D, -U, -include, -isystem, -idirafter, -iquote, -std=, -W, -f, -m\n"
          "                        to clang (-f and -m: except the refused ones)\n"
          "  -M, -MM, -MD, -MMD, -MF, -MT, -MQ, -MP\n"
          "                        dependency files, written by clang\n"
          "  -l, -L, -Wl, -shared, -static, -pie, -no-pie, -rdynamic, -pthread\n"
          "                        to the link\n"
          "  -Wa                   to cc for assembly inputs (ignored for C)\n"
          "  -v                    print the commands as they run\n"
          "  -###                  print the commands, run nothing\n"
          "  --version             print the version and the default target\n"
          "  --help                print this help\n"
          "\n"
          "environment: B3CC_CLANG (default clang-16), B3CC_B3C (default: b3c next to\n"
          "b3cc, else on PATH), B3CC_CC (default cc, or the target's cross gcc), TMPDIR\n",
          f);
}

static void print_version(FILE *f, const char *triple) {
    fprintf(f, "b3cc %s (b3c %s; C front end: %s)\nTarget: %s\n", B3C_VERSION, B3C_VERSION,
            getenv("B3CC_CLANG") ? getenv("B3CC_CLANG") : "clang-16", triple);
}

static const Target *find_target(const char *triple) {
    size_t n = strcspn(triple, "-");
    char arch[32];
    if (n >= sizeof arch)
        return NULL;
    memcpy(arch, triple, n);
    arch[n] = 0;
    const char *a = strcmp(arch, "arm64") == 0 ? "aarch64" : strcmp(arch, "amd64") == 0 ? "x86_64" : arch;
    bool apple = strstr(triple, "apple") || strstr(triple, "darwin") || strstr(triple, "macos");
    if (!apple && !strstr(triple, "linux"))
        return NULL;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (strcmp(targets[i].arch, a) == 0 && targets[i].apple == apple)
            return &targets[i];
    return NULL;
}

static const char *ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0 ? s + n - m : NULL;
}

static Lang lang_of_x(const char *x) {
    if (strcmp(x, "c") == 0 || strcmp(x, "cpp-output") == 0 || strcmp(x, "c-cpp-output") == 0)
        return Lang_C;
    if (strcmp(x, "assembler") == 0)
        return Lang_Asm;
    if (strcmp(x, "assembler-with-cpp") == 0)
        return Lang_AsmCpp;
    fail("b3cc compiles C only (-x %s)", x);
}

static Lang lang_of_name(const char *path) {
    static const char *const cxx[] = {".cc", ".cpp", ".cxx", ".c++", ".C", ".cp", ".ii", ".m", ".mm", ".M"};
    if (strcmp(path, "-") == 0 || ends_with(path, ".c") || ends_with(path, ".i"))
        return Lang_C;
    if (ends_with(path, ".s"))
        return Lang_Asm;
    if (ends_with(path, ".S") || ends_with(path, ".sx"))
        return Lang_AsmCpp;
    if (ends_with(path, ".h"))
        fail("%s: b3cc makes no precompiled headers", path);
    for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++)
        if (ends_with(path, cxx[i]))
            fail("%s: b3cc compiles C only", path);
    return Lang_Object;
}

static void add_link(const char *arg, int input) {
    B3_VEC_RESERVE("b3cc", d.link, d.linkcap, (size_t)d.nlink + 1);
    d.link[d.nlink++] = (LinkItem){arg, input};
}

static void add_input(const char *path, const char *x) {
    B3_VEC_RESERVE("b3cc", d.inputs, d.inputscap, (size_t)d.ninputs + 1);
    Lang lang = x ? lang_of_x(x) : lang_of_name(path);
    d.inputs[d.ninputs] = (Input){path, lang, x, NULL};
    add_link(NULL, d.ninputs++);
}

static int find_level(const char *flag) {
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(levels[i].flag, flag) == 0)
            return (int)i;
    fail("unknown optimization level '%s' (b3cc takes -O0 to -O3, -Os, -Oz, -Og, -Ofast)", flag);
}

static void parse(int argc, char **argv) {
    const char *x = NULL;
    d.level = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '@')
            fail("%s: response files are not supported", a);
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            add_input(a, x);
            continue;
        }
        bool sep;
        const B3ccOption *o = b3cc_find_option(a, &sep);
        if (!o)
            fail("unknown option '%s' (see b3cc --help)", a);
        const char *value = a + strlen(o->name);
        if (sep) {
            if (i + 1 >= argc)
                fail("'%s' needs a value", a);
            value = argv[++i];
        }
        if (o->routes & B3cc_Refused) {
            fprintf(stderr, "b3cc: error: %s is not supported: %s\n", a, o->why);
            exit(1);
        }
        if (o->routes & B3cc_Ignored)
            continue;
        B3ccArgs *lists[] = {&d.clang, &d.b3c, &d.asm_flags, &d.cpp_asm};
        unsigned routes[] = {B3cc_Clang, B3cc_B3c, B3cc_Asm, B3cc_CppAsm};
        for (int k = 0; k < 4; k++) {
            if (!(o->routes & routes[k]))
                continue;
            b3cc_push(lists[k], a);
            if (sep)
                b3cc_push(lists[k], value);
        }
        if (o->routes & B3cc_Link) {
            add_link(a, -1);
            if (sep)
                add_link(value, -1);
        }
        if (!(o->routes & B3cc_Driver))
            continue;
        switch (o->id) {
        case B3ccOpt_o:
            d.output = value;
            break;
        case B3ccOpt_c:
            d.c = true;
            break;
        case B3ccOpt_S:
            d.S = true;
            break;
        case B3ccOpt_E:
            d.E = true;
            break;
        case B3ccOpt_M:
            d.M = true;
            break;
        case B3ccOpt_MD:
            d.md = true;
            break;
        case B3ccOpt_MF:
            d.mf = true;
            break;
        case B3ccOpt_MT:
            d.mt = true;
            break;
        case B3ccOpt_SyntaxOnly:
            d.syntax_only = true;
            break;
        case B3ccOpt_x:
            x = strcmp(value, "none") == 0 ? NULL : (lang_of_x(value), value);
            break;
        case B3ccOpt_O:
            d.level = find_level(a);
            break;
        case B3ccOpt_g:
            d.debug = strcmp(a, "-g0") != 0;
            break;
        case B3ccOpt_target:
            d.target_arg = value;
            break;
        case B3ccOpt_sysroot:
            d.sysroot = value;
            break;
        case B3ccOpt_v:
            d.verbose = true;
            break;
        case B3ccOpt_DryRun:
            d.dry_run = true;
            break;
        case B3ccOpt_Version:
            print_version(stdout, host_triple());
            exit(0);
        case B3ccOpt_Help:
            usage(stdout);
            exit(0);
        case B3ccOpt_AskCc:
            d.ask_cc = a;
            break;
        case B3ccOpt_PrefixMap:
            b3cc_pushf(&d.b3c, "-fdebug-prefix-map=%s", value);
            break;
        case B3ccOpt_None:
            break;
        }
    }
}

/* ---- the tools -------------------------------------------------------------- */

static const char *clang_prog(void) {
    const char *p = getenv("B3CC_CLANG");
    return p && *p ? p : "clang-16";
}

/* b3c: $B3CC_B3C, else the b3c beside this b3cc, else the one on PATH. */
static const char *b3c_prog(void) {
    const char *p = getenv("B3CC_B3C");
    if (p && *p)
        return p;
    static char path[PATH_MAX + 8];
    ssize_t n = readlink("/proc/self/exe", path, PATH_MAX);
    if (n > 0) {
        path[n] = 0;
        char *slash = strrchr(path, '/');
        if (slash) {
            strcpy(slash + 1, "b3c");
            if (access(path, X_OK) == 0)
                return path;
        }
    }
    return "b3c";
}

static const char *cc_prog(void) {
    const char *p = getenv("B3CC_CC");
    if (p && *p)
        return p;
    return d.native ? "cc" : d.target->cross_cc;
}

/* ---- planning ------------------------------------------------------------- */

static B3ccArgs *new_cmd(const char *prog) {
    B3_VEC_RESERVE("b3cc", d.cmds, d.cmdscap, (size_t)d.ncmds + 1);
    B3ccArgs *c = &d.cmds[d.ncmds++];
    *c = (B3ccArgs){0};
    b3cc_push(c, prog);
    return c;
}

static char *tmp(const char *stem, const char *ext) {
    d.used_tmp = true;
    return b3cc_tmpfile(stem, ext, d.dry_run);
}

/* INPUT's name without its directory and its last extension. */
static char *stem_of(const char *path) {
    if (strcmp(path, "-") == 0)
        return b3cc_xstrdup("stdin");
    const char *base = strrchr(path, '/');
    char *s = b3cc_xstrdup(base ? base + 1 : path);
    char *dot = strrchr(s, '.');
    if (dot && dot != s)
        *dot = 0;
    return s;
}

static char *with_ext(const char *stem, const char *ext) {
    char *s = b3_xmalloc("b3cc", strlen(stem) + strlen(ext) + 1);
    strcpy(s, stem);
    strcat(s, ext);
    return s;
}

/* clang's program and target arguments. */
static B3ccArgs *clang_cmd(void) {
    B3ccArgs *c = new_cmd(clang_prog());
    if (d.target_arg)
        b3cc_pushf(c, "--target=%s", d.target_arg);
    if (d.sysroot)
        b3cc_pushf(c, "--sysroot=%s", d.sysroot);
    else if (!d.native && d.target->sysroot)
        b3cc_pushf(c, "--sysroot=%s", d.target->sysroot);
    return c;
}

/* The inputs of one clang command, each after the -x in force for it. */
static void push_inputs(B3ccArgs *c, bool (*take)(const Input *)) {
    const char *x = NULL;
    for (int i = 0; i < d.ninputs; i++) {
        const Input *in = &d.inputs[i];
        if (!take(in))
            continue;
        if (in->x != x && (!in->x || !x || strcmp(in->x, x) != 0)) {
            b3cc_push(c, "-x");
            b3cc_push(c, in->x ? in->x : "none");
            x = in->x;
        }
        b3cc_push(c, in->path);
    }
}

static bool is_c(const Input *in) { return in->lang == Lang_C; }
static bool is_source(const Input *in) { return in->lang != Lang_Object; }

/* PATH without its last extension (a dot after the last slash). */
static char *strip_ext(const char *path) {
    char *s = b3cc_xstrdup(path);
    char *dot = strrchr(s, '.'), *slash = strrchr(s, '/');
    if (dot && (!slash || dot > slash + 1))
        *dot = 0;
    return s;
}

/* C input `in` to `out` (an object, or assembly under -S): clang to bitcode,
 * b3c to the output.  With -MD or -MMD, clang writes the dependencies to
 * `dep_file` naming `dep_target` unless -MF or -MT/-MQ said otherwise (its
 * own defaults would name the temporary bitcode). */
static void plan_c(const Input *in, const char *out, const char *dep_file, const char *dep_target,
                   const char *stem) {
    char *bc = tmp(stem, ".bc");
    B3ccArgs *c = clang_cmd();
    b3cc_push(c, "-c");
    b3cc_push(c, "-emit-llvm");
    /* Without the order of each value's uses, which clang keeps in bitcode
     * for tools that must rebuild it exactly: the import never depends on it
     * (3% of a -O0 compile, writing and reading). */
    b3cc_push(c, "-Xclang");
    b3cc_push(c, "-no-emit-llvm-uselists");
    b3cc_push(c, levels[d.level].clang);
    if (levels[d.level].no_vectorize) {
        b3cc_push(c, "-fno-vectorize");
        b3cc_push(c, "-fno-slp-vectorize");
    }
    b3cc_push_all(c, &d.clang);
    if (d.md && !d.mf) {
        b3cc_push(c, "-MF");
        b3cc_push(c, dep_file);
    }
    if (d.md && !d.mt) {
        b3cc_push(c, "-MQ");
        b3cc_push(c, dep_target);
    }
    if (in->x) {
        b3cc_push(c, "-x");
        b3cc_push(c, in->x);
    }
    b3cc_push(c, in->path);
    b3cc_push(c, "-o");
    b3cc_push(c, bc);

    B3ccArgs *b = new_cmd(b3c_prog());
    if (d.target_arg)
        b3cc_pushf(b, "--target=%s", d.target->b3c_triple);
    b3cc_push(b, levels[d.level].b3c);
    if (d.debug)
        b3cc_push(b, "-g");
    if (d.S)
        b3cc_push(b, "-S");
    b3cc_push_all(b, &d.b3c);
    b3cc_push(b, bc);
    b3cc_push(b, "-o");
    b3cc_push(b, out);
}

/* Assembly input `in` to the object `out`, by cc. */
static void plan_asm(const Input *in, const char *out) {
    B3ccArgs *c = new_cmd(cc_prog());
    if (d.sysroot)
        b3cc_pushf(c, "--sysroot=%s", d.sysroot);
    if (in->lang == Lang_AsmCpp)
        b3cc_push_all(c, &d.cpp_asm);
    b3cc_push_all(c, &d.asm_flags);
    if (d.debug)
        b3cc_push(c, "-g");
    b3cc_push(c, "-c");
    if (in->x) {
        b3cc_push(c, "-x");
        b3cc_push(c, in->x);
    }
    b3cc_push(c, in->path);
    b3cc_push(c, "-o");
    b3cc_push(c, out);
}

/* A clang command that does the whole job: -E, -M, -MM, -fsyntax-only. */
static void plan_clang_only(const char *what) {
    B3ccArgs *c = clang_cmd();
    if (what)
        b3cc_push(c, what);
    b3cc_push(c, levels[d.level].clang); /* -O defines __OPTIMIZE__ */
    b3cc_push_all(c, &d.clang);
    push_inputs(c, d.syntax_only && !d.E && !d.M ? is_c : is_source);
    if (d.output) {
        b3cc_push(c, "-o");
        b3cc_push(c, d.output);
    }
}

static void plan_link(const char *out) {
    B3ccArgs *c = new_cmd(cc_prog());
    if (d.sysroot)
        b3cc_pushf(c, "--sysroot=%s", d.sysroot);
    for (int i = 0; i < d.nlink; i++)
        b3cc_push(c, d.link[i].input < 0 ? d.link[i].arg : d.inputs[d.link[i].input].object);
    b3cc_push(c, "-o");
    b3cc_push(c, out);
}

/* cc refuses to overwrite an input with an output; so does b3cc. */
static void check_not_input(const char *out) {
    struct stat so, si;
    if (strcmp(out, "-") == 0)
        return;
    bool out_exists = stat(out, &so) == 0;
    for (int i = 0; i < d.ninputs; i++) {
        const char *in = d.inputs[i].path;
        if (strcmp(in, out) == 0 ||
            (out_exists && stat(in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino))
            fail("input file '%s' is the same as the output file", in);
    }
}

static Mode plan(void) {
    Mode mode = d.E || d.M      ? Mode_Preprocess
                : d.syntax_only ? Mode_Syntax
                : d.S           ? Mode_Asm
                : d.c           ? Mode_Object
                                : Mode_Link;
    int nsources = 0;
    for (int i = 0; i < d.ninputs; i++)
        nsources += d.inputs[i].lang != Lang_Object;
    if (mode != Mode_Link) {
        for (int i = 0; i < d.ninputs; i++)
            if (d.inputs[i].lang == Lang_Object)
                fprintf(stderr, "b3cc: warning: %s: linker input file unused because linking not done\n",
                        d.inputs[i].path);
    }
    switch (mode) {
    case Mode_Preprocess:
        plan_clang_only(d.E ? "-E" : NULL);
        break;
    case Mode_Syntax:
        plan_clang_only("-fsyntax-only");
        break;
    case Mode_Asm:
    case Mode_Object:
        if (d.output && nsources > 1)
            fail("cannot specify '-o' with '-c' or '-S' with multiple files%s", "");
        for (int i = 0; i < d.ninputs; i++) {
            const Input *in = &d.inputs[i];
            if (in->lang == Lang_Object)
                continue;
            if (in->lang != Lang_C && mode == Mode_Asm)
                fail("%s: -S takes C inputs (this one is assembly already)", in->path);
            char *stem = stem_of(in->path);
            const char *out = d.output ? d.output : with_ext(stem, mode == Mode_Asm ? ".s" : ".o");
            check_not_input(out);
            if (in->lang == Lang_C)
                plan_c(in, out, with_ext(d.output ? strip_ext(d.output) : stem, ".d"), out, stem);
            else
                plan_asm(in, out);
        }
        break;
    case Mode_Link: {
        if (d.target->apple)
            fail("cannot link for %s: b3cc links for Linux only; use -c and link with the macOS tools",
                 d.target_arg);
        const char *out = d.output ? d.output : "a.out";
        check_not_input(out);
        for (int i = 0; i < d.ninputs; i++) {
            Input *in = &d.inputs[i];
            char *stem = stem_of(in->path);
            if (in->lang == Lang_Object) {
                in->object = b3cc_xstrdup(in->path);
                continue;
            }
            in->object = tmp(stem, ".o");
            if (in->lang == Lang_C)
                plan_c(in, in->object, with_ext(stem, ".d"), with_ext(stem, ".o"), stem);
            else
                plan_asm(in, in->object);
        }
        plan_link(out);
        break;
    }
    }
    return mode;
}

int main(int argc, char **argv) {
    parse(argc, argv);
    if (d.target_arg) {
        d.target = find_target(d.target_arg);
        if (!d.target)
            fail("unknown target '%s' (b3cc targets x86_64-linux-gnu, aarch64-linux-gnu, x86_64-apple-macos, "
                 "arm64-apple-macos)",
                 d.target_arg);
    } else {
        d.target = find_target(host_triple());
    }
    d.native = !d.target->apple && strcmp(d.target->arch, host_arch) == 0;
    if (d.ask_cc) {
        if (d.target->apple)
            fail("%s: no macOS toolchain to ask", d.ask_cc);
        B3ccArgs c = {0};
        b3cc_push(&c, cc_prog());
        b3cc_push(&c, d.ask_cc);
        return b3cc_run(&c) ? 0 : 1;
    }
    if (d.verbose || d.dry_run)
        print_version(stderr, d.target->b3c_triple);
    if (d.ninputs == 0) {
        if (d.verbose && !d.dry_run)
            return 0;
        fail("no input files%s", "");
    }
    plan();
    if (d.dry_run || d.verbose) {
        if (d.used_tmp) {
            B3ccArgs mk = {0};
            b3cc_push(&mk, "mkdir");
            b3cc_push(&mk, "-p");
            b3cc_push(&mk, b3cc_tmpdir(d.dry_run));
            b3cc_print_command(stderr, &mk);
        }
    }
    for (int i = 0; i < d.ncmds; i++) {
        if (d.dry_run || d.verbose)
            b3cc_print_command(stderr, &d.cmds[i]);
        if (!d.dry_run && !b3cc_run(&d.cmds[i]))
            return 1;
    }
    if ((d.dry_run || d.verbose) && d.used_tmp) {
        B3ccArgs rm = {0};
        b3cc_push(&rm, "rm");
        b3cc_push(&rm, "-rf");
        b3cc_push(&rm, b3cc_tmpdir(d.dry_run));
        b3cc_print_command(stderr, &rm);
    }
    return 0;
}
