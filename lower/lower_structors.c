/* Destructors on Mach-O (docs/c-extensions.md, "Constructors and
 * destructors"): Apple's runtime runs no __mod_term_func, so a destructor
 * is registered at start-up instead, as clang lowers llvm.global_dtors for
 * Darwin: for each destructor priority N an internal procedure, a
 * constructor(N) placed after every other procedure, calls
 * __cxa_atexit(@dtor, 0, @__dso_handle) for each destructor of that
 * priority in module order.  exit runs them in the reverse order of their
 * registration: those of one priority in reverse module order, the lower
 * priorities last, which is what .fini_array does on ELF. */
#include <stdio.h>
#include <string.h>

#include "lower/lower.h"

static B3Value *symbol_address(B3Module *m, B3Proc *p, B3Block *b, B3Symbol *s) {
    B3Value *v = b3_value_new(m, p, B3_SymbolAddress, B3_Int64, 0, UINT32_MAX);
    v->m.symbol.sym = s;
    b3_block_append(m, b, v);
    return v;
}

static B3Symbol *extern_symbol(B3Module *m, const char *name) {
    bool created = false;
    B3Symbol *s = b3_symbol_get(m, name, (uint32_t)strlen(name), &created);
    if (created)
        s->declared = true;
    return s;
}

/* The registering procedure of priority prio, named after clang's
 * __GLOBAL_init_N with a prefix of b3c's own (a fresh name). */
static B3Proc *registrar(B3Module *m, int32_t prio) {
    char name[64];
    int n = snprintf(name, sizeof name, "b3.dtors.%d", (int)prio);
    for (unsigned k = 1; b3_symbol_find(m, name, (uint32_t)n); k++)
        n = snprintf(name, sizeof name, "b3.dtors.%d.%u", (int)prio, k);
    B3Symbol *s = b3_symbol_get(m, name, (uint32_t)n, NULL);
    s->kind = B3Sym_Proc;
    s->internal = s->defined = s->declared = true;
    B3Proc *p = b3_proc_new(m, s);
    s->def.proc = p;
    p->ctor_priority = prio;
    b3_block_new(m, p, 0);
    b3_module_add_item(m, B3Item_Proc, s);
    return p;
}

void b3_lower_macho_destructors(B3Module *m) {
    B3Symbol *atexit = NULL, *dso = NULL;
    uint32_t nitems = m->nitems;
    for (;;) {
        /* The lowest priority left, and its destructors in module order. */
        int32_t prio = -1;
        for (uint32_t i = 0; i < nitems; i++) {
            const B3Proc *d = m->items[i].kind == B3Item_Proc ? m->items[i].sym->def.proc : NULL;
            if (d && d->dtor_priority >= 0 && (prio < 0 || d->dtor_priority < prio))
                prio = d->dtor_priority;
        }
        if (prio < 0)
            return;
        if (!atexit) {
            atexit = extern_symbol(m, "__cxa_atexit");
            dso = extern_symbol(m, "__dso_handle");
        }
        B3Proc *p = registrar(m, prio);
        B3Block *b = p->blocks[0];
        for (uint32_t i = 0; i < nitems; i++) {
            B3Proc *d = m->items[i].kind == B3Item_Proc ? m->items[i].sym->def.proc : NULL;
            if (!d || d->dtor_priority != prio)
                continue;
            d->dtor_priority = -1;
            B3Value *call = b3_value_new(m, p, B3_CCall, B3_Int32, 4, UINT32_MAX);
            call->kids[0] = symbol_address(m, p, b, atexit);
            call->kids[1] = symbol_address(m, p, b, d->sym);
            B3Value *zero = b3_value_new(m, p, B3_Const64, B3_Int64, 0, UINT32_MAX);
            b3_block_append(m, b, zero);
            call->kids[2] = zero;
            call->kids[3] = symbol_address(m, p, b, dso);
            b3_block_append(m, b, call);
        }
        b3_block_append(m, b, b3_value_new(m, p, B3_Return, B3_Void, 0, UINT32_MAX));
    }
}
