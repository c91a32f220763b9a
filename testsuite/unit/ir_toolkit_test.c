/* Unit tests for the IR toolkit the B3 phases share: effects, insertion
 * sets, in-place replacement and Identity removal, use counts, block orders,
 * natural loops and preheaders.
 *
 * Procedures come from B3 text (the real front end) or are built with the
 * construction API (large and random CFGs).  Natural loops are checked on
 * thousands of random CFGs, irreducible ones included, against a brute-force
 * reading of the definition.  A few results are printed for FileCheck
 * (ir-toolkit.test); everything else is checked here and counted.
 *
 * Built directly from the sources (see ir-toolkit.test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ir/cfg_order.h"
#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/insertion_set.h"
#include "ir/ir.h"
#include "ir/loops.h"
#include "ir/use_counts.h"
#include "parser/parser.h"

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

/* ---- building procedures ---- */

typedef struct {
    B3Module m;
    B3Diag d;
    B3Proc *p;
} Ctx;

/* Parses src (one procedure) and validates it; exits on a parse error, which
 * is a bug in the test. */
static B3Proc *parse(Ctx *c, const char *src) {
    b3_module_init(&c->m, x86);
    b3_diag_init(&c->d, "test.b3", src, strlen(src));
    B3ParseOptions opt = {.bare_name = "test"};
    if (!b3_parse(&c->m, &c->d, src, strlen(src), &opt) || !b3_validate(&c->m, &c->d)) {
        fprintf(stderr, "test procedure does not parse:\n%s\n", src);
        exit(2);
    }
    c->p = NULL;
    for (uint32_t i = 0; i < c->m.nitems && !c->p; i++)
        if (c->m.items[i].kind == B3Item_Proc)
            c->p = c->m.items[i].sym->def.proc;
    return c->p;
}

static void ctx_free(Ctx *c) {
    b3_diag_free(&c->d);
    b3_module_free(&c->m);
}

static bool valid(Ctx *c) { return b3_validate(&c->m, &c->d); }

static B3Value *val(Ctx *c, uint32_t n) {
    B3Value *v = b3_value_find(c->p, n);
    if (!v) {
        fprintf(stderr, "no @%u\n", n);
        exit(2);
    }
    return v;
}

static B3Block *blk(Ctx *c, uint32_t n) { return b3_block_find(c->p, n); }

/* An empty procedure to build with the construction API. */
static B3Proc *new_proc(Ctx *c) {
    b3_module_init(&c->m, x86);
    b3_diag_init(&c->d, "api", "", 0);
    B3Symbol *s = b3_symbol_get(&c->m, "f", 1, NULL);
    s->kind = B3Sym_Proc;
    s->defined = s->declared = true;
    c->p = b3_proc_new(&c->m, s);
    s->def.proc = c->p;
    b3_module_add_item(&c->m, B3Item_Proc, s);
    return c->p;
}

static B3Value *add_value(Ctx *c, B3Block *b, B3Opcode op, B3Type type, uint32_t nkids, B3Value *k0,
                          B3Value *k1) {
    B3Value *v = b3_value_new(&c->m, c->p, op, type, nkids, UINT32_MAX);
    if (nkids > 0)
        v->kids[0] = k0;
    if (nkids > 1)
        v->kids[1] = k1;
    if (b)
        b3_block_append(&c->m, b, v);
    return v;
}

static B3Value *const32(Ctx *c, B3Block *b, int32_t x) {
    B3Value *v = add_value(c, b, B3_Const32, B3_Int32, 0, NULL, NULL);
    v->m.c.i = x;
    return v;
}

/* Ends b with a terminal for succs: Return, Jump, Branch or Switch. */
static void set_succs(Ctx *c, B3Block *b, B3Block **succs, uint32_t n) {
    b->succs = n ? b3_arena_alloc(&c->m.arena, n * sizeof(B3Succ)) : NULL;
    b->nsuccs = n;
    for (uint32_t i = 0; i < n; i++)
        b->succs[i] = (B3Succ){succs[i], B3Freq_Normal};
    if (n == 0) {
        add_value(c, b, B3_Return, B3_Void, 0, NULL, NULL);
    } else if (n == 1) {
        add_value(c, b, B3_Jump, B3_Void, 0, NULL, NULL);
    } else if (n == 2) {
        add_value(c, b, B3_Branch, B3_Void, 1, const32(c, b, 1), NULL);
    } else {
        B3Value *sw = add_value(c, b, B3_Switch, B3_Void, 1, const32(c, b, 1), NULL);
        sw->m.sw.ncases = n - 1;
        sw->m.sw.cases = b3_arena_alloc(&c->m.arena, (n - 1) * sizeof(int64_t));
        for (uint32_t i = 0; i + 1 < n; i++)
            sw->m.sw.cases[i] = i;
    }
}

/* A procedure whose block i has successors edges[i][0..] (ending in -1). */
static B3Proc *cfg_proc(Ctx *c, uint32_t n, const int (*edges)[4]) {
    new_proc(c);
    for (uint32_t i = 0; i < n; i++)
        b3_block_new(&c->m, c->p, i);
    for (uint32_t i = 0; i < n; i++) {
        B3Block *s[4];
        uint32_t k = 0;
        while (k < 4 && edges[i][k] >= 0) {
            s[k] = c->p->blocks[edges[i][k]];
            k++;
        }
        set_succs(c, c->p->blocks[i], s, k);
    }
    b3_proc_compute_preds(&c->m, c->p);
    return c->p;
}

