/* ELF .eh_frame from the frame descriptions (objwriter/frame.h): one CIE
 * for the target, one FDE per entry region, laid out byte for byte as
 * llvm-mc lays out the same .cfi_* directives (the ones b3c's -S prints),
 * so the two can be compared: "zR" augmentation, PC-relative sdata4
 * addresses, every record padded with DW_CFA_nop to 4 bytes (the last to
 * 8), no terminator (the linker adds it).  See DWARF 5 section 6.4 and the
 * LSB's "Exception Frames" for the format. */
#include "objwriter/frame.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"

#define xrealloc(p, n) b3_xrealloc("objwriter", (p), (n))

/* The DWARF call frame instructions b3c uses (DWARF 5, 6.4.2). */
enum {
    CFA_advance_loc = 0x40, /* | delta < 64 */
    CFA_offset = 0x80,      /* | reg < 64, then ULEB128 factored offset */
    CFA_restore = 0xc0,     /* | reg < 64 */
    CFA_nop = 0x00,
    CFA_advance_loc1 = 0x02,
    CFA_advance_loc2 = 0x03,
    CFA_advance_loc4 = 0x04,
    CFA_offset_extended = 0x05,
    CFA_restore_extended = 0x06,
    CFA_remember_state = 0x0a,
    CFA_restore_state = 0x0b,
    CFA_def_cfa = 0x0c,
    CFA_def_cfa_register = 0x0d,
    CFA_def_cfa_offset = 0x0e,
    CFA_offset_extended_sf = 0x11,
};

/* Pointer encoding of the FDEs' addresses: DW_EH_PE_pcrel | DW_EH_PE_sdata4. */
enum { EH_PE_PCREL_SDATA4 = 0x1b };

typedef struct {
    uint8_t *b;
    size_t n, cap;
} Buf;

static void put(Buf *b, uint8_t v) {
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->b = xrealloc(b->b, b->cap);
    }
    b->b[b->n++] = v;
}

static void put_u32(Buf *b, uint32_t v) {
    for (int i = 0; i < 4; i++)
        put(b, (uint8_t)(v >> (8 * i)));
}

static void set_u32(Buf *b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; i++)
        b->b[at + i] = (uint8_t)(v >> (8 * i));
}

static void put_uleb(Buf *b, uint64_t v) {
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        put(b, byte | (v ? 0x80 : 0));
    } while (v);
}

static void put_sleb(Buf *b, int64_t v) {
    for (;;) {
        uint8_t byte = v & 0x7f;
        v >>= 7; /* arithmetic: the sign stays */
        bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        put(b, byte | (done ? 0 : 0x80));
        if (done)
            return;
    }
}

/* A record's length field is at `at`; pads it with nops to align (4, and
 * 8 after the last record: llvm-mc's choice, for the linkers that
 * over-align .eh_frame) and fills it in.  b starts 8-aligned. */
static void end_record(Buf *b, size_t at, unsigned align) {
    while (b->n % align)
        put(b, CFA_nop);
    set_u32(b, at, (uint32_t)(b->n - at - 4));
}

static unsigned dwarf_reg(const B3TargetDesc *d, B3Reg r) {
    if (r < d->ngprs)
        return d->dwarf_gprs[r];
    if (r >= B3_FPR_BASE && r < B3_FPR_BASE + d->nfprs)
        return d->dwarf_fpr_base + (unsigned)(r - B3_FPR_BASE);
    b3_internal_error("eh_frame", "register %u has no DWARF number", (unsigned)r);
}

/* The factored offset of a saved register: offsets are multiples of the data alignment. */
static int64_t factored(const B3TargetDesc *d, int32_t off) {
    if (off % d->eh_data_align)
        b3_internal_error("eh_frame", "offset %d is not a multiple of %d", (int)off, (int)d->eh_data_align);
    return off / d->eh_data_align;
}

static void advance(Buf *b, uint32_t delta) {
    if (delta < 64) {
        put(b, (uint8_t)(CFA_advance_loc | delta));
    } else if (delta <= 0xff) {
        put(b, CFA_advance_loc1);
        put(b, (uint8_t)delta);
    } else if (delta <= 0xffff) {
        put(b, CFA_advance_loc2);
        put(b, (uint8_t)delta);
        put(b, (uint8_t)(delta >> 8));
    } else {
        put(b, CFA_advance_loc4);
        put_u32(b, delta);
    }
}

