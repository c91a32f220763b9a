/* Output files written atomically: a temporary next to the target, renamed
 * into place only when everything succeeded, so an error never leaves a
 * partial file and never touches a previous one. */
#ifndef B3_OUTPUT_H
#define B3_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    const char *path; /* final path, or "-" for stdout */
    char *tmp;        /* temporary path (NULL when writing in place) */
    char *real;       /* resolved symlink target, owned */
    FILE *f;
} B3Output;

/* Returns false (after printing why) if the temporary cannot be created. */
bool b3_output_open(B3Output *o, const char *path, bool binary);
/* Flushes and renames into place; returns false on an I/O error. */
bool b3_output_commit(B3Output *o);
/* Removes the temporary. */
void b3_output_abort(B3Output *o);

#endif