/* ---- random numbers ---- */

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint32_t rnd(uint32_t n) {
    rng_state += 0x9E3779B97F4A7C15ull;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

/* ---- effects ---- */

static const char *effects_string(B3Effects e) {
    static char buf[256];
    buf[0] = '\0'; /* fmemopen leaves the buffer alone when nothing is written */
    FILE *f = fmemopen(buf, sizeof buf, "w");
    b3_effects_print(e, f);
    fclose(f);
    return buf;
}

static const char *const effects_src =
    "proc @fx pinned(%r15) {\n"
    "BB#0:\n"
    "    Int64 @0 = ArgumentReg(%argumentGPR0)\n"
    "    Int32 @1 = Trunc(@0)\n"
    "    Double @2 = IToD(@0)\n"
    "    Int32 @3 = Add(@1, @1)\n"
    "    Int32 @4 = Div(@1, @1)\n"
    "    Int32 @5 = Div<Chill>(@1, @1)\n"
    "    Double @6 = Div(@2, @2)\n"
    "    Int32 @7 = UDiv(@1, @1)\n"
    "    Int64 @8 = UMod(@0, @0)\n"
    "    Int32 @9 = Mod<Chill>(@1, @1)\n"
    "    Int32 @10 = Load(@0)\n"
    "    Int32 @11 = Load8Z(@0, range = 5...10)\n"
    "    Int32 @12 = Load(@0, range = 3, fenceRange = 7)\n"
    "    Int32 @13 = Load<Traps>(@0, range = 3)\n"
    "    Void @14 = Store(@1, @0, range = 4)\n"
    "    Void @15 = Store16(@1, @0, range = 4, fenceRange = 9)\n"
    "    Void @16 = Store<Traps>(@1, @0, range = 4)\n"
    "    Int32 @17 = AtomicXchgAdd(@1, @0, range = 1...4)\n"
    "    Int32 @18 = AtomicStrongCAS(@1, @1, @0, range = 1...4, fenceRange = 10...12)\n"
    "    Void @19 = Fence()\n"
    "    Void @20 = Fence(read = Top, write = Bottom)\n"
    "    Int64 @21 = WasmAddress(@0, %r15)\n"
    "    Void @22 = WasmBoundsCheck(@1, offset = 0, pinnedSize = %r15, exit = trap)\n"
    "    Void @23 = WasmBoundsCheck(@1, offset = 0, maximum = 100, exit = trap)\n"
    "    Int32 @24 = CCall(@0, @1)\n"
    "    Int64 @25 = Patchpoint(@0)\n"
    "    Int32 @26 = CheckAdd(@1, @1)\n"
    "    Void @27 = Check(@1)\n"
    "    Void @28 = Set(@1, v)\n"
    "    Int32 @29 = Get(v)\n"
    "    Int32 @30 = Depend(@1)\n"
    "    Int32 @31 = Opaque(@1)\n"
    "    Int32 @32 = Const32(1)\n"
    "    Int64 @33 = SymbolAddress(@fx)\n"
    "    Int64 @34 = FramePointer()\n"
    "    Void @35 = Upsilon(@1, ^@37)\n"
    "    Void @39 = Nop()\n"
    "    Void @36 = Jump(#1)\n"
    "BB#1:\n"
    "    Int32 @37 = Phi()\n"
    "    Void @38 = Return(@37)\n"
    "Variables:\n"
    "    Int32 v\n"
    "}\n";

static void test_effects_of_values(void) {
    static const struct {
        uint32_t v;
        const char *effects;
    } expect[] = {
        {0, ""},
        {1, ""},
        {3, ""},
        {4, "ControlDependent"},
        {5, ""},
        {6, ""},
        {7, "ControlDependent"},
        {8, "ControlDependent"},
        {9, ""},
        {10, "ControlDependent|Reads:Top"},
        {11, "ControlDependent|Reads:5...10"},
        {12, "ControlDependent|Fence|Writes:7|Reads:3"},
        {13, "ExitsSideways|ControlDependent|Reads:Top"},
        {14, "ControlDependent|Writes:4"},
        {15, "ControlDependent|Fence|Writes:4|Reads:9"},
        {16, "ExitsSideways|ControlDependent|Writes:4|Reads:Top"},
        {17, "ControlDependent|Writes:1...4|Reads:1...4"},
        {18, "ControlDependent|Fence|Writes:1...12|Reads:1...12"},
        {19, "Fence|Writes:Top|Reads:Top"},
        {20, "Fence|Reads:Top"},
        {21, "ReadsPinned"},
        {22, "ExitsSideways|ReadsPinned|Reads:Top"},
        {23, "ExitsSideways|Reads:Top"},
        {24, "ExitsSideways|ControlDependent|WritesPinned|ReadsPinned|Fence|Writes:Top|Reads:Top"},
        {25, "ExitsSideways|ControlDependent|WritesPinned|ReadsPinned|Fence|Writes:Top|Reads:Top"},
        {26, "ExitsSideways|Reads:Top"},
        {27, "ExitsSideways|Reads:Top"},
        {28, "WritesLocalState"},
        {29, "ReadsLocalState"},
        {30, ""},
        {31, ""},
        {32, ""},
        {33, ""},
        {34, ""},
        {35, "WritesLocalState"},
        {36, "Terminal"},
        {37, "ReadsLocalState"},
        {38, "Terminal"},
        {39, ""},
    };
    Ctx c;
    parse(&c, effects_src);
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        B3Value *v = val(&c, expect[i].v);
        B3Effects e = b3_effects(v);
        const char *got = effects_string(e);
        CHECK(!strcmp(got, expect[i].effects), "@%u (%s): effects %s, expected %s", v->index,
              b3_op((B3Opcode)v->opcode)->name, got, expect[i].effects);
        CHECK(b3_effects_none(e) == !*expect[i].effects, "@%u: b3_effects_none disagrees with %s", v->index,
              got);
    }
    /* mustExecute: what dead-code elimination keeps. */
    static const uint32_t must[] = {12, 13, 14, 15, 16, 17, 18, 19, 20, 22,
                                    23, 24, 25, 26, 27, 28, 35, 36, 38};
    static const uint32_t need_not[] = {0,  1,  3,  4,  5,  6,  7,  8,  9,  10,
                                        11, 21, 29, 30, 31, 32, 33, 34, 37, 39};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        CHECK(b3_effects_must_execute(b3_effects(val(&c, must[i]))), "@%u must execute", must[i]);
    for (size_t i = 0; i < sizeof need_not / sizeof need_not[0]; i++)
        CHECK(!b3_effects_must_execute(b3_effects(val(&c, need_not[i]))), "@%u need not execute",
              need_not[i]);

    /* Interference: expected pairs, and symmetry over every pair. */
    static const struct {
        uint32_t a, b;
        bool interferes;
    } pairs[] = {
        {10, 14, true},  /* load Top / store 4 */
        {11, 14, false}, /* load 5...10 / store 4 */
        {11, 17, false}, /* load 5...10 / atomic 1...4 */
        {10, 11, false}, /* two loads */
        {12, 19, true},  /* acquire load / fence: fences keep their order */
        {12, 15, true},  /* acquire load / release store */
        {27, 10, true},  /* a check / a load it may guard */
        {27, 3, false},  /* a check / arithmetic */
        {27, 14, true},  /* a check / a store (read after the exit) */
        {26, 27, false}, /* two checks */
        {28, 29, true},  /* Set / Get */
        {29, 37, false}, /* Get / Phi */
        {35, 37, true},  /* Upsilon / Phi */
        {28, 35, true},  /* two local writes */
        {21, 24, true},  /* WasmAddress / a call writing pinned registers */
        {21, 22, false}, /* two readers of the pinned register */
        {36, 4, true},   /* a terminal / a division that may fault */
        {36, 3, false},  /* a terminal / arithmetic */
        {36, 28, true},  /* a terminal / Set */
        {36, 29, false}, /* a terminal / Get */
        {4, 27, true},   /* a faulting division / a check */
        {5, 27, false},  /* a Chill one */
        {20, 10, false}, /* a store-store fence / a load */
        {20, 14, true},  /* a store-store fence / a store */
        {13, 14, true},  /* a trapping load reads everything */
        {30, 10, false}, /* Depend has no effects of its own */
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        B3Effects a = b3_effects(val(&c, pairs[i].a)), b = b3_effects(val(&c, pairs[i].b));
        CHECK(b3_effects_interfere(a, b) == pairs[i].interferes, "@%u and @%u: interfere should be %d",
              pairs[i].a, pairs[i].b, pairs[i].interferes);
    }
    for (uint32_t i = 0; i < c.p->nvalues; i++)
        for (uint32_t j = 0; j < c.p->nvalues; j++) {
            B3Effects a = b3_effects(c.p->values[i]), b = b3_effects(c.p->values[j]);
            CHECK(b3_effects_interfere(a, b) == b3_effects_interfere(b, a),
                  "interference of @%u and @%u not symmetric", c.p->values[i]->index, c.p->values[j]->index);
            if (b3_effects_none(a))
                CHECK(!b3_effects_interfere(a, b), "@%u has no effects but interferes with @%u",
                      c.p->values[i]->index, c.p->values[j]->index);
        }

    CHECK(b3_value_is_pure(val(&c, 3)), "Add is pure");
    CHECK(!b3_value_is_pure(val(&c, 4)), "Div is not pure");
    CHECK(b3_value_is_pure(val(&c, 5)), "Div<Chill> is pure");
    CHECK(b3_value_is_pure(val(&c, 6)), "Double Div is pure");
    CHECK(!b3_value_is_pure(val(&c, 7)), "UDiv is not pure");
    CHECK(!b3_value_is_pure(val(&c, 10)), "Load is not pure");
    CHECK(!b3_value_is_pure(val(&c, 31)), "Opaque is not pure");
    CHECK(b3_value_is_pure(val(&c, 30)), "Depend is pure");
    ctx_free(&c);
}

