/* .llvm_stackmaps in LLVM's StackMap version 3 layout (docs/stackmaps.md):
 *
 *   u8 3, u8 0, u16 0; u32 NumFunctions; u32 NumConstants; u32 NumRecords
 *   { u64 address (R_X86_64_64), u64 stack size, u64 record count } per function
 *   u64 constant, per large constant
 *   per record: u64 id, u32 offset, u16 0, u16 NumLocations,
 *     { u8 kind, u8 0, u16 size, u16 dwarf reg, u16 0, i32 offset/constant } per location,
 *     padding to 8, u16 0, u16 NumLiveOuts (0), padding to 8
 *
 * Little-endian, like every target b3c writes ELF for. */
#include "objwriter/stackmaps.h"
#include "objwriter/bytes.h"
#include "util/alloc.h"
#include "util/bits.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t text_offset, stack_size;
    uint32_t first, n; /* its records: recs[first .. first + n - 1] */
    uint8_t section;   /* B3SectionId of its code */
} SMFunction;

struct B3StackMaps {
    SMFunction *funcs;
    uint32_t nfuncs, cap_funcs;
    B3StackMapRecord *recs;
    uint32_t nrecs, cap_recs;
};

void b3_stackmap_list_add(B3StackMapList *l, uint64_t id, uint32_t offset, const B3StackMapLoc *locs,
                          uint32_t nlocs) {
    if (nlocs > UINT16_MAX)
        b3_internal_error("stackmaps", "record %llu has %u locations; the format allows 65535",
                          (unsigned long long)id, nlocs);
    B3_VEC_RESERVE("stackmaps", l->v, l->cap, l->n + 1);
    B3StackMapRecord *r = &l->v[l->n++];
    r->id = id;
    r->offset = offset;
    r->nlocs = nlocs;
    r->locs = NULL;
    if (nlocs) {
        r->locs = b3_xrealloc("stackmaps", NULL, nlocs * sizeof *locs);
        memcpy(r->locs, locs, nlocs * sizeof *locs);
    }
}

