/* A test-only loader for Mach-O relocatable objects: see macho_run.h.
 *
 * All the objects go into one mapping (so every PC-relative distance between
 * them fits): first the __TEXT sections and the branch stubs, made
 * read+execute once relocated, then the other sections and the GOT.  Debug
 * sections (__DWARF, __LD,__compact_unwind) are not loaded.  A branch to a
 * host function too far away for the instruction goes through a stub that
 * jumps through an absolute address; GOT loads use a slot per symbol.
 *
 * The Mach-O constants are defined here from Apple's published headers
 * (<mach-o/loader.h>, <mach-o/nlist.h>, <mach-o/x86_64/reloc.h>,
 * <mach-o/arm64/reloc.h>), which Linux does not have. */
#define _GNU_SOURCE
#include "macho_run.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    MH_MAGIC_64 = 0xfeedfacf,
    MH_OBJECT = 1,
    CPU_X86_64 = 0x01000007,
    CPU_ARM64 = 0x0100000c,
    LC_SYMTAB = 0x2,
    LC_SEGMENT_64 = 0x19,
    SECTION_TYPE = 0xff,
    S_ZEROFILL = 0x1,
    S_MOD_INIT_FUNC_POINTERS = 0x9,
    S_GB_ZEROFILL = 0xc,
    S_THREAD_LOCAL_REGULAR = 0x11,
    S_THREAD_LOCAL_ZEROFILL = 0x12,
    S_THREAD_LOCAL_VARIABLES = 0x13,
    S_ATTR_DEBUG = 0x02000000,
    N_STAB = 0xe0,
    N_PEXT = 0x10,
    N_TYPE = 0x0e,
    N_EXT = 0x01,
    N_UNDF = 0x0,
    N_ABS = 0x2,
    N_SECT = 0xe,
    N_WEAK_REF = 0x40,
};

/* Relocation types: x86-64 */
enum {
    X_UNSIGNED,
    X_SIGNED,
    X_BRANCH,
    X_GOT_LOAD,
    X_GOT,
    X_SUBTRACTOR,
    X_SIGNED_1,
    X_SIGNED_2,
    X_SIGNED_4,
    X_TLV
};
/* and arm64 */
enum {
    A_UNSIGNED,
    A_SUBTRACTOR,
    A_BRANCH26,
    A_PAGE21,
    A_PAGEOFF12,
    A_GOT_LOAD_PAGE21,
    A_GOT_LOAD_PAGEOFF12,
    A_POINTER_TO_GOT,
    A_TLVP_LOAD_PAGE21,
    A_TLVP_LOAD_PAGEOFF12,
    A_ADDEND
};

typedef struct {
    char sectname[16], segname[16];
    uint64_t addr, size;
    uint32_t offset, align, reloff, nreloc, flags, r1, r2, r3;
} Sect64;

typedef struct {
    uint32_t strx;
    uint8_t type, sect;
    uint16_t desc;
    uint64_t value;
} NList;

typedef struct {
    Sect64 *hdr;
    char *base; /* loaded address, NULL when not loaded */
} Section;

typedef struct {
    const char *path;
    unsigned char *file;
    size_t file_size;
    uint32_t cpu;
    Section *sects; /* n_sect - 1 */
    unsigned nsects;
    NList *syms;
    unsigned nsyms;
    const char *strs;
    char **addr; /* each symbol's address */
    char **got;  /* each symbol's GOT slot, allocated on first use */
    char **stub; /* each undefined symbol's branch stub, allocated on first use */
} Obj;

static Obj *objs;
static int nobjs;
static char *err_buf;
static unsigned err_len;
static char *got_next, *got_end, *stub_next, *stub_end;

static int fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_buf, err_len, fmt, ap);
    va_end(ap);
    return -1;
}

