/* A relocatable object under construction, independent of the file format.
 * The code generator and the data emitter fill it; objwriter/elf.c (and later
 * macho.c) write it out. */
#ifndef B3_OBJ_H
#define B3_OBJ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"

/* B3Sec_DataRelRo is read-only data that needs load-time relocations (readonly
 * data holding Addr items): PIE and shared objects cannot relocate .rodata, so
 * it goes to .data.rel.ro, which the dynamic linker write-protects after
 * relocating (RELRO), as C compilers do. */
/* How many sections of their own (`section("name")`) the data of one
 * object may name (the validator's limit). */
#define B3_MAX_NAMED_SECTIONS 16

typedef enum {
    B3Sec_Text,
    B3Sec_ROData,
    B3Sec_Data,
    B3Sec_BSS,
    B3Sec_StackMaps,
    B3Sec_DataRelRo,
    /* Apple targets only (objwriter/frame.h): __LD,__compact_unwind, one
     * 32-byte entry per entry region of a procedure; the ELF writer skips it. */
    B3Sec_CompactUnwind,
    /* -g only (objwriter/dwarf.h): not loaded, no bytes unless debug info is on. */
    B3Sec_DebugAbbrev,
    B3Sec_DebugInfo,
    B3Sec_DebugLine,
    B3Sec_DebugRanges, /* the compile unit's ranges when procedures have sections of their own */
    /* ELF only (objwriter/eh_frame.c): the unwind tables, laid out from the
     * frame descriptions when the object is written. */
    B3Sec_EhFrame,
    /* Thread-local data (docs/c-extensions.md): the initial image of each
     * thread's copy, and its zero-initialized part (no bytes in the file). */
    B3Sec_TData,
    B3Sec_TBss,
    /* Mach-O only: a thread-local variable's descriptor (__thread_vars;
     * its symbol is the variable's, its image is in TData/TBss under
     * NAME$tlv$init), and the constructor pointers (__mod_init_func). */
    B3Sec_ThreadVars,
    B3Sec_ModInitFunc,
    /* The sections data name (`section("name")`, docs/c-extensions.md), in
     * the order the object first uses them; B3Obj.named says which. */
    B3Sec_Named0,
    B3Sec_NamedLast = B3Sec_Named0 + B3_MAX_NAMED_SECTIONS - 1,
    B3_NUM_SECTIONS
} B3SectionId;

/* Sections with a size but no bytes in the file. */
static inline bool b3_sec_is_zerofill(B3SectionId s) { return s == B3Sec_BSS || s == B3Sec_TBss; }

/* Relocation kinds, named for what they compute.  The first three are every
 * target's; the others belong to one target (X86_, A64_).  Shared code never
 * asks which kind a relocation is: the target's description gives each kind
 * its ELF type and its use (B3RelocUse: plain, GOT, PC-relative address),
 * and only the target's own code (its emitter and assembly syntax) names its kinds. */
