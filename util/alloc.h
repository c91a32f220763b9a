/* Allocation with one out-of-memory policy.
 *
 * b3c does not recover from running out of memory: it is an internal error
 * that names the phase that ran out (and, through the internal-error
 * context, the procedure), exits with status 3 and writes no output.  Every
 * malloc'ed array in b3c comes from these functions; the IR's own memory
 * comes from the module's arena (ir/arena.c), which reports the same way.
 * The one exception is the diagnostics' own buffers (ir/diag.c): the
 * out-of-memory report is written through them, so they fall back to
 * shorter or unsorted output instead.  A program other than b3c that links
 * this layer (b3cc) defines b3_out_of_memory with its own wording. */
#ifndef B3_UTIL_ALLOC_H
#define B3_UTIL_ALLOC_H

#include <stddef.h>

/* Reports that phase ran out of memory and does not return.  phase NULL
 * names the running phase.  Defined by the internal-error layer (ir/ice.c),
 * which formats it as every internal error. */
_Noreturn void b3_out_of_memory(const char *phase);

/* malloc, calloc and realloc that never return NULL.  Sizes of 0 allocate
 * 1 byte, so a result is always a pointer to free. */
void *b3_xmalloc(const char *phase, size_t n);
void *b3_xcalloc(const char *phase, size_t n, size_t size);
void *b3_xrealloc(const char *phase, void *p, size_t n);

#endif