/* Every opcode, with default meta data: the table's columns agree with each
 * other and with b3_effects. */
static void test_effects_table(void) {
    Ctx c;
    new_proc(&c);
    B3Block *b = b3_block_new(&c.m, c.p, 0);
    B3Value *k = const32(&c, b, 1);
    for (int op = 0; op < B3_NUM_OPCODES; op++) {
        const B3OpInfo *info = b3_op((B3Opcode)op);
        uint32_t nkids = info->min_kids > 0 ? (uint32_t)info->min_kids : 0;
        B3Type type = info->result == B3R_VOID ? B3_Void : B3_Int32;
        B3Value *v = b3_value_new(&c.m, c.p, (B3Opcode)op, type, nkids, UINT32_MAX);
        for (uint32_t i = 0; i < nkids; i++)
            v->kids[i] = k;
        B3Effects e = b3_effects(v);
        const char *name = info->name;
        CHECK(e.terminal == !!(info->flags & B3OF_TERMINAL), "%s: terminal", name);
        CHECK((info->effects == B3E_LOAD) == !!(info->flags & B3OF_LOAD), "%s: LOAD class and flag", name);
        CHECK((info->effects == B3E_STORE) == !!(info->flags & B3OF_STORE), "%s: STORE class and flag", name);
        CHECK((info->effects == B3E_ATOMIC) == !!(info->flags & B3OF_ATOMIC), "%s: ATOMIC class and flag",
              name);
        CHECK((info->effects == B3E_CHECK) == !!(info->flags & B3OF_CHECK), "%s: CHECK class and flag", name);
        CHECK((info->effects == B3E_CALL) == (op == B3_CCall || op == B3_Patchpoint || op == B3_AllocaDynamic ||
                                              op == B3_StackSave || op == B3_StackRestore),
              "%s: CALL class", name);
        if (info->flags & B3OF_PURE) {
            CHECK(b3_effects_none(e), "%s is pure but has effects %s", name, effects_string(e));
            CHECK(!(info->flags & (B3OF_TERMINAL | B3OF_TRAPS_OK)) && info->result != B3R_VOID,
                  "%s is pure but is a terminal, may trap or has no result", name);
        }
        if (info->flags & B3OF_FOLDABLE)
            CHECK((info->flags & B3OF_PURE) || info->effects == B3E_DIV, "%s is foldable but not pure", name);
        if (info->flags & B3OF_ASSOCIATIVE)
            CHECK((info->flags & (B3OF_COMMUTATIVE | B3OF_PURE)) == (B3OF_COMMUTATIVE | B3OF_PURE),
                  "%s is associative but not commutative and pure", name);
        if (b3_effects_none(e))
            CHECK(!b3_effects_must_execute(e), "%s: no effects yet must execute", name);
        if (info->effects == B3E_NONE && !(info->flags & B3OF_TERMINAL))
            CHECK(b3_effects_none(e), "%s: class NONE but effects %s", name, effects_string(e));
    }
    ctx_free(&c);
}

static void test_heap_ranges(void) {
    B3HeapRange a = {0, 4}, b = {4, 8}, c = {3, 5}, bottom = B3_HEAP_BOTTOM, top = B3_HEAP_TOP;
    CHECK(!b3_heap_overlaps(a, b), "[0,4) and [4,8) are disjoint");
    CHECK(b3_heap_overlaps(a, c) && b3_heap_overlaps(c, b), "[3,5) overlaps both");
    CHECK(!b3_heap_overlaps(bottom, top) && !b3_heap_overlaps(top, bottom), "Bottom overlaps nothing");
    CHECK(b3_heap_overlaps(top, a), "Top overlaps everything");
    B3HeapRange u = b3_heap_union(a, b);
    CHECK(u.begin == 0 && u.end == 8, "union of [0,4) and [4,8)");
    u = b3_heap_union(bottom, c);
    CHECK(u.begin == 3 && u.end == 5, "union with Bottom");
    CHECK(b3_effects_none(b3_effects_nothing()), "nothing is none");
    CHECK(b3_effects_interfere(b3_effects_for_call(), b3_effects_for_check()),
          "a call and a check interfere");
}

