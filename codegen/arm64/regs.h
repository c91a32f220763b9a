/* arm64 hardware register numbers (B3Reg: x0..x30 and sp 0..31, q0.. at
 * B3_FPR_BASE).  Only codegen/arm64/ and tests name them. */
#ifndef B3_ARM64_REGS_H
#define B3_ARM64_REGS_H

#include "ir/target.h"

enum { B3A_x0 = 0, B3A_x16 = 16, B3A_x19 = 19, B3A_fp = 29, B3A_lr = 30, B3A_sp = 31, B3A_q0 = B3_FPR_BASE };

#endif
