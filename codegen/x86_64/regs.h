/* x86-64 hardware register numbers (B3Reg: GPRs 0..15, xmm0.. at B3_FPR_BASE).
 * Only codegen/x86_64/ and tests name them; shared code reads the target
 * description (ir/target.h). */
#ifndef B3_X86_64_REGS_H
#define B3_X86_64_REGS_H

#include "ir/target.h"

/* clang-format off */
enum {
    B3X_rax, B3X_rcx, B3X_rdx, B3X_rbx, B3X_rsp, B3X_rbp, B3X_rsi, B3X_rdi,
    B3X_r8, B3X_r9, B3X_r10, B3X_r11, B3X_r12, B3X_r13, B3X_r14, B3X_r15,
    B3X_xmm0 = B3_FPR_BASE,
};
/* clang-format on */

#endif