/* ---- insertion sets ---- */

static void test_insertion_set(void) {
    Ctx c;
    new_proc(&c);
    B3Block *b = b3_block_new(&c.m, c.p, 0);
    B3Value *orig[3];
    for (int i = 0; i < 3; i++)
        orig[i] = const32(&c, b, 100 + i);
    B3InsertionSet ins;
    b3_insertion_set_init(&ins, &c.m, c.p);
    /* Recorded out of order; ties keep the order they were made in. */
    B3Value *x = b3_insertion_set_insert_int_const(&ins, 1, orig[1], B3_Int32, 1);
    B3Value *y = b3_insertion_set_insert_int_const(&ins, 0, orig[0], B3_Int32, 2);
    B3Value *z = b3_insertion_set_insert_int_const(&ins, 1, orig[1], B3_Int64, -3);
    B3Value *w = b3_insertion_set_insert_bottom(&ins, 3, orig[2], B3_Double);
    B3Value *v = b3_insertion_set_insert_new(&ins, 1, B3_Add, B3_Int32, 2, orig[1]);
    v->kids[0] = v->kids[1] = orig[0];
    CHECK(b3_insertion_set_execute(&ins, b), "execute reports insertions");
    B3Value *want[] = {y, orig[0], x, z, v, orig[1], orig[2], w};
    CHECK(b->nvalues == 8, "8 values after inserting 5 into 3");
    for (uint32_t i = 0; i < 8 && i < b->nvalues; i++)
        CHECK(b->values[i] == want[i], "position %u holds @%u, expected @%u", i, b->values[i]->index,
              want[i]->index);
    for (uint32_t i = 0; i < b->nvalues; i++)
        CHECK(b->values[i]->owner == b, "@%u is owned by the block", b->values[i]->index);
    CHECK(z->m.c.i == -3 && z->opcode == B3_Const64 && w->opcode == B3_ConstDouble && w->m.c.d == 0.0,
          "constants made by the insertion set");
    CHECK(!b3_insertion_set_execute(&ins, b), "nothing left to insert");

    /* Random insertions against a direct simulation. */
    for (int round = 0; round < 200; round++) {
        B3Block *rb = b3_block_new(&c.m, c.p, UINT32_MAX);
        uint32_t n = rnd(60), k = rnd(120);
        B3Value **before = malloc((n + 1) * sizeof *before);
        for (uint32_t i = 0; i < n; i++)
            before[i] = const32(&c, rb, (int32_t)i);
        uint32_t *at = malloc((k + 1) * sizeof *at);
        B3Value **made = malloc((k + 1) * sizeof *made);
        for (uint32_t j = 0; j < k; j++) {
            at[j] = rnd(n + 1);
            made[j] = b3_insertion_set_insert_int_const(&ins, at[j], NULL, B3_Int32, (int32_t)j);
        }
        b3_insertion_set_execute(&ins, rb);
        uint32_t pos = 0;
        bool ok = rb->nvalues == n + k;
        for (uint32_t i = 0; i <= n && ok; i++) {
            for (uint32_t j = 0; j < k && ok; j++)
                if (at[j] == i)
                    ok = rb->values[pos++] == made[j];
            if (i < n && ok)
                ok = rb->values[pos++] == before[i];
        }
        CHECK(ok, "random insertion round %d (%u values, %u insertions)", round, n, k);
        free(before);
        free(at);
        free(made);
    }
    b3_insertion_set_free(&ins);
    ctx_free(&c);
}

/* ---- replacing values, removing Identities ---- */

static const char *const identity_src = "proc @id {\n"
                                        "BB#0:\n"
                                        "    Int64 @0 = ArgumentReg(%argumentGPR0)\n"
                                        "    Int64 @1 = Add(@0, @0)\n"
                                        "    Int64 @2 = Add(@1, @0)\n"
                                        "    Int64 @3 = Mul(@2, @1)\n"
                                        "    Void @4 = Store(@3, @0)\n"
                                        "    Int64 @5 = Const64(7)\n"
                                        "    Int64 @6 = Sub(@5, @3)\n"
                                        "    Void @7 = Return(@6)\n"
                                        "}\n";

