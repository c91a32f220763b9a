/* The constructors and destructors of a module (docs/c-extensions.md), for
 * the object writers: ELF's .init_array/.fini_array sections (elf.c and
 * the assembly writer) and Mach-O's __mod_init_func (obj.c). */
#include <stdlib.h>

#include "objwriter/obj.h"
#include "util/vec.h"

uint32_t b3_obj_structors(const B3Module *m, B3Structor **out) {
    uint32_t n = 0, cap = 0;
    *out = NULL;
    for (uint32_t i = 0; i < m->nitems; i++) {
        if (m->items[i].kind != B3Item_Proc || !m->items[i].sym->def.proc)
            continue;
        const B3Proc *p = m->items[i].sym->def.proc;
        for (int fini = 0; fini < 2; fini++) {
            int32_t prio = fini ? p->dtor_priority : p->ctor_priority;
            if (prio < 0)
                continue;
            B3_VEC_RESERVE("objwriter", *out, cap, n + 1);
            (*out)[n++] = (B3Structor){.sym = p->sym, .fini = fini, .priority = prio};
        }
    }
    return n;
}
