/* Internal to the register allocators (allocate_registers.c, graph coloring;
 * allocate_registers_and_stack_by_linear_scan.c): what both need to agree on. */
#ifndef B3_AIR_REGALLOC_H
#define B3_AIR_REGALLOC_H

#include "codegen/air/air.h"

/* The allocatable registers of a bank (pinned ones left out). */
typedef struct {
    uint32_t k;      /* number of allocatable registers */
    B3Reg order[32]; /* in preference order: caller-saved first */
    int8_t rank[64]; /* position in order, or -1 if not allocatable */
} AirRegFile;

void air_reg_file(const AirCode *c, AirBank bank, AirRegFile *rf);

/* Would replacing this Tmp arg by a spill slot be valid and mean the same
 * thing?  use_width[t]: the widest use of tmp t (AirWidth + 1; 0 = never used);
 * NULL: unknown, so a narrow zero-extending def never goes to memory. */
bool air_admits_stack(const AirCode *c, AirInst *inst, AirArg *arg, AirRole role, AirWidth width,
                      const uint8_t *use_width);

/* A terminal of b that defines spilled tmps: the n stores (moves) that follow
 * the definition go on each outgoing edge, in a new block of their own
 * (whatever lives there lives at the terminal). */
void air_store_on_out_edges(AirCode *c, AirBlock *b, B3Value *origin, const AirInst *stores, uint32_t n);

/* After allocation: sets c->used_callee_saves from the registers mentioned and clobbered. */
void air_compute_used_callee_saves(AirCode *c);
/* Adds r to set if the prologue must save it when the code uses it. */
void air_note_callee_save(const AirCode *c, B3RegSet *set, B3Reg r);

/* After allocation, within each block: a reload of a spill slot that a
 * register still holds becomes a copy or nothing (like Air's FixObviousSpills).
 * blocks (by index; NULL: all) limits it to the blocks that have spill code. */
void air_fix_obvious_spills(AirCode *c, const uint8_t *blocks);
/* Removes stores to spill slots that the same block overwrites before reading. */
void air_remove_dead_spill_stores(AirCode *c, const uint8_t *blocks);

#endif