static void test_replace_and_remove_identities(void) {
    Ctx c;
    parse(&c, identity_src);
    B3Value *v0 = val(&c, 0), *v1 = val(&c, 1), *v2 = val(&c, 2), *v3 = val(&c, 3), *v4 = val(&c, 4),
            *v5 = val(&c, 5), *v6 = val(&c, 6);
    B3Loc loc2 = v2->loc;
    b3_value_replace_with_identity(v1, v0);
    b3_value_replace_with_identity(v2, v1); /* a chain: @2 -> @1 -> @0 */
    b3_value_replace_with_identity(v4, NULL);
    b3_value_replace_with_identity(v5, v0); /* no children before: uses the reserved slot */
    CHECK(v1->opcode == B3_Identity && v1->nkids == 1 && v1->kids[0] == v0 && v1->index == 1,
          "@1 is Identity(@0)");
    CHECK(v2->index == 2 && v2->loc.line == loc2.line && v2->owner == blk(&c, 0),
          "@2 keeps number, place, line");
    CHECK(v4->opcode == B3_Nop && v4->type == B3_Void && v4->nkids == 0, "a Void value becomes Nop");
    CHECK(v5->opcode == B3_Identity && v5->kids[0] == v0 && v5->type == B3_Int64,
          "a constant becomes Identity");
    CHECK(valid(&c), "valid with Identities in place");
    CHECK(b3_proc_remove_identities(&c.m, c.p), "something to remove");
    CHECK(v3->kids[0] == v0 && v3->kids[1] == v0, "Mul(@2, @1) is now Mul(@0, @0)");
    CHECK(v6->kids[0] == v0 && v6->kids[1] == v3, "Sub(@5, @3) is now Sub(@0, @3)");
    B3Block *b = blk(&c, 0);
    CHECK(b->nvalues == 4 && b->values[0] == v0 && b->values[1] == v3 && b->values[2] == v6,
          "only @0 @3 @6 and the Return are left");
    CHECK(c.p->nvalues == 4, "p->values has 4 values left, not %u", c.p->nvalues);
    CHECK(!b3_value_find(c.p, 1) && !b3_value_find(c.p, 4) && b3_value_find(c.p, 3) == v3,
          "the value map follows");
    CHECK(valid(&c), "valid after removing Identities");
    CHECK(!b3_proc_remove_identities(&c.m, c.p), "nothing left to remove");
    b3_print_proc(&c.m, c.p, stdout);
    b3_value_replace_with_nop(v6);
    b3_value_replace_with_nop(v3);
    b3_proc_remove_nops(&c.m, c.p);
    CHECK(b->nvalues == 2 && b->values[0] == v0, "remove_nops drops the Nops");
    ctx_free(&c);

    /* A long chain of Identities with many uses: linear, not quadratic. */
    new_proc(&c);
    b = b3_block_new(&c.m, c.p, 0);
    enum { CHAIN = 200000, USERS = 200000 };
    B3Value *root = const32(&c, b, 5), *prev = root;
    for (int i = 0; i < CHAIN; i++)
        prev = add_value(&c, b, B3_Identity, B3_Int32, 1, prev, NULL);
    B3Value *last = prev;
    for (int i = 0; i < USERS; i++)
        add_value(&c, b, B3_Neg, B3_Int32, 1, i & 1 ? last : b->values[1 + (uint32_t)i % CHAIN], NULL);
    clock_t t0 = clock();
    b3_proc_remove_identities(&c.m, c.p);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    bool ok = b->nvalues == 1 + USERS;
    for (uint32_t i = 1; i < b->nvalues && ok; i++)
        ok = b->values[i]->kids[0] == root;
    CHECK(ok, "every use of the chain now names its root");
    CHECK(secs < 5, "removing a %d-long Identity chain took %.2fs", CHAIN, secs);
    ctx_free(&c);

    /* A cycle of Identities (a phase bug) is an internal error, not a hang. */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(9);
        new_proc(&c);
        b = b3_block_new(&c.m, c.p, 0);
        B3Value *a = add_value(&c, b, B3_Identity, B3_Int32, 1, NULL, NULL);
        B3Value *d = add_value(&c, b, B3_Identity, B3_Int32, 1, a, NULL);
        a->kids[0] = d;
        add_value(&c, b, B3_Neg, B3_Int32, 1, a, NULL);
        b3_proc_remove_identities(&c.m, c.p);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3, "an Identity cycle is an internal error (status %d)",
          status);
}

/* ---- use counts ---- */

static void test_use_counts(void) {
    Ctx c;
    parse(&c, "proc @uc {\n"
              "BB#0:\n"
              "    Int64 @0 = ArgumentReg(%argumentGPR0)\n"
              "    Int64 @1 = Add(@0, @0)\n"
              "    Void @2 = Upsilon(@1, ^@5)\n"
              "    Void @3 = Upsilon(@0, ^@5)\n"
              "    Void @4 = Jump(#1)\n"
              "BB#1:\n"
              "    Int64 @5 = Phi()\n"
              "    Int64 @6 = Select(@5, @1, @1)\n"
              "    Void @7 = Return(@6)\n"
              "}\n");
    B3UseCounts uc;
    b3_use_counts_compute(&uc, c.p);
    static const struct {
        uint32_t v, uses, users, upsilons;
    } expect[] = {{0, 3, 2, 0}, {1, 3, 2, 0}, {2, 0, 0, 0}, {5, 1, 1, 2}, {6, 1, 1, 0}, {7, 0, 0, 0}};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        B3Value *v = val(&c, expect[i].v);
        CHECK(b3_use_count(&uc, v) == expect[i].uses && b3_user_count(&uc, v) == expect[i].users &&
                  b3_upsilon_count(&uc, v) == expect[i].upsilons,
              "@%u: %u uses by %u users, %u upsilons; expected %u, %u, %u", v->index, b3_use_count(&uc, v),
              b3_user_count(&uc, v), b3_upsilon_count(&uc, v), expect[i].uses, expect[i].users,
              expect[i].upsilons);
    }
    CHECK(uc.nvalues == c.p->nvalues, "one count per value");
    for (uint32_t i = 0; i < c.p->nvalues; i++)
        CHECK(c.p->values[i]->scratch == i, "dense numbering in p->values order");
    b3_use_counts_free(&uc);
    ctx_free(&c);
}

/* ---- block orders ---- */

static void print_order(const char *what, B3Block **a, uint32_t n) {
    printf("%s:", what);
    for (uint32_t i = 0; i < n; i++)
        printf(" #%u", a[i]->index);
    printf("\n");
}

static void test_orders(void) {
    Ctx c;
    static const int diamond[][4] = {{1, 2, -1}, {3, -1}, {3, -1}, {-1}};
    cfg_proc(&c, 4, diamond);
    b3_block_new(&c.m, c.p, 4); /* unreachable */
    set_succs(&c, c.p->blocks[4], (B3Block *[]){c.p->blocks[3]}, 1);
    B3Block **a;
    uint32_t n = b3_blocks_postorder(c.p, &a);
    print_order("postorder", a, n);
    free(a);
    n = b3_blocks_reverse_postorder(c.p, &a);
    print_order("reverse postorder", a, n);
    free(a);
    n = b3_blocks_preorder(c.p, &a);
    print_order("preorder", a, n);
    free(a);
    ctx_free(&c);

    /* A 100,000-block chain whose every block also branches back to the
     * root: the DFS goes 100,000 deep. */
    enum { N = 100000 };
    new_proc(&c);
    for (uint32_t i = 0; i < N; i++)
        b3_block_new(&c.m, c.p, i);
    for (uint32_t i = 0; i < N; i++) {
        B3Block *s[2] = {i + 1 < N ? c.p->blocks[i + 1] : NULL, c.p->blocks[0]};
        set_succs(&c, c.p->blocks[i], i + 1 < N ? s : s + 1, i + 1 < N ? 2 : 1);
    }
    b3_proc_compute_preds(&c.m, c.p);
    n = b3_blocks_postorder(c.p, &a);
    bool ok = n == N;
    for (uint32_t i = 0; i < n && ok; i++)
        ok = a[i] == c.p->blocks[N - 1 - i];
    CHECK(ok, "postorder of a %d-block chain", N);
    free(a);
    n = b3_blocks_reverse_postorder(c.p, &a);
    ok = n == N;
    for (uint32_t i = 0; i < n && ok; i++)
        ok = a[i] == c.p->blocks[i];
    CHECK(ok, "reverse postorder of a %d-block chain", N);
    free(a);

    /* Every block of the chain is the latch of one loop headed by the root. */
    B3Dominators dom;
    b3_dominators_compute(&dom, c.p);
    B3Loops l;
    b3_loops_compute(&l, c.p, &dom);
    CHECK(l.nloops == 1 && l.loops[0].header == c.p->blocks[0] && l.loops[0].nblocks == N,
          "one loop of %d blocks headed by the root", N);
    b3_loops_free(&l);
    b3_dominators_free(&dom);
    ctx_free(&c);
}