static void instruction(Buf *b, const B3TargetDesc *d, const B3CfiStep *s) {
    unsigned reg = s->reg == B3_NO_REG ? 0 : dwarf_reg(d, s->reg);
    switch ((B3CfiOp)s->op) {
    case B3Cfi_DefCfaOffset:
        if (s->offset < 0)
            b3_internal_error("eh_frame", "a negative CFA offset");
        put(b, CFA_def_cfa_offset);
        put_uleb(b, (uint64_t)s->offset);
        return;
    case B3Cfi_DefCfaRegister:
        put(b, CFA_def_cfa_register);
        put_uleb(b, reg);
        return;
    case B3Cfi_DefCfa:
        if (s->offset < 0)
            b3_internal_error("eh_frame", "a negative CFA offset");
        put(b, CFA_def_cfa);
        put_uleb(b, reg);
        put_uleb(b, (uint64_t)s->offset);
        return;
    case B3Cfi_Offset: {
        int64_t f = factored(d, s->offset);
        if (f < 0) {
            put(b, CFA_offset_extended_sf);
            put_uleb(b, reg);
            put_sleb(b, f);
        } else if (reg < 64) {
            put(b, (uint8_t)(CFA_offset | reg));
            put_uleb(b, (uint64_t)f);
        } else {
            put(b, CFA_offset_extended);
            put_uleb(b, reg);
            put_uleb(b, (uint64_t)f);
        }
        return;
    }
    case B3Cfi_Restore:
        if (reg < 64) {
            put(b, (uint8_t)(CFA_restore | reg));
        } else {
            put(b, CFA_restore_extended);
            put_uleb(b, reg);
        }
        return;
    case B3Cfi_RememberState:
        put(b, CFA_remember_state);
        return;
    case B3Cfi_RestoreState:
        put(b, CFA_restore_state);
        return;
    }
    b3_internal_error("eh_frame", "CFI step %u", s->op);
}

void b3_obj_build_eh_frame(B3Obj *o) {
    if (!o->nframes || o->no_unwind_tables || o->sec[B3Sec_EhFrame].size)
        return;
    const B3TargetDesc *d = b3_target_desc(o->module->target);
    Buf b = {0};
    /* The CIE: id 0, version 1, "zR", the factors, the return address
     * column, the FDEs' address encoding, the rules at an entry. */
    size_t cie = b.n;
    put_u32(&b, 0);
    put_u32(&b, 0);
    put(&b, 1);
    put(&b, 'z');
    put(&b, 'R');
    put(&b, 0);
    put_uleb(&b, d->eh_code_align);
    put_sleb(&b, d->eh_data_align);
    put_uleb(&b, d->eh_ra_column);
    put_uleb(&b, 1);
    put(&b, EH_PE_PCREL_SDATA4);
    put(&b, CFA_def_cfa);
    put_uleb(&b, dwarf_reg(d, d->stack_pointer));
    put_uleb(&b, d->eh_cfa_at_entry);
    if (d->eh_ra_at_entry) {
        put(&b, (uint8_t)(CFA_offset | d->eh_ra_column));
        put_uleb(&b, (uint64_t)factored(d, -(int32_t)d->eh_ra_at_entry));
    }
    end_record(&b, cie, 4);

    /* The FDEs' address fields, relocated once the bytes are in the section. */
    uint64_t *pc_at = xrealloc(NULL, o->nframes * sizeof *pc_at);
    for (uint32_t i = 0; i < o->nframes; i++) {
        const B3FrameRegion *fr = &o->frames[i];
        if (fr->size > UINT32_MAX)
            b3_internal_error("eh_frame", "an entry region of %llu bytes", (unsigned long long)fr->size);
        size_t fde = b.n;
        put_u32(&b, 0);
        put_u32(&b, (uint32_t)(b.n - cie)); /* back to the CIE from this field */
        pc_at[i] = b.n;
        put_u32(&b, 0);
        put_u32(&b, (uint32_t)fr->size);
        put_uleb(&b, 0); /* no augmentation data */
        uint32_t loc = 0;
        const B3CfiStep *steps = o->cfi_steps + fr->first_step;
        for (uint32_t k = 0; k < fr->nsteps; k++) {
            if (steps[k].at < loc || steps[k].at % d->eh_code_align)
                b3_internal_error("eh_frame", "CFI step at 0x%x out of order", (unsigned)steps[k].at);
            if (steps[k].at != loc)
                advance(&b, (steps[k].at - loc) / d->eh_code_align);
            loc = steps[k].at;
            instruction(&b, d, &steps[k]);
        }
        end_record(&b, fde, i + 1 == o->nframes ? 8 : 4);
    }
    b3_obj_align(o, B3Sec_EhFrame, 8);
    uint64_t base = b3_obj_emit(o, B3Sec_EhFrame, b.b, b.n);
    for (uint32_t i = 0; i < o->nframes; i++) {
        b3_obj_reloc(o, B3Sec_EhFrame, base + pc_at[i], B3Reloc_PC32, NULL, (int64_t)o->frames[i].start);
        o->relocs[o->nrelocs - 1].local_section = B3Sec_Text;
    }
    free(pc_at);
    free(b.b);
}
