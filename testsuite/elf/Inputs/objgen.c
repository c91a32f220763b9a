/* Unit test of the object writer: fills a B3Obj by hand (a few functions of
 * hand-assembled x86-64, data built as the parser would) and writes an ELF
 * object, without the parser or the code generator.
 *
 *   objgen OUT.o [case]     (OUT.o may be - for stdout)
 *
 * cases: all (default), nulname (a symbol ELF cannot name: must fail),
 *        empty (no code, no data). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objwriter/obj.h"

static B3Symbol sym(const char *name, B3SymKind kind, bool internal, bool defined) {
    return (B3Symbol){.name = name, .name_len = (uint32_t)strlen(name), .kind = (uint8_t)kind,
                      .internal = internal, .defined = defined, .declared = true};
}

static B3DataItem bits(B3DataKind k, uint64_t v) { return (B3DataItem){.kind = (uint8_t)k, .u.bits = v}; }
static B3DataItem zero(uint64_t n) { return (B3DataItem){.kind = B3Data_Zero, .u.zero = n}; }
static B3DataItem str(const char *s, uint32_t n) {
    return (B3DataItem){.kind = B3Data_Bytes, .u.str = {(uint8_t *)s, n}};
}
static B3DataItem addr(B3Symbol *s, int64_t a) { return (B3DataItem){.kind = B3Data_Addr, .u.addr = {s, a}}; }

/* One line per item keeps the test short; lines only matter to the printer. */
static B3Data *data(bool readonly, uint32_t align, B3DataItem *items, uint32_t n) {
    B3Data *d = calloc(1, sizeof *d);
    d->readonly = readonly;
    d->has_align = align != 0;
    d->align = align;
    d->lines = calloc(n ? n : 1, sizeof *d->lines);
    for (uint32_t i = 0; i < n; i++)
        d->lines[i] = (B3DataLine){.kind = items[i].kind, .items = &items[i], .nitems = 1};
    d->nlines = n;
    return d;
}

