/* The targets' backends (codegen/backend.h). */
#include "codegen/backend.h"

#include "codegen/arm64/arm64.h"
#include "codegen/x86_64/x86_64.h"

const B3Backend *b3_backend(B3Target t) {
    /* macOS is the same code generator with Mach-O objects; what its ABI
     * changes (arm64: x18, variadic and stack arguments) is the target
     * description's. */
    if (t.arch == B3Arch_X86_64)
        return &b3_x86_64_backend;
    if (t.arch == B3Arch_ARM64)
        return &b3_arm64_backend;
    return NULL;
}
