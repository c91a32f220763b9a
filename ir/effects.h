/* What a value does besides computing its result: B3's Effects.
 *
 * One definition for every opcode, read from the opcode table's effects class
 * (ir/opcodes.def) and the value's meta data and kind flags, so that every
 * phase agrees on what may be removed, moved or merged.  Follows B3's
 * Value::effects() and Effects::interferes(), with one refinement: B3 marks
 * every Div/Mod control dependent, here only those that can fault (integer,
 * not Chill; UDiv/UMod), since a Chill or floating-point division has no
 * undefined case to guard. */
#ifndef B3_EFFECTS_H
#define B3_EFFECTS_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/ir.h"

typedef struct {
    /* Control cannot continue in the block after it (a terminal). */
    bool terminal;
    /* May end the procedure abruptly and observably (a side exit, a trap, a
     * call); `reads` says what may be read after such an exit. */
    bool exits_sideways;
    /* May misbehave if executed where the program would not (a load from a
     * pointer some branch or check validates, a division by zero): must not
     * be hoisted above control flow. */
    bool control_dependent;
    /* Writes / reads state local to the procedure but not the heap: Set and
     * Upsilon / Get and Phi.  A local write is never dead for lack of uses. */
    bool writes_local_state;
    bool reads_local_state;
    /* Reads / writes the pinned registers (proc->pinned). */
    bool reads_pinned;
    bool writes_pinned;
    /* A memory fence: two fences never trade places whatever their ranges. */
    bool fence;
    B3HeapRange writes, reads;
} B3Effects;

/* The effects of v (its opcode, kind flags and meta data). */
B3Effects b3_effects(const B3Value *v);

/* Nothing at all: the value may be dropped when unused, moved or merged. */
static inline B3Effects b3_effects_nothing(void) {
    B3Effects e = {0};
    e.writes = e.reads = B3_HEAP_BOTTOM;
    return e;
}

/* What a call (CCall, Patchpoint) may do: anything. */
B3Effects b3_effects_for_call(void);
/* What a Check* may do: exit, after which all memory may be read. */
B3Effects b3_effects_for_check(void);

/* True if e is no effect at all (B3's Effects() == Effects::none()). */
bool b3_effects_none(B3Effects e);

/* True if a value with these effects must execute even when its result is
 * unused (B3's mustExecute): dead-code elimination keeps it. */
static inline bool b3_effects_must_execute(B3Effects e) {
    return e.terminal || e.exits_sideways || e.writes_local_state || !b3_heap_is_bottom(e.writes) ||
           e.writes_pinned || e.fence;
}

/* b3_effects_must_execute(b3_effects(v)) where v's effects class says so
 * without building the effects: false for a value that neither ends its
 * block, traps, writes nor fences (arithmetic, loads without a fence,
 * divisions, reads of local state); else what the effects say. */
bool b3_value_must_execute(const B3Value *v);

/* True if executing values with effects a and b in the other order may
 * change the program's behaviour (B3's Effects::interferes; symmetric). */
bool b3_effects_interfere(B3Effects a, B3Effects b);

/* Do two heap ranges share an abstract heap?  Empty ranges overlap nothing. */
static inline bool b3_heap_overlaps(B3HeapRange a, B3HeapRange b) {
    if (b3_heap_is_bottom(a) || b3_heap_is_bottom(b))
        return false;
    return a.begin < b.end && b.begin < a.end;
}

/* The smallest range holding both. */
static inline B3HeapRange b3_heap_union(B3HeapRange a, B3HeapRange b) {
    if (b3_heap_is_bottom(a))
        return b;
    if (b3_heap_is_bottom(b))
        return a;
    return (B3HeapRange){a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
}

/* Prints e as a B3 dump does: "ExitsSideways|ControlDependent|Reads:Top",
 * nothing for no effects. */
void b3_effects_print(B3Effects e, FILE *out);

/* True if v is pure (opcodes.def, B3OF_PURE) or a Div/Mod that cannot
 * fault (Chill or floating point). */
bool b3_value_is_pure(const B3Value *v);
/* The first value that is not pure after (dir 1) or before (dir -1) value
 * idx of b (NULL: none): the Return an X87 `ret` comes before, the CCall an
 * X87 `result` comes after (docs/c-extensions.md, "Long double"). */
B3Value *b3_x87_partner(const B3Block *b, uint32_t idx, int dir);

#endif
