/* Pieces every target's emitter shares (codegen/emit.h). */
#include "codegen/emit.h"

#include <stdlib.h>

#include "ir/ice.h"

uint8_t *b3_emit_entry_flags(const AirCode *c) {
    uint8_t *is_entry = calloc(c->nblocks, 1);
    if (!is_entry)
        b3_internal_error("emitter", "out of memory");
    for (uint32_t k = 0; k < (c->nentries ? c->nentries : 1); k++)
        is_entry[air_entry_block(c, k)->index] = 1;
    return is_entry;
}

void b3_emit_define_entries(const AirCode *c, B3Obj *o, uint64_t start, uint64_t len,
                            const uint64_t *prologue_at) {
    const B3Proc *p = c->proc;
    if (!p)
        return;
    if (p->sym) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < p->nentrypoints; i++)
            if (p->entrypoints[i] == p->sym)
                k = i;
        uint64_t off = prologue_at[air_entry_block(c, k)->index];
        b3_obj_define(o, p->sym, B3Sec_Text, start + off, len - off, true);
    }
    for (uint32_t i = 0; i < p->nentrypoints; i++)
        if (p->entrypoints[i] && p->entrypoints[i] != p->sym) {
            uint64_t off = prologue_at[air_entry_block(c, i)->index];
            b3_obj_define(o, p->entrypoints[i], B3Sec_Text, start + off, len - off, true);
        }
}
