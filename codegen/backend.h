/* The code side of a target: its lowering hooks, emitter and object-format
 * policy, one B3Backend per target in codegen/<arch>/backend.c.  Its data
 * side (registers, calling convention) is the B3TargetDesc of ir/target.h.
 * The pipeline (cmd/pipeline.c) puts it in AirCode.backend. */
#ifndef B3_BACKEND_H
#define B3_BACKEND_H

#include <stdbool.h>

#include "codegen/air/air.h"
#include "codegen/emit.h"
#include "objwriter/obj.h"

struct Lower; /* lower/lower_internal.h */

/* Lowers v the target's way and returns true, or returns false to leave v
 * to the shared rules of lower/lower_to_air.c. */
typedef bool B3LowerHook(struct Lower *L, B3Value *v);

typedef struct B3Backend {
    /* The name of the emission step for --time-passes ("emit_x86_64"). */
    const char *emit_name;
    /* May the procedure go without a frame pointer (AirCode.omit_frame_pointer)? */
    bool (*can_omit_frame_pointer)(const B3Proc *p);
    /* The lowering hooks by B3Opcode (NULL: the shared rules only): what
     * selects differently on the target (calls' and returns' registers come
     * from the description instead). */
    B3LowerHook *const *lower;
    /* May an Index arg widen a 32-bit index in place (AirArg.ext: arm64's
     * [x1, w2, sxtw #3])?  Then the address folder takes SExt32/ZExt32
     * indexes without computing them. */
    bool extended_index;
    /* Does an Index arg take no offset (arm64: [x1, x2, lsl #3] but no
     * [x1, x2, #8])?  Then base + index + offset is an Add in a register
     * (shared by the accesses off it) addressed with the offset. */
    bool index_without_offset;
    /* Is any integer constant that move_constants hoisted out of a loop
     * built once where it stands, however small (arm64: every constant a
     * use needs in a register costs a movz, and there are registers to keep
     * it)?  Else only one too wide for an immediate is. */
    bool hoisted_consts_in_registers;
    /* The object-format policy: may code address sym PC-relatively (else
     * through the GOT)? */
    bool (*pc_relative_ok)(const B3Symbol *sym);
    /* The encoder: its hooks of the emission driver, which encodes c
     * (after every Air phase) into o (b3_emit_proc, codegen/emit.h). */
    const B3EmitTarget *emit;
    /* The assembly syntax: write o (every procedure and the data emitted)
     * to f; false after an error reported.  (The object file's writer is
     * the target's format's: b3_write_object.) */
    bool (*write_asm)(B3Obj *o, FILE *f);
} B3Backend;

/* The backend of t, or NULL if b3c cannot generate code for t. */
const B3Backend *b3_backend(B3Target t);
/* Can the backend generate code for this target? */
static inline bool b3_backend_supports(B3Target t) { return b3_backend(t) != NULL; }

#endif
