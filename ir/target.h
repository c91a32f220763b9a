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

/* Optional instruction-set features (-mattr; B3Module.target_features). */
enum { B3Feature_LSE = 1 /* arm64: ARMv8.1 large system extensions (cas, ldadd, swp, ...) */ };

typedef struct {
    uint8_t arch; /* B3Arch */
    uint8_t os;   /* B3OS */
    /* macOS: the minimum OS version of the triple (arm64-apple-macos13.1 ->
     * 13, 1; default 11.0, the first with arm64), for LC_BUILD_VERSION. */
    uint8_t os_major, os_minor;
} B3Target;

/* The object file format of a target's output. */
typedef enum { B3ObjFormat_ELF, B3ObjFormat_MachO } B3ObjFormat;
static inline B3ObjFormat b3_target_obj_format(B3Target t) {
    return t.os == B3OS_MacOS ? B3ObjFormat_MachO : B3ObjFormat_ELF;
}

typedef uint8_t B3Reg;
#define B3_NO_REG ((B3Reg)0xff)
#define B3_FPR_BASE 32
static inline bool b3_reg_is_fpr(B3Reg r) { return r >= B3_FPR_BASE && r < 64; }

/* Register sets: one bit per B3Reg number. */
typedef struct {
    uint64_t bits[2];
} B3RegSet;
static inline void b3_regset_add(B3RegSet *s, B3Reg r) { s->bits[r >> 6] |= 1ull << (r & 63); }
static inline bool b3_regset_has(const B3RegSet *s, B3Reg r) { return (s->bits[r >> 6] >> (r & 63)) & 1; }

/* Parses a triple (and its accepted spellings). */
bool b3_target_parse(const char *triple, B3Target *out);
B3Target b3_target_host(void);
/* The i-th target b3c knows, by its canonical triple (false past the last):
 * for --help's list. */
bool b3_target_nth(unsigned i, B3Target *out);
/* Canonical triple. */
const char *b3_target_name(B3Target t);

/* Parses a register name without the '%': a portable name (argumentGPR0,
 * returnValueFPR, ...) or the target's own.  Returns B3_NO_REG if it does not
 * name a register of this target; *elsewhere is then set if it names one of
 * another target (so the message can say so). */
B3Reg b3_reg_parse(B3Target t, const char *name, size_t len, bool *elsewhere);
/* "prefixN" with N in [0, limit) (no leading zero): N, or -1 if it is not
 * that; for the targets' parse_alias. */
int b3_reg_parse_numbered(const char *s, size_t n, const char *prefix, int limit);
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
 * the IR to fit (legalize_memory_offsets, lower_macros_after_optimizations,
 * move_constants).
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
    /* A SymbolAddress costs instructions of its own where it stands
     * (arm64's adrp/add) instead of folding into each use's address operand
     * (x86-64's rip-relative ones): move_constants then treats it as a
     * constant, made once and out of loops. */
    bool symbol_address_costly;
    /* A load or store whose index is the SExt32 of an Int32 costs no more
     * than one with an Int64 index (arm64's `[xN, wM, sxtw #s]`; x86-64
     * needs a movslq first): widen_induction_variables then copies no loop
     * to widen such indexes, which would only add the copy's test. */
    bool sext32_index_free;
} B3TargetInfo;

/* The description of a target's machine and C calling convention: plain
 * data, one instance per architecture in codegen/<arch>/target_desc.c.
 * Shared code (parser, validator, allocators, lowering) reads it and never
 * names a machine register; see docs/design.md, "Targets". */
struct B3MachoFixup;
struct B3MachoReloc;

/* A C argument passed by value in memory (CCall's `@N:ByVal(SIZE, ALIGN)`,
 * docs/c-extensions.md): the child is the address of SIZE bytes the call
 * copies into its outgoing argument area.  size 0: an ordinary argument. */
