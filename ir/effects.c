/* Effects of values (ir/effects.h). */
#include "ir/effects.h"

B3Effects b3_effects_for_call(void) {
    B3Effects e = b3_effects_nothing();
    e.exits_sideways = true;
    e.control_dependent = true;
    e.reads = e.writes = B3_HEAP_TOP;
    e.reads_pinned = e.writes_pinned = true;
    e.fence = true;
    return e;
}

B3Effects b3_effects_for_check(void) {
    B3Effects e = b3_effects_nothing();
    e.exits_sideways = true;
    /* After the exit the runtime may read anything: stores before the check
     * must stay before it. */
    e.reads = B3_HEAP_TOP;
    return e;
}

/* Can this division fault?  Only an integer one without Chill (x/0, and
 * INT_MIN/-1 for the signed ones). */
static bool division_may_fault(const B3Value *v) {
    return b3_type_is_int((B3Type)v->type) && !(v->kflags & B3K_CHILL);
}

B3Effects b3_effects(const B3Value *v) {
    const B3OpInfo *op = b3_op((B3Opcode)v->opcode);
    B3Effects e = b3_effects_nothing();
    e.terminal = (op->flags & B3OF_TERMINAL) != 0;
    switch ((B3EffectsClass)op->effects) {
    case B3E_NONE:
        break;
    case B3E_DIV:
        e.control_dependent = division_may_fault(v);
        break;
    case B3E_LOAD:
        /* An acquire load: a phantom write of its fence range keeps later
         * accesses from being hoisted above it. */
        e.reads = v->m.mem.range;
        e.control_dependent = true;
        if (!b3_heap_is_bottom(v->m.mem.fence_range)) {
            e.writes = v->m.mem.fence_range;
            e.fence = true;
        }
        break;
    case B3E_STORE:
        /* A release store: a phantom read of its fence range keeps earlier
         * accesses from sinking below it. */
        e.writes = v->m.mem.range;
        e.control_dependent = true;
        if (!b3_heap_is_bottom(v->m.mem.fence_range)) {
            e.reads = v->m.mem.fence_range;
            e.fence = true;
        }
        break;
    case B3E_ATOMIC:
        e.reads = e.writes = b3_heap_union(v->m.mem.range, v->m.mem.fence_range);
        e.control_dependent = true;
        e.fence = !b3_heap_is_bottom(v->m.mem.fence_range);
        break;
    case B3E_FENCE:
        e.reads = v->m.fence.read;
        e.writes = v->m.fence.write;
        e.fence = true;
        break;
    case B3E_CALL:
        /* The text form has no way to narrow a call's effects, so every
         * CCall and Patchpoint may do anything (B3's default). */
        e = b3_effects_for_call();
        break;
    case B3E_CHECK:
        e = b3_effects_for_check();
        break;
    case B3E_BOUNDS:
        e.exits_sideways = true;
        e.reads = B3_HEAP_TOP;
        /* With `maximum =` the bound is a constant, not the register. */
        e.reads_pinned = v->m.bounds && v->m.bounds->pinned != B3_NO_REG;
        break;
    case B3E_PINNED:
        e.reads_pinned = true;
        break;
    case B3E_LOCAL_WRITE:
        e.writes_local_state = true;
        break;
    case B3E_LOCAL_READ:
        e.reads_local_state = true;
        break;
    case B3E_VA_START:
        /* Stores the va_list's fields at an address it does not know. */
        e.writes = B3_HEAP_TOP;
        e.control_dependent = true;
        break;
    case B3E_X87:
        /* Reads and writes memory at addresses it does not know; the x87
         * register stack between a call and its `result` (or a `ret` and the
         * Return) is state no other value may touch. */
        e.reads = e.writes = B3_HEAP_TOP;
        e.control_dependent = true;
        break;
    }
    /* A trapping access faults observably on a bad address, and the fault is
     * taken to read the highest address: ordered with every effect. */
    if (v->kflags & B3K_TRAPS) {
        e.exits_sideways = true;
        e.reads = B3_HEAP_TOP;
    }
    return e;
}

