/* The compilation driver: options and the pipeline they select. */
#ifndef B3_DRIVER_H
#define B3_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/pipeline.h"
#include "ir/target.h"
#include "objwriter/obj.h"

typedef enum { B3Emit_Obj, B3Emit_Asm, B3Emit_B3, B3Emit_Air } B3EmitKind;

typedef struct {
    const char *input;  /* "-" is stdin */
    const char *output; /* NULL: default */
    const char *name;   /* --name */
    const char *print_after;
    int opt_level;
    B3EmitKind emit;
    B3Target target;
    bool verify_each, time_passes, debug_info;
    bool no_fast_parse;                /* --no-fast-parse */
    bool debug_internal;               /* --debug-internal: an internal error prints the IR */
    const char *inject_internal_error; /* --inject-internal-error=PHASE (testing) */
    bool asm_exact;                    /* --asm-exact: -S keeps every jump's size ({disp32}) */
    int frame_pointer;                 /* -f[no-]omit-frame-pointer: 1 omit, -1 keep, 0 default */
    bool no_unwind_tables;             /* -fno-unwind-tables, -fno-asynchronous-unwind-tables */
    uint8_t target_features;           /* -mattr: B3Feature_* bits */
    int color;                         /* -f[no-]color-diagnostics: 1 on, -1 off, 0 if stderr is a tty */
    uint8_t warnings;                  /* B3Warn_*: from -w, -Werror */
    bool no_warnings, werror;          /* -w, -Werror as given */
    bool verbose;                      /* -v: the version, target and phases, to stderr */
    const char *version;               /* for -v */
    bool verbose_asm;                  /* -f[no-]verbose-asm: -S comments (docs/backend.md) */
    const char **debug_prefix_map;     /* -fdebug-prefix-map=OLD=NEW, in command-line order */
    uint32_t ndebug_prefix_map;
} B3Options;

/* Runs the whole compilation; returns the process exit status. */
int b3_drive(const B3Options *o);

/* The backend part of --emit=obj and --emit=asm, for the driver and the
 * backend fuzzer (testsuite/fuzz/fuzz_backend.c): initializes obj, runs the
 * backend over m (which must be valid) and, with debug_file (-g: the input's
 * name), adds the DWARF line tables.  asm_text < 0: an object only; 0 or 1:
 * also collect -S text, 1 as --asm-exact.  Then write obj with b3_write_object
 * or b3_write_asm.  Returns false (after printing why) if the backend
 * refused; call b3_compiled_obj_free in every case. */
bool b3_compile_to_obj(B3Module *m, const B3PipelineOptions *bopt, const char *debug_file, int asm_text,
                       B3Obj *obj);
void b3_compiled_obj_free(B3Obj *obj);

#endif