typedef struct B3ByVal {
    uint32_t size, align;
    /* B3F128_*: a half of a Float128 pair (CCall's `@lo:Float128, @hi`,
     * docs/c-extensions.md): the two Int64 children are one 128-bit
     * floating-point argument (size is then 0). */
    uint8_t f128;
} B3ByVal;
enum { B3F128_None, B3F128_Low, B3F128_High };

/* The C va_list of a target and what va_start fills it with
 * (docs/c-extensions.md, "Variadic procedures"; lower/lower_varargs.c). */
typedef enum {
    /* x86-64 System V: { i32 gp_offset, i32 fp_offset, ptr overflow_arg_area,
     * ptr reg_save_area }, 24 bytes; the save area holds the 6 argument
     * GPRs, then the 8 argument FPRs in 16-byte slots (176 bytes). */
    B3VaList_SysV,
    /* AAPCS64: { ptr __stack, ptr __gr_top, ptr __vr_top, i32 __gr_offs,
     * i32 __vr_offs }, 32 bytes; x0-x7 end at __gr_top, q0-q7 (16-byte
     * slots) at __vr_top. */
    B3VaList_AAPCS64,
    /* Apple arm64: a char * to the next variadic argument, all of which are
     * on the stack in 8-byte slots; 8 bytes, no save area. */
    B3VaList_StackPointer,
} B3VaListKind;

