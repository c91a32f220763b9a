/* Unit tests for Air liveness, register allocation, stack allocation,
 * simplification, validation and printing.
 *
 * Each test builds an AirCode by hand (twice, identically), allocates one
 * copy, and checks it:
 *   - air_validate passes, no virtual tmps are left, frame_size % 16 == 0;
 *   - recomputed liveness on the allocated code: nothing but the argument
 *     registers is live into the entry, and no clobbered register is live
 *     across the inst that clobbers it;
 *   - an Air interpreter runs both copies on random inputs and gets the same
 *     result, the same memory, and the callee-saved registers back (the
 *     interpreter plays the prologue/epilogue with c->used_callee_saves).
 * If two simultaneously live values shared a register, one would overwrite
 * the other and the results would differ.
 *
 * Built directly from the sources (see air-regalloc.test). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen/air/air.h"
#include "codegen/air/liveness.h"
#include "codegen/air/phases.h"
#include "codegen/x86_64/regs.h"

static int failures;

#define CHECK(cond, ...)                                           \
    do {                                                           \
        if (!(cond)) {                                             \
            failures++;                                            \
            fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                          \
            fputc('\n', stderr);                                   \
        }                                                          \
    } while (0)

static const B3Target x86 = {B3Arch_X86_64, B3OS_Linux, 0, 0};

/* ---- random numbers ---- */

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r) {
    r->s += 0x9E3779B97F4A7C15ull;
    uint64_t z = r->s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(Rng *r, uint32_t n) { return (uint32_t)(rng_next(r) % n); }

/* ---- building code ---- */

static AirCode *new_code(B3Arena *arena) {
    AirCode *c = b3_arena_alloc(arena, sizeof *c);
    c->target = x86;
    c->desc = b3_target_desc(x86);
    c->arena = arena;
    return c;
}

static void emit(AirCode *c, AirBlock *b, AirOpcode op, uint32_t n, const AirArg *args) {
    air_append(c, b, op, NULL, n, args);
}
#define EMIT(c, b, op, ...)                                    \
    do {                                                       \
        const AirArg args_[] = {__VA_ARGS__};                  \
        emit(c, b, op, sizeof args_ / sizeof args_[0], args_); \
    } while (0)
#define EMIT0(c, b, op) emit(c, b, op, 0, NULL)

static void set_succs(AirCode *c, AirBlock *b, AirBlock *s0, AirBlock *s1) {
    b->nsuccs = s1 ? 2 : 1;
    b->succs = b3_arena_alloc(c->arena, b->nsuccs * sizeof(AirSucc));
    b->succs[0].block = s0;
    if (s1)
        b->succs[1].block = s1;
}

static AirTmp R(unsigned r) { return (AirTmp)r; }
static AirTmp X(unsigned n) { return (AirTmp)(B3_FPR_BASE + n); }

static B3Symbol callee_sym = {.name = "callee", .name_len = 6};

static B3RegSet caller_saved_set(void) {
    B3RegSet s = {{0, 0}};
    const B3Reg gp[] = {B3X_rax, B3X_rcx, B3X_rdx, B3X_rsi, B3X_rdi, B3X_r8, B3X_r9, B3X_r10, B3X_r11};
    for (unsigned i = 0; i < sizeof gp / sizeof gp[0]; i++)
        b3_regset_add(&s, gp[i]);
    for (unsigned i = 0; i < 16; i++)
        b3_regset_add(&s, (B3Reg)(B3_FPR_BASE + i));
    return s;
}

/* A special inst: args with explicit roles (all 64-bit). */
static AirInst *emit_special(AirCode *c, AirBlock *b, AirOpcode op, uint32_t n, const AirArg *args,
                             const uint8_t *roles, B3RegSet early, B3RegSet late) {
    AirInst *i = air_append(c, b, op, NULL, n, args);
    AirSpecial *s = b3_arena_alloc(c->arena, sizeof *s);
    s->roles = b3_arena_alloc(c->arena, n);
    s->banks = b3_arena_alloc(c->arena, n);
    s->widths = b3_arena_alloc(c->arena, n);
    for (uint32_t k = 0; k < n; k++) {
        s->roles[k] = roles[k];
        s->banks[k] = args[k].kind == AirArg_Tmp ? (uint8_t)air_tmp_bank(c, args[k].base) : AirGP;
        s->widths[k] = AirW64;
    }
    s->early_clobber = early;
    s->late_clobber = late;
    i->special = s;
    return i;
}

/* Call with the given argument registers; result in rax (or xmm0 if fp_result). */
static void emit_call(AirCode *c, AirBlock *b, const AirTmp *argregs, uint32_t nargs, bool fp_result) {
    AirArg args[12];
    uint8_t roles[12];
    uint32_t n = 0;
    args[n] = air_sym(&callee_sym, 0, false);
    roles[n++] = AirRole_Use;
    for (uint32_t i = 0; i < nargs; i++) {
        args[n] = air_tmp(argregs[i]);
        roles[n++] = AirRole_Use;
    }
    args[n] = air_tmp(fp_result ? X(0) : R(B3X_rax));
    roles[n++] = AirRole_Def;
    B3RegSet early = {{0, 0}};
    b3_regset_add(&early, B3X_rax);
    emit_special(c, b, Air_Call, n, args, roles, early, caller_saved_set());
}

/* ---- the interpreter ---- */

#define MEM_SIZE (1u << 20)
#define BUF_ADDR 0x1000u
#define BUF_SIZE 0x1000u
#define SLOT_AREA 0x8000u
#define FP_ADDR 0xF0000u

typedef struct {
    const AirCode *c;
    bool allocated;
    uint64_t regs[64];
    uint64_t *tmps;
    uint8_t *mem;
    Rng rng;
    const char *err;
    uint64_t scratch_seen[8];
} Interp;

static uint64_t *tmp_ref(Interp *in, AirTmp t) {
    if (air_tmp_is_reg(t))
        return &in->regs[t];
    if (in->allocated) {
        in->err = "virtual tmp in allocated code";
        return &in->regs[0];
    }
    return &in->tmps[t - AIR_FIRST_VTMP];
}

static uint64_t addr_of(Interp *in, const AirArg *a) {
    switch (a->kind) {
    case AirArg_Addr:
        return *tmp_ref(in, a->base) + (uint64_t)a->value;
    case AirArg_Index:
        return *tmp_ref(in, a->base) + *tmp_ref(in, a->index) * a->scale + (uint64_t)a->value;
    case AirArg_Stack:
        return SLOT_AREA + a->u.slot->index * 64u + (uint64_t)a->value;
    default:
        in->err = "not an address";
        return 0;
    }
}

static uint64_t width_mask(AirWidth w) { return w >= AirW64 ? ~0ull : (1ull << (8u << w)) - 1; }

static bool mem_ok(Interp *in, uint64_t addr, unsigned bytes) {
    if (addr + bytes > MEM_SIZE || addr < 0x100) {
        in->err = "memory access out of range";
        return false;
    }
    if (in->allocated && addr >= FP_ADDR - 0x40000 && addr < FP_ADDR - in->c->frame_size) {
        in->err = "access below the stack pointer";
        return false;
    }
    return true;
}

static uint64_t read_arg(Interp *in, const AirArg *a, AirWidth w) {
    switch (a->kind) {
    case AirArg_Tmp:
        return *tmp_ref(in, a->base) & width_mask(w);
    case AirArg_Imm:
    case AirArg_BigImm:
        return (uint64_t)a->value & width_mask(w);
    case AirArg_Addr:
    case AirArg_Index:
    case AirArg_Stack: {
        uint64_t addr = addr_of(in, a), v = 0;
        unsigned bytes = 1u << w;
        if (!mem_ok(in, addr, bytes))
            return 0;
        memcpy(&v, in->mem + addr, bytes);
        return v;
    }
    default:
        in->err = "unreadable arg";
        return 0;
    }
}

/* zext: clear the bits above w (ZDef); else keep them (Def of a narrow width). */
static void write_arg(Interp *in, const AirArg *a, AirWidth w, uint64_t v, bool zext) {
    switch (a->kind) {
    case AirArg_Tmp: {
        uint64_t *p = tmp_ref(in, a->base), m = width_mask(w);
        *p = zext ? (v & m) : ((*p & ~m) | (v & m));
        break;
    }
    case AirArg_Addr:
    case AirArg_Index:
    case AirArg_Stack: {
        uint64_t addr = addr_of(in, a);
        unsigned bytes = 1u << w;
        if (mem_ok(in, addr, bytes))
            memcpy(in->mem + addr, &v, bytes);
        break;
    }
    default:
        in->err = "unwritable arg";
    }
}

static double as_double(uint64_t v) {
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t from_double(double d) {
    uint64_t v;
    memcpy(&v, &d, 8);
    return v;
}

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static bool rel_holds(unsigned cond, uint64_t a, uint64_t b) {
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    switch (cond) {
    case AirCond_Equal:
        return a == b;
    case AirCond_NotEqual:
        return a != b;
    case AirCond_LessThan:
        return sa < sb;
    case AirCond_GreaterThan:
        return sa > sb;
    case AirCond_LessThanOrEqual:
        return sa <= sb;
    case AirCond_GreaterThanOrEqual:
        return sa >= sb;
    case AirCond_Below:
        return a < b;
    case AirCond_Above:
        return a > b;
    default:
        return false;
    }
}

/* Calls, patchpoints, played adversarially: at each moment the defs (and
 * clobbers) are written *before* the uses are read, as the hardware may do:
 * an early def sharing a register with an input, or a late use sharing one
 * with an output or a clobber, reads the wrong value.  What the late uses
 * read is folded into the buffer so that it is observable. */
static void run_special(Interp *in, const AirInst *i) {
    const AirSpecial *s = i->special;
    uint64_t h = i->opcode * 1234567ull;
    uint32_t nscratch = 0;
    for (unsigned r = 0; r < 64; r++)
        if (b3_regset_has(&s->early_clobber, (B3Reg)r))
            in->regs[r] = rng_next(&in->rng);
    for (uint32_t k = 0; k < i->nargs; k++) {
        AirRole role = (AirRole)s->roles[k];
        if (role == AirRole_EarlyDef || role == AirRole_EarlyZDef)
            write_arg(in, &i->args[k], AirW64, mix(0x5eed, k), true);
        if (role == AirRole_Scratch && nscratch < 8) {
            in->scratch_seen[nscratch] = rng_next(&in->rng);
            write_arg(in, &i->args[k], AirW64, in->scratch_seen[nscratch++], true);
        }
    }
    for (uint32_t k = 0; k < i->nargs; k++)
        if (air_role_is_early_use((AirRole)s->roles[k]) && i->args[k].kind == AirArg_Tmp)
            h = mix(h, read_arg(in, &i->args[k], AirW64));
    /* Late uses must survive the late clobbers and defs: read them after. */
    uint64_t late_vals[16];
    uint32_t nlate = 0;
    for (unsigned r = 0; r < 64; r++)
        if (b3_regset_has(&s->late_clobber, (B3Reg)r))
            in->regs[r] = rng_next(&in->rng);
    for (uint32_t k = 0; k < i->nargs; k++) {
        AirRole role = (AirRole)s->roles[k];
        if (air_role_is_late_def(role))
            write_arg(in, &i->args[k], AirW64, mix(h, 100 + k), true);
    }
    nscratch = 0;
    for (uint32_t k = 0; k < i->nargs; k++) {
        AirRole role = (AirRole)s->roles[k];
        if ((role == AirRole_LateUse || role == AirRole_LateColdUse) && nlate < 16)
            late_vals[nlate++] = read_arg(in, &i->args[k], AirW64);
        if (role == AirRole_Scratch && nscratch < 8 &&
            read_arg(in, &i->args[k], AirW64) != in->scratch_seen[nscratch++])
            in->err = "scratch register changed inside its inst";
    }
    if (nlate) {
        uint64_t acc, *p = (uint64_t *)(in->mem + BUF_ADDR + BUF_SIZE - 8);
        memcpy(&acc, p, 8);
        for (uint32_t k = 0; k < nlate; k++)
            acc = mix(acc, late_vals[k]);
        memcpy(p, &acc, 8);
    }
}

typedef struct {
    uint64_t ret;
    uint64_t buf_hash;
    bool ok;
} RunResult;

static RunResult interpret(const AirCode *c, bool allocated, uint64_t seed, const uint64_t inputs[5]) {
    Interp in = {0};
    RunResult res = {0, 0, false};
    in.c = c;
    in.allocated = allocated;
    in.rng.s = seed * 7 + 1;
    in.tmps = calloc(c->ntmps + 1, sizeof(uint64_t));
    in.mem = calloc(MEM_SIZE, 1);
    for (unsigned r = 0; r < 64; r++)
        in.regs[r] = rng_next(&in.rng);
    uint64_t initial[64];
    in.regs[B3X_rdi] = inputs[0];
    in.regs[B3X_rsi] = inputs[1];
    in.regs[B3X_rdx] = BUF_ADDR;
    in.regs[X(0)] = inputs[2];
    in.regs[X(1)] = inputs[3];
    in.regs[B3X_rbp] = FP_ADDR;
    in.regs[B3X_rsp] = FP_ADDR - (allocated ? c->frame_size : 0x10000);
    Rng fill = {inputs[4]};
    for (unsigned k = 0; k < BUF_SIZE; k += 8) {
        uint64_t v = rng_next(&fill);
        memcpy(in.mem + BUF_ADDR + k, &v, 8);
    }
    memcpy(initial, in.regs, sizeof initial);
    /* The prologue: callee saves below the frame pointer, in register order. */
    unsigned nsave = 0;
    if (allocated)
        for (unsigned r = 0; r < 64; r++)
            if (b3_regset_has(&c->used_callee_saves, (B3Reg)r)) {
                nsave++;
                memcpy(in.mem + FP_ADDR - 8 * nsave, &in.regs[r], 8);
            }

    const AirBlock *b = c->blocks[0];
    uint64_t steps = 0;
    for (;;) {
        const AirBlock *next = NULL;
        for (uint32_t ii = 0; ii < b->ninsts && !in.err; ii++) {
            const AirInst *i = &b->insts[ii];
            const AirArg *a = i->args;
            if (++steps > 5000000) {
                in.err = "too many steps";
                break;
            }
            if (i->special) {
                run_special(&in, i);
                continue;
            }
            switch (i->opcode) {
            case Air_Nop:
                break;
            case Air_Move:
            case Air_MoveDouble:
                write_arg(&in, &a[1], AirW64, read_arg(&in, &a[0], AirW64), true);
                break;
            case Air_Move32:
                write_arg(&in, &a[1], AirW32, read_arg(&in, &a[0], AirW32), true);
                break;
            case Air_Lea64:
                write_arg(&in, &a[1], AirW64, addr_of(&in, &a[0]), true);
                break;
            case Air_Add64:
            case Air_Sub64:
            case Air_Mul64:
            case Air_Xor64:
            case Air_And64:
            case Air_Or64: {
                uint64_t x = read_arg(&in, &a[0], AirW64), y = read_arg(&in, &a[1], AirW64), r = 0;
                switch (i->opcode) {
                case Air_Add64:
                    r = y + x;
                    break;
                case Air_Sub64:
                    r = y - x;
                    break;
                case Air_Mul64:
                    r = y * x;
                    break;
                case Air_Xor64:
                    r = y ^ x;
                    break;
                case Air_And64:
                    r = y & x;
                    break;
                default:
                    r = y | x;
                    break;
                }
                write_arg(&in, &a[i->nargs - 1], AirW64, r, true);
                break;
            }
            case Air_Add32: {
                uint64_t x = read_arg(&in, &a[0], AirW32), y = read_arg(&in, &a[1], AirW32);
                write_arg(&in, &a[i->nargs - 1], AirW32, x + y, true);
                break;
            }
            case Air_Lshift64:
                write_arg(&in, &a[1], AirW64,
                          read_arg(&in, &a[1], AirW64) << (read_arg(&in, &a[0], AirW64) & 63), true);
                break;
            case Air_X86ConvertToQuadWord64:
                write_arg(&in, &a[1], AirW64, (uint64_t)((int64_t)read_arg(&in, &a[0], AirW64) >> 63), true);
                break;
            case Air_X86Div64: {
                int64_t lo = (int64_t)read_arg(&in, &a[0], AirW64),
                        hi = (int64_t)read_arg(&in, &a[1], AirW64);
                int64_t d = (int64_t)read_arg(&in, &a[2], AirW64);
                if (d == 0 || hi != (lo >> 63) || (lo == INT64_MIN && d == -1)) {
                    in.err = "bad division";
                    break;
                }
                write_arg(&in, &a[0], AirW64, (uint64_t)(lo / d), true);
                write_arg(&in, &a[1], AirW64, (uint64_t)(lo % d), true);
                break;
            }
            case Air_CountLeadingZeros64: {
                uint64_t x = read_arg(&in, &a[0], AirW64);
                write_arg(&in, &a[2], AirW64, rng_next(&in.rng), true);
                write_arg(&in, &a[1], AirW64, x ? (uint64_t)__builtin_clzll(x) : 64, true);
                break;
            }
            case Air_AddDouble:
            case Air_MulDouble:
            case Air_SubDouble: {
                double x = as_double(read_arg(&in, &a[0], AirW64)),
                       y = as_double(read_arg(&in, &a[1], AirW64));
                double r = i->opcode == Air_AddDouble ? y + x : i->opcode == Air_MulDouble ? y * x : y - x;
                write_arg(&in, &a[1], AirW64, from_double(r), true);
                break;
            }
            case Air_ConvertInt64ToDouble:
                write_arg(&in, &a[1], AirW64, from_double((double)(int64_t)read_arg(&in, &a[0], AirW64)),
                          true);
                break;
            case Air_MoveDoubleTo64:
            case Air_Move64ToDouble:
                write_arg(&in, &a[1], AirW64, read_arg(&in, &a[0], AirW64), true);
                break;
            case Air_Jump:
                next = b->succs[0].block;
                break;
            case Air_Branch64:
                next =
                    b->succs[rel_holds(a[0].cond, read_arg(&in, &a[1], AirW64), read_arg(&in, &a[2], AirW64))
                                 ? 0
                                 : 1]
                        .block;
                break;
            case Air_BranchAdd64: {
                int64_t x = (int64_t)read_arg(&in, &a[1], AirW64), y = (int64_t)read_arg(&in, &a[2], AirW64),
                        r;
                bool ovf = __builtin_add_overflow(y, x, &r);
                write_arg(&in, &a[2], AirW64, (uint64_t)r, true);
                next = b->succs[ovf ? 0 : 1].block;
                break;
            }
            case Air_Ret64:
                res.ret = in.regs[B3X_rax];
                goto done;
            case Air_RetDouble:
                res.ret = in.regs[X(0)];
                goto done;
            default:
                in.err = "opcode the interpreter does not know";
                break;
            }
        }
        if (in.err)
            break;
        if (!next) {
            in.err = "fell off a block";
            break;
        }
        b = next;
    }
done:
    if (!in.err && allocated) {
        nsave = 0;
        for (unsigned r = 0; r < 64; r++)
            if (b3_regset_has(&c->used_callee_saves, (B3Reg)r)) {
                nsave++;
                memcpy(&in.regs[r], in.mem + FP_ADDR - 8 * nsave, 8);
            }
        for (unsigned r = 0; r < 64; r++)
            if (b3_target_is_callee_saved(x86, (B3Reg)r) && in.regs[r] != initial[r])
                in.err = "a callee-saved register was not preserved";
    }
    if (in.err) {
        fprintf(stderr, "  interpreter (%s code): %s\n", allocated ? "allocated" : "original", in.err);
    } else {
        res.ok = true;
        uint64_t h = 0;
        for (unsigned k = 0; k < BUF_SIZE; k += 8) {
            uint64_t v;
            memcpy(&v, in.mem + BUF_ADDR + k, 8);
            h = mix(h, v);
        }
        res.buf_hash = h;
    }
    free(in.tmps);
    free(in.mem);
    return res;
}

/* ---- structural checks on allocated code ---- */

static void check_no_vtmp(void *ctx, AirInst *inst, AirTmp *tmp, AirRole role, AirBank bank, AirWidth width) {
    (void)inst;
    (void)role;
    (void)bank;
    (void)width;
    int *bad = ctx;
    if (!air_tmp_is_reg(*tmp))
        (*bad)++;
}

static bool is_entry_input(AirTmp t) {
    return t == B3X_rdi || t == B3X_rsi || t == B3X_rdx || t == X(0) || t == X(1) || t == B3X_rbp ||
           t == B3X_rsp;
}

static void check_liveness(AirCode *c, const char *name) {
    for (int bank = AirGP; bank <= AirFP; bank++) {
        AirLiveness lv;
        air_liveness_compute(&lv, c, (AirBank)bank);
        for (uint32_t i = 0; i < lv.nlive_in[0]; i++)
            CHECK(is_entry_input(lv.live_in[0][i]), "%s: register %u is live into the entry", name,
                  lv.live_in[0][i]);
        AirTmpSet live;
        air_tmpset_init(&live, lv.universe);
        for (uint32_t bi = 0; bi < c->nblocks; bi++) {
            AirLocalLiveness lc;
            air_local_init(&lc, &lv, c->blocks[bi], &live);
            while (!lc.done) {
                /* A clobbered register must not carry a value past its clobber, nor be read at that moment. */
                const AirActionList *moments[2] = {&lc.early, &lc.late};
                for (int m = 0; m < 2; m++) {
                    const AirActionList *acts = moments[m];
                    for (uint32_t k = 0; k < acts->n; k++) {
                        const AirAction *a = &acts->v[k];
                        if (!a->clobber)
                            continue;
                        bool redefined = false, read = false;
                        for (uint32_t j = 0; j < acts->n; j++) {
                            if (j == k || acts->v[j].tmp != a->tmp)
                                continue;
                            redefined |= acts->v[j].def && !acts->v[j].clobber;
                            read |= !acts->v[j].def;
                        }
                        CHECK(!read && (redefined || !air_tmpset_has(&live, a->tmp)),
                              "%s: BB#%u boundary %u: clobbered register %u is live across the clobber", name,
                              bi, lc.boundary, a->tmp);
                    }
                    air_apply_actions(acts, &live);
                }
                air_local_advance(&lc);
            }
            air_local_free(&lc);
        }
        air_tmpset_free(&live);
        air_liveness_free(&lv);
    }
}

typedef AirCode *(*Builder)(B3Arena *arena, uint64_t seed);

/* Which allocator run_case tests: graph coloring (-O2), linear scan (-O1)
 * or the fast block-local one (-O0). */
static bool linear_scan, fast;
static uint8_t opt_level;

typedef struct {
    uint32_t spill_slots, insts, callee_saves;
} Stats;

/* Builds the code twice, allocates one copy, checks it, and compares runs. */
static Stats run_case(const char *name, Builder build, uint64_t seed, int runs) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *orig = build(&arena, seed);
    AirCode *c = build(&arena, seed);
    air_compute_preds(orig);
    air_compute_preds(c);
    c->opt_level = opt_level;
    air_validate(c, "test input");
    if (fast) {
        air_allocate_registers_fast(c);
    } else if (linear_scan) {
        air_allocate_registers_and_stack_by_linear_scan(c);
    } else {
        air_allocate_registers(c);
        air_fix_obvious_spills_phase(c);
        air_handle_callee_saves(c);
    }
    air_validate(c, "after register allocation");
    int bad = 0;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        for (uint32_t ii = 0; ii < c->blocks[bi]->ninsts; ii++)
            air_for_each_tmp(c, &c->blocks[bi]->insts[ii], check_no_vtmp, &bad);
    CHECK(bad == 0, "%s: %d virtual tmps left after allocation", name, bad);
    check_liveness(c, name);
    if (!linear_scan && !fast)
        air_allocate_stack(c);
    air_validate(c, "after stack allocation");
    CHECK(c->frame_size % 16 == 0, "%s: frame size %llu", name, (unsigned long long)c->frame_size);
    air_remove_self_moves(c);
    /* The phases after allocation that delete what the registers make
     * redundant: the runs below check that nothing needed went. */
    air_eliminate_zero_extensions(c);
    air_report_used_registers(c);
    air_simplify_cfg(c);
    air_validate(c, "after simplify");

    Stats st = {0, 0, 0};
    for (uint32_t i = 0; i < c->nslots; i++)
        st.spill_slots += c->slots[i]->spill;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        st.insts += c->blocks[bi]->ninsts;
    for (unsigned r = 0; r < 64; r++)
        st.callee_saves += b3_regset_has(&c->used_callee_saves, (B3Reg)r);

    Rng r = {seed ^ 0xabcdef};
    for (int k = 0; k < runs; k++) {
        uint64_t in[5] = {rng_next(&r), rng_next(&r), from_double((double)(int64_t)(rng_next(&r) % 1000)),
                          from_double((double)(int64_t)(rng_next(&r) % 1000) / 8.0), rng_next(&r)};
        RunResult a = interpret(orig, false, seed + (uint64_t)k, in),
                  b = interpret(c, true, seed + (uint64_t)k, in);
        CHECK(a.ok, "%s: the original code does not run", name);
        CHECK(b.ok, "%s (seed %llu): the allocated code does not run", name, (unsigned long long)seed);
        if (a.ok && b.ok) {
            CHECK(a.ret == b.ret, "%s (seed %llu): returned %llx, expected %llx", name,
                  (unsigned long long)seed, (unsigned long long)b.ret, (unsigned long long)a.ret);
            CHECK(a.buf_hash == b.buf_hash, "%s (seed %llu): memory differs", name, (unsigned long long)seed);
        }
        if (failures) {
            air_print_code(c, stderr);
            break;
        }
    }
    b3_arena_free(&arena);
    return st;
}

/* ---- hand-written cases ---- */

/* 40 GP values live at once, summed at the end. */
static AirCode *build_sum40(B3Arena *arena, uint64_t seed) {
    (void)seed;
    AirCode *c = new_code(arena);
    AirBlock *b = air_block_new(c);
    AirTmp x = air_tmp_new(c, AirGP), y = air_tmp_new(c, AirGP), v[40];
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(x));
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rsi)), air_tmp(y));
    for (int i = 0; i < 40; i++) {
        v[i] = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_Move, air_tmp(i % 2 ? x : y), air_tmp(v[i]));
        EMIT(c, b, Air_Add64, air_imm(i * 1000 + 7), air_tmp(v[i]));
        EMIT(c, b, Air_Mul64, air_tmp(x), air_tmp(v[i]));
    }
    AirTmp s = air_tmp_new(c, AirGP);
    EMIT(c, b, Air_Move, air_imm(0), air_tmp(s));
    for (int i = 0; i < 40; i++) {
        EMIT(c, b, Air_Mul64, air_imm(31), air_tmp(s), air_tmp(s));
        EMIT(c, b, Air_Add64, air_tmp(v[i]), air_tmp(s));
    }
    EMIT(c, b, Air_Move, air_tmp(s), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Ret64, air_tmp(R(B3X_rax)));
    return c;
}

