/* The x86-64 backend (codegen/backend.h): its lowering hooks (lower.c,
 * lower_atomics.c) and emitter (emit.c). */
#include "codegen/x86_64/lower.h"
#include "codegen/x86_64/x86_64.h"

/* The prologue and epilogue work from rsp alone (emit.c) unless the
 * procedure reads the frame through rbp. */
static bool can_omit_frame_pointer(const B3Proc *p) { return !b3_x86_64_needs_frame_pointer(p); }

const B3Backend b3_x86_64_backend = {
    .emit_name = "emit_x86_64",
    .can_omit_frame_pointer = can_omit_frame_pointer,
    .lower = b3_x86_64_lower_hooks,
    .pc_relative_ok = b3_obj_pc_relative_ok, /* ELF, position-independent */
    .emit = &b3_x86_64_emit,
    .write_asm = b3_x86_64_write_asm, /* AT&T syntax: GNU as for ELF, llvm-mc for Mach-O */
};