typedef enum {
    B3Reloc_PC32,  /* S + A - P, 32-bit (x86-64 local data/code; AArch64 PREL32) */
    B3Reloc_Abs64, /* S + A, 64-bit (data Addr items) */
    B3Reloc_Abs32, /* S + A, 32-bit zero-extended (DWARF section offsets) */
    /* x86-64 (codegen/x86_64/asm.h). */
    B3Reloc_X86_PLT32,         /* call/jmp to a function: L + A - P */
    B3Reloc_X86_GOTPCRELX,     /* mov sym@GOTPCREL(%rip) without REX */
    B3Reloc_X86_REX_GOTPCRELX, /* with REX prefix */
    B3Reloc_X86_Branch32,      /* call to sym + addend (not through a PLT): S + A - P, as PC32 on ELF;
                                * Mach-O tells branches from RIP-relative operands */
    /* Thread-local accesses (docs/c-extensions.md), all naming the variable. */
    B3Reloc_X86_TPOFF32,  /* lea x@tpoff(%rax): its offset from the thread pointer (local-exec) */
    B3Reloc_X86_GOTTPOFF, /* add x@gottpoff(%rip): the GOT entry holding that offset (initial-exec) */
    B3Reloc_X86_TLSGD,    /* lea x@tlsgd(%rip), %rdi before __tls_get_addr (general-dynamic) */
    B3Reloc_X86_TLV,      /* Mach-O: movq _x@TLVP(%rip): the variable's descriptor */
    /* AArch64 (codegen/arm64/asm.h): fields of one instruction word. */
    B3Reloc_A64_Call26,        /* bl: (S + A - P) >> 2 in imm26 */
    B3Reloc_A64_Jump26,        /* b: (S + A - P) >> 2 in imm26 */
    B3Reloc_A64_AdrPrelLo21,   /* adr: S + A - P in immhi:immlo */
    B3Reloc_A64_AdrPrelPgHi21, /* adrp: Page(S + A) - Page(P) */
    B3Reloc_A64_AddAbsLo12,    /* add :lo12: (S + A) & 0xfff, no overflow check */
    B3Reloc_A64_Ldst8Lo12,     /* ldr/str :lo12: of a 1-byte access */
    B3Reloc_A64_Ldst16Lo12,    /* ... 2-byte (the field holds the low 12 bits >> 1) */
    B3Reloc_A64_Ldst32Lo12,
    B3Reloc_A64_Ldst64Lo12,
    B3Reloc_A64_Ldst128Lo12,
    B3Reloc_A64_AdrGotPage,  /* adrp :got: Page(G(GDAT(S + A))) - Page(P) */
    B3Reloc_A64_Ld64GotLo12, /* ldr :got_lo12: G(GDAT(S + A)) & 0xff8 */
    /* Thread-local accesses (docs/c-extensions.md). */
    B3Reloc_A64_TprelHi12,       /* add :tprel_hi12: (local-exec) */
    B3Reloc_A64_TprelLo12Nc,     /* add :tprel_lo12_nc: */
    B3Reloc_A64_GottprelPage21,  /* adrp :gottprel: (initial-exec) */
    B3Reloc_A64_GottprelLo12Nc,  /* ldr :gottprel_lo12: */
    B3Reloc_A64_TlsdescPage21,   /* adrp :tlsdesc: (general-dynamic) */
    B3Reloc_A64_TlsdescLd64Lo12, /* ldr :tlsdesc_lo12: */
    B3Reloc_A64_TlsdescAddLo12,  /* add :tlsdesc_lo12: */
    B3Reloc_A64_TlsdescCall,     /* .tlsdesccall on the blr: marks it for relaxation */
    B3Reloc_A64_TlvpPage21,      /* Mach-O: adrp _x@TLVPPAGE */
    B3Reloc_A64_TlvpPageoff12,   /* Mach-O: ldr _x@TLVPPAGEOFF */
} B3RelocKind;

typedef struct {
    uint8_t section;       /* B3SectionId the fixup is in */
    uint8_t kind;          /* B3RelocKind */
    uint64_t offset;       /* within the section */
    B3Symbol *sym;         /* target symbol; NULL with local_section set means a section-relative target */
    int16_t local_section; /* -1, or the section of a local (unnamed) target such as a jump table */
    int64_t addend;
} B3Reloc;

typedef struct {
    uint8_t *bytes;
    uint64_t size, cap; /* for BSS only size counts */
    uint32_t align;
} B3SectionBuf;

typedef struct {
    B3Symbol *sym;
    uint8_t section;
    uint64_t offset, size;
    bool is_func;
} B3SymDef;

/* Where .text changes between instructions and data (a procedure's jump
 * tables) at offset: ELF for AArch64 marks these with mapping symbols
 * (B3TargetDesc.elf_mapping_symbols).  Marked by the target's emitter. */
typedef struct {
    uint64_t offset;
    uint8_t section; /* B3SectionId: .text or a code section of its own */
    bool data;
} B3CodeMark;

/* A section of its own: its name (on Mach-O "SEG,sect"), whether any
 * datum in it is writable or needs load-time relocations, and whether it
 * holds code (procedures' `section("name")`) instead of data. */
