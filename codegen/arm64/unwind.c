/* arm64 compact unwind (Mach-O __LD,__compact_unwind): the encoding of a
 * frame description (objwriter/frame.h), per Apple's
 * compact_unwind_encoding.h.  Our own constants; docs/backend.md, "Unwind
 * information: frames and compact unwind". */
#include "codegen/arm64/arm64.h"
#include "codegen/arm64/asm.h"
#include "objwriter/frame.h"

enum {
    CU_MODE_FRAMELESS = 0x02000000, /* stack size / 16 in bits 12-23 */
    CU_MODE_DWARF = 0x03000000,
    CU_MODE_FRAME = 0x04000000, /* fp/lr frame record, pairs saved just below it */
    CU_STACK_SHIFT = 12,
    CU_MAX_FRAMELESS_STACK = 0xfff * 16,
};

/* The pairs the unwinder restores, in its order from fp - 8 down: the
 * first register of a pair at the higher address. */
static const struct {
    B3Reg first, second;
    uint32_t bit;
} cu_pairs[] = {
    {19, 20, 0x001},
    {21, 22, 0x002},
    {23, 24, 0x004},
    {25, 26, 0x008},
    {27, 28, 0x010},
    {B3_FPR_BASE + 8, B3_FPR_BASE + 9, 0x100},
    {B3_FPR_BASE + 10, B3_FPR_BASE + 11, 0x200},
    {B3_FPR_BASE + 12, B3_FPR_BASE + 13, 0x400},
    {B3_FPR_BASE + 14, B3_FPR_BASE + 15, 0x800},
};

uint32_t b3_arm64_compact_unwind(const B3Frame *f) {
    uint32_t i = 0, enc;
    if (f->nsteps >= 3 && f->steps[0].op == B3Cfi_DefCfa) {
        /* The frame record, as the prologue makes it. */
        const B3CfiStep *s = f->steps;
        if (s[0].reg != ARM64_FP || s[0].offset != 16 || s[1].op != B3Cfi_Offset || s[1].reg != ARM64_LR ||
            s[1].offset != -8 || s[2].op != B3Cfi_Offset || s[2].reg != ARM64_FP || s[2].offset != -16)
            return CU_MODE_DWARF;
        enc = CU_MODE_FRAME;
        i = 3;
    } else {
        int32_t stack = 0;
        for (; i < f->nsteps && f->steps[i].op == B3Cfi_DefCfaOffset; i++)
            stack = f->steps[i].offset;
        if (i != f->nsteps || stack % 16 || stack < 0 || stack > CU_MAX_FRAMELESS_STACK)
            return CU_MODE_DWARF;
        return CU_MODE_FRAMELESS | (uint32_t)(stack / 16) << CU_STACK_SHIFT;
    }
    /* Then whole pairs side by side from CFA - 24 down, in the table's order. */
    unsigned next = 0;
    int32_t off = -24;
    for (; i < f->nsteps; i += 2, off -= 16) {
        const B3CfiStep *a = &f->steps[i], *b = i + 1 < f->nsteps ? &f->steps[i + 1] : NULL;
        if (!b || a->op != B3Cfi_Offset || b->op != B3Cfi_Offset || a->offset != off || b->offset != off - 8)
            return CU_MODE_DWARF;
        while (next < sizeof cu_pairs / sizeof *cu_pairs && cu_pairs[next].first != a->reg)
            next++;
        if (next == sizeof cu_pairs / sizeof *cu_pairs || cu_pairs[next].second != b->reg)
            return CU_MODE_DWARF;
        enc |= cu_pairs[next++].bit;
    }
    return enc;
}

const char *b3_arm64_cfi_reg_name(B3Reg r) {
    static const char *const names[64] = {
        "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10", "x11", "x12",
        "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25",
        "x26", "x27", "x28", "x29", "x30", "sp",  "d0",  "d1",  "d2",  "d3",  "d4",  "d5",  "d6",
        "d7",  "d8",  "d9",  "d10", "d11", "d12", "d13", "d14", "d15", "d16", "d17", "d18", "d19",
        "d20", "d21", "d22", "d23", "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31"};
    return r < 64 ? names[r] : "?";
}
