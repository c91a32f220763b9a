/* The targets' backends (codegen/backend.h). */
#include "codegen/backend.h"

#include "codegen/arm64/arm64.h"
#include "codegen/x86_64/x86_64.h"

const B3Backend *b3_backend(B3Target t) {
    if (t.arch == B3Arch_X86_64 && t.os == B3OS_Linux)
        return &b3_x86_64_backend;
    if (t.arch == B3Arch_ARM64 && t.os == B3OS_Linux)
        return &b3_arm64_backend;
    if (t.arch == B3Arch_ARM64 && t.os == B3OS_MacOS)
        return &b3_arm64_apple_backend;
    return NULL;
}