/* ---- natural loops ---- */

static void print_loops(Ctx *c, const B3Loops *l) {
    for (uint32_t i = 0; i < l->nloops; i++) {
        const B3Loop *loop = &l->loops[i];
        printf("loop %u: header #%u depth %u parent %d blocks", loop->index, loop->header->index, loop->depth,
               loop->parent ? (int)loop->parent->index : -1);
        for (uint32_t k = 0; k < loop->nblocks; k++)
            printf(" #%u", loop->blocks[k]->index);
        printf("\n");
    }
    for (uint32_t i = 0; i < c->p->nblocks; i++) {
        const B3Loop *loop = b3_loop_of(l, c->p->blocks[i]);
        printf("%s#%u:%d", i ? " " : "", c->p->blocks[i]->index, loop ? (int)loop->index : -1);
    }
    printf("\n");
}

static void show_loops(const char *title, uint32_t n, const int (*edges)[4]) {
    Ctx c;
    cfg_proc(&c, n, edges);
    B3Dominators dom;
    b3_dominators_compute(&dom, c.p);
    B3Loops l;
    b3_loops_compute(&l, c.p, &dom);
    printf("%s\n", title);
    print_loops(&c, &l);
    b3_loops_free(&l);
    b3_dominators_free(&dom);
    ctx_free(&c);
}

/* Loops by the definition: for each header, the blocks that reach a back
 * edge into it without passing through it.  in[h * n + x]: x is in h's loop. */
static void brute_loops(const B3Proc *p, const B3Dominators *dom, bool *is_header, bool *in) {
    uint32_t n = p->nblocks;
    uint32_t *stack = malloc(n * sizeof *stack);
    memset(is_header, 0, n);
    memset(in, 0, (size_t)n * n);
    for (uint32_t h = 0; h < n; h++) {
        B3Block *hb = p->blocks[h];
        uint32_t sp = 0;
        for (uint32_t i = 0; i < hb->npreds; i++) {
            B3Block *q = hb->preds[i];
            if (b3_block_reachable(dom, q) && b3_dominates(dom, hb, q)) {
                is_header[h] = true;
                if (!in[(size_t)h * n + q->pos]) {
                    in[(size_t)h * n + q->pos] = true;
                    stack[sp++] = q->pos;
                }
            }
        }
        if (!is_header[h])
            continue;
        in[(size_t)h * n + h] = true;
        while (sp) {
            B3Block *x = p->blocks[stack[--sp]];
            if (x == hb)
                continue;
            for (uint32_t i = 0; i < x->npreds; i++) {
                B3Block *q = x->preds[i];
                if (b3_block_reachable(dom, q) && !in[(size_t)h * n + q->pos]) {
                    in[(size_t)h * n + q->pos] = true;
                    stack[sp++] = q->pos;
                }
            }
        }
    }
    free(stack);
}

static uint32_t loop_size(const bool *in, uint32_t n, uint32_t h) {
    uint32_t s = 0;
    for (uint32_t x = 0; x < n; x++)
        s += in[(size_t)h * n + x];
    return s;
}

/* Checks l against the brute-force loops of p; returns false on a mismatch. */
static bool check_loops(const B3Proc *p, const B3Dominators *dom, const B3Loops *l, const char *what) {
    uint32_t n = p->nblocks;
    bool *is_header = malloc(n), *in = malloc((size_t)n * n);
    brute_loops(p, dom, is_header, in);
    int before = failures;
    uint32_t nheaders = 0;
    for (uint32_t h = 0; h < n; h++)
        nheaders += is_header[h];
    CHECK(l->nloops == nheaders, "%s: %u loops, expected %u", what, l->nloops, nheaders);
    for (uint32_t i = 0; i < l->nloops && failures == before; i++) {
        const B3Loop *loop = &l->loops[i];
        uint32_t h = loop->header->pos;
        CHECK(is_header[h], "%s: #%u is no header", what, loop->header->index);
        if (!is_header[h])
            break;
        CHECK(loop->index == i && loop->blocks[0] == loop->header, "%s: loop %u index/first block", what, i);
        CHECK(loop->nblocks == loop_size(in, n, h), "%s: loop at #%u has %u blocks, expected %u", what,
              loop->header->index, loop->nblocks, loop_size(in, n, h));
        for (uint32_t x = 0; x < n; x++)
            CHECK(b3_loop_contains(l, loop, p->blocks[x]) == in[(size_t)h * n + x],
                  "%s: loop #%u contains #%u: %d", what, loop->header->index, p->blocks[x]->index,
                  in[(size_t)h * n + x]);
        /* The parent: the smallest loop strictly around this one. */
        int parent = -1;
        uint32_t depth = 1;
        for (uint32_t g = 0; g < n; g++) {
            if (!is_header[g] || g == h || !in[(size_t)g * n + h])
                continue;
            depth++;
            if (parent < 0 || loop_size(in, n, g) < loop_size(in, n, (uint32_t)parent))
                parent = (int)g;
        }
        CHECK(parent < 0 ? !loop->parent : loop->parent && loop->parent->header->pos == (uint32_t)parent,
              "%s: parent of loop #%u", what, loop->header->index);
        CHECK(!loop->parent || loop->parent->index < loop->index, "%s: parents come first", what);
        CHECK(loop->depth == depth, "%s: depth of loop #%u is %u, expected %u", what, loop->header->index,
              loop->depth, depth);
        if (loop->parent)
            CHECK(b3_loop_contains_loop(loop->parent, loop) && !b3_loop_contains_loop(loop, loop->parent),
                  "%s: nesting of loop #%u", what, loop->header->index);
        uint32_t own = 0;
        for (uint32_t k = 0; k < loop->nblocks; k++)
            own += b3_loop_of(l, loop->blocks[k]) == loop;
        CHECK(own == loop->own, "%s: own blocks of #%u", what, loop->header->index);
    }
    /* The innermost loop of each block: the smallest that contains it. */
    for (uint32_t x = 0; x < n && failures == before; x++) {
        int best = -1;
        for (uint32_t g = 0; g < n; g++)
            if (is_header[g] && in[(size_t)g * n + x] &&
                (best < 0 || loop_size(in, n, g) < loop_size(in, n, (uint32_t)best)))
                best = (int)g;
        const B3Loop *loop = b3_loop_of(l, p->blocks[x]);
        CHECK(best < 0 ? !loop : loop && loop->header->pos == (uint32_t)best, "%s: innermost loop of #%u",
              what, p->blocks[x]->index);
    }
    free(is_header);
    free(in);
    return failures == before;
}

