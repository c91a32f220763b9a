/* The LLVM StackMap (version 3) section, .llvm_stackmaps (docs/stackmaps.md).
 *
 * The emitter collects each procedure's records in a B3StackMapList while it
 * encodes the procedure, then hands them to the object with
 * b3_obj_add_stackmaps; b3_obj_emit_stackmaps lays the whole section out once
 * every procedure is done (the header counts everything). */
#ifndef B3_OBJ_STACKMAPS_H
#define B3_OBJ_STACKMAPS_H

#include "objwriter/obj.h"

typedef enum {
    B3SMLoc_Register = 1,   /* the value is in register reg */
    B3SMLoc_Direct = 2,     /* the value is the address reg + offset */
    B3SMLoc_Indirect = 3,   /* the value is in memory at reg + offset */
    B3SMLoc_Constant = 4,   /* the value is the constant (ConstIndex when it needs 64 bits) */
    B3SMLoc_ConstIndex = 5, /* only in the section: an index into the constant pool */
} B3StackMapLocKind;

typedef struct {
    uint8_t kind;  /* B3StackMapLocKind */
    uint16_t size; /* bytes */
    uint16_t reg;  /* DWARF register number */
    int64_t value; /* offset (Direct/Indirect) or the constant */
} B3StackMapLoc;

typedef struct {
    uint64_t id;
    uint32_t offset; /* from the start of the procedure's code */
    uint32_t nlocs;
    B3StackMapLoc *locs;
} B3StackMapRecord;

typedef struct {
    B3StackMapRecord *v;
    uint32_t n, cap;
} B3StackMapList;

/* Appends a record (the locations are copied). */
void b3_stackmap_list_add(B3StackMapList *l, uint64_t id, uint32_t offset, const B3StackMapLoc *locs,
                          uint32_t nlocs);
void b3_stackmap_list_free(B3StackMapList *l);

/* Takes the records of the procedure whose code starts at text_offset in
 * code section sec (the list is left empty).  Nothing is recorded for an
 * empty list. */
void b3_obj_add_stackmaps(B3Obj *o, B3SectionId sec, uint64_t text_offset, uint64_t stack_size,
                          B3StackMapList *l);
/* Writes .llvm_stackmaps (and its relocations) if any procedure had records;
 * call once, after the last procedure. */
void b3_obj_emit_stackmaps(B3Obj *o);
/* Frees what b3_obj_add_stackmaps kept (b3_obj_free calls it). */
void b3_obj_free_stackmaps(B3Obj *o);

#endif
