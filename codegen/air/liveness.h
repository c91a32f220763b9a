/* Air liveness over Tmps (physical registers included), one bank at a time.
 *
 * Timing follows the Air reference.  Block b with n insts has boundaries
 * 0..n; boundary k sits between inst k-1 and inst k.  At boundary k two
 * moments happen in order:
 *   L: the late moment of inst k-1:  late uses (LateUse, LateColdUse, the use
 *      half of Scratch) are read while late defs (Def, ZDef, the def half of
 *      UseDef/UseZDef, late_clobber) are written;
 *   E: the early moment of inst k:   early uses (Use, ColdUse, the use half
 *      of UseDef/UseZDef, address tmps) are read while early defs (EarlyDef,
 *      EarlyZDef, the def half of Scratch, early_clobber) are written.
 * Reads and writes of one moment are simultaneous, so a def interferes with
 * the uses and the other defs of its moment and with everything live after
 * the moment.  Keeping L before E (rather than one clique per boundary, as
 * Air's fence posts do) is exact for sequential code: a late def of inst k-1
 * feeds an early use of inst k, and a late use of inst k-1 is over before an
 * early def of inst k, so those two may share a register.
 *
 * Going backwards: live_mid(k) = (live_after(k) - E defs) + E uses and
 * live_before(k) = live_after(k-1) = (live_mid(k) - L defs) + L uses. */
#ifndef B3_AIR_LIVENESS_H
#define B3_AIR_LIVENESS_H

#include "codegen/air/air.h"

/* A set of tmp numbers < universe: O(1) add/remove/test/clear, dense iteration
 * (dense[0 .. size-1]).  The sparse array may hold garbage, so it is never cleared. */
typedef struct {
    uint32_t *dense, *sparse;
    uint32_t size, universe;
} AirTmpSet;

void air_tmpset_init(AirTmpSet *s, uint32_t universe);
void air_tmpset_free(AirTmpSet *s);
static inline bool air_tmpset_has(const AirTmpSet *s, uint32_t t) {
    uint32_t i = s->sparse[t];
    return i < s->size && s->dense[i] == t;
}
static inline bool air_tmpset_add(AirTmpSet *s, uint32_t t) {
    if (air_tmpset_has(s, t))
        return false;
    s->sparse[t] = s->size;
    s->dense[s->size++] = t;
    return true;
}
static inline bool air_tmpset_remove(AirTmpSet *s, uint32_t t) {
    if (!air_tmpset_has(s, t))
        return false;
    uint32_t i = s->sparse[t], last = s->dense[--s->size];
    s->dense[i] = last;
    s->sparse[last] = i;
    return true;
}
static inline void air_tmpset_clear(AirTmpSet *s) { s->size = 0; }

/* One thing an inst does to a tmp of the bank being analysed. */
typedef struct {
    AirTmp tmp;
    AirTmp *slot; /* where the inst holds it (NULL for clobbers) */
    AirInst *inst;
    uint8_t role;  /* AirRole (Def for clobbers) */
    uint8_t width; /* AirWidth (W64 for clobbers and address tmps) */
    bool def;      /* else a use */
    bool late;     /* the inst's late moment, else its early one */
    bool clobber;  /* a register of the special's clobber set */
} AirAction;

typedef struct {
    AirAction *v;
    uint32_t n, cap;
} AirActionList;

void air_action_list_free(AirActionList *l);
/* Splits what inst does to tmps of bank into its early and late actions
 * (appended to the lists, which are not cleared first). */
void air_inst_actions(const AirCode *c, AirInst *inst, AirBank bank, AirActionList *early,
                      AirActionList *late);

/* Block-level liveness.  Sets are arrays of tmp numbers (unordered). */
typedef struct {
    const AirCode *code;
    AirBank bank;
    uint32_t universe; /* every tmp number mentioned is < universe (= AIR_FIRST_VTMP + ntmps) */
    uint32_t nblocks;
    uint32_t **live_in, *nlive_in; /* indexed by AirBlock.index */
    uint32_t **live_out, *nlive_out;
} AirLiveness;

void air_liveness_compute(AirLiveness *l, const AirCode *c, AirBank bank);
void air_liveness_free(AirLiveness *l);
/* The dataflow on its own, for other analyses of the same shape (numbers <
 * universe, as stack slots): air_liveness_init gives empty sets; the caller
 * puts each block's upward-exposed uses in live_in (malloc'd arrays, no
 * duplicates), then air_liveness_solve, given each block's defs, completes
 * live_in and computes live_out.  Time and memory are those of the sets
 * (no per-block array over the universe). */
