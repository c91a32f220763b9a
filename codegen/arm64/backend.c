/* The arm64 backend (codegen/backend.h): its lowering hooks (lower.c),
 * emitter (emit.c) and assembly syntax (asm_writer.c). */
#include "codegen/arm64/arm64.h"
#include "ir/diag.h"

/* Every procedure keeps the frame record and x29 as its frame pointer
 * (AAPCS64's frame chain; x29 is not allocated). */
static bool can_omit_frame_pointer(const B3Proc *p) {
    (void)p;
    return false;
}

const B3Backend b3_arm64_backend = {
    .emit_name = "emit_arm64",
    .can_omit_frame_pointer = can_omit_frame_pointer,
    .lower = b3_arm64_lower_hooks,
    .extended_index = true,
    .index_without_offset = true,
    .hoisted_consts_in_registers = true,
    .pc_relative_ok = b3_obj_pc_relative_ok, /* ELF, position-independent: adrp/add, GOT for global data */
    .emit = &b3_arm64_emit,
    .write_asm = b3_arm64_write_asm, /* GNU as / llvm-mc, ELF directives */
};
