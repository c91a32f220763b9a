/* Internal errors with their context (ir/ice.h). */
#include "ir/ice.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ir.h"
#include "util/alloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define B3_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define B3_UNDER_SANITIZER 1
#endif
#endif

/* Opcode names from the one table, so that this file links without ir.c
 * (the unit tests link the backend without the IR). */
static const char *const op_names[] = {
#define B3_OP(name, res, kids, mn, mx, meta, eff, fl) #name,
#include "ir/opcodes.def"
#undef B3_OP
};

/* The installed context: read only on the way out (see ice.h). */
static B3Ice *current;

static void print_where(FILE *out, const char *phase, const B3Proc *proc) {
    fprintf(out, "internal error in %s", phase ? phase : "b3c");
    if (proc && proc->sym)
        fprintf(out, ", procedure @%.*s", (int)proc->sym->name_len, proc->sym->name);
}

static void dump_ir(FILE *out) {
    if (!current || !current->dump_ir)
        return;
    if (current->air && current->print_air) {
        fprintf(out, "; Air of the procedure when it failed:\n");
        current->print_air(current->air, out);
    } else if (current->print_b3 && current->module && current->proc) {
        fprintf(out, "; B3 of the procedure when it failed:\n");
        current->print_b3(current->module, current->proc, out);
    }
}

static _Noreturn void die(void) {
    fflush(stderr);
#ifdef B3_ICE_ABORT
    abort();
#else
    exit(3);
#endif
}

static _Noreturn void report(const char *phase, const B3Value *v, const char *fmt, va_list ap) {
    FILE *out = stderr;
    B3Diag *d = current ? current->diag : NULL;
    if (d)
        b3_diag_release(d); /* what the input caused first, in order */
    if (!phase && current)
        phase = current->phase;
    bool located = v && v->loc.line && d;
    if (located)
        fprintf(out, "%s:%u:%u: ", d->file, v->loc.line, v->loc.col);
    else
        fprintf(out, "b3c: ");
    print_where(out, phase, current ? current->proc : NULL);
    if (current && current->phase && phase && strcmp(current->phase, phase))
        fprintf(out, " (during %s)", current->phase);
    if (v)
        fprintf(out, ", value @%u (%s)", v->index, v->opcode < B3_NUM_OPCODES ? op_names[v->opcode] : "?");
    fputs(": ", out);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    if (located)
        b3_diag_show_line(d, v->loc);
    dump_ir(out);
    die();
}

void b3_internal_error_at(const char *phase, const B3Value *v, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(phase, v, fmt, ap);
}

void b3_internal_error(const char *phase, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(phase, NULL, fmt, ap);
}

/* ---- faults ------------------------------------------------------------- */

#if !defined(B3_UNDER_SANITIZER) && !defined(B3_ICE_ABORT)
static void put(const char *s) {
    ssize_t r = write(2, s, strlen(s));
    (void)r;
}

/* Async-signal-safe: names the phase and procedure with write(2) only. */
static void on_fault(int sig) {
    const char *what = sig == SIGSEGV  ? "SIGSEGV"
                       : sig == SIGBUS ? "SIGBUS"
                       : sig == SIGFPE ? "SIGFPE"
                       : sig == SIGILL ? "SIGILL"
                                       : "SIGABRT";
    put("b3c: internal error in ");
    put(current && current->phase ? current->phase : "b3c");
    if (current && current->proc && current->proc->sym) {
        put(", procedure @");
        ssize_t r = write(2, current->proc->sym->name, current->proc->sym->name_len);
        (void)r;
    }
    put(": crashed (");
    put(what);
    put(")\n");
    signal(sig, SIG_DFL);
    _exit(3);
}

#endif

void b3_ice_install(B3Ice *ice) {
    current = ice;
    if (ice) {
        const char *e = getenv("B3C_DEBUG");
        if (e && *e && strcmp(e, "0"))
            ice->dump_ir = true;
    }
#if !defined(B3_UNDER_SANITIZER) && !defined(B3_ICE_ABORT)
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], ice ? on_fault : SIG_DFL);
#endif
}

void b3_ice_enter(const char *phase, const B3Proc *proc) {
    if (!current)
        return;
    current->phase = phase;
    current->proc = proc;
    current->air = NULL;
    current->print_air = NULL;
}

void b3_ice_set_air(const void *air, void (*print_air)(const void *air, FILE *out)) {
    if (!current)
        return;
    current->air = air;
    current->print_air = print_air;
}

void b3_out_of_memory(const char *phase) { b3_internal_error(phase, "out of memory"); }