/* if (x < y) p = x * 3 else p = y ^ x; return p + x + y */
static AirCode *build_diamond(B3Arena *arena, uint64_t seed) {
    (void)seed;
    AirCode *c = new_code(arena);
    AirBlock *e = air_block_new(c), *t = air_block_new(c), *f = air_block_new(c), *j = air_block_new(c);
    AirTmp x = air_tmp_new(c, AirGP), y = air_tmp_new(c, AirGP), p = air_tmp_new(c, AirGP),
           q = air_tmp_new(c, AirGP);
    EMIT(c, e, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(x));
    EMIT(c, e, Air_Move, air_tmp(R(B3X_rsi)), air_tmp(y));
    EMIT(c, e, Air_Branch64, air_relcond(AirCond_LessThan), air_tmp(x), air_tmp(y));
    set_succs(c, e, t, f);
    EMIT(c, t, Air_Mul64, air_imm(3), air_tmp(x), air_tmp(q));
    EMIT(c, t, Air_Move, air_tmp(q), air_tmp(p));
    EMIT0(c, t, Air_Jump);
    set_succs(c, t, j, NULL);
    EMIT(c, f, Air_Move, air_tmp(y), air_tmp(q));
    EMIT(c, f, Air_Xor64, air_tmp(x), air_tmp(q));
    EMIT(c, f, Air_Move, air_tmp(q), air_tmp(p));
    EMIT0(c, f, Air_Jump);
    set_succs(c, f, j, NULL);
    EMIT(c, j, Air_Add64, air_tmp(x), air_tmp(p));
    EMIT(c, j, Air_Add64, air_tmp(y), air_tmp(p));
    EMIT(c, j, Air_Move, air_tmp(p), air_tmp(R(B3X_rax)));
    EMIT(c, j, Air_Ret64, air_tmp(R(B3X_rax)));
    return c;
}

