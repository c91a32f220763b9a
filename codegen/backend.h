/* The backend pipeline: B3 -> Air -> machine code and data in a B3Obj.
 *
 * Per procedure:  lower_macros (B3)  ->  lower_to_air  ->  allocate_registers
 *   ->  allocate_stack  ->  simplify  ->  x86-64 emission;
 * then the module's data.  B3 phases run over every procedure first, then the
 * Air phases one procedure at a time. */
#ifndef B3_BACKEND_H
#define B3_BACKEND_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/ir.h"
#include "objwriter/obj.h"

/* Cumulative wall time per named phase (--time-passes). */
#define B3_MAX_TIMED_PHASES 24
typedef struct {
    struct {
        const char *name;
        double seconds;
    } phase[B3_MAX_TIMED_PHASES];
    unsigned n;
} B3PassTimes;

/* A monotonic clock in seconds. */
double b3_now(void);
/* Adds seconds to the named phase (first use fixes its place in the table). */
void b3_pass_times_add(B3PassTimes *t, const char *name, double seconds);
/* Prints the table (phase, seconds, share of the total) to out. */
void b3_pass_times_print(const B3PassTimes *t, FILE *out);

typedef struct {
    int opt_level;                     /* 0, 1, 2: today every level runs the same phases */
    bool verify_each;                  /* b3_validate after B3 phases, air_validate after Air phases */
    const char *print_after;           /* NULL, a phase name (b3_backend_is_phase) or "all": IR to stderr */
    B3PassTimes *times;                /* non-NULL: accumulate each phase's time here */
    FILE *emit_air;                    /* non-NULL: print each procedure's Air after register
                              * allocation here, and stop there (no code, no data) */
    B3Diag *diag;                      /* where --verify-each reports what is wrong */
    const char *inject_internal_error; /* testing: an internal error at the start of this phase */
} B3BackendOptions;

/* The phase names --print-after accepts, NULL-terminated, in pipeline order. */
extern const char *const b3_backend_phases[];
/* Is name a phase of the pipeline (or "all")? */
bool b3_backend_is_phase(const char *name);
/* Can the backend generate code for this target? */
bool b3_backend_supports(B3Target t);

/* Compiles every procedure of m (which must be valid) and lays out its data
 * into o.  Returns false (after printing why) if the target is unsupported;
 * internal errors exit with status 3 naming the phase. */
bool b3_backend_compile(B3Module *m, const B3BackendOptions *opt, B3Obj *o);

#endif