typedef struct B3TargetDesc {
    const char *name; /* for messages: "x86-64" */
    /* The register file: GPRs 0 .. ngprs-1 and FPRs B3_FPR_BASE ..
     * B3_FPR_BASE + nfprs-1 in hardware numbering, with their names. */
    uint8_t ngprs, nfprs;
    const char *const *gpr_names, *const *fpr_names;
    /* Other spellings the parser accepts (NULL: none); B3_NO_REG if not one. */
    B3Reg (*parse_alias)(const char *s, size_t n);
    B3Reg frame_pointer, stack_pointer;
    /* Instructions are a multiple of this many bytes (nop(N) too). */
    uint8_t insn_align;
    /* Its bit in the target masks of the Air form table
     * (codegen/air/opcodes.def: x86 1, arm64 2), and, by Air opcode
     * (codegen/air/air.h), whether an inst writes only the low lane of its
     * FP destination, keeping the rest (NULL: none does). */
    uint8_t air_form_mask;
    const bool *partial_fp_lane_defs;
    /* What the entry stack pointer is above the frame pointer once the
     * prologue has run (ArgumentReg of the stack pointer reads it). */
    uint8_t entry_sp_from_fp;
    /* Allocation order of each bank, preference first (caller-saved before
     * callee-saved).  The frame pointer is not in it: with the frame pointer
     * omitted it is allocatable after all of them. */
    const B3Reg *gp_order, *fp_order;
    uint8_t ngp_order, nfp_order;
    /* The C calling convention: argument and result registers, what a call
     * may change (late) and what it writes before reading its arguments
     * (early: x86's %al vector count), what a callee must preserve, and the
     * register an indirect call's target is loaded into. */
    const B3Reg *arg_gprs, *arg_fprs;
    uint8_t narg_gprs, narg_fprs;
    B3Reg ret_gpr, ret_fpr;
    /* The result registers of each bank in order (the first is ret_gpr /
     * ret_fpr), for a result of several values (C's small structs and
     * arm64's homogeneous floating-point aggregates; Return(@a, @b, ...),
     * SecondResult, Result: docs/c-extensions.md).  Each value takes the
     * next free result register of its bank. */
    const B3Reg *ret_gprs, *ret_fprs;
    uint8_t nret_gprs, nret_fprs;
    /* Where a CCall's `sret = 1` argument (the address the callee writes its
     * struct result to) goes: a register of its own that takes no argument
     * register (arm64's x8), or B3_NO_REG: it is the first integer argument,
     * counted as one (x86-64's rdi). */
    B3Reg sret_reg;
    B3RegSet caller_saved, call_early_clobber, callee_saved;
    B3Reg indirect_call_reg;
    /* Registers the platform reserves (Apple arm64's x18): never allocated,
     * never written, in no clobber set, not pinnable, and an error in a
     * stackmap constraint.  Neither caller- nor callee-saved. */
    B3RegSet reserved;
    /* The classifier: where each of n C arguments of the B3Types types[i]
     * goes, a register or B3_NO_REG for the stack, then stack_off[i] is its
     * byte offset in the outgoing argument area at the call's sp.  nfixed:
     * the number of fixed arguments of a variadic callee (CCall's
     * `variadic = N`), -1 if it is not one.  byval: NULL, or per argument
     * its B3ByVal (ir/ir.h; size 0: an ordinary argument): a by-value
     * aggregate in memory, SIZE bytes rounded up to 8 at the next offset
     * aligned to max(8, ALIGN), in order with the other stack arguments
     * (docs/c-extensions.md).  Returns the area's bytes. */
    uint32_t (*classify_args)(const struct B3TargetDesc *d, uint32_t n, const uint8_t *types,
                              const B3ByVal *byval, int32_t nfixed, B3Reg *where, uint32_t *stack_off);
    /* The C va_list (B3VaListKind) and its size in bytes. */
    uint8_t va_list_kind, va_list_size;
    /* The X87 opcode's operations exist (x86's extended-precision unit: C's
     * long double on x86-64, docs/c-extensions.md). */
    bool has_x87;
    /* Float128 pairs exist: a 128-bit floating-point value (AAPCS64's long
     * double, IEEE binary128) passed whole in one FP register (q0-q7),
     * given to B3 as two Int64 halves (docs/c-extensions.md). */
    bool float128_pairs;
    /* The callee-saved GPRs that may be pinned, for the validator's message. */
    const char *pinnable_text;
    B3TargetInfo info;
    /* The object file: the byte that pads code between procedures, the ELF
     * machine, and the ELF relocation type of each B3RelocKind
     * (objwriter/obj.h; 0: the target has none). */
    uint8_t code_pad_byte;
    uint16_t elf_machine;
    /* DWARF register numbers (stackmap locations): GPR r is dwarf_gprs[r]
     * (ngprs of them), FPR B3_FPR_BASE + i is dwarf_fpr_base + i. */
    const uint8_t *dwarf_gprs;
    uint8_t dwarf_fpr_base;
    /* ELF .eh_frame's CIE (objwriter/eh_frame.c), with llvm-mc's factors:
     * code and data alignment, the return address column, the CFA at an
     * entry (stack_pointer + eh_cfa_at_entry) and where the return address
     * is then (at CFA - eh_ra_at_entry; 0: in its register); the type of
     * the .eh_frame section. */
    uint8_t eh_code_align;
    int8_t eh_data_align;
    uint8_t eh_ra_column, eh_cfa_at_entry, eh_ra_at_entry;
    uint32_t eh_frame_sh_type;
    /* ELF mapping symbols in .text ($x at instructions, $d at data:
     * AArch64's ELF ABI) from the emitter's B3CodeMarks. */
    bool elf_mapping_symbols;
    const uint32_t *elf_relocs;
    /* What each kind's symbol stands for (B3RelocUse), as long as elf_relocs:
     * the ELF writer and the assembly writer bind by it. */
    const uint8_t *reloc_use;
    uint8_t nelf_relocs;
    /* Mach-O (objwriter/macho.h): the CPU type and subtype, and the
     * translation of one relocation into Mach-O's entries
     * (codegen/<arch>/macho_relocs.c; NULL: none yet). */
    uint32_t macho_cputype, macho_cpusubtype;
    int (*macho_reloc)(const struct B3MachoFixup *fx, struct B3MachoReloc *out);
    /* Mach-O's compact unwind restores callee saves only as whole pairs
     * (arm64's x19/x20 ... d14/d15; the Apple description has them): a
     * procedure saving one register of a pair saves both
     * (codegen/air/regalloc.c).  NULL: no pairs. */
    const B3Reg (*macho_save_pairs)[2];
    uint8_t nmacho_save_pairs;
    /* Does each section start with a local symbol ltmp<k> (k: the sections
     * in order)?  llvm-mc writes them for arm64, so that a relocation is
     * never section-relative; b3c's objects have them too, to be llvm-mc's. */
    bool macho_section_symbols;
} B3TargetDesc;

