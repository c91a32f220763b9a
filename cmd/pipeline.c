/* The pipeline table and its runner (cmd/pipeline.h, docs/backend.md). */
#include "cmd/pipeline.h"

#include <string.h>
#include <time.h>

#include "codegen/air/phases.h"
#include "codegen/backend.h"
#include "ir/ice.h"
#include "lower/lower.h"
#include "objwriter/stackmaps.h"
#include "opt/phases.h"

/* clang-format off */
const B3Phase b3_pipeline[] = {
    /* name                  IR             levels   flags                    B3 phase          Air phase */
    /* Beyond B3 (its clients inline before it): small callees of the module
     * copied into their callers, before the phases that clean the copies up. */
    {"inline_procedures",    B3PhaseIR_B3,  B3_O2,   B3PhaseF_Module,         b3_inline_procedures, NULL},
    /* Beyond B3: slots that only loads and stores use become Variables. */
    {"promote_stack_slots",  B3PhaseIR_B3,  B3_O12,  0,                       b3_promote_stack_slots, NULL},
    /* Not in B3 at -O1; here first, so the phases after it see SSA values
     * where a C front end wrote Variables and stack slots. */
    {"fix_ssa",              B3PhaseIR_B3,  B3_O12,  0,                       b3_fix_ssa,       NULL},
    /* B3's first phase at -O2; here after fix_ssa, so that it sees Phis
     * rather than Variables, and still before reduce_strength. */
    {"reduce_double_to_float", B3PhaseIR_B3, B3_O2,  0,                       b3_reduce_double_to_float, NULL},
    /* Beyond B3: at most two rounds at -O1 (their fixed point's last rounds
     * change little, and cost as much as the first). */
    {"reduce_strength",      B3PhaseIR_B3,  B3_O1,   0,                       b3_reduce_strength_quick, NULL},
    {"reduce_strength",      B3PhaseIR_B3,  B3_O2,   0,                       b3_reduce_strength, NULL},
    {"hoist_loop_invariant_values", B3PhaseIR_B3, B3_O2, 0,               b3_hoist_loop_invariant_values, NULL},
    {"eliminate_common_subexpressions", B3PhaseIR_B3, B3_O2, B3PhaseF_RepeatIfChanged, b3_eliminate_common_subexpressions, NULL},
    {"eliminate_dead_code",  B3PhaseIR_B3,  B3_O12,  0,                       b3_eliminate_dead_code, NULL},
    /* Beyond B3: after hoisting and CSE, which leave each loop's invariants
     * in its preheader and each affine expression computed once. */
    /* Beyond B3: Int32 counters in Int64, so that reduce_loop_strength
     * sees the 64-bit indexes. */
    {"widen_induction_variables", B3PhaseIR_B3, B3_O2, 0,                 b3_widen_induction_variables, NULL},
    {"reduce_loop_strength", B3PhaseIR_B3,  B3_O2,   0,                       b3_reduce_loop_strength, NULL},
    {"infer_switches",       B3PhaseIR_B3,  B3_O2,   0,                       b3_infer_switches, NULL},
    /* Beyond B3: before duplicate_tails copies the joins into the arms. */
    {"convert_branches_to_selects", B3PhaseIR_B3, B3_O2, 0,               b3_convert_branches_to_selects, NULL},
    {"duplicate_tails",      B3PhaseIR_B3,  B3_O2,   0,                       b3_duplicate_tails, NULL},
    /* B3's place at -O2: after duplicate_tails (which leaves Variables),
     * before fold_path_constants.  Cheap when no Variable is left. */
    {"fix_ssa",              B3PhaseIR_B3,  B3_O2,   0,                       b3_fix_ssa,       NULL},
    {"fold_path_constants",  B3PhaseIR_B3,  B3_O2,   0,                       b3_fold_path_constants, NULL},
    {"lower_macros",         B3PhaseIR_B3,  B3_OALL, 0,                       b3_lower_macros,  NULL},
    {"optimize_associative_expression_trees", B3PhaseIR_B3, B3_O2, 0,       b3_optimize_associative_expression_trees, NULL},
    /* As B3 after lowerMacros: fold what the expansions expose. */
    {"reduce_strength",      B3PhaseIR_B3,  B3_O2,   0,                       b3_reduce_strength, NULL},
    /* B3 runs these three at every level; move_constants is skipped at -O0,
     * whose code is the differential tests' plain reference. */
    {"lower_macros_after_optimizations", B3PhaseIR_B3, B3_OALL, 0,          b3_lower_macros_after_optimizations, NULL},
    {"legalize_memory_offsets", B3PhaseIR_B3, B3_OALL, 0,                   b3_legalize_memory_offsets, NULL},
    {"move_constants",       B3PhaseIR_B3,  B3_O12,  0,                       b3_move_constants, NULL},
    /* B3 ends -O2 with one more pass, after lowering the macros. */
    {"eliminate_dead_code",  B3PhaseIR_B3,  B3_O2,   0,                       b3_eliminate_dead_code, NULL},
    /* Beyond B3: a Phi's writes on the edge that needs them, not before a
     * branch that may go elsewhere. */
    {"place_upsilons_on_edges", B3PhaseIR_B3, B3_O2, 0,                    b3_place_upsilons_on_edges, NULL},
    {"lower_to_air",         B3PhaseIR_Air, B3_OALL, 0,                       NULL,             b3_lower_to_air},
    /* Named apart from the B3 phase for --print-after and --time-passes.
     * Linear, and it leaves the allocator less to do.  Not at -O0, whose
     * allocator drops the dead insts of each block on its way (lowering
     * emits little else: 3% of the insts on bench/run.sh obj), nor at -O1:
     * B3's DCE ran just before lowering, and what lowering leaves dead the
     * linear scan gives a register and remove_self_moves and
     * report_used_registers delete (the 15 bench/quality kernels' -O1
     * objects are the same without it; it was 3% of -O1's time). */
    {"air_eliminate_dead_code", B3PhaseIR_Air, B3_O2, 0,                      NULL,             air_eliminate_dead_code},
    /* Beyond B3 (whose clients never call setjmp): what lives across a
     * returnsTwice CCall goes to memory, so every allocator honours it. */
    {"spill_across_returns_twice", B3PhaseIR_Air, B3_OALL, 0,              NULL,             air_spill_across_returns_twice},
    /* As B3: linear scan at -O1, graph coloring at -O2. */
    /* -O0: one pass per block, nothing global (LLVM's RegAllocFast). */
    {"allocate_registers_fast", B3PhaseIR_Air, B3_O0,   B3PhaseF_EmitAirAfter,   NULL,             air_allocate_registers_fast},
    {"allocate_registers_and_stack_by_linear_scan", B3PhaseIR_Air, B3_O1, B3PhaseF_EmitAirAfter, NULL, air_allocate_registers_and_stack_by_linear_scan},
    {"allocate_registers",   B3PhaseIR_Air, B3_O2,   0,                       NULL,             air_allocate_registers},
    {"fix_obvious_spills",   B3PhaseIR_Air, B3_O2,   0,                       NULL,             air_fix_obvious_spills_phase},
    {"handle_callee_saves",  B3PhaseIR_Air, B3_O2,   B3PhaseF_EmitAirAfter,   NULL,             air_handle_callee_saves},
    /* -O0's allocator drops them itself. */
    {"remove_self_moves",    B3PhaseIR_Air, B3_O12,  0,                       NULL,             air_remove_self_moves},
    /* Beyond WebKit's order: its allocator keeps these moves out by
     * itself; ours leave the ones they could not prove pure. */
    {"eliminate_zero_extensions", B3PhaseIR_Air, B3_O12, 0,                 NULL,             air_eliminate_zero_extensions},
    /* As B3 after allocation (the dead-write half: see docs/backend.md, "Air phases after
     * allocation"). */
    {"report_used_registers", B3PhaseIR_Air, B3_O12, 0,                     NULL,             air_report_used_registers},
    {"allocate_stack",       B3PhaseIR_Air, B3_O2,   0,                       NULL,             air_allocate_stack},
    {"simplify_cfg",         B3PhaseIR_Air, B3_OALL, 0,                       NULL,             air_simplify_cfg},
    /* Beyond B3 (LLVM's tail duplication of indirect branches): each
     * block jumping to an interpreter's dispatch gets its own copy. */
    {"duplicate_dispatch",   B3PhaseIR_Air, B3_O2,   0,                       NULL,             air_duplicate_dispatch},
    /* As in WebKit: the phases above see EntrySwitch as one multi-way
     * branch of a single-entry CFG, and their allocation holds in every clone. */
    {"lower_entry_switch",   B3PhaseIR_Air, B3_OALL, 0,                       NULL,             air_lower_entry_switch},
    /* Last, as in WebKit: the layout the emitter follows (every level: it
     * is linear, and falling through matters at -O0 too). */
    {"optimize_block_order", B3PhaseIR_Air, B3_OALL, 0,                       NULL,             air_optimize_block_order},
    /* As B3, last and at -O2 only. */
    {"fix_partial_register_stalls", B3PhaseIR_Air, B3_O2, 0,                NULL,             air_fix_partial_register_stalls},
    /* Beyond B3 (its JIT aligns nothing): loop headers padded as gcc's
     * `.p2align 4,,10` pads them, at -O2 only, where code size matters less. */
    {"align_loop_headers",   B3PhaseIR_Air, B3_O2,   0,                       NULL,             air_align_loop_headers},
};
/* clang-format on */
const unsigned b3_pipeline_n = sizeof b3_pipeline / sizeof b3_pipeline[0];