void air_liveness_init(AirLiveness *l, const AirCode *c, AirBank bank, uint32_t universe);
void air_liveness_solve(AirLiveness *l, uint32_t *const *kill, const uint32_t *nkill);
/* air_liveness_solve giving up after about `budget` steps: false (the sets are
 * then incomplete). */
bool air_liveness_solve_bounded(AirLiveness *l, uint32_t *const *kill, const uint32_t *nkill,
                                uint64_t budget);
/* The same live-out sets, faster (path exploration per number), in another
 * order, for analyses whose result does not depend on the order; live_in is
 * left holding the upward-exposed uses only. */
void air_liveness_solve_unordered(AirLiveness *l, uint32_t *const *kill, const uint32_t *nkill);
/* Frees the live-in sets early (nlive_in stays) for walks that need only live-out. */
void air_liveness_free_live_in(AirLiveness *l);

/* Every inst's actions on one bank, gathered once (air_inst_actions order)
 * for analyses that walk the code several times, as register allocation
 * does (liveness, then interference).  Inst number i = first[block index] +
 * position; its early actions are v[start[2i] .. start[2i+1]) and its late
 * ones v[start[2i+1] .. start[2i+2]). */
typedef struct {
    AirTmp tmp;
    uint8_t def;     /* else a use */
    uint8_t clobber; /* a register of the special's clobber set */
} AirAct;

typedef struct {
    AirBank bank;
    AirAct *v;
    uint32_t *start; /* 2 * ninsts + 1 */
    uint32_t *first; /* nblocks + 1 */
    uint32_t nv;
} AirActs;

void air_acts_gather(AirActs *a, const AirCode *c, AirBank bank);
/* Both banks' actions in one walk of the code: a[AirGP] and a[AirFP], each
 * the same as air_acts_gather's. */
void air_acts_gather_both(AirActs a[2], const AirCode *c);
void air_acts_free(AirActs *a);
/* air_liveness_compute from gathered actions (same sets, in the same order). */
void air_liveness_compute_acts(AirLiveness *l, const AirCode *c, const AirActs *a);
/* The same live-out sets in another order (see air_liveness_solve_unordered). */
void air_liveness_compute_acts_unordered(AirLiveness *l, const AirCode *c, const AirActs *a);
/* air_liveness_compute_acts unless its dataflow takes more than about
 * `budget` steps (reading one element of a set is one): then false, with l
 * freed.  Lets a caller try the ordered sets and fall back on the unordered
 * ones where the sets are huge. */
bool air_liveness_compute_acts_bounded(AirLiveness *l, const AirCode *c, const AirActs *a, uint64_t budget);

/* Backward walk through one block's boundaries.  At each step, live holds
 * live_after(boundary); early holds inst `boundary`'s early actions (empty at
 * the block's end) and late holds inst `boundary-1`'s late actions (empty at
 * boundary 0).
 *   air_local_init:    boundary = ninsts, live = the block's live-out.
 *   air_local_step:    applies early then late, then advances.
 *   air_local_advance: moves to boundary-1 without touching live (for callers
 *                      that apply the two moments themselves); sets done when
 *                      leaving boundary 0, when live is the block's live-in. */
typedef struct {
    const AirCode *code;
    const AirBlock *block;
    AirBank bank;
    uint32_t boundary;
    bool done;
    AirTmpSet *live;     /* owned by the caller, universe >= the liveness universe */
    AirActionList early; /* E moment of this boundary */
    AirActionList late;  /* L moment of this boundary */
    AirActionList ahead; /* scratch: the early half of inst boundary-1 */
} AirLocalLiveness;

void air_local_init(AirLocalLiveness *lc, const AirLiveness *l, const AirBlock *b, AirTmpSet *live);
void air_local_step(AirLocalLiveness *lc);
void air_local_advance(AirLocalLiveness *lc);
void air_local_free(AirLocalLiveness *lc);
/* live = (live - defs) + uses, for the actions of one moment. */
void air_apply_actions(const AirActionList *acts, AirTmpSet *live);

/* Blocks in reverse post order from the entry, unreachable blocks last.
 * Returns a malloc'd array of c->nblocks pointers. */
AirBlock **air_rpo(const AirCode *c);

/* ---- bit sets and square bit matrices (interference of tmps and slots) ---- */

static inline bool air_bit_has(const uint64_t *s, uint32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }
static inline void air_bit_set(uint64_t *s, uint32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static inline void air_bit_clear(uint64_t *s, uint32_t i) { s[i >> 6] &= ~(1ull << (i & 63)); }

/* A matrix of 64 * words rows of `words` words each (row i at bits + i * words):
 * ORs in its transpose, so edges recorded on one side only become symmetric,
 * then clears the diagonal. */
void air_bitmatrix_symmetrize(uint64_t *bits, uint32_t words);

#endif