typedef struct {
    const char *name;
    uint32_t len;
    bool writable;
    bool code;
} B3NamedSection;

static inline bool b3_sec_is_named(B3SectionId s) { return s >= B3Sec_Named0 && s <= B3Sec_NamedLast; }

typedef struct {
    B3Module *module;
    B3SectionBuf sec[B3_NUM_SECTIONS];
    B3NamedSection named[B3_MAX_NAMED_SECTIONS]; /* of B3Sec_Named0 + i */
    uint32_t nnamed;
    B3Reloc *relocs;
    uint32_t nrelocs, cap_relocs;
    B3SymDef *defs; /* symbols this object defines */
    uint32_t ndefs, cap_defs;
    /* Each entry region's frame description, in .text order, and their
     * prologue steps (objwriter/frame.h). */
    struct B3FrameRegion *frames;
    uint32_t nframes, cap_frames;
    struct B3CfiStep *cfi_steps;
    uint32_t ncfi_steps, cap_cfi_steps;
    struct B3StackMaps *stackmaps; /* pending .llvm_stackmaps records (objwriter/stackmaps.h), or NULL */
    struct B3DebugInfo *debug;     /* -g: line rows and names (objwriter/dwarf.h), or NULL */
    B3CodeMark *code_marks;        /* in .text offset order */
    uint32_t ncode_marks, cap_code_marks;
    struct B3AsmText
        *asm_text; /* -S: instruction text of .text (objwriter/asm_writer.h), owned by the caller, or NULL */
    bool no_unwind_tables; /* -fno-unwind-tables: no ELF .eh_frame, no ELF .cfi_* (objwriter/frame.h) */
    /* Errors the input causes, reported at its locations; NULL: plain messages on stderr. */
    B3Diag *diag;
} B3Obj;

/* What a relocation of kind k uses its symbol for on the target of d
 * (ir/target.h; kinds the target lacks are plain). */
static inline B3RelocUse b3_reloc_use(const B3TargetDesc *d, B3RelocKind k) {
    return (unsigned)k < d->nelf_relocs && d->reloc_use ? (B3RelocUse)d->reloc_use[k] : B3RelocUse_Plain;
}

/* May code address sym PC-relatively (lea sym(%rip), RIP-relative loads and
 * stores: B3Reloc_PC32) and still link into a shared library?  Procedures
 * and entries defined in the module (the writer binds those references
 * locally) and internal data: yes.  Global data: no — a PC32 against it does
 * not link with -shared, and binding it locally would break when an
 * executable takes a copy relocation of it; it goes through the GOT as -fPIC
 * code does (the linker relaxes that to lea in executables).  Weak
 * definitions go through the GOT too; hidden data may be PC-relative. */
static inline bool b3_obj_pc_relative_ok(const B3Symbol *sym) {
    /* A weak definition may be replaced by another module's (through the GOT
     * then, as an extern); hidden data is never copied into an executable. */
    return sym->defined && !sym->weak &&
           (sym->internal || sym->hidden || sym->kind == B3Sym_Proc || sym->kind == B3Sym_Entry);
}

/* Spec 6 data layout, which b3_obj_emit_data lays out and the assembly writer
 * prints: Int16/Int32/Int64/Float/Double/Addr sit at natural alignment from
 * their datum's start (only Int8, Bytes and Zero are unaligned). */
static inline uint32_t b3_data_item_align(B3DataKind k) {
    switch (k) {
    case B3Data_Int16:
        return 2;
    case B3Data_Int32:
    case B3Data_Float:
    case B3Data_Rel32:
        return 4;
    case B3Data_Int64:
    case B3Data_Double:
    case B3Data_Addr:
        return 8; /* pointers are 8 bytes on every supported target */
    default:
        return 1;
    }
}