bool b3_value_must_execute(const B3Value *v) {
    const B3OpInfo *op = b3_op((B3Opcode)v->opcode);
    switch ((B3EffectsClass)op->effects) {
    case B3E_NONE:
    case B3E_DIV:
    case B3E_PINNED:
    case B3E_LOCAL_READ:
        if (!(op->flags & B3OF_TERMINAL) && !(v->kflags & B3K_TRAPS))
            return false;
        break;
    case B3E_LOAD:
        if (!(op->flags & B3OF_TERMINAL) && !(v->kflags & B3K_TRAPS) &&
            b3_heap_is_bottom(v->m.mem.fence_range))
            return false;
        break;
    default:
        break;
    }
    return b3_effects_must_execute(b3_effects(v));
}

bool b3_effects_none(B3Effects e) {
    return !e.terminal && !e.exits_sideways && !e.control_dependent && !e.writes_local_state &&
           !e.reads_local_state && !e.reads_pinned && !e.writes_pinned && !e.fence &&
           b3_heap_is_bottom(e.writes) && b3_heap_is_bottom(e.reads);
}

/* The helpers cascade as B3's do: once a terminal has been checked against
 * everything it conflicts with, the later ones need not consider it, and so
 * on down the list. */
static bool terminal_interferes(B3Effects t, B3Effects o) {
    return t.terminal && (o.terminal || o.control_dependent || o.writes_local_state ||
                          !b3_heap_is_bottom(o.writes) || o.writes_pinned);
}

static bool exit_interferes(B3Effects x, B3Effects o) {
    return x.exits_sideways && (o.control_dependent || !b3_heap_is_bottom(o.writes) || o.writes_pinned);
}

static bool local_write_interferes(B3Effects w, B3Effects o) {
    return w.writes_local_state && (o.writes_local_state || o.reads_local_state);
}

static bool pinned_write_interferes(B3Effects w, B3Effects o) {
    return w.writes_pinned && (o.writes_pinned || o.reads_pinned);
}

bool b3_effects_interfere(B3Effects a, B3Effects b) {
    return terminal_interferes(a, b) || terminal_interferes(b, a) || exit_interferes(a, b) ||
           exit_interferes(b, a) || local_write_interferes(a, b) || local_write_interferes(b, a) ||
           pinned_write_interferes(a, b) || pinned_write_interferes(b, a) ||
           b3_heap_overlaps(a.writes, b.writes) || b3_heap_overlaps(a.writes, b.reads) ||
           b3_heap_overlaps(a.reads, b.writes) || (a.fence && b.fence);
}

static void print_heap(B3HeapRange r, FILE *out) {
    if (b3_heap_is_top(r))
        fputs("Top", out);
    else if (r.end == r.begin + 1)
        fprintf(out, "%u", r.begin);
    else
        fprintf(out, "%u...%u", r.begin, r.end);
}

void b3_effects_print(B3Effects e, FILE *out) {
    static const char *const names[] = {
        "Terminal",        "ExitsSideways", "ControlDependent", "WritesLocalState",
        "ReadsLocalState", "WritesPinned",  "ReadsPinned",      "Fence"};
    const bool bits[] = {e.terminal,          e.exits_sideways, e.control_dependent, e.writes_local_state,
                         e.reads_local_state, e.writes_pinned,  e.reads_pinned,      e.fence};
    const char *sep = "";
    for (unsigned i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        if (bits[i]) {
            fprintf(out, "%s%s", sep, names[i]);
            sep = "|";
        }
    }
    if (!b3_heap_is_bottom(e.writes)) {
        fprintf(out, "%sWrites:", sep);
        print_heap(e.writes, out);
        sep = "|";
    }
    if (!b3_heap_is_bottom(e.reads)) {
        fprintf(out, "%sReads:", sep);
        print_heap(e.reads, out);
    }
}

bool b3_value_is_pure(const B3Value *v) {
    const B3OpInfo *op = b3_op((B3Opcode)v->opcode);
    if (op->flags & B3OF_PURE)
        return true;
    return op->effects == B3E_DIV && !division_may_fault(v) && !(v->kflags & B3K_TRAPS);
}

B3Value *b3_x87_partner(const B3Block *b, uint32_t idx, int dir) {
    for (int64_t i = (int64_t)idx + dir; i >= 0 && i < (int64_t)b->nvalues; i += dir)
        if (!b3_value_is_pure(b->values[i]))
            return b->values[i];
    return NULL;
}
