/* Air phases, one per file under codegen/air/. */
#ifndef B3_AIR_PHASES_H
#define B3_AIR_PHASES_H

#include "codegen/air/air.h"

/* Checks Air invariants (valid forms, banks, terminals); internal error naming phase on failure. */
void air_validate(AirCode *c, const char *phase);
/* Iterated register coalescing per bank; spills to new spill slots; afterwards
 * every Tmp is a physical register (-O2; air_fix_obvious_spills_phase and
 * air_handle_callee_saves follow). */
void air_allocate_registers(AirCode *c);
/* After allocation: reloads of spill slots that a register still holds
 * become copies or nothing; dead spill stores go. */
void air_fix_obvious_spills_phase(AirCode *c);
/* After allocation: sets c->used_callee_saves. */
void air_handle_callee_saves(AirCode *c);
/* -O1: registers by linear scan over each tmp's live ranges, lifetime holes
 * included (spilled tmps to spill slots), then air_allocate_stack; fast, for
 * code of lesser quality than air_allocate_registers. */
void air_allocate_registers_and_stack_by_linear_scan(AirCode *c);
/* -O0: registers and stack in one backward pass per block (as LLVM's
 * RegAllocFast): tmps mentioned in several blocks live in stack slots,
 * the others in registers; no liveness, no cleanups; then
 * air_allocate_stack (every slot already final: one pass). */
void air_allocate_registers_fast(AirCode *c);
/* Before allocation: every tmp live after a returnsTwice call (setjmp) moves
 * to a stack slot of its own, read at each use and written at each def. */
void air_spill_across_returns_twice(AirCode *c);
/* Assigns frame offsets to every stack slot, reserves callee-save and outgoing
 * argument space, sets c->frame_size, and rewrites Stack args into Addr(fp, off). */
void air_allocate_stack(AirCode *c);
/* Removes the insts whose results are dead and that have no other effect
 * (before register allocation). */
void air_eliminate_dead_code(AirCode *c);
/* Removes the moves of a register to itself (after register allocation). */
void air_remove_self_moves(AirCode *c);
/* After allocation: deletes `Move32 %r, %r` where nobody reads the upper
 * half of %r or it is already zero (eliminate_zero_extensions.c). */
void air_eliminate_zero_extensions(AirCode *c);
/* After allocation: deletes insts that only write registers nobody reads. */
void air_report_used_registers(AirCode *c);
/* Jump threading, branches whose edges meet become jumps, blocks merged into
 * their single predecessor, unreachable blocks dropped. */
void air_simplify_cfg(AirCode *c);
/* After simplify_cfg: a small block ending in a JumpTable (and the small
 * blocks that jump to it) copied into each block that jumps there, so each
 * has its own indirect jump. */
void air_duplicate_dispatch(AirCode *c);
/* Orders the blocks so that likely successors follow (fall through), rare
 * blocks at the end, loops rotated to end in one conditional back edge. */
void air_optimize_block_order(AirCode *c);
/* x86-64, after allocation: an xorps before each inst that writes only the
 * low lane of an xmm register written shortly before (a false dependency). */
void air_fix_partial_register_stalls(AirCode *c);
/* After optimize_block_order: marks the blocks that a later block (or the
 * block itself) jumps back to, for the emitter to align (-O2). */
void air_align_loop_headers(AirCode *c);
/* Clones, for each entrypoint, the blocks on a path from blocks[0] to an
 * EntrySwitch, turning EntrySwitch into a Jump to that entrypoint's successor;
 * sets c->entries / c->nentries (one per entrypoint, at least one). */
void air_lower_entry_switch(AirCode *c);

#endif
