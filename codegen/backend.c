/* The backend pipeline (codegen/backend.h, docs/backend.md). */
#include "codegen/backend.h"

#include <string.h>
#include <time.h>

#include "codegen/air/phases.h"
#include "codegen/x86_64/x86_64.h"
#include "ir/ice.h"
#include "lower/lower.h"
#include "objwriter/stackmaps.h"

const char *const b3_backend_phases[] = {
    "lower_macros",       "lower_to_air", "allocate_registers", "allocate_stack", "simplify",
    "lower_entry_switch", NULL,
};

bool b3_backend_is_phase(const char *name) {
    if (!strcmp(name, "all"))
        return true;
    for (unsigned i = 0; b3_backend_phases[i]; i++)
        if (!strcmp(name, b3_backend_phases[i]))
            return true;
    return false;
}

bool b3_backend_supports(B3Target t) { return t.arch == B3Arch_X86_64 && t.os == B3OS_Linux; }

/* ---- timing ------------------------------------------------------------------- */

double b3_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void b3_pass_times_add(B3PassTimes *t, const char *name, double seconds) {
    for (unsigned i = 0; i < t->n; i++)
        if (!strcmp(t->phase[i].name, name)) {
            t->phase[i].seconds += seconds;
            return;
        }
    if (t->n == B3_MAX_TIMED_PHASES)
        b3_internal_error("time-passes", "too many phases");
    t->phase[t->n].name = name;
    t->phase[t->n].seconds = seconds;
    t->n++;
}

void b3_pass_times_print(const B3PassTimes *t, FILE *out) {
    double total = 0;
    for (unsigned i = 0; i < t->n; i++)
        total += t->phase[i].seconds;
    fprintf(out, "b3c: time passes\n  %-20s %12s %7s\n", "phase", "seconds", "share");
    for (unsigned i = 0; i < t->n; i++)
        fprintf(out, "  %-20s %12.6f %6.1f%%\n", t->phase[i].name, t->phase[i].seconds,
                total > 0 ? 100.0 * t->phase[i].seconds / total : 0.0);
    fprintf(out, "  %-20s %12.6f %6.1f%%\n", "total", total, 100.0);
}

/* ---- the pipeline ------------------------------------------------------------- */

typedef struct {
    B3Module *m;
    const B3BackendOptions *opt;
    double started; /* of the running phase */
} Pipe;

static void print_air(const void *c, FILE *out) { air_print_code(c, out); }

/* Before a phase: the clock, and the context an internal error names. */
static void begin_phase(Pipe *p, const char *phase, const B3Proc *proc, const AirCode *air) {
    b3_ice_enter(phase, proc);
    if (air)
        b3_ice_set_air(air, print_air);
    const char *inject = p->opt->inject_internal_error;
    if (inject && proc && !strcmp(inject, phase)) {
        /* Tests the report itself: it names this procedure's first value. */
        const B3Value *v = proc->nblocks && proc->blocks[0]->nvalues ? proc->blocks[0]->values[0] : NULL;
        b3_internal_error_at(phase, v, "injected by --inject-internal-error=%s", inject);
    }
    if (p->opt->times)
        p->started = b3_now();
}

static void end(Pipe *p, const char *phase) {
    if (p->opt->times)
        b3_pass_times_add(p->opt->times, phase, b3_now() - p->started);
}

static bool wants_print(const Pipe *p, const char *phase) {
    const char *pa = p->opt->print_after;
    return pa && (!strcmp(pa, "all") || !strcmp(pa, phase));
}

/* After a B3 phase that ran over every procedure. */
static void after_b3(Pipe *p, const char *phase) {
    if (wants_print(p, phase)) {
        fprintf(stderr, "; B3 after %s\n", phase);
        for (uint32_t i = 0; i < p->m->nitems; i++)
            if (p->m->items[i].kind == B3Item_Proc)
                b3_print_proc(p->m, p->m->items[i].sym->def.proc, stderr);
        fflush(stderr);
    }
    if (p->opt->verify_each) {
        B3Diag *d = p->opt->diag;
        b3_ice_enter(phase, NULL); /* the whole module is checked: the errors name the values */
        if (!d || !b3_validate(p->m, d) || d->errors)
            b3_internal_error(phase, "the IR is invalid after this phase (--verify-each)");
    }
}

static void after_air(Pipe *p, AirCode *c, const char *phase) {
    if (wants_print(p, phase)) {
        const B3Symbol *s = c->proc->sym;
        fprintf(stderr, "; Air after %s: @%.*s\n", phase, (int)s->name_len, s->name);
        air_print_code(c, stderr);
        fflush(stderr);
    }
    if (p->opt->verify_each)
        air_validate(c, phase);
}

/* Runs one Air phase, timed, then what --print-after/--verify-each ask for. */
#define AIR_PHASE(p, c, fn, name)             \
    do {                                      \
        begin_phase(p, name, (c)->proc, (c)); \
        fn(c);                                \
        end(p, name);                         \
        after_air(p, c, name);                \
    } while (0)

bool b3_backend_compile(B3Module *m, const B3BackendOptions *opt, B3Obj *o) {
    if (!b3_backend_supports(m->target)) {
        fprintf(stderr, "b3c: error: code generation for %s is not supported yet\n",
                b3_target_name(m->target));
        return false;
    }
    Pipe p = {.m = m, .opt = opt};

    /* B3 phases over the whole module, so --verify-each validates it once
     * (and --time-passes lists them even when there is no procedure). */
    if (opt->times)
        b3_pass_times_add(opt->times, "lower_macros", 0);
    for (uint32_t i = 0; i < m->nitems; i++)
        if (m->items[i].kind == B3Item_Proc) {
            begin_phase(&p, "lower_macros", m->items[i].sym->def.proc, NULL);
            b3_lower_macros(m, m->items[i].sym->def.proc);
            end(&p, "lower_macros");
        }
    after_b3(&p, "lower_macros");

    /* Air phases one procedure at a time: its Air is dead once it is encoded. */
    for (uint32_t i = 0; i < m->nitems; i++) {
        if (m->items[i].kind != B3Item_Proc)
            continue;
        AirCode c;
        air_code_init(&c, m, m->items[i].sym->def.proc);
        AIR_PHASE(&p, &c, b3_lower_to_air, "lower_to_air");
        AIR_PHASE(&p, &c, air_allocate_registers, "allocate_registers");
        if (opt->emit_air) {
            air_print_code(&c, opt->emit_air); /* it names the procedure itself */
            continue;
        }
        AIR_PHASE(&p, &c, air_allocate_stack, "allocate_stack");
        AIR_PHASE(&p, &c, air_simplify, "simplify");
        /* Last, as in WebKit: the phases above see EntrySwitch as one multi-way
         * branch of a single-entry CFG, and their allocation holds in every clone. */
        AIR_PHASE(&p, &c, air_lower_entry_switch, "lower_entry_switch");
        begin_phase(&p, "emit_x86_64", c.proc, &c);
        b3_x86_64_emit_proc(&c, o);
        end(&p, "emit_x86_64");
    }
    if (!opt->emit_air) {
        begin_phase(&p, "emit_data", NULL, NULL);
        b3_obj_emit_data(o, m);
        b3_obj_emit_stackmaps(o); /* after every procedure: its header counts them all */
        end(&p, "emit_data");
    }
    return true;
}