/* A random CFG: n blocks, 0-3 successors each, some of them backwards. */
static B3Proc *random_cfg(Ctx *c, uint32_t n) {
    new_proc(c);
    for (uint32_t i = 0; i < n; i++)
        b3_block_new(&c->m, c->p, i);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = rnd(10) < 2 ? 0 : rnd(10) < 5 ? 1 : rnd(10) < 8 ? 2 : 3;
        B3Block *s[3];
        for (uint32_t j = 0; j < k; j++)
            s[j] = c->p->blocks[rnd(4) == 0 || i + 1 >= n ? rnd(n) : i + 1 + rnd(n - i - 1)];
        set_succs(c, c->p->blocks[i], s, k);
    }
    b3_proc_compute_preds(&c->m, c->p);
    return c->p;
}

static void test_random_loops(void) {
    int checked = 0, with_loops = 0, made = 0;
    for (int round = 0; round < 3000; round++) {
        Ctx c;
        random_cfg(&c, 1 + rnd(40));
        B3Dominators dom;
        b3_dominators_compute(&dom, c.p);
        B3Loops l;
        b3_loops_compute(&l, c.p, &dom);
        char what[64];
        snprintf(what, sizeof what, "random CFG %d", round);
        bool ok = check_loops(c.p, &dom, &l, what);
        checked++;
        with_loops += l.nloops > 0;

        /* Preheaders: every loop gets one, loops stay the same, every edge
         * leads where it did, directly or through a new block. */
        uint32_t nb = c.p->nblocks, nloops = l.nloops, missing = 0;
        uint32_t *headers = malloc((nloops + 1) * sizeof *headers);
        B3Block ***targets = malloc(nb * sizeof *targets);
        uint32_t *ntargets = malloc(nb * sizeof *ntargets);
        for (uint32_t i = 0; i < nloops; i++) {
            headers[i] = l.loops[i].header->index;
            missing += l.loops[i].header->pos == 0 || !b3_loop_preheader(&l, &l.loops[i]);
        }
        for (uint32_t i = 0; i < nb; i++) {
            B3Block *b = c.p->blocks[i];
            ntargets[i] = b->nsuccs;
            targets[i] = malloc((b->nsuccs + 1) * sizeof **targets);
            for (uint32_t j = 0; j < b->nsuccs; j++)
                targets[i][j] = b->succs[j].block;
        }
        uint32_t n_made = b3_loops_ensure_preheaders(&c.m, c.p, &l);
        made += n_made;
        CHECK(n_made == missing, "%s: made %u preheaders for %u loops without", what, n_made, missing);
        b3_loops_free(&l);
        b3_dominators_free(&dom);
        CHECK(c.p->nblocks == nb + n_made, "%s: block count", what);
        for (uint32_t i = 0; i < c.p->nblocks; i++)
            CHECK(c.p->blocks[i]->pos == i, "%s: positions", what);
        for (uint32_t i = 0; i < nb; i++) {
            B3Block *b = b3_block_find(c.p, i);
            for (uint32_t j = 0; j < b->nsuccs; j++) {
                B3Block *t = b->succs[j].block;
                bool direct = t == targets[i][j];
                bool via = t->index >= nb && t->nsuccs == 1 && t->succs[0].block == targets[i][j];
                CHECK(direct || via, "%s: edge #%u -> #%u now goes to #%u", what, i, targets[i][j]->index,
                      t->index);
            }
            free(targets[i]);
        }
        for (uint32_t i = 0; i < c.p->nblocks; i++) {
            B3Block *b = c.p->blocks[i];
            uint32_t npreds = 0;
            for (uint32_t k = 0; k < c.p->nblocks; k++)
                for (uint32_t j = 0; j < c.p->blocks[k]->nsuccs; j++)
                    if (c.p->blocks[k]->succs[j].block == b) {
                        npreds++;
                        break;
                    }
            CHECK(b->npreds == npreds, "%s: preds of #%u recomputed", what, b->index);
        }
        b3_dominators_compute(&dom, c.p);
        b3_loops_compute(&l, c.p, &dom);
        ok &= check_loops(c.p, &dom, &l, what);
        CHECK(l.nloops == nloops, "%s: %u loops after adding preheaders, %u before", what, l.nloops, nloops);
        for (uint32_t i = 0; i < l.nloops && i < nloops; i++) {
            CHECK(l.loops[i].header->index == headers[i], "%s: same headers", what);
            CHECK(l.loops[i].header != c.p->blocks[0] && b3_loop_preheader(&l, &l.loops[i]),
                  "%s: loop #%u has a preheader", what, l.loops[i].header->index);
        }
        CHECK(b3_loops_ensure_preheaders(&c.m, c.p, &l) == 0, "%s: preheaders are made once", what);
        b3_loops_free(&l);
        b3_dominators_free(&dom);
        free(headers);
        free(targets);
        free(ntargets);
        ctx_free(&c);
        if (!ok)
            break;
    }
    printf("random CFGs: %d checked, %d with loops\n", checked, with_loops);
    CHECK(with_loops > 1000 && made > 1000, "the random CFGs have loops (%d) and need preheaders (%d)",
          with_loops, made);
}

/* A nest of `depth` loops, each with its header and its latch:
 * H_i -> H_{i+1} (the innermost: -> its latch), L_i -> H_i | L_{i-1}; L_0
 * leaves to a row of `chains` blocks, each but the last a loop by itself. */