/* Values live across calls: they must land in callee-saved registers or be spilled. */
static AirCode *build_calls(B3Arena *arena, uint64_t seed) {
    (void)seed;
    AirCode *c = new_code(arena);
    AirBlock *b = air_block_new(c);
    AirTmp x = air_tmp_new(c, AirGP), y = air_tmp_new(c, AirGP), v[8], f = air_tmp_new(c, AirFP);
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(x));
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rsi)), air_tmp(y));
    EMIT(c, b, Air_MoveDouble, air_tmp(X(0)), air_tmp(f));
    for (int i = 0; i < 8; i++) {
        v[i] = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_Move, air_tmp(x), air_tmp(v[i]));
        EMIT(c, b, Air_Add64, air_imm(i + 1), air_tmp(v[i]));
    }
    for (int k = 0; k < 3; k++) {
        const AirTmp regs[2] = {R(B3X_rdi), R(B3X_rsi)};
        EMIT(c, b, Air_Move, air_tmp(v[k]), air_tmp(R(B3X_rdi)));
        EMIT(c, b, Air_Move, air_tmp(y), air_tmp(R(B3X_rsi)));
        emit_call(c, b, regs, 2, false);
        AirTmp r = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_Move, air_tmp(R(B3X_rax)), air_tmp(r));
        EMIT(c, b, Air_Add64, air_tmp(r), air_tmp(y));
    }
    AirTmp g = air_tmp_new(c, AirGP);
    EMIT(c, b, Air_MoveDoubleTo64, air_tmp(f), air_tmp(g));
    EMIT(c, b, Air_Add64, air_tmp(g), air_tmp(y));
    for (int i = 0; i < 8; i++)
        EMIT(c, b, Air_Xor64, air_tmp(v[i]), air_tmp(y));
    EMIT(c, b, Air_Move, air_tmp(y), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Ret64, air_tmp(R(B3X_rax)));
    return c;
}

