/* b3cc: the table of cc options.  The first entry that matches wins, so a
 * specific spelling comes before the generic prefix that would also match it
 * (-Wl, before -W, -fsanitize= before -f, -m32 before -m).  docs/b3cc.1
 * lists the refused and the ignored ones. */
#include "cmd/b3cc_options.h"

#include <stddef.h>
#include <string.h>

#define CLANG B3cc_Clang
#define B3C B3cc_B3c
#define LINK B3cc_Link
#define DRIVER B3cc_Driver
#define REFUSED B3cc_Refused

static const B3ccOption options[] = {
    /* ---- what to do, where to write ---- */
    {"-o", B3ccArg_JoinSep, DRIVER, B3ccOpt_o, NULL},
    {"-c", B3ccArg_None, DRIVER, B3ccOpt_c, NULL},
    {"-S", B3ccArg_None, DRIVER, B3ccOpt_S, NULL},
    {"-E", B3ccArg_None, DRIVER, B3ccOpt_E, NULL},
    {"-fsyntax-only", B3ccArg_None, DRIVER, B3ccOpt_SyntaxOnly, NULL},
    {"-x", B3ccArg_JoinSep, DRIVER, B3ccOpt_x, NULL},
    {"-v", B3ccArg_None, DRIVER, B3ccOpt_v, NULL},
    {"-###", B3ccArg_None, DRIVER, B3ccOpt_DryRun, NULL},
    {"--version", B3ccArg_None, DRIVER, B3ccOpt_Version, NULL},
    {"--help", B3ccArg_None, DRIVER, B3ccOpt_Help, NULL},
    {"-print-", B3ccArg_Joined, DRIVER, B3ccOpt_AskCc, NULL},
    {"-dumpmachine", B3ccArg_None, DRIVER, B3ccOpt_AskCc, NULL},
    {"-dumpversion", B3ccArg_None, DRIVER, B3ccOpt_AskCc, NULL},
    {"-dumpfullversion", B3ccArg_None, DRIVER, B3ccOpt_AskCc, NULL},
    {"-pipe", B3ccArg_None, B3cc_Ignored, B3ccOpt_None, NULL},
    {"--target=", B3ccArg_Joined, DRIVER, B3ccOpt_target, NULL},
    {"--target", B3ccArg_Sep, DRIVER, B3ccOpt_target, NULL},
    {"-target", B3ccArg_Sep, DRIVER, B3ccOpt_target, NULL},
    {"--sysroot=", B3ccArg_Joined, DRIVER, B3ccOpt_sysroot, NULL},
    {"--sysroot", B3ccArg_Sep, DRIVER, B3ccOpt_sysroot, NULL},

    /* ---- optimization and debug information: both compilers ---- */
    {"-O", B3ccArg_Joined, DRIVER, B3ccOpt_O, NULL},
    {"-gsplit-dwarf", B3ccArg_None, REFUSED, B3ccOpt_None, "b3c writes no split DWARF"},
    {"-g", B3ccArg_Joined, CLANG | DRIVER, B3ccOpt_g, NULL},

    /* ---- preprocessor ---- */
    {"-undef", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-I", B3ccArg_JoinSep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-D", B3ccArg_JoinSep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-U", B3ccArg_JoinSep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-include", B3ccArg_Sep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-imacros", B3ccArg_Sep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-isystem", B3ccArg_JoinSep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-idirafter", B3ccArg_JoinSep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-iquote", B3ccArg_JoinSep, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-isysroot", B3ccArg_Sep, CLANG, B3ccOpt_None, NULL},
    {"-nostdinc", B3ccArg_None, CLANG | B3cc_CppAsm, B3ccOpt_None, NULL},
    {"-C", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-CC", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-P", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-H", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-dM", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-dD", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-dI", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-M", B3ccArg_None, CLANG | DRIVER, B3ccOpt_M, NULL},
    {"-MM", B3ccArg_None, CLANG | DRIVER, B3ccOpt_M, NULL},
    {"-MD", B3ccArg_None, CLANG | DRIVER, B3ccOpt_MD, NULL},
    {"-MMD", B3ccArg_None, CLANG | DRIVER, B3ccOpt_MD, NULL},
    {"-MF", B3ccArg_JoinSep, CLANG | DRIVER, B3ccOpt_MF, NULL},
    {"-MT", B3ccArg_JoinSep, CLANG | DRIVER, B3ccOpt_MT, NULL},
    {"-MQ", B3ccArg_JoinSep, CLANG | DRIVER, B3ccOpt_MT, NULL},
    {"-MP", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-MG", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-Wp,", B3ccArg_Joined, CLANG, B3ccOpt_None, NULL},
    {"-Xpreprocessor", B3ccArg_Sep, CLANG, B3ccOpt_None, NULL},

    /* ---- the language and its warnings ---- */
    {"-std=", B3ccArg_Joined, CLANG, B3ccOpt_None, NULL},
    {"-ansi", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-pedantic", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-pedantic-errors", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-w", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-Werror", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-Wno-error", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-Wl,", B3ccArg_Joined, LINK, B3ccOpt_None, NULL},
    {"-Wa,", B3ccArg_Joined, B3cc_Asm, B3ccOpt_None, NULL},
    {"-W", B3ccArg_Joined, CLANG, B3ccOpt_None, NULL},
    {"-Qunused-arguments", B3ccArg_None, CLANG, B3ccOpt_None, NULL},
    {"-Xclang", B3ccArg_Sep, CLANG, B3ccOpt_None, NULL},
    {"-Xassembler", B3ccArg_Sep, B3cc_Asm, B3ccOpt_None, NULL},

    /* ---- code generation: what b3c also honours ---- */
    {"-fcolor-diagnostics", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-fno-color-diagnostics", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-fomit-frame-pointer", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-fno-omit-frame-pointer", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-fno-unwind-tables", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-fno-asynchronous-unwind-tables", B3ccArg_None, CLANG | B3C, B3ccOpt_None, NULL},
    {"-fverbose-asm", B3ccArg_None, B3C, B3ccOpt_None, NULL},
    {"-fno-verbose-asm", B3ccArg_None, B3C, B3ccOpt_None, NULL},
    {"-fdebug-prefix-map=", B3ccArg_Joined, CLANG | B3C, B3ccOpt_None, NULL},
    {"-ffile-prefix-map=", B3ccArg_Joined, CLANG | DRIVER, B3ccOpt_PrefixMap, NULL},
    {"-fuse-ld=", B3ccArg_Joined, LINK, B3ccOpt_None, NULL},

    /* ---- what b3c cannot do: instrumentation and whole-program builds ---- */
    {"-fsanitize=", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3c adds no sanitizer instrumentation"},
    {"-fprofile-", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3c adds no profiling instrumentation"},
    {"-fcoverage-", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3c adds no coverage instrumentation"},
    {"--coverage", B3ccArg_None, REFUSED, B3ccOpt_None, "b3c adds no coverage instrumentation"},
    {"-finstrument-functions", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3c adds no instrumentation"},
    {"-fxray", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3c adds no instrumentation"},
    {"-flto", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3c writes machine code, not bitcode objects"},
    {"-fembed-bitcode", B3ccArg_Joined, REFUSED, B3ccOpt_None,
     "b3c writes machine code, not bitcode objects"},
    {"-fopenmp", B3ccArg_Joined, REFUSED, B3ccOpt_None, "b3cc does not link an OpenMP runtime"},
    {"-fsplit-stack", B3ccArg_None, REFUSED, B3ccOpt_None, "b3c has no split stacks"},
    {"-save-temps", B3ccArg_Joined, REFUSED, B3ccOpt_None, "use -v to see the commands, -### to get them"},
    {"-f", B3ccArg_Joined, CLANG, B3ccOpt_None, NULL},

    /* ---- machine ---- */
    {"-m32", B3ccArg_None, REFUSED, B3ccOpt_None, "b3c generates 64-bit code only"},
    {"-mx32", B3ccArg_None, REFUSED, B3ccOpt_None, "b3c generates 64-bit code only"},
    {"-m16", B3ccArg_None, REFUSED, B3ccOpt_None, "b3c generates 64-bit code only"},
    {"-mllvm", B3ccArg_Sep, CLANG, B3ccOpt_None, NULL},
    {"-m", B3ccArg_Joined, CLANG, B3ccOpt_None, NULL},

    /* ---- the link ---- */
    {"-pthread", B3ccArg_None, CLANG | LINK, B3ccOpt_None, NULL},
    {"-l", B3ccArg_JoinSep, LINK, B3ccOpt_None, NULL},
    {"-L", B3ccArg_JoinSep, LINK, B3ccOpt_None, NULL},
    {"-Xlinker", B3ccArg_Sep, LINK, B3ccOpt_None, NULL},
    {"-T", B3ccArg_JoinSep, LINK, B3ccOpt_None, NULL},
    {"-u", B3ccArg_JoinSep, LINK, B3ccOpt_None, NULL},
    {"-z", B3ccArg_Sep, LINK, B3ccOpt_None, NULL},
    {"-shared", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-static", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-static-pie", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-pie", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-no-pie", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-rdynamic", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-s", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-nostdlib", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-nostartfiles", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-nodefaultlibs", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-static-libgcc", B3ccArg_None, LINK, B3ccOpt_None, NULL},
    {"-shared-libgcc", B3ccArg_None, LINK, B3ccOpt_None, NULL},
};

const B3ccOption *b3cc_find_option(const char *arg, bool *takes_next) {
    *takes_next = false;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        const B3ccOption *o = &options[i];
        size_t n = strlen(o->name);
        bool exact = strcmp(arg, o->name) == 0;
        bool prefix = strncmp(arg, o->name, n) == 0;
        switch (o->form) {
        case B3ccArg_None:
            if (exact)
                return o;
            break;
        case B3ccArg_Joined:
            if (prefix)
                return o;
            break;
        case B3ccArg_Sep:
            if (exact) {
                *takes_next = true;
                return o;
            }
            break;
        case B3ccArg_JoinSep:
            if (prefix) {
                *takes_next = exact;
                return o;
            }
            break;
        }
    }
    return NULL;
}