static void test_deep_nest(uint32_t depth, uint32_t chains) {
    Ctx c;
    new_proc(&c);
    uint32_t n = 2 * depth + 1 + chains;
    for (uint32_t i = 0; i < n; i++)
        b3_block_new(&c.m, c.p, i);
    B3Block **b = c.p->blocks; /* root #0, H_i = #1+i, L_i = #1+depth+i, exit chain after */
    set_succs(&c, b[0], (B3Block *[]){b[1]}, 1);
    for (uint32_t i = 0; i < depth; i++)
        set_succs(&c, b[1 + i], (B3Block *[]){i + 1 < depth ? b[2 + i] : b[1 + depth + i]}, 1);
    for (uint32_t i = 0; i < depth; i++)
        set_succs(&c, b[1 + depth + i], (B3Block *[]){b[1 + i], i ? b[depth + i] : b[1 + 2 * depth]}, 2);
    /* Then a chain of small loops, each a block branching to itself. */
    for (uint32_t i = 0; i < chains; i++) {
        uint32_t x = 1 + 2 * depth + i;
        if (i + 1 < chains)
            set_succs(&c, b[x], (B3Block *[]){b[x], b[x + 1]}, 2);
        else
            set_succs(&c, b[x], NULL, 0);
    }
    b3_proc_compute_preds(&c.m, c.p);
    clock_t t0 = clock();
    B3Dominators dom;
    b3_dominators_compute(&dom, c.p);
    B3Loops l;
    b3_loops_compute(&l, c.p, &dom);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(l.nloops == depth + (chains ? chains - 1 : 0), "%u nested loops and %u in a row: found %u", depth,
          chains - 1, l.nloops);
    bool ok = true;
    for (uint32_t i = 0; i < depth && ok; i++) {
        const B3Loop *loop = b3_loop_of(&l, b[1 + i]);
        ok = loop && loop->header == b[1 + i] && loop->depth == i + 1 && loop->nblocks == 2 * (depth - i) &&
             (i == 0 ? !loop->parent : loop->parent->header == b[i]) &&
             b3_loop_of(&l, b[1 + depth + i]) == loop;
    }
    CHECK(ok, "the %u-deep nest", depth);
    CHECK(!b3_loop_of(&l, b[0]), "the root is in no loop");
    CHECK(secs < 5, "dominators and loops of %u blocks took %.2fs", n, secs);
    uint32_t made = b3_loops_ensure_preheaders(&c.m, c.p, &l);
    /* Each header of the nest is the only way into the next one, so only
     * the loops of the row need a preheader. */
    CHECK(made == chains - 1, "preheaders: %u made, %u expected", made, chains - 1);
    b3_loops_free(&l);
    b3_dominators_free(&dom);
    ctx_free(&c);
}

/* ---- preheaders on real procedures ---- */

static void test_preheader_text(const char *src) {
    Ctx c;
    parse(&c, src);
    B3Dominators dom;
    b3_dominators_compute(&dom, c.p);
    B3Loops l;
    b3_loops_compute(&l, c.p, &dom);
    uint32_t made = b3_loops_ensure_preheaders(&c.m, c.p, &l);
    printf("made %u preheader(s)\n", made);
    b3_loops_free(&l);
    b3_dominators_free(&dom);
    CHECK(valid(&c), "valid after adding preheaders");
    b3_print_proc(&c.m, c.p, stdout);
    ctx_free(&c);
}

int main(void) {
    test_effects_of_values();
    test_effects_table();
    test_heap_ranges();
    test_insertion_set();
    test_replace_and_remove_identities();
    test_use_counts();
    test_orders();

    static const int simple[][4] = {{1, -1}, {2, -1}, {1, 3, -1}, {-1}};
    show_loops("simple loop", 4, simple);
    static const int nested[][4] = {{1, -1}, {2, -1}, {3, -1}, {2, 4, -1}, {1, 5, -1}, {-1}};
    show_loops("nested loops", 6, nested);
    static const int two_latches[][4] = {{1, -1}, {2, 3, -1}, {1, -1}, {1, 4, -1}, {-1}};
    show_loops("two back edges, one loop", 5, two_latches);
    static const int siblings[][4] = {{1, -1}, {2, -1}, {1, 3, -1}, {4, -1}, {3, 5, -1}, {-1}};
    show_loops("sibling loops", 6, siblings);
    static const int self_root[][4] = {{0, 1, -1}, {1, 2, -1}, {-1}};
    show_loops("self loops, the root's too", 3, self_root);
    static const int irreducible[][4] = {{1, 2, -1}, {2, -1}, {1, 3, -1}, {-1}};
    show_loops("irreducible: no loop", 4, irreducible);
    static const int irreducible_inside[][4] = {{1, -1}, {2, 3, -1}, {3, -1}, {2, 4, -1}, {1, 5, -1}, {-1}};
    show_loops("irreducible inside a loop", 6, irreducible_inside);
    test_random_loops();
    test_deep_nest(4000, 1);
    test_deep_nest(4000, 92000);

    test_preheader_text("proc @ph {\n"
                        "BB#0:\n"
                        "    Int64 @0 = ArgumentReg(%argumentGPR0)\n"
                        "    Int32 @1 = Trunc(@0)\n"
                        "    Int32 @2 = Const32(0)\n"
                        "    Void @3 = Upsilon(@2, ^@6)\n"
                        "    Void @4 = Branch(@1, #1, #2)\n"
                        "BB#1:\n"
                        "    Void @5 = Upsilon(@1, ^@6)\n"
                        "    Void @12 = Jump(#2)\n"
                        "BB#2:\n"
                        "    Int32 @6 = Phi()\n"
                        "    Int32 @7 = Add(@6, @1)\n"
                        "    Int32 @8 = LessThan(@7, @1)\n"
                        "    Void @9 = Upsilon(@7, ^@6)\n"
                        "    Void @10 = Branch(@8, #2, #3)\n"
                        "BB#3:\n"
                        "    Void @11 = Return(@6)\n"
                        "}\n");
    test_preheader_text("proc @root {\n"
                        "BB#0:\n"
                        "    Int64 @0 = ArgumentReg(%argumentGPR0)\n"
                        "    Int32 @1 = Load(@0)\n"
                        "    Void @2 = Branch(@1, #0, #1)\n"
                        "BB#1:\n"
                        "    Void @3 = Return()\n"
                        "}\n");

    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ir toolkit tests: all passed\n");
    return 0;
}
