/* Frame descriptions and the compact unwind section (objwriter/frame.h). */
#include "objwriter/frame.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ice.h"
#include "util/alloc.h"
#include "util/vec.h"

/* A __compact_unwind entry: start (8, relocated), length (4), encoding (4),
 * personality (8), LSDA (8). */
enum { CU_ENTRY_SIZE = 32, CU_LENGTH_AT = 8, CU_ENCODING_AT = 12 };

void b3_frame_step(B3Frame *f, uint32_t at, B3CfiOp op, B3Reg reg, int32_t offset) {
    if (f->nsteps == B3_FRAME_MAX_STEPS)
        b3_internal_error("frame", "more than %d prologue steps", B3_FRAME_MAX_STEPS);
    f->steps[f->nsteps++] = (B3CfiStep){.at = at, .op = (uint8_t)op, .reg = reg, .offset = offset};
}

void b3_frame_epilogue_step(B3Frame *f, uint32_t at, B3CfiOp op, B3Reg reg, int32_t offset) {
    B3_VEC_RESERVE("objwriter", f->epilogue, f->cap_epilogue, f->nepilogue + 2);
    if (!f->in_epilogue)
        f->epilogue[f->nepilogue++] = (B3CfiStep){.at = at, .op = B3Cfi_RememberState, .reg = B3_NO_REG};
    f->in_epilogue = true;
    f->epilogue[f->nepilogue++] = (B3CfiStep){.at = at, .op = (uint8_t)op, .reg = reg, .offset = offset};
}

void b3_frame_epilogue_end(B3Frame *f, uint32_t at) {
    if (!f->in_epilogue)
        return;
    B3_VEC_RESERVE("objwriter", f->epilogue, f->cap_epilogue, f->nepilogue + 1);
    f->epilogue[f->nepilogue++] = (B3CfiStep){.at = at, .op = B3Cfi_RestoreState, .reg = B3_NO_REG};
    f->in_epilogue = false;
}

void b3_frame_epilogue_trim(B3Frame *f, uint32_t code_end) {
    if (f->nepilogue && f->epilogue[f->nepilogue - 1].op == B3Cfi_RestoreState &&
        f->epilogue[f->nepilogue - 1].at >= code_end)
        f->nepilogue--;
}

void b3_frame_reset(B3Frame *f) {
    free(f->epilogue);
    memset(f, 0, sizeof *f);
}

static void put_le(uint8_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void b3_obj_add_frame(B3Obj *o, const B3Frame *f, B3SectionId sec, uint64_t proc_start, uint64_t off,
                      uint64_t size) {
    uint64_t start = proc_start + off;
    if (f->in_epilogue)
        b3_internal_error("frame", "an epilogue without its end");
    /* The epilogue steps of this region: [lo, hi) of f->epilogue (at its
     * start is the prologue, and the previous region's last RestoreState). */
    uint32_t lo = 0, hi;
    while (lo < f->nepilogue && f->epilogue[lo].at <= off)
        lo++;
    for (hi = lo; hi < f->nepilogue && f->epilogue[hi].at < off + size; hi++)
        ;
    uint32_t nsteps = f->nsteps + (hi - lo);
    for (uint32_t i = o->nframes; i-- > 0;)
        if (o->frames[i].section == sec) { /* the section's last region */
            if (o->frames[i].start + o->frames[i].size > start)
                b3_internal_error("frame", "entry regions out of order at 0x%" PRIx64, start);
            break;
        }
    B3_VEC_RESERVE("objwriter", o->frames, o->cap_frames, o->nframes + 1);
    B3_VEC_RESERVE("objwriter", o->cfi_steps, o->cap_cfi_steps, o->ncfi_steps + nsteps);
    o->frames[o->nframes++] = (B3FrameRegion){.section = (uint8_t)sec,
                                              .start = start,
                                              .size = size,
                                              .first_step = o->ncfi_steps,
                                              .nsteps = nsteps,
                                              .nprologue = f->nsteps,
                                              .compact = f->compact};
    memcpy(o->cfi_steps + o->ncfi_steps, f->steps, f->nsteps * sizeof *f->steps);
    o->ncfi_steps += f->nsteps;
    for (uint32_t i = lo; i < hi; i++) {
        B3CfiStep s = f->epilogue[i];
        s.at -= (uint32_t)off;
        o->cfi_steps[o->ncfi_steps++] = s;
    }
    if (!o->module || o->module->target.os != B3OS_MacOS)
        return;
    if (size > UINT32_MAX)
        b3_internal_error("frame", "a procedure of %" PRIu64 " bytes", size);
    /* The start is a section-relative address (llvm-mc's choice too: the
     * section has S_ATTR_DEBUG, so its relocations are local). */
    uint8_t e[CU_ENTRY_SIZE] = {0};
    put_le(e + CU_LENGTH_AT, size, 4);
    put_le(e + CU_ENCODING_AT, f->compact, 4);
    b3_obj_align(o, B3Sec_CompactUnwind, 8);
    uint64_t at = b3_obj_emit(o, B3Sec_CompactUnwind, e, sizeof e);
    b3_obj_reloc(o, B3Sec_CompactUnwind, at, B3Reloc_Abs64, NULL, (int64_t)start);
    o->relocs[o->nrelocs - 1].local_section = sec;
}

void b3_frame_step_text(char *buf, size_t n, const B3CfiStep *s, const char *(*reg_name)(B3Reg r)) {
    switch ((B3CfiOp)s->op) {
    case B3Cfi_DefCfaOffset:
        snprintf(buf, n, ".cfi_def_cfa_offset %" PRId32, s->offset);
        return;
    case B3Cfi_DefCfaRegister:
        snprintf(buf, n, ".cfi_def_cfa_register %s", reg_name(s->reg));
        return;
    case B3Cfi_DefCfa:
        snprintf(buf, n, ".cfi_def_cfa %s, %" PRId32, reg_name(s->reg), s->offset);
        return;
    case B3Cfi_Offset:
        snprintf(buf, n, ".cfi_offset %s, %" PRId32, reg_name(s->reg), s->offset);
        return;
    case B3Cfi_Restore:
        snprintf(buf, n, ".cfi_restore %s", reg_name(s->reg));
        return;
    case B3Cfi_RememberState:
        snprintf(buf, n, ".cfi_remember_state");
        return;
    case B3Cfi_RestoreState:
        snprintf(buf, n, ".cfi_restore_state");
        return;
    }
    b3_internal_error("frame", "CFI step %u", s->op);
}