/* 20 FP and 20 GP values live at once. */
static AirCode *build_mixed(B3Arena *arena, uint64_t seed) {
    (void)seed;
    AirCode *c = new_code(arena);
    AirBlock *b = air_block_new(c);
    AirTmp x = air_tmp_new(c, AirGP), d = air_tmp_new(c, AirFP), g[20], f[20];
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(x));
    EMIT(c, b, Air_MoveDouble, air_tmp(X(0)), air_tmp(d));
    for (int i = 0; i < 20; i++) {
        g[i] = air_tmp_new(c, AirGP);
        f[i] = air_tmp_new(c, AirFP);
        EMIT(c, b, Air_Move, air_imm(i * 17 + 3), air_tmp(g[i]));
        EMIT(c, b, Air_Add64, air_tmp(x), air_tmp(g[i]));
        EMIT(c, b, Air_ConvertInt64ToDouble, air_tmp(g[i]), air_tmp(f[i]));
        EMIT(c, b, Air_MulDouble, air_tmp(d), air_tmp(f[i]));
    }
    AirTmp s = air_tmp_new(c, AirFP), t = air_tmp_new(c, AirGP);
    EMIT(c, b, Air_MoveDouble, air_tmp(d), air_tmp(s));
    EMIT(c, b, Air_Move, air_imm(0), air_tmp(t));
    for (int i = 0; i < 20; i++) {
        EMIT(c, b, Air_AddDouble, air_tmp(f[i]), air_tmp(s));
        EMIT(c, b, Air_MulDouble, air_tmp(d), air_tmp(s));
        EMIT(c, b, Air_Xor64, air_tmp(g[i]), air_tmp(t));
        EMIT(c, b, Air_Mul64, air_imm(7), air_tmp(t), air_tmp(t));
    }
    AirTmp u = air_tmp_new(c, AirFP);
    EMIT(c, b, Air_Move64ToDouble, air_tmp(t), air_tmp(u));
    EMIT(c, b, Air_AddDouble, air_tmp(u), air_tmp(s));
    EMIT(c, b, Air_MoveDouble, air_tmp(s), air_tmp(X(0)));
    EMIT(c, b, Air_RetDouble, air_tmp(X(0)));
    return c;
}

/* A terminal (BranchAdd64) defines a value under high pressure, so its spill
 * store must go on the outgoing edges. */
static AirCode *build_terminal_def(B3Arena *arena, uint64_t seed) {
    (void)seed;
    AirCode *c = new_code(arena);
    AirBlock *e = air_block_new(c), *ovf = air_block_new(c), *ok = air_block_new(c), *j = air_block_new(c);
    AirTmp x = air_tmp_new(c, AirGP), v[30], a = air_tmp_new(c, AirGP);
    EMIT(c, e, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(x));
    for (int i = 0; i < 30; i++) {
        v[i] = air_tmp_new(c, AirGP);
        EMIT(c, e, Air_Move, air_imm(i * 3 + 1), air_tmp(v[i]));
        EMIT(c, e, Air_Mul64, air_tmp(x), air_tmp(v[i]));
    }
    EMIT(c, e, Air_Move, air_tmp(R(B3X_rsi)), air_tmp(a));
    EMIT(c, e, Air_BranchAdd64, air_rescond(AirCond_Overflow), air_tmp(x), air_tmp(a));
    set_succs(c, e, ovf, ok);
    EMIT(c, ovf, Air_Xor64, air_imm(0x55), air_tmp(a));
    EMIT0(c, ovf, Air_Jump);
    set_succs(c, ovf, j, NULL);
    EMIT0(c, ok, Air_Jump);
    set_succs(c, ok, j, NULL);
    for (int i = 0; i < 30; i++) {
        EMIT(c, j, Air_Mul64, air_imm(3), air_tmp(a), air_tmp(a));
        EMIT(c, j, Air_Add64, air_tmp(v[i]), air_tmp(a));
    }
    EMIT(c, j, Air_Move, air_tmp(a), air_tmp(R(B3X_rax)));
    EMIT(c, j, Air_Ret64, air_tmp(R(B3X_rax)));
    return c;
}