/* How a relocation kind uses its symbol, which decides whether an object
 * may bind it to this object's definition (objwriter/elf.c, bind_locally). */
typedef enum {
    B3RelocUse_Plain,     /* the symbol's address as the linker resolves it (calls, data words) */
    B3RelocUse_GOT,       /* the symbol's GOT entry: never bound locally */
    B3RelocUse_PCAddress, /* a PC-relative address: bound locally to a function of the object */
    B3RelocUse_TLS,       /* a thread-local access (offset, GOT entry or descriptor): names the symbol itself */
} B3RelocUse;

/* The classifier of conventions that hand out the argument registers of
 * each bank in order and pass the rest in 8-byte stack slots, variadic
 * arguments like the others (SysV, AAPCS64 on Linux). */
uint32_t b3_target_classify_in_order(const B3TargetDesc *d, uint32_t n, const uint8_t *types,
                                     const B3ByVal *byval, int32_t nfixed, B3Reg *where, uint32_t *stack_off);
/* The place of a by-value aggregate in an argument area of `area` bytes:
 * its offset (the next multiple of max(8, align)); *area grows past it. */
uint32_t b3_target_place_byval(uint32_t *area, uint32_t size, uint32_t align);
/* The most values a result may have (Return's children): arm64 returns a
 * homogeneous aggregate of four floating-point members in four registers. */
enum { B3_MAX_RESULTS = 4 };
/* The registers of a result of n values of types[] (non-Void), each the
 * next free result register of its bank; false (regs partly filled) when a
 * bank has too few on this target. */
bool b3_target_result_regs(const B3TargetDesc *d, uint32_t n, const uint8_t *types, B3Reg *regs);

/* The targets b3c knows: one row each, in --help's order.  A row is the
 * target's canonical triple and the other spellings accepted for it, its
 * architecture and system, and its description (codegen/<arch>/target_desc.c).
 * Its code side, the B3Backend, is found by the same index in codegen/backend.c
 * (ir/ holds the data only, so the front end links without any emitter):
 * docs/design.md, "Targets".  Adding a target is its folder, a row here and
 * its backend there. */
typedef enum {
    B3TargetId_X86_64_Linux,
    B3TargetId_ARM64_Linux,
    B3TargetId_X86_64_MacOS,
    B3TargetId_ARM64_MacOS,
    B3_NUM_TARGETS
} B3TargetId;
typedef struct {
    const char *triple;           /* canonical */
    const char *const *spellings; /* the others accepted, NULL-terminated; an
                                        * Apple one may carry a version (macos14.0) */
    uint8_t arch, os;             /* B3Arch, B3OS */
    const B3TargetDesc *desc;
} B3TargetRow;
extern const B3TargetRow b3_targets[B3_NUM_TARGETS];

/* The row of t (inline: the Air form check asks for every inst's description). */
static inline B3TargetId b3_target_id(B3Target t) {
    unsigned i = 0;
    while (i + 1 < B3_NUM_TARGETS && (b3_targets[i].arch != t.arch || b3_targets[i].os != t.os))
        i++;
    return (B3TargetId)i;
}
static inline const B3TargetDesc *b3_target_desc(B3Target t) { return b3_targets[b3_target_id(t)].desc; }
/* Is r one the platform reserves (B3TargetDesc.reserved)? */
static inline bool b3_target_is_reserved(B3Target t, B3Reg r) {
    return r < 128 && b3_regset_has(&b3_target_desc(t)->reserved, r);
}

const B3TargetInfo *b3_target_info(B3Target t);
/* Can an access of `bytes` bytes (atomic or not) encode offset off? */
bool b3_target_offset_ok(B3Target t, unsigned bytes, bool atomic, int64_t off);

#endif
