/* The target side of the pipeline (cmd/pipeline.c): which targets can
 * generate code, and the emission of one procedure's allocated Air. */
#ifndef B3_BACKEND_H
#define B3_BACKEND_H

#include <stdbool.h>

#include "codegen/air/air.h"
#include "objwriter/obj.h"

/* Can the backend generate code for this target? */
bool b3_backend_supports(B3Target t);
/* The name of the emission step for --time-passes ("emit_x86_64"). */
const char *b3_backend_emit_name(B3Target t);
/* May procedures for this target go without a frame pointer (the target's
 * frame description: AirCode.omit_frame_pointer)? */
bool b3_backend_can_omit_frame_pointer(B3Target t, const B3Proc *p);
/* Encodes c (after every Air phase) into o. */
void b3_backend_emit_proc(AirCode *c, B3Obj *o);

#endif
