/* x86-64 compact unwind (Mach-O __LD,__compact_unwind): the encoding of a
 * frame description (objwriter/frame.h), per Apple's
 * compact_unwind_encoding.h.  Our own constants; docs/backend.md, "Unwind
 * information: frames and compact unwind". */
#include "codegen/x86_64/regs.h"
#include "codegen/x86_64/x86_64.h"
#include "objwriter/frame.h"

enum {
    CU_MODE_RBP_FRAME = 0x01000000,
    CU_MODE_STACK_IMMD = 0x02000000, /* frameless, stack size in the encoding */
    CU_MODE_STACK_IND = 0x03000000,  /* frameless, stack size read from the sub instruction */
    CU_MODE_DWARF = 0x04000000,
    CU_FIELD_SHIFT = 16,    /* rbp frame: saves offset / 8; frameless: size / 8 or where the immediate is */
    CU_ADJUST_SHIFT = 13,   /* frameless indirect: bytes besides the immediate / 8 */
    CU_COUNT_SHIFT = 10,    /* frameless: how many registers */
    CU_MAX_FRAME_SAVES = 5, /* three bits each from bit 0 */
    CU_MAX_FRAMELESS_SAVES = 6, /* a permutation in bits 0-9 */
};

/* The unwinder's numbers of the callee-saved registers (0: not one). */
static const uint8_t cu_reg[16] = {
    [B3X_rbx] = 1, [B3X_r12] = 2, [B3X_r13] = 3, [B3X_r14] = 4, [B3X_r15] = 5, [B3X_rbp] = 6};

/* Mixed-radix weights of the permutation's digits by register count: digit
 * i says which of the registers not yet named (in number order) is the
 * i-th save from the lowest address up. */
static const uint16_t perm_weight[CU_MAX_FRAMELESS_SAVES + 1][CU_MAX_FRAMELESS_SAVES] = {
    {0}, {1}, {5, 1}, {20, 4, 1}, {60, 12, 3, 1}, {120, 24, 6, 2, 1}, {120, 24, 6, 2, 1, 0},
};

uint32_t b3_x86_64_compact_unwind(const B3Frame *f) {
    bool fp = false;
    int32_t cfa = 8;
    uint8_t saves[8];
    int32_t offs[8];
    unsigned n = 0;
    for (uint32_t i = 0; i < f->nsteps; i++) {
        const B3CfiStep *s = &f->steps[i];
        switch ((B3CfiOp)s->op) {
        case B3Cfi_DefCfaOffset:
            cfa = s->offset;
            break;
        case B3Cfi_DefCfaRegister:
        case B3Cfi_DefCfa:
            if (s->reg != B3X_rbp)
                return CU_MODE_DWARF;
            fp = true;
            n = 0; /* rbp's own save is part of the frame */
            break;
        case B3Cfi_Offset:
            if (s->reg >= 16 || !cu_reg[s->reg] || n == 8)
                return CU_MODE_DWARF;
            saves[n] = cu_reg[s->reg];
            offs[n++] = s->offset;
            break;
        case B3Cfi_Restore: /* epilogue steps: never in a prologue */
        case B3Cfi_RememberState:
        case B3Cfi_RestoreState:
            return CU_MODE_DWARF;
        }
    }
    /* Both modes want the saves side by side, the highest just below the
     * frame record (rbp frame) or the return address (frameless). */
    int32_t top = fp ? -24 : -16;
    for (unsigned i = 0; i < n; i++)
        if (offs[i] != top - 8 * (int32_t)(n - 1 - i))
            return CU_MODE_DWARF;
    if (fp) {
        if (n > CU_MAX_FRAME_SAVES)
            return CU_MODE_DWARF;
        uint32_t enc = CU_MODE_RBP_FRAME | n << CU_FIELD_SHIFT;
        for (unsigned i = 0; i < n; i++)
            enc |= (uint32_t)saves[i] << (3 * i);
        return enc;
    }
    if (n > CU_MAX_FRAMELESS_SAVES || cfa % 8)
        return CU_MODE_DWARF;
    uint32_t enc;
    if (cfa / 8 <= 0xff) {
        enc = CU_MODE_STACK_IMMD | (uint32_t)(cfa / 8) << CU_FIELD_SHIFT;
    } else {
        uint32_t adjust = f->stack_imm_bias / 8;
        if (!f->stack_imm_at || f->stack_imm_at > 0xff || f->stack_imm_bias % 8 || adjust > 7)
            return CU_MODE_DWARF;
        enc = CU_MODE_STACK_IND | f->stack_imm_at << CU_FIELD_SHIFT | adjust << CU_ADJUST_SHIFT;
    }
    uint32_t perm = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned digit = saves[i] - 1;
        for (unsigned j = 0; j < i; j++)
            digit -= saves[j] < saves[i];
        perm += perm_weight[n][i] * digit;
    }
    return enc | n << CU_COUNT_SHIFT | perm;
}

const char *b3_x86_64_cfi_reg_name(B3Reg r) {
    static const char *const names[16] = {"%rax", "%rcx", "%rdx", "%rbx", "%rsp", "%rbp", "%rsi", "%rdi",
                                          "%r8",  "%r9",  "%r10", "%r11", "%r12", "%r13", "%r14", "%r15"};
    return r < 16 ? names[r] : "%rip";
}
