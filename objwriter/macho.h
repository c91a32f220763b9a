/* Mach-O relocatable objects (MH_OBJECT) for the Apple targets: the file
 * format's constants (our own names for what Apple's <mach-o/loader.h> and
 * <mach-o/nlist.h> define; Debian has no Mach-O headers) and the interface
 * between the target-neutral writer (objwriter/macho.c) and each
 * architecture's relocation translation (codegen/<arch>/macho_relocs.c,
 * B3TargetDesc.macho_reloc).  See docs/backend.md, "Mach-O". */
#ifndef B3_MACHO_H
#define B3_MACHO_H

#include <stdbool.h>
#include <stdint.h>

#include "objwriter/obj.h"

/* The header. */
#define B3_MH_MAGIC_64 0xfeedfacfu
#define B3_MH_OBJECT 0x1u
#define B3_MH_SUBSECTIONS_VIA_SYMBOLS 0x2000u /* every symbol starts a unit the linker may move */
#define B3_CPU_ARCH_ABI64 0x01000000u
#define B3_CPU_TYPE_X86_64 (7u | B3_CPU_ARCH_ABI64)
#define B3_CPU_SUBTYPE_X86_64_ALL 3u
#define B3_CPU_TYPE_ARM64 (12u | B3_CPU_ARCH_ABI64)
#define B3_CPU_SUBTYPE_ARM64_ALL 0u

/* Load commands. */
#define B3_LC_SYMTAB 0x2u
#define B3_LC_DYSYMTAB 0xbu
#define B3_LC_SEGMENT_64 0x19u
#define B3_LC_BUILD_VERSION 0x32u
#define B3_PLATFORM_MACOS 1u
#define B3_VM_PROT_RWX 7u /* an object's one segment: read, write, execute */

/* Section types (the low byte of the flags) and attributes. */
#define B3_S_REGULAR 0x0u
#define B3_S_ZEROFILL 0x1u
#define B3_S_MOD_INIT_FUNC_POINTERS 0x9u
#define B3_S_THREAD_LOCAL_REGULAR 0x11u
#define B3_S_THREAD_LOCAL_ZEROFILL 0x12u
#define B3_S_THREAD_LOCAL_VARIABLES 0x13u
#define B3_S_ATTR_PURE_INSTRUCTIONS 0x80000000u
#define B3_S_ATTR_DEBUG 0x02000000u
#define B3_S_ATTR_SOME_INSTRUCTIONS 0x00000400u

/* nlist_64: n_type bits and n_desc flags. */
#define B3_N_EXT 0x01u
#define B3_N_UNDF 0x0u
#define B3_N_SECT 0xeu
#define B3_N_PEXT 0x10u
#define B3_N_NO_DEAD_STRIP 0x0020u /* kept by the linker's dead stripping */
#define B3_N_ALT_ENTRY 0x0200u     /* not the start of an atom: stays with the symbol before it */
#define B3_N_WEAK_REF 0x0040u      /* an undefined symbol that may stay undefined (NULL) */
#define B3_N_WEAK_DEF 0x0080u      /* a definition another one may replace */

/* Sizes of the structures as the file lays them out. */
#define B3_MACHO_HEADER_SIZE 32u
#define B3_MACHO_SEGMENT_SIZE 72u
#define B3_MACHO_SECTION_SIZE 80u
#define B3_MACHO_SYMTAB_SIZE 24u
#define B3_MACHO_DYSYMTAB_SIZE 80u
#define B3_MACHO_BUILD_VERSION_SIZE 24u
#define B3_MACHO_NLIST_SIZE 16u
#define B3_MACHO_RELOC_SIZE 8u

/* One relocation_info entry: r_address, then r_symbolnum (24 bits),
 * r_pcrel, r_length (log2 of the field's bytes), r_extern, r_type. */
typedef struct B3MachoReloc {
    uint32_t address;
    uint32_t symbolnum; /* extern: the symbol's index; else the section's ordinal (1-based) */
    uint8_t pcrel, length, is_extern, type;
} B3MachoReloc;

/* The most entries one B3Reloc becomes (a SUBTRACTOR pair; arm64's ADDEND
 * before the relocation it modifies). */
#define B3_MACHO_MAX_RELOCS_PER_FIXUP 2

/* One B3Reloc as the writer has resolved it, for the target's translation:
 * the hook stores what Mach-O keeps in the field (the addend; for a
 * non-extern target the address the field resolves to in the object's own
 * address space) into `field` and writes the entries, in file order, to
 * out; it returns how many (0: the field is resolved in place and needs
 * none), or -1 if the kind has no Mach-O form on the target. */
typedef struct B3MachoFixup {
    const B3Reloc *r; /* kind, section, offset, addend */
    uint8_t *field;   /* the section's bytes at r->offset (the writer's copy) */
    bool is_extern;   /* symbolnum names a symbol (r->addend is relative to it) */
    uint32_t symbolnum;
    uint64_t target; /* non-extern: the target section's address (r->addend is relative to it) */
    uint64_t place;  /* the field's address */
    /* The symbol is defined in the atom (the piece from one symbol that is
     * not an alternate entry to the next) that holds the field, at
     * sym_addr: a PC-relative reference to it is resolved in place, with
     * no relocation, as llvm-mc resolves it (the linker never separates
     * them). */
    bool same_atom;
    uint64_t sym_addr;
} B3MachoFixup;

/* Writes a Mach-O MH_OBJECT for o->module->target to f.  Returns false
 * (after printing why) on failure. */
bool b3_write_macho(B3Obj *o, FILE *f);

/* Little-endian stores for the relocation hooks. */
static inline void b3_macho_put32(uint8_t *p, uint32_t v) {
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void b3_macho_put64(uint8_t *p, uint64_t v) {
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

#endif
