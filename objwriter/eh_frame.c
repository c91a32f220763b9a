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
#include "objwriter/bytes.h"
#include "util/alloc.h"

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

/* A record's length field is at `at`; pads it with nops to align (4, and
 * 8 after the last record: llvm-mc's choice, for the linkers that
 * over-align .eh_frame) and fills it in.  b starts 8-aligned. */
static void end_record(B3Bytes *b, size_t at, unsigned align) {
    while (b->n % align)
        b3_bytes_le(b, CFA_nop, 1);
    b3_bytes_set_le(b, at, (uint32_t)(b->n - at - 4), 4);
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

static void advance(B3Bytes *b, uint32_t delta) {
    if (delta < 64) {
        b3_bytes_le(b, (uint8_t)(CFA_advance_loc | delta), 1);
    } else if (delta <= 0xff) {
        b3_bytes_le(b, CFA_advance_loc1, 1);
        b3_bytes_le(b, (uint8_t)delta, 1);
    } else if (delta <= 0xffff) {
        b3_bytes_le(b, CFA_advance_loc2, 1);
        b3_bytes_le(b, delta, 2);
    } else {
        b3_bytes_le(b, CFA_advance_loc4, 1);
        b3_bytes_le(b, delta, 4);
    }
}

static void instruction(B3Bytes *b, const B3TargetDesc *d, const B3CfiStep *s) {
    unsigned reg = s->reg == B3_NO_REG ? 0 : dwarf_reg(d, s->reg);
    switch ((B3CfiOp)s->op) {
    case B3Cfi_DefCfaOffset:
        if (s->offset < 0)
            b3_internal_error("eh_frame", "a negative CFA offset");
        b3_bytes_le(b, CFA_def_cfa_offset, 1);
        b3_bytes_uleb(b, (uint64_t)s->offset);
        return;
    case B3Cfi_DefCfaRegister:
        b3_bytes_le(b, CFA_def_cfa_register, 1);
        b3_bytes_uleb(b, reg);
        return;
    case B3Cfi_DefCfa:
        if (s->offset < 0)
            b3_internal_error("eh_frame", "a negative CFA offset");
        b3_bytes_le(b, CFA_def_cfa, 1);
        b3_bytes_uleb(b, reg);
        b3_bytes_uleb(b, (uint64_t)s->offset);
        return;
    case B3Cfi_Offset: {
        int64_t f = factored(d, s->offset);
        if (f < 0) {
            b3_bytes_le(b, CFA_offset_extended_sf, 1);
            b3_bytes_uleb(b, reg);
            b3_bytes_sleb(b, f);
        } else if (reg < 64) {
            b3_bytes_le(b, (uint8_t)(CFA_offset | reg), 1);
            b3_bytes_uleb(b, (uint64_t)f);
        } else {
            b3_bytes_le(b, CFA_offset_extended, 1);
            b3_bytes_uleb(b, reg);
            b3_bytes_uleb(b, (uint64_t)f);
        }
        return;
    }
    case B3Cfi_Restore:
        if (reg < 64) {
            b3_bytes_le(b, (uint8_t)(CFA_restore | reg), 1);
        } else {
            b3_bytes_le(b, CFA_restore_extended, 1);
            b3_bytes_uleb(b, reg);
        }
        return;
    case B3Cfi_RememberState:
        b3_bytes_le(b, CFA_remember_state, 1);
        return;
    case B3Cfi_RestoreState:
        b3_bytes_le(b, CFA_restore_state, 1);
        return;
    }
    b3_internal_error("eh_frame", "CFI step %u", s->op);
}

void b3_obj_build_eh_frame(B3Obj *o) {
    if (!o->nframes || o->no_unwind_tables || o->sec[B3Sec_EhFrame].size)
        return;
    const B3TargetDesc *d = b3_target_desc(o->module->target);
    B3Bytes b = {0};
    /* The CIE: id 0, version 1, "zR", the factors, the return address
     * column, the FDEs' address encoding, the rules at an entry. */
    size_t cie = b.n;
    b3_bytes_le(&b, 0, 4);
    b3_bytes_le(&b, 0, 4);
    b3_bytes_le(&b, 1, 1);
    b3_bytes_le(&b, 'z', 1);
    b3_bytes_le(&b, 'R', 1);
    b3_bytes_le(&b, 0, 1);
    b3_bytes_uleb(&b, d->eh_code_align);
    b3_bytes_sleb(&b, d->eh_data_align);
    b3_bytes_uleb(&b, d->eh_ra_column);
    b3_bytes_uleb(&b, 1);
    b3_bytes_le(&b, EH_PE_PCREL_SDATA4, 1);
    b3_bytes_le(&b, CFA_def_cfa, 1);
    b3_bytes_uleb(&b, dwarf_reg(d, d->stack_pointer));
    b3_bytes_uleb(&b, d->eh_cfa_at_entry);
    if (d->eh_ra_at_entry) {
        b3_bytes_le(&b, (uint8_t)(CFA_offset | d->eh_ra_column), 1);
        b3_bytes_uleb(&b, (uint64_t)factored(d, -(int32_t)d->eh_ra_at_entry));
    }
    end_record(&b, cie, 4);

    /* The FDEs' address fields, relocated once the bytes are in the section. */
    uint64_t *pc_at = b3_xrealloc("objwriter", NULL, o->nframes * sizeof *pc_at);
    for (uint32_t i = 0; i < o->nframes; i++) {
        const B3FrameRegion *fr = &o->frames[i];
        if (fr->size > UINT32_MAX)
            b3_internal_error("eh_frame", "an entry region of %llu bytes", (unsigned long long)fr->size);
        size_t fde = b.n;
        b3_bytes_le(&b, 0, 4);
        b3_bytes_le(&b, (uint32_t)(b.n - cie), 4); /* back to the CIE from this field */
        pc_at[i] = b.n;
        b3_bytes_le(&b, 0, 4);
        b3_bytes_le(&b, (uint32_t)fr->size, 4);
        b3_bytes_uleb(&b, 0); /* no augmentation data */
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
        o->relocs[o->nrelocs - 1].local_section = o->frames[i].section;
    }
    free(pc_at);
    b3_bytes_free(&b);
}