/* ---- random programs ---- */

typedef struct {
    AirCode *c;
    AirBlock *cur;
    Rng r;
    AirTmp gp[1024], fp[1024];
    uint32_t ngp, nfp;
    uint32_t max_live;
    AirStackSlot *slot;
    bool calls;
} Gen;

static AirTmp pick_gp(Gen *g) { return g->gp[rng_below(&g->r, g->ngp)]; }
static AirTmp pick_fp(Gen *g) { return g->fp[rng_below(&g->r, g->nfp)]; }

static void add_gp(Gen *g, AirTmp t) {
    if (g->ngp < g->max_live)
        g->gp[g->ngp++] = t;
    else
        g->gp[1 + rng_below(&g->r, g->ngp - 1)] = t; /* gp[0] is the buffer base */
}

static void add_fp(Gen *g, AirTmp t) {
    if (g->nfp < g->max_live)
        g->fp[g->nfp++] = t;
    else
        g->fp[rng_below(&g->r, g->nfp)] = t;
}

/* One random computation; returns its (GP) result tmp without adding it to the pool. */
static AirTmp gen_op(Gen *g) {
    AirCode *c = g->c;
    AirBlock *b = g->cur;
    AirTmp a = pick_gp(g), bb = pick_gp(g), t = air_tmp_new(c, AirGP);
    switch (rng_below(&g->r, g->calls ? 15 : 13)) {
    case 0:
        EMIT(c, b, Air_Add64, air_tmp(a), air_tmp(bb), air_tmp(t));
        break;
    case 1:
        EMIT(c, b, Air_Move, air_tmp(a), air_tmp(t));
        EMIT(c, b, Air_Mul64, air_tmp(bb), air_tmp(t));
        break;
    case 2:
        EMIT(c, b, Air_Move32, air_tmp(a), air_tmp(t));
        EMIT(c, b, Air_Add32, air_tmp(bb), air_tmp(t));
        break;
    case 3: /* shift by %rcx */
        EMIT(c, b, Air_Move, air_tmp(bb), air_tmp(R(B3X_rcx)));
        EMIT(c, b, Air_Move, air_tmp(a), air_tmp(t));
        EMIT(c, b, Air_Lshift64, air_tmp(R(B3X_rcx)), air_tmp(t));
        break;
    case 4: { /* division through rax/rdx */
        AirTmp d = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_Move, air_tmp(bb), air_tmp(d));
        EMIT(c, b, Air_And64, air_imm(255), air_tmp(d));
        EMIT(c, b, Air_Or64, air_imm(1), air_tmp(d));
        EMIT(c, b, Air_Move, air_tmp(a), air_tmp(R(B3X_rax)));
        EMIT(c, b, Air_X86ConvertToQuadWord64, air_tmp(R(B3X_rax)), air_tmp(R(B3X_rdx)));
        EMIT(c, b, Air_X86Div64, air_tmp(R(B3X_rax)), air_tmp(R(B3X_rdx)), air_tmp(d));
        EMIT(c, b, Air_Move, air_tmp(R(rng_below(&g->r, 2) ? B3X_rax : B3X_rdx)), air_tmp(t));
        break;
    }
    case 5: { /* memory round trip through the buffer (its base was saved in gp[0]) */
        int64_t off = 8 * (int64_t)rng_below(&g->r, 64);
        EMIT(c, b, Air_Move, air_tmp(a), air_addr(g->gp[0], off));
        EMIT(c, b, Air_Move, air_addr(g->gp[0], 8 * (int64_t)rng_below(&g->r, 64)), air_tmp(t));
        EMIT(c, b, Air_Xor64, air_tmp(bb), air_tmp(t));
        break;
    }
    case 6: { /* a B3-style stack slot */
        EMIT(c, b, Air_Move, air_tmp(a), air_stack(g->slot, 8));
        EMIT(c, b, Air_Move, air_tmp(bb), air_tmp(t));
        EMIT(c, b, Air_Add64, air_stack(g->slot, 8), air_tmp(t));
        break;
    }
    case 7: { /* FP work */
        AirTmp f = air_tmp_new(c, AirFP), h = pick_fp(g);
        EMIT(c, b, Air_ConvertInt64ToDouble, air_tmp(a), air_tmp(f));
        EMIT(c, b, Air_AddDouble, air_tmp(h), air_tmp(f));
        add_fp(g, f);
        EMIT(c, b, Air_MoveDoubleTo64, air_tmp(h), air_tmp(t));
        EMIT(c, b, Air_Add64, air_tmp(bb), air_tmp(t));
        break;
    }
    case 8: { /* patchpoint with early def, late use, scratch and clobbers */
        AirTmp e = air_tmp_new(c, AirGP), s = air_tmp_new(c, AirGP);
        const AirArg args[] = {air_tmp(e), air_tmp(a), air_tmp(bb), air_tmp(t), air_tmp(s)};
        const uint8_t roles[] = {AirRole_EarlyDef, AirRole_Use, AirRole_LateUse, AirRole_Def,
                                 AirRole_Scratch};
        B3RegSet early = {{0, 0}}, late = {{0, 0}};
        b3_regset_add(&early, B3X_r10);
        b3_regset_add(&late, B3X_r11);
        emit_special(c, b, Air_Patchpoint, 5, args, roles, early, late);
        EMIT(c, b, Air_Add64, air_tmp(e), air_tmp(t));
        break;
    }
    case 9: { /* clz with a scratch */
        AirTmp s = air_tmp_new(c, AirGP), z = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_CountLeadingZeros64, air_tmp(a), air_tmp(z), air_tmp(s));
        EMIT(c, b, Air_Add64, air_tmp(z), air_tmp(bb), air_tmp(t));
        break;
    }
    case 10: /* a chain of copies to coalesce */
    {
        AirTmp m1 = air_tmp_new(c, AirGP), m2 = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_Move, air_tmp(a), air_tmp(m1));
        EMIT(c, b, Air_Move, air_tmp(m1), air_tmp(m2));
        EMIT(c, b, Air_Sub64, air_tmp(bb), air_tmp(m2));
        EMIT(c, b, Air_Move, air_tmp(m2), air_tmp(t));
        break;
    }
    case 11: /* address arithmetic */
        EMIT(c, b, Air_Lea64, air_index(a, bb, 4, 12), air_tmp(t));
        break;
    case 12: { /* truncation chains: each Move32 may go, but not both (t is read as 64 bits) */
        AirTmp m = air_tmp_new(c, AirGP);
        EMIT(c, b, Air_Move32, air_tmp(a), air_tmp(m));
        EMIT(c, b, Air_Move32, air_tmp(m), air_tmp(t));
        if (rng_below(&g->r, 2))
            EMIT(c, b, Air_Add64, air_tmp(m), air_tmp(bb), air_tmp(R(B3X_rax)));
        break;
    }
    default: { /* a call: arguments in rdi/rsi/xmm0, result in rax or xmm0 */
        bool fpres = rng_below(&g->r, 3) == 0;
        EMIT(c, b, Air_Move, air_tmp(a), air_tmp(R(B3X_rdi)));
        EMIT(c, b, Air_Move, air_tmp(bb), air_tmp(R(B3X_rsi)));
        EMIT(c, b, Air_MoveDouble, air_tmp(pick_fp(g)), air_tmp(X(0)));
        const AirTmp regs[3] = {R(B3X_rdi), R(B3X_rsi), X(0)};
        emit_call(c, b, regs, 3, fpres);
        if (fpres) {
            AirTmp f = air_tmp_new(c, AirFP);
            EMIT(c, b, Air_MoveDouble, air_tmp(X(0)), air_tmp(f));
            /* Keep doubles finite: mix the bits as an integer. */
            EMIT(c, b, Air_MoveDoubleTo64, air_tmp(f), air_tmp(t));
        } else {
            EMIT(c, b, Air_Move, air_tmp(R(B3X_rax)), air_tmp(t));
        }
        break;
    }
    }
    return t;
}