static int read_file(Obj *o) {
    FILE *f = fopen(o->path, "rb");
    if (!f)
        return fail("%s: cannot open", o->path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    o->file = malloc(n > 0 ? (size_t)n : 1);
    o->file_size = (size_t)n;
    size_t got = fread(o->file, 1, o->file_size, f);
    fclose(f);
    if (n < 32 || got != (size_t)n)
        return fail("%s: cannot read", o->path);
    return 0;
}

static uint32_t u32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Reads the header, sections and symbol table of o. */
static int parse(Obj *o) {
    const unsigned char *p = o->file;
    if (u32(p) != MH_MAGIC_64 || u32(p + 12) != MH_OBJECT)
        return fail("%s: not a 64-bit Mach-O object", o->path);
    o->cpu = u32(p + 4);
    if (o->cpu != CPU_X86_64 && o->cpu != CPU_ARM64)
        return fail("%s: CPU type 0x%x is not x86-64 or arm64", o->path, o->cpu);
#if defined(__x86_64__)
    if (o->cpu != CPU_X86_64)
        return fail("%s: an arm64 object on an x86-64 host", o->path);
#elif defined(__aarch64__)
    if (o->cpu != CPU_ARM64)
        return fail("%s: an x86-64 object on an arm64 host", o->path);
#endif
    uint32_t ncmds = u32(p + 16), off = 32;
    for (uint32_t i = 0; i < ncmds; i++) {
        if (off + 8 > o->file_size)
            return fail("%s: load commands past the end", o->path);
        uint32_t cmd = u32(p + off), size = u32(p + off + 4);
        if (cmd == LC_SEGMENT_64) {
            uint32_t n = u32(p + off + 64);
            o->sects = realloc(o->sects, (o->nsects + n) * sizeof(Section));
            for (uint32_t k = 0; k < n; k++) {
                o->sects[o->nsects].hdr = (Sect64 *)(o->file + off + 72 + 80 * k);
                o->sects[o->nsects++].base = NULL;
            }
        } else if (cmd == LC_SYMTAB) {
            o->syms = (NList *)(o->file + u32(p + off + 8));
            o->nsyms = u32(p + off + 12);
            o->strs = (const char *)o->file + u32(p + off + 16);
        }
        off += size;
    }
    o->addr = calloc(o->nsyms + 1, sizeof(char *));
    o->got = calloc(o->nsyms + 1, sizeof(char *));
    o->stub = calloc(o->nsyms + 1, sizeof(char *));
    return 0;
}

static int loaded(const Sect64 *s) {
    return !(s->flags & S_ATTR_DEBUG) && strncmp(s->segname, "__DWARF", 16) != 0;
}
static int is_text(const Sect64 *s) { return strncmp(s->segname, "__TEXT", 16) == 0; }
static int zerofill(const Sect64 *s) {
    return (s->flags & SECTION_TYPE) == S_ZEROFILL || (s->flags & SECTION_TYPE) == S_GB_ZEROFILL ||
           (s->flags & SECTION_TYPE) == S_THREAD_LOCAL_ZEROFILL;
}
static int thread_local_image(const Sect64 *s) {
    return (s->flags & SECTION_TYPE) == S_THREAD_LOCAL_REGULAR ||
           (s->flags & SECTION_TYPE) == S_THREAD_LOCAL_ZEROFILL;
}

/* Thread-local variables: every object's __thread_data and __thread_bss
 * form one initial image [tlv_lo, tlv_hi) in the mapping (laid out
 * together); each thread gets its copy on its first access.  A variable's
 * descriptor in __thread_vars is { thunk, key, its initial address }: the
 * thunk (the objects' __tlv_bootstrap, bound here) returns the calling
 * thread's address of the variable.  A plain C function: b3c treats the
 * thunk call as a C call (Apple's thunk preserves more registers). */
static char *tlv_lo, *tlv_hi;
static __thread char *tlv_block;
typedef struct {
    void *thunk;
    uintptr_t key;
    char *init;
} TlvDescriptor;
static void *tlv_get(TlvDescriptor *d) {
    if (!tlv_block) {
        tlv_block = malloc(tlv_hi - tlv_lo + 1);
        memcpy(tlv_block, tlv_lo, tlv_hi - tlv_lo);
    }
    return tlv_block + (d->init - tlv_lo);
}
/* ___dso_handle: the linker's; __cxa_atexit only keeps it. */
static char dso_handle;
static uintptr_t align_up(uintptr_t v, uintptr_t a) { return (v + a - 1) & ~(a - 1); }

/* Places the loaded sections of every object into one mapping. */
static int layout(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t text = 0, data = 0;
    unsigned nsyms = 0;
    for (int pass = 0; pass < 3; pass++) {
        uintptr_t *end = pass == 0 ? &text : &data;
        for (int i = 0; i < nobjs; i++)
            for (unsigned k = 0; k < objs[i].nsects; k++) {
                Sect64 *s = objs[i].sects[k].hdr;
                if (!loaded(s) || is_text(s) != (pass == 0) || thread_local_image(s) != (pass == 2))
                    continue;
                *end = align_up(*end, (uintptr_t)1 << s->align) + s->size;
            }
    }
    for (int i = 0; i < nobjs; i++)
        nsyms += objs[i].nsyms;
    size_t stubs = 16 * (size_t)nsyms, gots = 8 * (size_t)nsyms;
    size_t text_size = align_up(align_up(text, 16) + stubs + 1, page);
    size_t total = text_size + align_up(data + 16 + gots + 1, page);
    char *map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return fail("cannot map %zu bytes", total);
    text = (uintptr_t)map;
    data = (uintptr_t)map + text_size;
    for (int pass = 0; pass < 3; pass++) {
        uintptr_t *at = pass == 0 ? &text : &data;
        for (int i = 0; i < nobjs; i++)
            for (unsigned k = 0; k < objs[i].nsects; k++) {
                Section *sec = &objs[i].sects[k];
                Sect64 *s = sec->hdr;
                if (!loaded(s) || is_text(s) != (pass == 0) || thread_local_image(s) != (pass == 2))
                    continue;
                *at = align_up(*at, (uintptr_t)1 << s->align);
                if (pass == 2 && !tlv_lo)
                    tlv_lo = (char *)*at;
                if (pass == 2)
                    tlv_hi = (char *)*at + s->size;
                sec->base = (char *)*at;
                if (!zerofill(s)) {
                    if ((uint64_t)s->offset + s->size > objs[i].file_size)
                        return fail("%s: section %.16s past the end", objs[i].path, s->sectname);
                    memcpy(sec->base, objs[i].file + s->offset, s->size);
                }
                *at += s->size;
            }
    }
    stub_next = (char *)align_up(text, 16);
    stub_end = map + text_size;
    got_next = (char *)align_up(data, 16);
    got_end = map + total;
    return 0;
}

static const char *sym_name(const Obj *o, unsigned i) { return o->strs + o->syms[i].strx; }

/* The external definition of name in the loaded objects, or NULL. */
static char *find_defined(const char *name) {
    for (int i = 0; i < nobjs; i++) {
        Obj *o = &objs[i];
        for (unsigned k = 0; k < o->nsyms; k++) {
            NList *s = &o->syms[k];
            if (!(s->type & N_STAB) && (s->type & N_TYPE) == N_SECT && (s->type & N_EXT) &&
                !(s->type & N_PEXT) && strcmp(sym_name(o, k), name) == 0)
                return o->addr[k];
        }
    }
    return NULL;
}

/* Gives each symbol its address: defined ones in their section, undefined
 * ones from another object or the host. */
static int bind(void) {
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nobjs; i++) {
            Obj *o = &objs[i];
            for (unsigned k = 0; k < o->nsyms; k++) {
                NList *s = &o->syms[k];
                const char *name = sym_name(o, k);
                if (s->type & N_STAB)
                    continue;
                switch (s->type & N_TYPE) {
                case N_SECT:
                    if (pass == 0) {
                        if (s->sect == 0 || s->sect > o->nsects)
                            return fail("%s: symbol %s in section %u", o->path, name, s->sect);
                        Section *sec = &o->sects[s->sect - 1];
                        if (sec->base)
                            o->addr[k] = sec->base + (s->value - sec->hdr->addr);
                    }
                    break;
                case N_ABS:
                    o->addr[k] = (char *)(uintptr_t)s->value;
                    break;
                case N_UNDF:
                    if (pass == 0)
                        break;
                    if (s->value != 0)
                        return fail("%s: common symbol %s is not supported", o->path, name);
                    o->addr[k] = find_defined(name);
                    if (!o->addr[k] && !strcmp(name, "__tlv_bootstrap"))
                        o->addr[k] = (char *)tlv_get;
                    if (!o->addr[k] && !strcmp(name, "___dso_handle"))
                        o->addr[k] = &dso_handle;
                    if (!o->addr[k])
                        o->addr[k] = dlsym(RTLD_DEFAULT, name[0] == '_' ? name + 1 : name);
                    if (!o->addr[k] && !(s->desc & N_WEAK_REF))
                        return fail("%s: undefined symbol %s (not in the objects nor the host)", o->path,
                                    name);
                    break;
                default:
                    return fail("%s: symbol %s of type 0x%x is not supported", o->path, name, s->type);
                }
            }
        }
    return 0;
}