bool b3_pipeline_is_phase(const char *name) {
    if (!strcmp(name, "all"))
        return true;
    for (unsigned i = 0; i < b3_pipeline_n; i++)
        if (!strcmp(name, b3_pipeline[i].name))
            return true;
    return false;
}

void b3_pipeline_list_phases(FILE *out, bool with_ir) {
    unsigned col = 2; /* --help's lines: indented by two, at most 80 columns */
    for (unsigned i = 0; i < b3_pipeline_n; i++) {
        bool seen = false;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = !strcmp(b3_pipeline[j].name, b3_pipeline[i].name);
        if (seen)
            continue;
        const char *ir = !with_ir ? "" : b3_pipeline[i].ir == B3PhaseIR_B3 ? " (B3)" : " (Air)";
        unsigned len = (unsigned)(strlen(b3_pipeline[i].name) + strlen(ir));
        if (i)
            fputc(',', out);
        if (i && with_ir && col + 2 + len > 80) {
            fputs("\n  ", out);
            col = 2;
        } else if (i) {
            fputc(' ', out);
            col += 2;
        }
        fprintf(out, "%s%s", b3_pipeline[i].name, ir);
        col += len;
    }
}

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
    int w = 34; /* the name column: as wide as the longest name */
    for (unsigned i = 0; i < t->n; i++) {
        total += t->phase[i].seconds;
        if ((int)strlen(t->phase[i].name) > w)
            w = (int)strlen(t->phase[i].name);
    }
    fprintf(out, "b3c: time passes\n  %-*s %12s %7s\n", w, "phase", "seconds", "share");
    for (unsigned i = 0; i < t->n; i++)
        fprintf(out, "  %-*s %12.6f %6.1f%%\n", w, t->phase[i].name, t->phase[i].seconds,
                total > 0 ? 100.0 * t->phase[i].seconds / total : 0.0);
    fprintf(out, "  %-*s %12.6f %6.1f%%\n", w, "total", total, 100.0);
}

