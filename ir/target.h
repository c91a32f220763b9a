/* Targets and their registers.
 *
 * A B3Reg is a small number: 0..31 general-purpose registers in the target's
 * hardware numbering, 32..63 floating-point registers (32 + n). */
#ifndef B3_TARGET_H
#define B3_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { B3Arch_X86_64, B3Arch_ARM64 } B3Arch;
typedef enum { B3OS_Linux, B3OS_MacOS } B3OS;

typedef struct {
    uint8_t arch; /* B3Arch */
    uint8_t os;   /* B3OS */
} B3Target;

typedef uint8_t B3Reg;
#define B3_NO_REG ((B3Reg)0xff)
#define B3_FPR_BASE 32
static inline bool b3_reg_is_fpr(B3Reg r) { return r >= B3_FPR_BASE && r < 64; }

/* x86-64 hardware numbers. */
enum {
    B3X_rax, B3X_rcx, B3X_rdx, B3X_rbx, B3X_rsp, B3X_rbp, B3X_rsi, B3X_rdi,
    B3X_r8, B3X_r9, B3X_r10, B3X_r11, B3X_r12, B3X_r13, B3X_r14, B3X_r15,
    B3X_xmm0 = B3_FPR_BASE,
};
/* arm64 hardware numbers. */
enum { B3A_x0 = 0, B3A_fp = 29, B3A_lr = 30, B3A_sp = 31, B3A_q0 = B3_FPR_BASE };

/* Parses a triple (and its accepted spellings). */
bool b3_target_parse(const char *triple, B3Target *out);
B3Target b3_target_host(void);
/* Canonical triple. */
const char *b3_target_name(B3Target t);

/* Parses a register name without the '%': a portable name (argumentGPR0,
 * returnValueFPR, ...) or the target's own.  Returns B3_NO_REG if it does not
 * name a register of this target; *elsewhere is then set if it names one of
 * another target (so the message can say so). */
B3Reg b3_reg_parse(B3Target t, const char *name, size_t len, bool *elsewhere);
/* The target's name for a register (no '%'). */
const char *b3_reg_name(B3Target t, B3Reg r);
bool b3_reg_valid(B3Target t, B3Reg r);

/* Calling convention facts. */
unsigned b3_target_num_arg_gprs(B3Target t);
unsigned b3_target_num_arg_fprs(B3Target t);
B3Reg b3_target_arg_gpr(B3Target t, unsigned i);
B3Reg b3_target_arg_fpr(B3Target t, unsigned i);
B3Reg b3_target_return_gpr(B3Target t);
B3Reg b3_target_return_fpr(B3Target t);
/* Callee-saved in the C convention (pinned registers must be one of these). */
bool b3_target_is_callee_saved(B3Target t, B3Reg r);

/* What the target's instructions can encode, for the B3 phases that shape
 * the IR to fit (legalize_memory_offsets, lower_macros_after_optimizations).
 * Plain data, one row per architecture in target.c: a phase reads the row
 * and never asks which architecture it is. */
typedef struct {
    /* A load/store offset o of an n-byte access is encodable when
     * unscaled_min <= o <= unscaled_max, or when o is a multiple of n and
     * 0 <= o / n <= scaled_max (0: no scaled form). */
    int64_t unscaled_min, unscaled_max;
    uint32_t scaled_max;
    /* The same for atomics (x86 lock-prefixed ops take any address; arm64's
     * exclusive and LSE forms take a bare register). */
    int64_t atomic_min, atomic_max;
    /* Float/Double Abs and Neg are single instructions; without them they
     * are a bit operation with a sign mask constant. */
    bool fp_abs_neg_native;
} B3TargetInfo;

const B3TargetInfo *b3_target_info(B3Target t);
/* Can an access of `bytes` bytes (atomic or not) encode offset off? */
bool b3_target_offset_ok(B3Target t, unsigned bytes, bool atomic, int64_t off);

#endif
