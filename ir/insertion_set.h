/* Inserting values into a block, all at once (B3's InsertionSet).
 *
 * A phase walking a block by index records "put this value before the value
 * now at index i" as it goes, without disturbing the indices it is walking;
 * b3_insertion_set_execute then applies every insertion to the block in one
 * linear pass.  Insertions at the same index land in the order they were
 * made, before the value that was at that index; index == nvalues appends.
 *
 *     B3InsertionSet ins;
 *     b3_insertion_set_init(&ins, m, p);
 *     for each block b:
 *         for (i = 0; i < b->nvalues; i++)
 *             ... b3_insertion_set_insert_new(&ins, i, B3_Add, type, 2, b->values[i]) ...
 *         b3_insertion_set_execute(&ins, b);
 *     b3_insertion_set_free(&ins);
 *
 * The pending list is phase-local (malloc); the values themselves are IR and
 * live in the module's arena. */
#ifndef B3_INSERTION_SET_H
#define B3_INSERTION_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct {
    uint32_t index; /* before the value now at this index */
    B3Value *value;
} B3Insertion;

typedef struct {
    B3Module *m;
    B3Proc *p;
    B3Insertion *items;
    uint32_t n, cap;
} B3InsertionSet;

void b3_insertion_set_init(B3InsertionSet *s, B3Module *m, B3Proc *p);
void b3_insertion_set_free(B3InsertionSet *s);

/* Records v (a value of s->p not yet in a block) for insertion before index. */
B3Value *b3_insertion_set_insert(B3InsertionSet *s, uint32_t index, B3Value *v);
/* A new value (a fresh @N, room for nkids children for the caller to fill)
 * inserted before index, at origin's source location. */
B3Value *b3_insertion_set_insert_new(B3InsertionSet *s, uint32_t index, B3Opcode op, B3Type type,
                                     uint32_t nkids, const B3Value *origin);
/* Const32 or Const64 (by type) holding value. */
B3Value *b3_insertion_set_insert_int_const(B3InsertionSet *s, uint32_t index, const B3Value *origin,
                                           B3Type type, int64_t value);
/* A zero of type (B3's insertBottom): what a value nobody can observe may be
 * replaced with. */
B3Value *b3_insertion_set_insert_bottom(B3InsertionSet *s, uint32_t index, const B3Value *origin,
                                        B3Type type);

/* Applies every recorded insertion to b and forgets them.  Returns true if
 * there were any. */
bool b3_insertion_set_execute(B3InsertionSet *s, B3Block *b);

#endif
