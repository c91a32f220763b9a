/* Internal compiler errors that explain themselves.
 *
 * An internal error is a bug in b3c, not in the input.  Its message names
 * where the compiler was: the phase, the procedure and, when a phase has one
 * in hand, the value (@N, its opcode) with its source line and a caret:
 *
 *   f.b3:7:5: internal error in lower_to_air, procedure @f, value @4 (NotEqual): MESSAGE
 *       Int32 @4 = NotEqual(@2, @3)
 *       ^
 *
 * The driver owns one B3Ice per compilation and installs it; the pipeline
 * updates its phase and procedure as it goes.  This is the one piece of
 * process-wide state in b3c, and only the failure path reads it (as a crash
 * handler must: a fault has no context argument).  With B3C_DEBUG set in the
 * environment (or --debug-internal), the procedure's IR is printed after the
 * message, B3 or Air as the phase works on. */
#ifndef B3_ICE_H
#define B3_ICE_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/diag.h"

struct B3Proc;
struct B3Value;

typedef struct B3Ice {
    B3Diag *diag;       /* the input: file name and text for locations */
    const void *module; /* B3Module*, for the B3 dump */
    /* Prints a procedure (b3_print_proc); set by the driver, so that ice.c
     * needs nothing but diag.c to link. */
    void (*print_b3)(const void *module, const struct B3Proc *proc, FILE *out);
    const char *phase;         /* the running phase, or NULL */
    const struct B3Proc *proc; /* the procedure being compiled, or NULL */
    /* The running phase's Air (AirCode*) and its printer, when the phase works
     * on Air; NULL for B3 phases.  ir/ does not know Air, so the pipeline
     * passes the printer. */
    const void *air;
    void (*print_air)(const void *air, FILE *out);
    bool dump_ir; /* print the IR after the message (B3C_DEBUG, --debug-internal) */
} B3Ice;

/* Makes ice the context of later internal errors and installs the fault
 * handlers (not under a sanitizer, which reports faults itself).  NULL
 * uninstalls.  Reads B3C_DEBUG. */
void b3_ice_install(B3Ice *ice);
/* The pipeline's progress: phase (a static string) and procedure (or NULL). */
void b3_ice_enter(const char *phase, const struct B3Proc *proc);
/* The running Air code for dumps (NULL when the phase is a B3 phase). */
void b3_ice_set_air(const void *air, void (*print_air)(const void *air, FILE *out));

/* "internal error in PHASE, procedure @P, value @N (Op): MESSAGE" at the
 * value's source line, then exit status 3.  v may be NULL; phase may be NULL
 * (the running phase is used).  Aborts instead of exiting when built with
 * -DB3_ICE_ABORT (the fuzzers), so a finding is a crash with a stack. */
_Noreturn void b3_internal_error_at(const char *phase, const struct B3Value *v, const char *fmt, ...)
    B3_PRINTF(3, 4);

#endif