static char *got_slot(Obj *o, unsigned sym) {
    if (!o->got[sym]) {
        o->got[sym] = got_next;
        got_next += 8;
        memcpy(o->got[sym], &o->addr[sym], 8);
    }
    return o->got[sym];
}

/* A stub that jumps to the symbol from anywhere (its address is absolute). */
static char *stub(Obj *o, unsigned sym) {
    if (!o->stub[sym]) {
        char *s = stub_next;
        stub_next += 16;
        if (o->cpu == CPU_X86_64) {
            static const unsigned char jmp[6] = {0xff, 0x25, 0, 0, 0, 0}; /* jmp *0(%rip) */
            memcpy(s, jmp, 6);
            memcpy(s + 6, &o->addr[sym], 8);
        } else {
            static const uint32_t ldr_br[2] = {0x58000050, 0xd61f0200}; /* ldr x16, #8; br x16 */
            memcpy(s, ldr_br, 8);
            memcpy(s + 8, &o->addr[sym], 8);
        }
        o->stub[sym] = s;
    }
    return o->stub[sym];
}

typedef struct {
    int32_t address;
    uint32_t symbolnum, pcrel, length, ext, type;
} Reloc;

static Reloc reloc_at(const unsigned char *p) {
    Reloc r;
    uint32_t w = u32(p + 4);
    memcpy(&r.address, p, 4);
    r.symbolnum = w & 0xffffff;
    r.pcrel = (w >> 24) & 1;
    r.length = (w >> 25) & 3;
    r.ext = (w >> 27) & 1;
    r.type = w >> 28;
    return r;
}