/* ---- the runner --------------------------------------------------------------- */

typedef struct {
    B3Module *m;
    const B3PipelineOptions *opt;
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

static void end_phase(Pipe *p, const char *phase) {
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

/* One B3 phase over one procedure. */
static void run_b3_phase_on(Pipe *p, const B3Phase *ph, B3Proc *proc) {
    begin_phase(p, ph->name, proc, NULL);
    bool changed = ph->b3(p->m, proc);
    if (changed && (ph->flags & B3PhaseF_RepeatIfChanged))
        ph->b3(p->m, proc);
    end_phase(p, ph->name);
}

/* One B3 phase over every procedure. */
static void run_b3_phase(Pipe *p, const B3Phase *ph) {
    B3Module *m = p->m;
    if (p->opt->times)
        b3_pass_times_add(p->opt->times, ph->name, 0); /* listed even with no procedure */
    for (uint32_t i = 0; i < m->nitems; i++)
        if (m->items[i].kind == B3Item_Proc)
            run_b3_phase_on(p, ph, m->items[i].sym->def.proc);
    after_b3(p, ph->name);
}

/* Every Air phase of the level over one procedure, then its emission. */
static void run_air(Pipe *p, B3Proc *proc, unsigned level, B3Obj *o) {
    AirCode c;
    air_code_init(&c, p->m, proc);
    c.backend = b3_backend(c.target);
    c.omit_frame_pointer = p->opt->omit_frame_pointer && c.backend->can_omit_frame_pointer(proc);
    c.opt_level = (uint8_t)(__builtin_ctz(level)); /* level is 1 << (the -O level) */
    for (unsigned i = 0; i < b3_pipeline_n; i++) {
        const B3Phase *ph = &b3_pipeline[i];
        if (ph->ir != B3PhaseIR_Air || !(ph->levels & level))
            continue;
        begin_phase(p, ph->name, proc, &c);
        ph->air(&c);
        end_phase(p, ph->name);
        after_air(p, &c, ph->name);
        if (p->opt->emit_air && (ph->flags & B3PhaseF_EmitAirAfter)) {
            air_print_code(&c, p->opt->emit_air); /* it names the procedure itself */
            air_code_free(&c);
            return;
        }
    }
    const char *emit = c.backend->emit_name;
    begin_phase(p, emit, proc, &c);
    b3_emit_proc(c.backend->emit, &c, o);
    end_phase(p, emit);
    b3_ice_set_air(NULL, NULL); /* its Air is gone: an internal error must not print it */
    air_code_free(&c);
}

static unsigned level_mask(const B3PipelineOptions *opt) {
    return 1u << (opt->opt_level < 0 ? 0 : opt->opt_level > 2 ? 2 : opt->opt_level);
}

/* The index of the first Air phase: the table lists B3 phases before Air
 * ones (Air exists only after lower_to_air). */
static unsigned first_air_phase(void) {
    unsigned first_air = b3_pipeline_n;
    for (unsigned i = 0; i < b3_pipeline_n; i++) {
        const B3Phase *ph = &b3_pipeline[i];
        if (ph->ir == B3PhaseIR_Air && first_air == b3_pipeline_n)
            first_air = i;
        else if (ph->ir == B3PhaseIR_B3 && first_air < i)
            b3_internal_error("pipeline", "B3 phase %s is listed after an Air phase", ph->name);
    }
    return first_air;
}

/* The B3 phases of the table in [from, to) that run at the level, each over every procedure. */
static void run_b3_phases_range(Pipe *p, unsigned level, unsigned from, unsigned to) {
    for (unsigned i = from; i < to; i++)
        if (b3_pipeline[i].levels & level)
            run_b3_phase(p, &b3_pipeline[i]);
}

static void run_b3_phases(Pipe *p, unsigned level) { run_b3_phases_range(p, level, 0, first_air_phase()); }

void b3_pipeline_run_b3(B3Module *m, const B3PipelineOptions *opt) {
    if (opt->opt_level <= 0)
        return; /* the spec: with -O0, --emit=b3 prints the input unchanged */
    Pipe p = {.m = m, .opt = opt};
    run_b3_phases(&p, level_mask(opt));
}

bool b3_pipeline_run(B3Module *m, const B3PipelineOptions *opt, B3Obj *o) {
    if (!b3_backend_supports(m->target)) {
        fprintf(stderr, "b3c: error: code generation for %s is not supported yet\n",
                b3_target_name(m->target));
        return false;
    }
    Pipe p = {.m = m, .opt = opt};
    unsigned level = level_mask(opt);
    if (b3_target_obj_format(m->target) == B3ObjFormat_MachO)
        b3_lower_macho_destructors(m);
    /* Procedure by procedure: each one's B3 phases, its Air, its emission,
     * then its IR is freed (the object writer keeps what it needs), so the
     * optimizer's and the back end's memory is one procedure's at a time.
     * A phase that reads other procedures (B3PhaseF_Module) and those before
     * it run over the whole module first: every procedure sees the others
     * as the phase order says.  Printing or checking the module after each
     * phase (--print-after, --verify-each) keeps the phases module-wide. */
    unsigned first_air = first_air_phase(), split = first_air;
    if (!opt->print_after && !opt->verify_each) {
        split = 0;
        for (unsigned i = 0; i < first_air; i++)
            if (b3_pipeline[i].flags & B3PhaseF_Module)
                split = i + 1;
    }
    run_b3_phases_range(&p, level, 0, split);
    for (unsigned i = split; i < first_air && opt->times; i++)
        if (b3_pipeline[i].levels & level) /* listed in the table's order, even with no procedure */
            b3_pass_times_add(opt->times, b3_pipeline[i].name, 0);
    for (uint32_t i = 0; i < m->nitems; i++)
        if (m->items[i].kind == B3Item_Proc) {
            B3Proc *proc = m->items[i].sym->def.proc;
            for (unsigned j = split; j < first_air; j++)
                if (b3_pipeline[j].levels & level)
                    run_b3_phase_on(&p, &b3_pipeline[j], proc);
            run_air(&p, proc, level, o);
            b3_proc_free_ir(proc);
        }
    if (!opt->emit_air) {
        begin_phase(&p, "emit_data", NULL, NULL);
        b3_obj_emit_data(o, m);
        b3_obj_emit_stackmaps(o); /* after every procedure: its header counts them all */
        end_phase(&p, "emit_data");
    }
    return true;
}