static void func(B3Obj *o, B3Symbol *s, const uint8_t *code, uint64_t n) {
    b3_obj_align(o, B3Sec_Text, 16);
    uint64_t at = b3_obj_emit(o, B3Sec_Text, code, n);
    b3_obj_define(o, s, B3Sec_Text, at, n, true);
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    const char *which = argc > 2 ? argv[2] : "all";
    B3Module m;
    memset(&m, 0, sizeof m);
    m.target = (B3Target){B3Arch_X86_64, B3OS_Linux, 0, 0};

    B3Symbol get42 = sym("get42", B3Sym_Proc, false, true);
    B3Symbol helper = sym("helper", B3Sym_Proc, true, true);
    B3Symbol get_table = sym("get_table", B3Sym_Proc, false, true);
    B3Symbol get_get42 = sym("get_get42", B3Sym_Proc, false, true);
    B3Symbol get_ext = sym("get_ext", B3Sym_Proc, false, true);
    B3Symbol call_ext = sym("call_ext", B3Sym_Proc, false, true);
    B3Symbol call_helper = sym("call_helper", B3Sym_Proc, false, true);
    B3Symbol ext_fn = sym("ext_fn", B3Sym_Extern, false, false);
    B3Symbol ext_var = sym("ext_var", B3Sym_Extern, false, false);
    B3Symbol all = sym("all", B3Sym_Data, false, true);
    B3Symbol table = sym("table", B3Sym_Data, false, true);
    B3Symbol zeros = sym("zeros", B3Sym_Data, false, true);
    B3Symbol zero32 = sym("zero32", B3Sym_Data, false, true);
    B3Symbol ptrs = sym("ptrs", B3Sym_Data, false, true);
    B3Symbol hidden = sym("hidden", B3Sym_Data, true, true);
    B3Symbol negzero = sym("negzero", B3Sym_Data, false, true);
    B3Symbol get_hidden = sym("get_hidden", B3Sym_Proc, false, true);
    B3Symbol bad = (B3Symbol){.name = "a\0b", .name_len = 3, .kind = B3Sym_Proc, .defined = true};

    B3DataItem all_items[] = {
        bits(B3Data_Int8, 7),           /* 0 */
        bits(B3Data_Int16, 0xffff),     /* 2 */
        bits(B3Data_Int32, 0xbaadbeef), /* 4 */
        bits(B3Data_Int8, 0xff),        /* 8 */
        bits(B3Data_Int64, (uint64_t)-2), /* 16 */
        bits(B3Data_Float, 0x3fc00000), /* 24: 1.5f */
        bits(B3Data_Double, 0x3fc0000000000000ull), /* 32: 0.125 */
        str("hi\0", 3),                 /* 40 */
        zero(3),                        /* 43 */
        addr(&get42, 0),                /* 48 */
        addr(&table, 8),                /* 56 */
        addr(&ext_var, -4),             /* 64 */
        addr(&hidden, 0),               /* 72 */
    };
    B3DataItem table_items[] = {bits(B3Data_Int32, 1), bits(B3Data_Int32, 2), bits(B3Data_Int32, 3),
                                bits(B3Data_Int32, 4)};
    B3DataItem zeros_items[] = {zero(100)};
    B3DataItem zero32_items[] = {bits(B3Data_Int8, 0), bits(B3Data_Int32, 0), str("\0\0", 2)};
    B3DataItem ptrs_items[] = {addr(&all, 0), addr(&get_table, 0)};
    B3DataItem hidden_items[] = {bits(B3Data_Int64, 5)};
    B3DataItem negzero_items[] = {bits(B3Data_Double, 0x8000000000000000ull)};
    all.def.data = data(false, 0, all_items, sizeof all_items / sizeof all_items[0]);
    table.def.data = data(true, 16, table_items, 4);
    zeros.def.data = data(false, 0, zeros_items, 1);
    zero32.def.data = data(false, 0, zero32_items, 3);
    ptrs.def.data = data(true, 0, ptrs_items, 2);
    hidden.def.data = data(false, 0, hidden_items, 1);
    negzero.def.data = data(false, 0, negzero_items, 1);
    B3Item items[] = {
        {B3Item_Extern, &ext_fn}, {B3Item_Extern, &ext_var}, {B3Item_Data, &all},    {B3Item_Data, &table},
        {B3Item_Data, &zeros},    {B3Item_Data, &zero32},    {B3Item_Data, &ptrs},   {B3Item_Data, &hidden},
        {B3Item_Data, &negzero},
    };
    if (strcmp(which, "empty")) {
        m.items = items;
        m.nitems = sizeof items / sizeof items[0];
    }

    B3Obj o;
    b3_obj_init(&o, &m);
    if (!strcmp(which, "all")) {
        static const uint8_t c42[] = {0xb8, 42, 0, 0, 0, 0xc3};                   /* mov $42,%eax; ret */
        static const uint8_t chelper[] = {0xb8, 7, 0, 0, 0, 0xc3};                /* mov $7,%eax; ret */
        static const uint8_t clea[] = {0x48, 0x8d, 0x05, 0, 0, 0, 0, 0xc3};       /* lea sym(%rip),%rax; ret */
        static const uint8_t cgot[] = {0x48, 0x8b, 0x05, 0, 0, 0, 0, 0xc3};       /* mov sym@GOTPCREL(%rip),%rax; ret */
        static const uint8_t ccall[] = {0x55, 0x48, 0x89, 0xe5, 0xe8, 0, 0, 0, 0, 0x5d, 0xc3}; /* call ext_fn@PLT */
        func(&o, &get42, c42, sizeof c42);
        func(&o, &helper, chelper, sizeof chelper);
        /* Global data through the GOT (as -fPIC code does); a global function by lea. */
        func(&o, &get_table, cgot, sizeof cgot);
        b3_obj_reloc(&o, B3Sec_Text, o.defs[o.ndefs - 1].offset + 3, B3Reloc_X86_REX_GOTPCRELX, &table, -4);
        func(&o, &get_get42, clea, sizeof clea);
        b3_obj_reloc(&o, B3Sec_Text, o.defs[o.ndefs - 1].offset + 3, B3Reloc_PC32, &get42, -4);
        func(&o, &get_ext, cgot, sizeof cgot);
        b3_obj_reloc(&o, B3Sec_Text, o.defs[o.ndefs - 1].offset + 3, B3Reloc_X86_REX_GOTPCRELX, &ext_var, -4);
        func(&o, &call_ext, ccall, sizeof ccall);
        b3_obj_reloc(&o, B3Sec_Text, o.defs[o.ndefs - 1].offset + 5, B3Reloc_X86_PLT32, &ext_fn, -4);
        func(&o, &call_helper, ccall, sizeof ccall);
        b3_obj_reloc(&o, B3Sec_Text, o.defs[o.ndefs - 1].offset + 5, B3Reloc_X86_PLT32, &helper, -4);
        func(&o, &get_hidden, clea, sizeof clea);
        b3_obj_reloc(&o, B3Sec_Text, o.defs[o.ndefs - 1].offset + 3, B3Reloc_PC32, &hidden, -4);
    } else if (!strcmp(which, "nulname")) {
        static const uint8_t ret[] = {0xc3};
        func(&o, &bad, ret, 1);
    }
    b3_obj_emit_data(&o, &m);

    FILE *f = strcmp(argv[1], "-") ? fopen(argv[1], "wb") : stdout;
    if (!f)
        return 2;
    bool ok = b3_write_elf(&o, f);
    if (fclose(f) != 0)
        ok = false;
    b3_obj_free(&o);
    return ok ? 0 : 1;
}
