/* b3cc: the cc options it knows, and where each one goes.
 *
 * One table (b3cc_options.c) says for every option its spelling, whether it
 * takes a value (joined, separate or either) and its routes: to clang (the
 * C front end), to b3c (the code generator), to the assembler or the link
 * (the system cc), handled by the driver itself, or refused with a reason.
 * Nothing else in b3cc restates which option goes where. */
#ifndef B3CC_OPTIONS_H
#define B3CC_OPTIONS_H

#include <stdbool.h>

typedef enum {
    B3ccArg_None,    /* exactly the name */
    B3ccArg_Joined,  /* the name is a prefix: -std=c11, -Wl,--as-needed, -fPIC */
    B3ccArg_Sep,     /* the value is the next argument: -include FILE */
    B3ccArg_JoinSep, /* either: -Idir or -I dir */
} B3ccArgForm;

enum {
    B3cc_Clang = 1u << 0,   /* to clang, in command-line order */
    B3cc_B3c = 1u << 1,     /* to b3c */
    B3cc_Asm = 1u << 2,     /* to cc when it assembles a .s or .S input */
    B3cc_CppAsm = 1u << 3,  /* to cc when it preprocesses a .S input */
    B3cc_Link = 1u << 4,    /* to the link, in order among the inputs */
    B3cc_Driver = 1u << 5,  /* b3cc acts on it (B3ccOptId) */
    B3cc_Refused = 1u << 6, /* an error: `why` says why */
    B3cc_Ignored = 1u << 7, /* accepted and does nothing (documented in b3cc.1) */
};

/* The options b3cc itself acts on (with B3cc_Driver). */
typedef enum {
    B3ccOpt_None,
    B3ccOpt_o,
    B3ccOpt_c,
    B3ccOpt_S,
    B3ccOpt_E,
    B3ccOpt_M,  /* -M, -MM: dependencies only (clang preprocesses) */
    B3ccOpt_MD, /* -MD, -MMD: dependencies as a side effect */
    B3ccOpt_MF, /* -MF FILE */
    B3ccOpt_MT, /* -MT, -MQ TARGET */
    B3ccOpt_SyntaxOnly,
    B3ccOpt_x,
    B3ccOpt_O,
    B3ccOpt_g,
    B3ccOpt_target,
    B3ccOpt_sysroot,
    B3ccOpt_v,
    B3ccOpt_DryRun, /* -### */
    B3ccOpt_Version,
    B3ccOpt_Help,
    B3ccOpt_AskCc,     /* -print-*, -dumpmachine, -dumpversion: the target's cc answers */
    B3ccOpt_PrefixMap, /* -ffile-prefix-map=: clang's, and b3c's -fdebug-prefix-map= */
} B3ccOptId;

typedef struct {
    const char *name;
    B3ccArgForm form;
    unsigned routes;
    B3ccOptId id;
    const char *why; /* B3cc_Refused: the reason in the error message */
} B3ccOption;

/* The first entry of the table matching `arg`, or NULL.  For an option with
 * a separate value, *takes_next says the value is the next argument. */
const B3ccOption *b3cc_find_option(const char *arg, bool *takes_next);

#endif