static int64_t read_field(const char *p, unsigned length) {
    switch (length) {
    case 0:
        return (int8_t)*p;
    case 1: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 2: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static int write_field(const Obj *o, char *p, unsigned length, int64_t v) {
    switch (length) {
    case 0:
        if (v < INT8_MIN || v > UINT8_MAX)
            return fail("%s: 1-byte relocation value %lld out of range", o->path, (long long)v);
        *p = (char)v;
        return 0;
    case 1: {
        if (v < INT16_MIN || v > UINT16_MAX)
            return fail("%s: 2-byte relocation value %lld out of range", o->path, (long long)v);
        int16_t w = (int16_t)v;
        memcpy(p, &w, 2);
        return 0;
    }
    case 2: {
        if (v < INT32_MIN || v > UINT32_MAX)
            return fail("%s: 4-byte relocation value %lld out of range", o->path, (long long)v);
        int32_t w = (int32_t)v;
        memcpy(p, &w, 4);
        return 0;
    }
    default:
        memcpy(p, &v, 8);
        return 0;
    }
}

/* What a relocation's target adds to the stored value: an external
 * relocation's symbol address (the stored value holds only the addend); for a
 * section-based one the section's displacement from its address in the file
 * (the stored value holds the old address). */
static int target(Obj *o, Reloc r, int64_t *out) {
    if (r.ext) {
        if (r.symbolnum >= o->nsyms)
            return fail("%s: relocation symbol %u out of range", o->path, r.symbolnum);
        *out = (int64_t)(intptr_t)o->addr[r.symbolnum];
        return 0;
    }
    if (r.symbolnum == 0 || r.symbolnum > o->nsects || !o->sects[r.symbolnum - 1].base)
        return fail("%s: relocation to section %u which is not loaded", o->path, r.symbolnum);
    Section *s = &o->sects[r.symbolnum - 1];
    *out = (int64_t)((intptr_t)s->base - (intptr_t)s->hdr->addr);
    return 0;
}

/* value = minuend - subtrahend + stored, from a SUBTRACTOR and its UNSIGNED */
static int subtractor(Obj *o, const unsigned char *rel, unsigned i, unsigned n, unsigned unsigned_type,
                      char *p) {
    Reloc a = reloc_at(rel + 8 * i);
    if (i + 1 >= n || reloc_at(rel + 8 * (i + 1)).type != unsigned_type)
        return fail("%s: SUBTRACTOR not followed by UNSIGNED", o->path);
    int64_t sa, sb;
    if (target(o, a, &sa) || target(o, reloc_at(rel + 8 * (i + 1)), &sb))
        return -1;
    return write_field(o, p, a.length, read_field(p, a.length) + sb - sa);
}

static int apply_x86_64(Obj *o, Section *sec) {
    const unsigned char *rel = o->file + sec->hdr->reloff;
    unsigned n = sec->hdr->nreloc;
    for (unsigned i = 0; i < n; i++) {
        Reloc r = reloc_at(rel + 8 * i);
        if (r.address < 0 || (uint64_t)r.address >= sec->hdr->size)
            return fail("%s: relocation at 0x%x outside its section", o->path, (unsigned)r.address);
        char *p = sec->base + r.address;
        int64_t field = read_field(p, r.length), s;
        intptr_t place = (intptr_t)p;
        switch (r.type) {
        case X_SUBTRACTOR:
            if (subtractor(o, rel, i, n, X_UNSIGNED, p))
                return -1;
            i++;
            continue;
        case X_UNSIGNED:
            if (r.pcrel)
                return fail("%s: pc-relative UNSIGNED relocation", o->path);
            if (target(o, r, &s) || write_field(o, p, r.length, field + s))
                return -1;
            continue;
        case X_SIGNED:
        case X_SIGNED_1:
        case X_SIGNED_2:
        case X_SIGNED_4:
        case X_BRANCH:
            if (!r.pcrel || r.length != 2)
                return fail("%s: relocation type %u must be pc-relative, 4 bytes", o->path, r.type);
            if (!r.ext) {
                /* the stored displacement was from this place's old address */
                if (target(o, r, &s) ||
                    write_field(o, p, 2, field + s - (place - (intptr_t)(sec->hdr->addr + r.address))))
                    return -1;
                continue;
            }
            s = (intptr_t)o->addr[r.symbolnum];
            if (r.type == X_BRANCH &&
                (s + field - (place + 4) > INT32_MAX || s + field - (place + 4) < INT32_MIN))
                s = (intptr_t)stub(o, r.symbolnum);
            if (write_field(o, p, 2, s + field - (place + 4)))
                return -1;
            continue;
        case X_GOT_LOAD:
        case X_GOT:
        case X_TLV: /* the descriptor's address, from a slot as from the GOT */
            if (!r.ext)
                return fail("%s: GOT relocation not against a symbol", o->path);
            s = (intptr_t)got_slot(o, r.symbolnum);
            if (write_field(o, p, r.length, r.pcrel ? s + field - (place + 4) : s + field))
                return -1;
            continue;
        default:
            return fail("%s: x86-64 relocation type %u is not supported", o->path, r.type);
        }
    }
    return 0;
}

static uint32_t insn_at(const char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void set_insn(char *p, uint32_t v) { memcpy(p, &v, 4); }

/* The scale of a 12-bit page offset: the access size of a load/store with an
 * unsigned immediate; 1 for an add. */
static unsigned pageoff_shift(uint32_t insn) {
    if ((insn & 0x3b000000) != 0x39000000)
        return 0;
    unsigned size = insn >> 30;
    if ((insn & 0x04800000) == 0x04800000 && size == 0) /* a 128-bit vector register */
        return 4;
    return size;
}

static int apply_arm64(Obj *o, Section *sec) {
    const unsigned char *rel = o->file + sec->hdr->reloff;
    unsigned n = sec->hdr->nreloc;
    int64_t addend = 0;
    for (unsigned i = 0; i < n; i++) {
        Reloc r = reloc_at(rel + 8 * i);
        if (r.address < 0 || (uint64_t)r.address >= sec->hdr->size)
            return fail("%s: relocation at 0x%x outside its section", o->path, (unsigned)r.address);
        char *p = sec->base + r.address;
        int64_t s;
        intptr_t place = (intptr_t)p;
        if (r.type == A_ADDEND) {
            addend = (int32_t)(r.symbolnum << 8) >> 8; /* 24 bits, signed */
            continue;
        }
        if (r.type == A_SUBTRACTOR) {
            if (subtractor(o, rel, i, n, A_UNSIGNED, p))
                return -1;
            i++;
            addend = 0;
            continue;
        }
        if (r.type == A_UNSIGNED) {
            if (target(o, r, &s) || write_field(o, p, r.length, read_field(p, r.length) + s))
                return -1;
            addend = 0;
            continue;
        }
        if (!r.ext)
            return fail("%s: arm64 relocation type %u not against a symbol", o->path, r.type);
        if (r.symbolnum >= o->nsyms)
            return fail("%s: relocation symbol %u out of range", o->path, r.symbolnum);
        uint32_t insn = insn_at(p);
        switch (r.type) {
        case A_BRANCH26: {
            int64_t d = (intptr_t)o->addr[r.symbolnum] + addend - place;
            if ((d < -(1 << 27) || d >= (1 << 27)) && addend == 0)
                d = (intptr_t)stub(o, r.symbolnum) - place;
            if (d < -(1 << 27) || d >= (1 << 27) || (d & 3))
                return fail("%s: branch to %s out of range", o->path, sym_name(o, r.symbolnum));
            set_insn(p, (insn & 0xfc000000) | ((uint32_t)(d >> 2) & 0x03ffffff));
            break;
        }
        case A_PAGE21:
        case A_GOT_LOAD_PAGE21:
        case A_TLVP_LOAD_PAGE21: {
            s = r.type == A_PAGE21 ? (intptr_t)o->addr[r.symbolnum] + addend
                                   : (intptr_t)got_slot(o, r.symbolnum);
            int64_t pages = (s >> 12) - (place >> 12);
            if (pages < -(1 << 20) || pages >= (1 << 20))
                return fail("%s: page of %s out of range", o->path, sym_name(o, r.symbolnum));
            uint32_t imm = (uint32_t)pages & 0x1fffff;
            set_insn(p, (insn & 0x9f00001f) | ((imm & 3) << 29) | ((imm >> 2) << 5));
            break;
        }
        case A_PAGEOFF12:
        case A_GOT_LOAD_PAGEOFF12:
        case A_TLVP_LOAD_PAGEOFF12: {
            s = r.type == A_PAGEOFF12 ? (intptr_t)o->addr[r.symbolnum] + addend
                                      : (intptr_t)got_slot(o, r.symbolnum);
            unsigned shift = pageoff_shift(insn);
            uint32_t off = (uint32_t)s & 0xfff;
            if (off & ((1u << shift) - 1))
                return fail("%s: page offset of %s not aligned for its access", o->path,
                            sym_name(o, r.symbolnum));
            set_insn(p, (insn & ~(0xfffu << 10)) | ((off >> shift) << 10));
            break;
        }
        case A_POINTER_TO_GOT:
            /* arm64 keeps addends in ADDEND relocations, not in the bytes (but
             * UNSIGNED and SUBTRACTOR): assemblers leave other values here */
            s = (intptr_t)got_slot(o, r.symbolnum);
            if (write_field(o, p, r.length, r.pcrel ? s - place : s))
                return -1;
            break;
        default:
            return fail("%s: arm64 relocation type %u is not supported", o->path, r.type);
        }
        addend = 0;
    }
    return 0;
}

int b3_macho_load(const char *const *paths, int n, char *err, unsigned errlen) {
    static char dummy[1];
    err_buf = err ? err : dummy;
    err_len = err ? errlen : 1;
    objs = calloc((size_t)n, sizeof(Obj));
    nobjs = n;
    for (int i = 0; i < n; i++) {
        objs[i].path = paths[i];
        if (read_file(&objs[i]) || parse(&objs[i]))
            return -1;
    }
    if (layout() || bind())
        return -1;
    char *text_lo = NULL, *text_hi = NULL;
    for (int i = 0; i < n; i++)
        for (unsigned k = 0; k < objs[i].nsects; k++) {
            Section *sec = &objs[i].sects[k];
            if (!sec->base)
                continue;
            if (objs[i].cpu == CPU_X86_64 ? apply_x86_64(&objs[i], sec) : apply_arm64(&objs[i], sec))
                return -1;
            if (is_text(sec->hdr)) {
                if (!text_lo || sec->base < text_lo)
                    text_lo = sec->base;
                if (sec->base + sec->hdr->size > text_hi)
                    text_hi = sec->base + sec->hdr->size;
            }
        }
    if (got_next > got_end || stub_next > stub_end)
        return fail("GOT or stubs overflowed");
    if (text_lo) {
        /* the text mapping starts at the mapping's start (layout) */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        char *lo = (char *)((uintptr_t)text_lo & ~(uintptr_t)(page - 1));
        __builtin___clear_cache(lo, stub_end);
        if (mprotect(lo, (size_t)(stub_end - lo), PROT_READ | PROT_EXEC) != 0)
            return fail("mprotect of the text failed");
    }
    return 0;
}

/* Calls the constructors of every object's __mod_init_func, in order. */
static void run_mod_init_funcs(void) {
    for (int i = 0; i < nobjs; i++)
        for (unsigned k = 0; k < objs[i].nsects; k++) {
            Section *sec = &objs[i].sects[k];
            if (!sec->base || (sec->hdr->flags & SECTION_TYPE) != S_MOD_INIT_FUNC_POINTERS)
                continue;
            for (uint64_t at = 0; at + 8 <= sec->hdr->size; at += 8) {
                void (*f)(void);
                memcpy(&f, sec->base + at, sizeof f);
                f();
            }
        }
}

void *b3_macho_sym(const char *name) {
    char buf[512];
    snprintf(buf, sizeof buf, "_%s", name);
    return find_defined(buf);
}

/* The executable's dynamic section, found through the program headers. */
static int find_main(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
            ((ElfW(Addr) *)data)[0] = info->dlpi_addr;
            ((ElfW(Addr) *)data)[1] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            return 1; /* the first object is the executable */
        }
    return 1;
}

/* glibc relocates some d_ptr entries in place and not others (by port). */
static ElfW(Addr) dyn_ptr(ElfW(Addr) base, ElfW(Addr) v) { return v < base ? base + v : v; }

static int bind_relas(ElfW(Addr) base, const ElfW(Rela) * r, size_t size, const ElfW(Sym) * symtab,
                      const char *strtab) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int bound = 0;
    for (size_t i = 0; i < size / sizeof *r; i++) {
        unsigned type = ELF64_R_TYPE(r[i].r_info), sym = ELF64_R_SYM(r[i].r_info);
#if defined(__x86_64__)
        int ok = type == R_X86_64_GLOB_DAT || type == R_X86_64_JUMP_SLOT || type == R_X86_64_64;
#else
        int ok = type == R_AARCH64_GLOB_DAT || type == R_AARCH64_JUMP_SLOT || type == R_AARCH64_ABS64;
#endif
        if (!ok || sym == 0)
            continue;
        char *addr = b3_macho_sym(strtab + symtab[sym].st_name);
        if (!addr)
            continue;
        char *slot = (char *)(base + r[i].r_offset);
        char *pg = (char *)((uintptr_t)slot & ~(uintptr_t)(page - 1));
        mprotect(pg, page + 8, PROT_READ | PROT_WRITE); /* it may be RELRO */
        ElfW(Addr) v = (ElfW(Addr))addr + r[i].r_addend;
        memcpy(slot, &v, sizeof v);
        bound++;
    }
    return bound;
}

int b3_macho_bind_host(void) {
    ElfW(Addr) found[2] = {0, 0};
    dl_iterate_phdr(find_main, found);
    if (!found[1])
        return 0;
    ElfW(Addr) base = found[0];
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *rela = NULL, *jmprel = NULL;
    size_t relasz = 0, pltrelsz = 0;
    for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)found[1]; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB:
            symtab = (const ElfW(Sym) *)dyn_ptr(base, d->d_un.d_ptr);
            break;
        case DT_STRTAB:
            strtab = (const char *)dyn_ptr(base, d->d_un.d_ptr);
            break;
        case DT_RELA:
            rela = (const ElfW(Rela) *)dyn_ptr(base, d->d_un.d_ptr);
            break;
        case DT_RELASZ:
            relasz = d->d_un.d_val;
            break;
        case DT_JMPREL:
            jmprel = (const ElfW(Rela) *)dyn_ptr(base, d->d_un.d_ptr);
            break;
        case DT_PLTRELSZ:
            pltrelsz = d->d_un.d_val;
            break;
        }
    }
    if (!symtab || !strtab)
        return 0;
    int bound = 0;
    if (rela)
        bound += bind_relas(base, rela, relasz, symtab, strtab);
    if (jmprel)
        bound += bind_relas(base, jmprel, pltrelsz, symtab, strtab);
    return bound;
}

/* The objects a program built by macho_cc.py loads before main: their paths
 * come from a table the wrapper generates (weak: absent in other programs). */
extern const char *const b3_macho_paths[] __attribute__((weak));
extern const int b3_macho_npaths __attribute__((weak));

__attribute__((constructor(101))) static void load_at_startup(void) {
    char err[512];
    if (!&b3_macho_npaths)
        return;
    if (b3_macho_load(b3_macho_paths, b3_macho_npaths, err, sizeof err) != 0) {
        fprintf(stderr, "macho_run: %s\n", err);
        exit(125);
    }
    b3_macho_bind_host();
    run_mod_init_funcs();
}