static inline uint64_t b3_data_item_size(const B3DataItem *it) {
    switch ((B3DataKind)it->kind) {
    case B3Data_Int8:
        return 1;
    case B3Data_Int16:
        return 2;
    case B3Data_Int32:
    case B3Data_Float:
    case B3Data_Rel32:
        return 4;
    case B3Data_Int64:
    case B3Data_Double:
    case B3Data_Addr:
        return 8;
    case B3Data_Bytes:
        return it->u.str.len;
    case B3Data_Zero:
        return it->u.zero;
    }
    return 0;
}

/* The zero bytes before an item that would start rel bytes after its datum's start. */
static inline uint64_t b3_data_item_pad(const B3DataItem *it, uint64_t rel) {
    uint64_t ia = b3_data_item_align((B3DataKind)it->kind);
    return (ia - (rel & (ia - 1))) & (ia - 1);
}

/* A datum's alignment: its align = N, else its most aligned item's. */
static inline uint32_t b3_data_align(const B3Data *d) {
    if (d->has_align && d->align)
        return d->align;
    uint32_t a = 1;
    for (uint32_t i = 0; i < d->nlines; i++)
        for (uint32_t j = 0; j < d->lines[i].nitems; j++) {
            uint32_t ia = b3_data_item_align((B3DataKind)d->lines[i].items[j].kind);
            if (ia > a)
                a = ia;
        }
    return a;
}

void b3_obj_init(B3Obj *o, B3Module *m);
void b3_obj_free(B3Obj *o);
/* Appends bytes to a section; returns the offset they start at. */
uint64_t b3_obj_emit(B3Obj *o, B3SectionId s, const void *bytes, uint64_t n);
/* Pads a section to an alignment (zeros; BSS just grows). */
void b3_obj_align(B3Obj *o, B3SectionId s, uint32_t align);
void b3_obj_reloc(B3Obj *o, B3SectionId s, uint64_t offset, B3RelocKind kind, B3Symbol *sym, int64_t addend);
void b3_obj_define(B3Obj *o, B3Symbol *sym, B3SectionId s, uint64_t offset, uint64_t size, bool is_func);
/* From offset on, code section s holds data (or instructions again). */
void b3_obj_mark_code(B3Obj *o, B3SectionId s, uint64_t offset, bool data);

/* Does section s hold code: .text, or a procedure's section of its own? */
static inline bool b3_obj_sec_is_code(const B3Obj *o, B3SectionId s) {
    return s == B3Sec_Text || (b3_sec_is_named(s) && o->named[s - B3Sec_Named0].code);
}

/* The section procedure symbol sym's code goes in: .text, or its
 * `section("name")` (docs/c-extensions.md), made on first use. */
B3SectionId b3_obj_code_section(B3Obj *o, const B3Symbol *sym);

/* Lays out every data item of the module into .rodata/.data/.bss (on
 * Mach-O also the thread-local descriptors and the constructor pointers). */
void b3_obj_emit_data(B3Obj *o, B3Module *m);

/* Does section s hold a `used` definition (docs/c-extensions.md)?  ELF
 * keeps such a section from the linker's garbage collection
 * (SHF_GNU_RETAIN): b3c's sections are not split per symbol. */
static inline bool b3_obj_section_retained(const B3Obj *o, B3SectionId s) {
    for (uint32_t i = 0; i < o->ndefs; i++)
        if (o->defs[i].section == s && o->defs[i].sym->used)
            return true;
    return false;
}

/* A constructor or destructor (docs/c-extensions.md): the procedure, its
 * kind and its priority. */
typedef struct {
    B3Symbol *sym;
    bool fini;
    int32_t priority;
} B3Structor;

/* The module's constructors and destructors in module order (a procedure
 * that is both gives its constructor first); *out is malloc'd (free it),
 * the count is returned. */
uint32_t b3_obj_structors(const B3Module *m, B3Structor **out);

/* Writes an ELF relocatable object for o->module->target to f.
 * Returns false (after printing why) on failure. */
bool b3_write_elf(B3Obj *o, FILE *f);
/* Writes the object in the format of o->module->target (ELF or Mach-O). */
bool b3_write_object(B3Obj *o, FILE *f);

#endif
