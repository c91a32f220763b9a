/* The targets' backends (codegen/backend.h), by the row of the target table
 * (ir/target.c's b3_targets): the code side of each row, kept here so that
 * ir/ holds data only.  macOS is the same code generator with Mach-O
 * objects; what its ABI changes (arm64: x18, variadic and stack arguments)
 * is the target description's.  A row without a backend (NULL) is a
 * target b3c parses and checks but cannot generate code for. */
#include "codegen/backend.h"

#include "codegen/arm64/arm64.h"
#include "codegen/x86_64/x86_64.h"

static const B3Backend *const backends[B3_NUM_TARGETS] = {
    [B3TargetId_X86_64_Linux] = &b3_x86_64_backend,
    [B3TargetId_ARM64_Linux] = &b3_arm64_backend,
    [B3TargetId_X86_64_MacOS] = &b3_x86_64_backend,
    [B3TargetId_ARM64_MacOS] = &b3_arm64_backend,
};

const B3Backend *b3_backend(B3Target t) { return backends[b3_target_id(t)]; }