static void gen_straight(Gen *g, int n) {
    for (int i = 0; i < n; i++)
        add_gp(g, gen_op(g));
}

static void gen_region(Gen *g, int depth);

static void gen_diamond(Gen *g, int depth) {
    AirCode *c = g->c;
    AirBlock *t = air_block_new(c), *f = air_block_new(c), *j = air_block_new(c);
    AirTmp p = air_tmp_new(c, AirGP);
    EMIT(c, g->cur, Air_Branch64, air_relcond(AirCond_LessThan), air_tmp(pick_gp(g)), air_tmp(pick_gp(g)));
    set_succs(c, g->cur, t, f);
    Gen saved = *g;
    AirBlock *arms[2] = {t, f};
    for (int k = 0; k < 2; k++) {
        *g = saved;
        g->r.s += (uint64_t)k * 977;
        g->cur = arms[k];
        gen_region(g, depth + 1);
        AirTmp v = gen_op(g);
        EMIT(c, g->cur, Air_Move, air_tmp(v), air_tmp(p));
        EMIT0(c, g->cur, Air_Jump);
        set_succs(c, g->cur, j, NULL);
    }
    Rng r = g->r;
    *g = saved;
    g->r = r;
    g->cur = j;
    add_gp(g, p);
}

static void gen_loop(Gen *g, int depth) {
    AirCode *c = g->c;
    AirBlock *body = air_block_new(c), *exit = air_block_new(c);
    AirTmp cnt = air_tmp_new(c, AirGP), acc = air_tmp_new(c, AirGP);
    EMIT(c, g->cur, Air_Move, air_imm(1 + rng_below(&g->r, 4)), air_tmp(cnt));
    EMIT(c, g->cur, Air_Move, air_tmp(pick_gp(g)), air_tmp(acc));
    EMIT0(c, g->cur, Air_Jump);
    set_succs(c, g->cur, body, NULL);
    Gen saved = *g;
    g->cur = body;
    if (depth < 2 && rng_below(&g->r, 2))
        gen_diamond(g, depth + 1);
    AirTmp v = gen_op(g);
    EMIT(c, g->cur, Air_Mul64, air_imm(5), air_tmp(acc), air_tmp(acc));
    EMIT(c, g->cur, Air_Add64, air_tmp(v), air_tmp(acc));
    EMIT(c, g->cur, Air_Sub64, air_imm(1), air_tmp(cnt));
    EMIT(c, g->cur, Air_Branch64, air_relcond(AirCond_NotEqual), air_tmp(cnt), air_imm(0));
    set_succs(c, g->cur, body, exit);
    Rng r = g->r;
    *g = saved;
    g->r = r;
    g->cur = exit;
    add_gp(g, acc);
}

static void gen_region(Gen *g, int depth) {
    int parts = 1 + (int)rng_below(&g->r, 3);
    for (int i = 0; i < parts; i++) {
        gen_straight(g, 2 + (int)rng_below(&g->r, 6));
        uint32_t k = rng_below(&g->r, 4);
        if (depth < 3 && k == 0)
            gen_diamond(g, depth);
        else if (depth < 3 && k == 1)
            gen_loop(g, depth);
    }
}

static uint32_t gen_pressure;

static AirCode *build_random(B3Arena *arena, uint64_t seed) {
    AirCode *c = new_code(arena);
    Gen g;
    memset(&g, 0, sizeof g);
    g.c = c;
    g.r.s = seed;
    g.max_live = gen_pressure;
    g.calls = seed % 3 != 0;
    g.cur = air_block_new(c);
    g.slot = air_slot_new(c, 16, 16, false);
    AirTmp buf = air_tmp_new(c, AirGP), x = air_tmp_new(c, AirGP), y = air_tmp_new(c, AirGP);
    AirTmp f0 = air_tmp_new(c, AirFP), f1 = air_tmp_new(c, AirFP);
    EMIT(c, g.cur, Air_Move, air_tmp(R(B3X_rdx)), air_tmp(buf));
    EMIT(c, g.cur, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(x));
    EMIT(c, g.cur, Air_Move, air_tmp(R(B3X_rsi)), air_tmp(y));
    EMIT(c, g.cur, Air_MoveDouble, air_tmp(X(0)), air_tmp(f0));
    EMIT(c, g.cur, Air_MoveDouble, air_tmp(X(1)), air_tmp(f1));
    EMIT(c, g.cur, Air_Move, air_imm(0), air_stack(g.slot, 8));
    g.gp[g.ngp++] = buf; /* gp[0] stays the buffer base (add_gp may replace others) */
    g.gp[g.ngp++] = x;
    g.gp[g.ngp++] = y;
    g.fp[g.nfp++] = f0;
    g.fp[g.nfp++] = f1;
    /* Spread many values before any control flow, so high pressure spans the CFG. */
    gen_straight(&g, (int)g.max_live);
    gen_region(&g, 0);
    AirTmp s = air_tmp_new(c, AirGP);
    EMIT(c, g.cur, Air_Move, air_imm(0), air_tmp(s));
    for (uint32_t i = 1; i < g.ngp; i++) {
        EMIT(c, g.cur, Air_Mul64, air_imm(31), air_tmp(s), air_tmp(s));
        EMIT(c, g.cur, Air_Xor64, air_tmp(g.gp[i]), air_tmp(s));
    }
    for (uint32_t i = 0; i < g.nfp; i++) {
        AirTmp t = air_tmp_new(c, AirGP);
        EMIT(c, g.cur, Air_MoveDoubleTo64, air_tmp(g.fp[i]), air_tmp(t));
        EMIT(c, g.cur, Air_Mul64, air_imm(17), air_tmp(s), air_tmp(s));
        EMIT(c, g.cur, Air_Add64, air_tmp(t), air_tmp(s));
    }
    EMIT(c, g.cur, Air_Move, air_tmp(s), air_tmp(R(B3X_rax)));
    EMIT(c, g.cur, Air_Ret64, air_tmp(R(B3X_rax)));
    return c;
}

/* ---- liveness unit checks ---- */

static void test_liveness_timing(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = new_code(&arena);
    AirBlock *b = air_block_new(c);
    AirTmp a = air_tmp_new(c, AirGP), e = air_tmp_new(c, AirGP), l = air_tmp_new(c, AirGP),
           d = air_tmp_new(c, AirGP);
    EMIT(c, b, Air_Move, air_imm(1), air_tmp(a));
    EMIT(c, b, Air_Move, air_imm(2), air_tmp(l));
    const AirArg args[] = {air_tmp(e), air_tmp(a), air_tmp(l), air_tmp(d)};
    const uint8_t roles[] = {AirRole_EarlyDef, AirRole_Use, AirRole_LateUse, AirRole_Def};
    B3RegSet none = {{0, 0}};
    emit_special(c, b, Air_Patchpoint, 4, args, roles, none, none);
    EMIT(c, b, Air_Add64, air_tmp(e), air_tmp(d));
    EMIT(c, b, Air_Move, air_tmp(d), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Ret64, air_tmp(R(B3X_rax)));
    AirLiveness lv;
    air_liveness_compute(&lv, c, AirGP);
    CHECK(lv.nlive_in[0] == 0, "nothing is live into a block that defines everything (got %u)",
          lv.nlive_in[0]);
    AirTmpSet live;
    air_tmpset_init(&live, lv.universe);
    AirLocalLiveness lc;
    air_local_init(&lc, &lv, b, &live);
    /* Boundary 3: L is the patchpoint's late moment, E the Add64's early one. */
    while (lc.boundary > 3)
        air_local_step(&lc);
    CHECK(live.size == 0, "nothing flows past the Add64's early moment but its own def");
    bool late_use_l = false, late_def_d = false, early_use_e = false;
    for (uint32_t i = 0; i < lc.late.n; i++) {
        late_use_l |= lc.late.v[i].tmp == l && !lc.late.v[i].def && lc.late.v[i].late;
        late_def_d |= lc.late.v[i].tmp == d && lc.late.v[i].def && lc.late.v[i].late;
    }
    for (uint32_t i = 0; i < lc.early.n; i++)
        early_use_e |= lc.early.v[i].tmp == e && !lc.early.v[i].def && !lc.early.v[i].late;
    CHECK(late_use_l && late_def_d && early_use_e, "boundary 3 moments");
    air_apply_actions(&lc.early, &live);
    CHECK(live.size == 2 && air_tmpset_has(&live, e) && air_tmpset_has(&live, d),
          "between L and E of boundary 3");
    air_apply_actions(&lc.late, &live);
    CHECK(live.size == 2 && air_tmpset_has(&live, e) && air_tmpset_has(&live, l),
          "inside the patchpoint: e (early def) and l (late use) are live");
    air_local_advance(&lc);
    bool early_def_e = false, early_use_a = false;
    for (uint32_t i = 0; i < lc.early.n; i++) {
        early_def_e |= lc.early.v[i].tmp == e && lc.early.v[i].def && !lc.early.v[i].late;
        early_use_a |= lc.early.v[i].tmp == a && !lc.early.v[i].def && !lc.early.v[i].late;
    }
    CHECK(early_def_e && early_use_a, "boundary 2 holds the early def and the early use");
    air_apply_actions(&lc.early, &live);
    CHECK(live.size == 2 && air_tmpset_has(&live, a) && air_tmpset_has(&live, l),
          "before the patchpoint: a and l live, e not yet");
    air_local_free(&lc);
    air_tmpset_free(&live);
    air_liveness_free(&lv);

    /* Allocation: e must not share with a (both at the early moment) nor with l (l is read late). */
    air_compute_preds(c);
    air_allocate_registers(c);
    const AirInst *pp = &b->insts[2];
    CHECK(pp->args[0].base != pp->args[1].base && pp->args[0].base != pp->args[2].base,
          "early def shares a register with an input");
    b3_arena_free(&arena);
}