void b3_stackmap_list_free(B3StackMapList *l) {
    for (uint32_t i = 0; i < l->n; i++)
        free(l->v[i].locs);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void b3_obj_add_stackmaps(B3Obj *o, B3SectionId sec, uint64_t text_offset, uint64_t stack_size,
                          B3StackMapList *l) {
    if (!l->n)
        return;
    if (!o->stackmaps) {
        o->stackmaps = b3_xcalloc("stackmaps", 1, sizeof *o->stackmaps);
    }
    struct B3StackMaps *s = o->stackmaps;
    B3_VEC_RESERVE("stackmaps", s->funcs, s->cap_funcs, s->nfuncs + 1);
    s->funcs[s->nfuncs++] = (SMFunction){text_offset, stack_size, s->nrecs, l->n, (uint8_t)sec};
    B3_VEC_RESERVE("stackmaps", s->recs, s->cap_recs, s->nrecs + l->n);
    /* The records (and their location arrays) move over; the list is emptied. */
    memcpy(s->recs + s->nrecs, l->v, l->n * sizeof *l->v);
    s->nrecs += l->n;
    l->n = 0;
}

void b3_obj_free_stackmaps(B3Obj *o) {
    struct B3StackMaps *s = o->stackmaps;
    if (!s)
        return;
    for (uint32_t i = 0; i < s->nrecs; i++)
        free(s->recs[i].locs);
    free(s->recs);
    free(s->funcs);
    free(s);
    o->stackmaps = NULL;
}

/* ---- serialization ---- */

static void pad8(B3Bytes *b) {
    while (b->n % 8)
        b3_bytes_le(b, 0, 1);
}

/* The pool index of a large constant (each value once, in order of first use). */
static uint32_t pool_index(uint64_t **pool, uint32_t *n, uint32_t *cap, uint64_t v) {
    for (uint32_t i = 0; i < *n; i++)
        if ((*pool)[i] == v)
            return i;
    B3_VEC_PUSH("stackmaps", *pool, *n, *cap, v);
    return *n - 1;
}

void b3_obj_emit_stackmaps(B3Obj *o) {
    struct B3StackMaps *s = o->stackmaps;
    if (!s || !s->nfuncs)
        return;
    uint64_t *pool = NULL;
    uint32_t npool = 0, cap_pool = 0;
    for (uint32_t i = 0; i < s->nrecs; i++)
        for (uint32_t k = 0; k < s->recs[i].nlocs; k++) {
            const B3StackMapLoc *l = &s->recs[i].locs[k];
            if (l->kind == B3SMLoc_Constant && !b3_fits32(l->value))
                pool_index(&pool, &npool, &cap_pool, (uint64_t)l->value);
        }

    B3Bytes b = {0};
    b3_bytes_le(&b, 3, 1); /* version */
    b3_bytes_le(&b, 0, 1);
    b3_bytes_le(&b, 0, 2);
    b3_bytes_le(&b, s->nfuncs, 4);
    b3_bytes_le(&b, npool, 4);
    b3_bytes_le(&b, s->nrecs, 4);
    size_t func_at = b.n;
    for (uint32_t f = 0; f < s->nfuncs; f++) {
        b3_bytes_le(&b, 0, 8); /* the address: a relocation below */
        b3_bytes_le(&b, s->funcs[f].stack_size, 8);
        b3_bytes_le(&b, s->funcs[f].n, 8);
    }
    for (uint32_t i = 0; i < npool; i++)
        b3_bytes_le(&b, pool[i], 8);
    for (uint32_t i = 0; i < s->nrecs; i++) {
        const B3StackMapRecord *r = &s->recs[i];
        b3_bytes_le(&b, r->id, 8);
        b3_bytes_le(&b, r->offset, 4);
        b3_bytes_le(&b, 0, 2); /* flags */
        b3_bytes_le(&b, r->nlocs, 2);
        for (uint32_t k = 0; k < r->nlocs; k++) {
            const B3StackMapLoc *l = &r->locs[k];
            uint8_t kind = l->kind;
            int64_t value = l->value;
            if (kind == B3SMLoc_Constant && !b3_fits32(value)) {
                kind = B3SMLoc_ConstIndex;
                value = pool_index(&pool, &npool, &cap_pool, (uint64_t)l->value);
            } else if (!b3_fits32(value)) {
                b3_internal_error("stackmaps", "record %llu: offset %lld does not fit 32 bits",
                                  (unsigned long long)r->id, (long long)value);
            }
            b3_bytes_le(&b, kind, 1);
            b3_bytes_le(&b, 0, 1);
            b3_bytes_le(&b, l->size, 2);
            b3_bytes_le(&b, kind == B3SMLoc_Constant || kind == B3SMLoc_ConstIndex ? 0 : l->reg, 2);
            b3_bytes_le(&b, 0, 2);
            b3_bytes_le(&b, (uint32_t)(int32_t)value, 4);
        }
        pad8(&b);
        b3_bytes_le(&b, 0, 2); /* padding */
        b3_bytes_le(&b, 0, 2); /* NumLiveOuts: none recorded */
        pad8(&b);
    }

    b3_obj_align(o, B3Sec_StackMaps, 8);
    uint64_t at = b3_obj_emit(o, B3Sec_StackMaps, b.b, b.n);
    /* Each function's address: the function symbol defined where its code
     * starts, as LLVM writes it; else (an entry symbol elsewhere) its code
     * section plus that offset. */
    for (uint32_t f = 0; f < s->nfuncs; f++) {
        B3Symbol *sym = NULL;
        for (uint32_t d = 0; d < o->ndefs && !sym; d++)
            if (o->defs[d].is_func && o->defs[d].section == s->funcs[f].section &&
                o->defs[d].offset == s->funcs[f].text_offset)
                sym = o->defs[d].sym;
        b3_obj_reloc(o, B3Sec_StackMaps, at + func_at + 24 * f, B3Reloc_Abs64, sym,
                     sym ? 0 : (int64_t)s->funcs[f].text_offset);
        if (!sym)
            o->relocs[o->nrelocs - 1].local_section = s->funcs[f].section;
    }
    b3_bytes_free(&b);
    free(pool);
}
