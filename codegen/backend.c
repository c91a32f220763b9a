/* The target side of the pipeline (codegen/backend.h). */
#include "codegen/backend.h"

#include "codegen/x86_64/x86_64.h"

bool b3_backend_supports(B3Target t) { return t.arch == B3Arch_X86_64 && t.os == B3OS_Linux; }

const char *b3_backend_emit_name(B3Target t) {
    (void)t;
    return "emit_x86_64";
}

/* x86-64: the prologue and epilogue work from rsp alone (codegen/x86_64/emit.c)
 * unless the procedure reads the frame through rbp. */
bool b3_backend_can_omit_frame_pointer(B3Target t, const B3Proc *p) {
    return t.arch == B3Arch_X86_64 && !b3_x86_64_needs_frame_pointer(p);
}

void b3_backend_emit_proc(AirCode *c, B3Obj *o) { b3_x86_64_emit_proc(c, o); }