/* Loop liveness: a value defined before a loop and used after it is live around the back edge. */
static void test_liveness_loop(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = new_code(&arena);
    AirBlock *e = air_block_new(c), *l = air_block_new(c), *x = air_block_new(c);
    AirTmp v = air_tmp_new(c, AirGP), i = air_tmp_new(c, AirGP);
    EMIT(c, e, Air_Move, air_imm(5), air_tmp(v));
    EMIT(c, e, Air_Move, air_imm(3), air_tmp(i));
    EMIT0(c, e, Air_Jump);
    set_succs(c, e, l, NULL);
    EMIT(c, l, Air_Sub64, air_imm(1), air_tmp(i));
    EMIT(c, l, Air_Branch64, air_relcond(AirCond_NotEqual), air_tmp(i), air_imm(0));
    set_succs(c, l, l, x);
    EMIT(c, x, Air_Move, air_tmp(v), air_tmp(R(B3X_rax)));
    EMIT(c, x, Air_Ret64, air_tmp(R(B3X_rax)));
    AirLiveness lv;
    air_liveness_compute(&lv, c, AirGP);
    bool v_in = false, i_in = false, v_out = false;
    for (uint32_t k = 0; k < lv.nlive_in[1]; k++) {
        v_in |= lv.live_in[1][k] == v;
        i_in |= lv.live_in[1][k] == i;
    }
    for (uint32_t k = 0; k < lv.nlive_out[1]; k++)
        v_out |= lv.live_out[1][k] == v;
    CHECK(v_in && i_in && v_out && lv.nlive_in[1] == 2, "loop live-in/out");
    air_liveness_free(&lv);
    b3_arena_free(&arena);
}

/* Pinned registers and the frame registers are never handed out. */
static void test_pinned(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = build_sum40(&arena, 0);
    b3_regset_add(&c->pinned, B3X_r12);
    b3_regset_add(&c->pinned, B3X_rbx);
    air_compute_preds(c);
    air_allocate_registers(c);
    bool bad = false;
    for (uint32_t bi = 0; bi < c->nblocks; bi++)
        for (uint32_t ii = 0; ii < c->blocks[bi]->ninsts; ii++) {
            const AirInst *in = &c->blocks[bi]->insts[ii];
            for (uint32_t k = 0; k < in->nargs; k++)
                if (in->args[k].kind == AirArg_Tmp || in->args[k].kind == AirArg_Addr) {
                    AirTmp t = in->args[k].base;
                    bad |= t == B3X_r12 || t == B3X_rbx || t == B3X_rsp ||
                           (t == B3X_rbp && in->args[k].kind == AirArg_Tmp);
                }
        }
    CHECK(!bad, "a pinned or frame register was allocated");
    CHECK(!b3_regset_has(&c->used_callee_saves, B3X_r12) && !b3_regset_has(&c->used_callee_saves, B3X_rbx),
          "pinned registers are not callee saves");
    air_allocate_stack(c);
    air_validate(c, "pinned");
    b3_arena_free(&arena);
}

/* Moves between tmps coalesce away; low pressure spills nothing and needs no callee saves. */
static void test_coalescing(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = new_code(&arena);
    AirBlock *b = air_block_new(c);
    AirTmp a = air_tmp_new(c, AirGP), t1 = air_tmp_new(c, AirGP), t2 = air_tmp_new(c, AirGP);
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(a));
    EMIT(c, b, Air_Move, air_tmp(a), air_tmp(t1));
    EMIT(c, b, Air_Add64, air_imm(1), air_tmp(t1));
    EMIT(c, b, Air_Move, air_tmp(t1), air_tmp(t2));
    EMIT(c, b, Air_Move, air_tmp(t2), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Ret64, air_tmp(R(B3X_rax)));
    air_compute_preds(c);
    air_allocate_registers(c);
    air_fix_obvious_spills_phase(c);
    air_handle_callee_saves(c);
    air_allocate_stack(c);
    air_remove_self_moves(c);
    air_simplify_cfg(c);
    uint32_t moves = 0;
    for (uint32_t ii = 0; ii < b->ninsts; ii++)
        moves += b->insts[ii].opcode == Air_Move;
    CHECK(moves <= 1, "copies left after coalescing: %u", moves);
    CHECK(c->nslots == 0 && c->frame_size == 0, "no spills, no frame");
    CHECK(!c->used_callee_saves.bits[0] && !c->used_callee_saves.bits[1], "no callee saves at low pressure");
    b3_arena_free(&arena);
}

/* Spill slots with disjoint lives share a location. */
static void test_stack_sharing(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = new_code(&arena);
    AirBlock *b = air_block_new(c);
    AirStackSlot *s0 = air_slot_new(c, 8, 8, true), *s1 = air_slot_new(c, 8, 8, true);
    AirStackSlot *s2 = air_slot_new(c, 8, 8, true), *big = air_slot_new(c, 24, 16, false);
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rdi)), air_stack(s0, 0));
    EMIT(c, b, Air_Move, air_stack(s0, 0), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rax)), air_stack(s1, 0));
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rsi)), air_stack(s2, 0));
    EMIT(c, b, Air_Add64, air_stack(s1, 0), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Add64, air_stack(s2, 0), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rax)), air_stack(big, 16));
    EMIT(c, b, Air_Ret64, air_tmp(R(B3X_rax)));
    c->call_arg_area = 16;
    b3_regset_add(&c->used_callee_saves, B3X_rbx);
    b3_regset_add(&c->used_callee_saves, B3X_r14);
    air_compute_preds(c);
    air_allocate_stack(c);
    air_validate(c, "stack sharing");
    CHECK(s0->offset == s1->offset || s0->offset == s2->offset, "s0 dies before s1/s2 are born: shares");
    CHECK(s1->offset != s2->offset, "s1 and s2 overlap: separate");
    CHECK(big->offset % 16 == 0, "alignment of the B3 slot");
    for (uint32_t i = 0; i < c->nslots; i++)
        CHECK(c->slots[i]->offset + (int64_t)c->slots[i]->size <= -16,
              "slot %u overlaps the callee-save area", i);
    CHECK(c->frame_size % 16 == 0 && c->frame_size >= 16 + 8 + 8 + 24 + 16, "frame size %llu",
          (unsigned long long)c->frame_size);
    CHECK(b->insts[6].args[1].kind == AirArg_Addr && b->insts[6].args[1].base == B3X_rbp &&
              b->insts[6].args[1].value == big->offset + 16,
          "Stack rewritten to Addr(rbp)");
    b3_arena_free(&arena);
}

