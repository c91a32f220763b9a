/* The compilation driver: options and the pipeline they select. */
#ifndef B3_DRIVER_H
#define B3_DRIVER_H

#include <stdbool.h>

#include "ir/target.h"

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
    bool debug_internal;               /* --debug-internal: an internal error prints the IR */
    const char *inject_internal_error; /* --inject-internal-error=PHASE (testing) */
    bool asm_exact;                    /* --asm-exact: -S keeps every jump's size ({disp32}) */
} B3Options;

/* Runs the whole compilation; returns the process exit status. */
int b3_drive(const B3Options *o);

#endif
