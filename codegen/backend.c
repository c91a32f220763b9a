/* The targets' backends (codegen/backend.h). */
#include "codegen/backend.h"

#include "codegen/arm64/arm64.h"
#include "codegen/x86_64/x86_64.h"

const B3Backend *b3_backend(B3Target t) {
    /* x86-64 macOS is SysV with Mach-O objects: the same backend. */
    if (t.arch == B3Arch_X86_64)
        return &b3_x86_64_backend;
    /* TODO(i11arm): arm64-apple-macos needs the Apple arm64 ABI and its
     * Mach-O relocations (B3TargetDesc.macho_reloc) first. */
    if (t.arch == B3Arch_ARM64 && t.os == B3OS_Linux)
        return &b3_arm64_backend;
    return NULL;
}