/* Printing, on a small hand-made function. */
static void test_print(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = new_code(&arena);
    AirBlock *b = air_block_new(c), *r = air_block_new(c), *j = air_block_new(c);
    AirTmp t = air_tmp_new(c, AirGP), f = air_tmp_new(c, AirFP);
    AirStackSlot *s = air_slot_new(c, 8, 8, false);
    EMIT(c, b, Air_Move, air_imm(42), air_tmp(t));
    EMIT(c, b, Air_Move, air_bigimm(0x123456789abcll), air_tmp(t));
    EMIT(c, b, Air_Add32, air_tmp(R(B3X_rax)), air_tmp(R(B3X_rcx)));
    EMIT(c, b, Air_Move, air_addr(R(B3X_rbp), 8), air_tmp(R(B3X_rdx)));
    EMIT(c, b, Air_Move, air_index(R(B3X_rax), R(B3X_rcx), 4, 0), air_tmp(t));
    EMIT(c, b, Air_Move, air_tmp(t), air_stack(s, 8));
    EMIT(c, b, Air_Move, air_tmp(t), air_callarg(8));
    EMIT(c, b, Air_Lea64, air_sym(&callee_sym, 8, false), air_tmp(t));
    EMIT(c, b, Air_Move, air_sym(&callee_sym, 0, true), air_tmp(t));
    EMIT(c, b, Air_MoveDouble, air_tmp(X(3)), air_tmp(f));
    EMIT(c, b, Air_Branch32, air_relcond(AirCond_LessThan), air_tmp(R(B3X_rdi)), air_imm(10));
    set_succs(c, b, r, j);
    EMIT0(c, r, Air_Jump);
    set_succs(c, r, j, NULL);
    EMIT(c, j, Air_Ret64, air_tmp(R(B3X_rax)));
    c->call_arg_area = 16;
    air_compute_preds(c);
    air_validate(c, "print");
    air_print_code(c, stdout);
    air_remove_self_moves(c);
    air_simplify_cfg(c); /* threads the jump through BB#1 and drops it */
    air_print_code(c, stdout);
    b3_arena_free(&arena);
}

/* The three block-level liveness solvers agree: the ordered one (in full, or
 * given a budget it stays within), and the unordered one's live-out as sets;
 * a budget too small gives up. */
static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool same_set(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
    if (na != nb)
        return false;
    uint32_t *x = malloc((na + 1) * sizeof(uint32_t)), *y = malloc((nb + 1) * sizeof(uint32_t));
    memcpy(x, a, na * sizeof(uint32_t));
    memcpy(y, b, nb * sizeof(uint32_t));
    qsort(x, na, sizeof(uint32_t), cmp_u32);
    qsort(y, nb, sizeof(uint32_t), cmp_u32);
    bool same = !memcmp(x, y, na * sizeof(uint32_t));
    free(x);
    free(y);
    return same;
}

static void test_liveness_solvers(void) {
    const uint32_t pressures[] = {6, 20, 80, 300};
    for (int i = 0; i < 40; i++) {
        B3Arena arena;
        b3_arena_init(&arena);
        gen_pressure = pressures[i % 4];
        AirCode *c = build_random(&arena, 5000 + (uint64_t)i);
        air_compute_preds(c);
        for (int bank = AirGP; bank <= AirFP; bank++) {
            AirActs acts;
            air_acts_gather(&acts, c, (AirBank)bank);
            AirLiveness full, bounded, un, tiny;
            air_liveness_compute_acts(&full, c, &acts);
            CHECK(air_liveness_compute_acts_bounded(&bounded, c, &acts, UINT64_MAX / 2),
                  "solvers #%d: a huge budget ran out", i);
            air_liveness_compute_acts_unordered(&un, c, &acts);
            bool gave_up = !air_liveness_compute_acts_bounded(&tiny, c, &acts, 1);
            CHECK(gave_up || c->nblocks <= 1, "solvers #%d: a budget of 1 sufficed for %u blocks", i,
                  c->nblocks);
            if (!gave_up)
                air_liveness_free(&tiny);
            for (uint32_t bi = 0; bi < c->nblocks; bi++) {
                CHECK(full.nlive_in[bi] == bounded.nlive_in[bi] &&
                          full.nlive_out[bi] == bounded.nlive_out[bi] &&
                          !memcmp(full.live_in[bi], bounded.live_in[bi],
                                  full.nlive_in[bi] * sizeof(uint32_t)) &&
                          !memcmp(full.live_out[bi], bounded.live_out[bi],
                                  full.nlive_out[bi] * sizeof(uint32_t)),
                      "solvers #%d: BB#%u: bounded sets differ from the full ones", i, bi);
                CHECK(same_set(full.live_out[bi], full.nlive_out[bi], un.live_out[bi], un.nlive_out[bi]),
                      "solvers #%d: BB#%u: unordered live-out differs", i, bi);
            }
            air_liveness_free(&full);
            air_liveness_free(&bounded);
            air_liveness_free(&un);
            air_acts_free(&acts);
        }
        b3_arena_free(&arena);
    }
}

/* A big straight-line function: allocation must stay near-linear. */
static AirCode *build_huge(B3Arena *arena, uint64_t seed) {
    AirCode *c = new_code(arena);
    AirBlock *b = air_block_new(c);
    Rng r = {seed};
    enum { N = 200000, WINDOW = 24 };
    static AirTmp v[N];
    v[0] = air_tmp_new(c, AirGP);
    EMIT(c, b, Air_Move, air_tmp(R(B3X_rdi)), air_tmp(v[0]));
    for (int i = 1; i < N; i++) {
        v[i] = air_tmp_new(c, AirGP);
        AirTmp a = v[i - 1 - (int)rng_below(&r, i < WINDOW ? (uint32_t)i : WINDOW)];
        AirTmp bb = v[i - 1 - (int)rng_below(&r, i < WINDOW ? (uint32_t)i : WINDOW)];
        EMIT(c, b, Air_Add64, air_tmp(a), air_tmp(bb), air_tmp(v[i]));
    }
    EMIT(c, b, Air_Move, air_tmp(v[N - 1]), air_tmp(R(B3X_rax)));
    EMIT(c, b, Air_Ret64, air_tmp(R(B3X_rax)));
    return c;
}

static void test_huge(void) {
    B3Arena arena;
    b3_arena_init(&arena);
    AirCode *c = build_huge(&arena, 7);
    air_compute_preds(c);
    c->opt_level = opt_level;
    clock_t t0 = clock();
    if (fast) {
        air_allocate_registers_fast(c);
    } else if (linear_scan) {
        air_allocate_registers_and_stack_by_linear_scan(c);
    } else {
        air_allocate_registers(c);
        air_fix_obvious_spills_phase(c);
        air_handle_callee_saves(c);
        air_allocate_stack(c);
    }
    air_remove_self_moves(c);
    air_simplify_cfg(c);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    air_validate(c, "huge");
    fprintf(stderr, "huge (%s): 200000 values allocated in %.2fs, %u spill slots\n",
            fast          ? "fast"
            : linear_scan ? "linear scan"
                          : "coloring",
            secs, c->nslots);
    CHECK(secs < 10.0, "allocation of 200000 values took %.2fs", secs);
    b3_arena_free(&arena);
}

int main(int argc, char **argv) {
    int nrandom = argc > 1 ? atoi(argv[1]) : 300;
    test_liveness_timing();
    test_liveness_loop();
    test_coalescing();
    test_pinned();
    test_stack_sharing();
    test_liveness_solvers();

    for (int ls = 0; ls < 3; ls++) {
        linear_scan = ls == 1;
        fast = ls == 2;
        opt_level = (uint8_t)(2 - ls);
        const char *who = fast ? "fast" : linear_scan ? "linear scan" : "coloring";
        Stats s = run_case("sum40", build_sum40, 1, 5);
        CHECK(s.spill_slots > 0, "40 live values need spills");
        run_case("diamond", build_diamond, 2, 10);
        s = run_case("calls", build_calls, 3, 5);
        CHECK(s.callee_saves > 0 || s.spill_slots > 0,
              "values live across calls need callee saves or spills");
        run_case("mixed", build_mixed, 4, 5);
        run_case("terminal-def", build_terminal_def, 5, 10);

        const uint32_t pressures[] = {6, 12, 20, 40, 80};
        for (int i = 0; i < nrandom && failures == 0; i++) {
            gen_pressure = pressures[i % 5];
            char name[64];
            snprintf(name, sizeof name, "random#%d(pressure %u)", i, gen_pressure);
            run_case(name, build_random, 1000 + (uint64_t)i, 3);
        }
        /* Beyond the allocator's pressure trigger (512 live tmps): spills chosen
         * before coloring, then coloring as usual. */
        for (int i = 0; i < 4 && failures == 0; i++) {
            gen_pressure = 700;
            char name[64];
            snprintf(name, sizeof name, "random#%d(pressure %u)", i, gen_pressure);
            s = run_case(name, build_random, 9000 + (uint64_t)i, 2);
            CHECK(s.spill_slots > 0, "%s: no spills", name);
        }
        test_huge();
        fprintf(stderr, "%s: all cases run\n", who);
    }
    linear_scan = fast = false;
    opt_level = 2;
    test_print();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("air regalloc tests: all passed\n");
    return 0;
}
