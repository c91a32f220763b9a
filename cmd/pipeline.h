/* The pipeline: one table of phases that everything reads.
 *
 * Each phase has a name, the IR it works on (B3 or Air), the optimization
 * levels that run it and its function.  The runner, `--print-after`,
 * `--verify-each`, `--time-passes`, `--inject-internal-error` and the list
 * of phase names in messages and --help all come from the table, so a new
 * phase is one file plus one line of cmd/pipeline.c.
 *
 * B3 phases run over every procedure, one phase at a time, so
 * `--verify-each` validates the module once per phase; then each procedure
 * goes through the Air phases and is emitted (its Air is dead after). */
#ifndef B3_PIPELINE_H
#define B3_PIPELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "codegen/air/air.h"
#include "ir/ir.h"
#include "objwriter/obj.h"

/* Cumulative wall time per named phase (--time-passes). */
#define B3_MAX_TIMED_PHASES 48
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

typedef enum { B3PhaseIR_B3, B3PhaseIR_Air } B3PhaseIR;

/* Levels that run a phase: a mask of 1 << level. */
enum { B3_O0 = 1, B3_O1 = 2, B3_O2 = 4, B3_O01 = B3_O0 | B3_O1, B3_O12 = B3_O1 | B3_O2, B3_OALL = B3_O0 | B3_O1 | B3_O2 };

enum {
    B3PhaseF_RepeatIfChanged = 1, /* run again once when the first run changed something (B3's CSE) */
    B3PhaseF_EmitAirAfter = 2,    /* --emit=air prints the Air after this phase and stops */
    /* Reads other procedures (the callees it copies): it and the phases
     * before it run over the whole module before the later phases run
     * procedure by procedure (b3_pipeline_run). */
    B3PhaseF_Module = 4,
};

typedef struct {
    const char *name;
    uint8_t ir;     /* B3PhaseIR */
    uint8_t levels; /* B3_O* mask */
    uint8_t flags;  /* B3PhaseF_* */
    /* B3 phases return whether they changed the procedure. */
    bool (*b3)(B3Module *m, B3Proc *p);
    void (*air)(AirCode *c);
} B3Phase;

/* The table, in pipeline order; n phases. */
extern const B3Phase b3_pipeline[];
extern const unsigned b3_pipeline_n;

/* Is name a phase of the table (or "all")? */
bool b3_pipeline_is_phase(const char *name);
/* Writes the distinct phase names, comma-separated, in pipeline order;
 * with_ir: each followed by the IR it works on, "(B3)" or "(Air)", in
 * lines of at most 80 columns indented by two (for --help). */
void b3_pipeline_list_phases(FILE *out, bool with_ir);

typedef struct {
    int opt_level;                     /* 0, 1, 2 */
    bool verify_each;                  /* b3_validate after B3 phases, air_validate after Air phases */
    const char *print_after;           /* NULL, a phase name or "all": IR to stderr */
    B3PassTimes *times;                /* non-NULL: accumulate each phase's time here */
    FILE *emit_air;                    /* non-NULL: print each procedure's Air after the
                              * EmitAirAfter phase here, and stop there */
    B3Diag *diag;                      /* where --verify-each reports what is wrong */
    const char *inject_internal_error; /* testing: an internal error as this phase starts */
    bool omit_frame_pointer;           /* -O2: no frame pointer where the target allows (AirCode) */
    bool no_unwind_tables;             /* -fno-unwind-tables: no ELF .eh_frame (B3Obj) */
    /* For the object (b3_compile_to_obj): -fverbose-asm, and -g's
     * -fdebug-prefix-map=OLD=NEW strings (objwriter/dwarf.h). */
    bool verbose_asm;
    const char *const *debug_prefix_map;
    uint32_t ndebug_prefix_map;
} B3PipelineOptions;

/* Compiles every procedure of m (which must be valid) and lays out its data
 * into o.  Returns false (after printing why) if the target is unsupported;
 * internal errors exit with status 3 naming the phase. */
bool b3_pipeline_run(B3Module *m, const B3PipelineOptions *opt, B3Obj *o);
/* --emit=b3: only the B3 phases of the level (none at -O0, where the spec
 * wants the input unchanged); the module stays valid B3 that reads back. */
void b3_pipeline_run_b3(B3Module *m, const B3PipelineOptions *opt);

#endif
