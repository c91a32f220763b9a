/* legalize_memory_offsets (-O2, and every level before lowering): B3's
 * legalizeMemoryOffsets.
 *
 * A load, store or atomic whose offset the target's addressing mode cannot
 * encode gets its address computed instead:
 *
 *     Load(@p, offset = o)  ->  Load(Add(@p, Const64(o)), offset = 0)
 *
 * What is encodable is a fact of the target (b3_target_offset_ok,
 * ir/target.c: a range per access size and a scaled form), not of this
 * phase, so arm64's 9-bit/12-bit-scaled offsets and its offset-free atomics
 * only fill that table.  On x86-64 every offset the IR can hold (32 bits
 * signed) is a displacement, and the phase changes nothing.  It lives in
 * opt/ with the other B3 phases: it rewrites B3 IR and reads the target
 * only through that table. */
#include "ir/insertion_set.h"
#include "opt/phases.h"

bool b3_legalize_memory_offsets(B3Module *m, B3Proc *p) {
    bool changed = false;
    B3InsertionSet ins;
    b3_insertion_set_init(&ins, m, p);
    for (uint32_t bi = 0; bi < p->nblocks; bi++) {
        B3Block *b = p->blocks[bi];
        for (uint32_t i = 0; i < b->nvalues; i++) {
            B3Value *v = b->values[i];
            if (b3_op_info[v->opcode].meta != B3M_MEMORY || !v->m.mem.offset)
                continue;
            bool atomic = (b3_op_info[v->opcode].flags & B3OF_ATOMIC) != 0;
            unsigned bytes = atomic ? 0 : b3_mem_access_bytes(v);
            if (b3_target_offset_ok(m->target, bytes, atomic, v->m.mem.offset))
                continue;
            B3Value **ptr = &v->kids[v->nkids - 1];
            B3Value *off = b3_insertion_set_insert_int_const(&ins, i, v, B3_Int64, v->m.mem.offset);
            B3Value *sum = b3_insertion_set_insert_new(&ins, i, B3_Add, B3_Int64, 2, v);
            sum->kids[0] = *ptr;
            sum->kids[1] = off;
            *ptr = sum;
            v->m.mem.offset = 0;
            changed = true;
        }
        b3_insertion_set_execute(&ins, b);
    }
    b3_insertion_set_free(&ins);
    return changed;
}
