/* Execution test of the x86-64 emitter: hand-built, register-allocated Air
 * procedures go through the emission driver (b3_emit_proc with
 * b3_x86_64_emit) into an in-memory B3Obj (obj_stub.c), are loaded into executable memory with their relocations
 * applied, and run against C's answer: integer and FP arithmetic, every
 * integer and double condition (NaN included) in compares, branches (each
 * fall-through layout) and conditional moves, division, bit counts,
 * conversions, memory access of each width, the frame and callee-saves,
 * calls (direct, through the GOT, with stack and vector arguments to a
 * varargs callee), symbols and jump tables. */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "codegen/air/air.h"
#include "codegen/x86_64/asm.h"
#include "codegen/x86_64/x86_64.h"

typedef struct {
    B3Module m;
    B3Obj o;
    B3Symbol *data_sym; /* lives in the image's data page */
    struct {
        B3Symbol *sym;
        void *addr;
    } ext[8];
    unsigned next;
    uint8_t *image;
    size_t image_size, text_pages;
    unsigned checks, failures;
} X;

static X x;

#define CHECK(cond, ...)                                    \
    do {                                                    \
        x.checks++;                                         \
        if (!(cond)) {                                      \
            x.failures++;                                   \
            if (x.failures < 60) {                          \
                printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                printf(__VA_ARGS__);                        \
                printf("\n");                               \
            }                                               \
        }                                                   \
    } while (0)

/* ---- building Air ---- */

#define R(r) air_tmp(B3X_##r)
#define XMM(n) air_tmp(B3_FPR_BASE + (n))
#define IMM(v) air_imm(v)

static AirCode *proc(const char *name) {
    char buf[64];
    snprintf(buf, sizeof buf, "%s_%u", name, x.next++);
    B3Symbol *s = b3_symbol_get(&x.m, buf, (uint32_t)strlen(buf), NULL);
    s->kind = B3Sym_Proc;
    s->defined = s->declared = true;
    B3Proc *p = b3_proc_new(&x.m, s);
    s->def.proc = p;
    AirCode *c = b3_arena_alloc(&x.m.arena, sizeof *c);
    air_code_init(c, &x.m, p);
    c->arena = &x.m.arena; /* freed with the module: several procedures live at once here */
    air_block_new(c);
    return c;
}

static AirBlock *blk(AirCode *c, unsigned i) {
    while (c->nblocks <= i)
        air_block_new(c);
    return c->blocks[i];
}

static AirInst *ins(AirCode *c, unsigned b, AirOpcode op, unsigned n, ...) {
    AirArg args[8];
    va_list ap;
    va_start(ap, n);
    for (unsigned i = 0; i < n; i++)
        args[i] = va_arg(ap, AirArg);
    va_end(ap);
    return air_append(c, blk(c, b), op, NULL, n, args);
}

static void succs(AirCode *c, unsigned b, unsigned n, ...) {
    AirBlock *bb = blk(c, b);
    bb->succs = b3_arena_alloc(c->arena, n * sizeof(AirSucc));
    bb->nsuccs = n;
    va_list ap;
    va_start(ap, n);
    for (unsigned i = 0; i < n; i++)
        bb->succs[i].block = blk(c, va_arg(ap, unsigned));
    va_end(ap);
}

static void ret_const(AirCode *c, unsigned b, int64_t v) {
    ins(c, b, Air_Move, 2, air_bigimm(v), R(rax));
    ins(c, b, Air_Ret64, 1, R(rax));
}

/* ---- loading ---- */

static void unload(void) {
    if (x.image)
        munmap(x.image, x.image_size);
    x.image = NULL;
}

static uint8_t *data_area(void) { return x.image + x.text_pages; }

/* Maps the whole text emitted so far (every proc of the test) plus a data
 * page: 2 KiB for data_sym, then GOT slots. */
static void load(void) {
    unload();
    B3SectionBuf *t = &x.o.sec[B3Sec_Text];
    x.text_pages = (t->size + 4095) & ~(size_t)4095;
    x.image_size = x.text_pages + 4096;
    x.image = mmap(NULL, x.image_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (x.image == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    memcpy(x.image, t->bytes, t->size);
    uint64_t *got = (uint64_t *)(data_area() + 2048);
    unsigned ngot = 0;
    for (uint32_t i = 0; i < x.o.nrelocs; i++) {
        B3Reloc *r = &x.o.relocs[i];
        uint8_t *s = NULL;
        for (uint32_t d = 0; d < x.o.ndefs; d++)
            if (x.o.defs[d].sym == r->sym)
                s = x.image + x.o.defs[d].offset;
        if (r->sym == x.data_sym)
            s = data_area();
        for (unsigned e = 0; e < 8; e++)
            if (x.ext[e].sym && x.ext[e].sym == r->sym)
                s = x.ext[e].addr;
        if (!s) {
            printf("FAIL: relocation against unknown symbol %s\n", r->sym->name);
            exit(1);
        }
        uint8_t *p = x.image + r->offset;
        int64_t v;
        switch (r->kind) {
        case B3Reloc_PC32:
        case B3Reloc_X86_PLT32:
            v = (int64_t)(s - p) + r->addend;
            break;
        case B3Reloc_X86_GOTPCRELX:
        case B3Reloc_X86_REX_GOTPCRELX:
            got[ngot] = (uint64_t)(uintptr_t)s;
            v = (int64_t)((uint8_t *)&got[ngot++] - p) + r->addend;
            break;
        default:
            printf("FAIL: unexpected relocation kind %u\n", r->kind);
            exit(1);
        }
        if (v < INT32_MIN || v > INT32_MAX) {
            printf("FAIL: relocation out of range\n");
            exit(1);
        }
        int32_t v32 = (int32_t)v;
        memcpy(p, &v32, 4);
    }
    if (mprotect(x.image, x.text_pages, PROT_READ | PROT_EXEC)) {
        perror("mprotect");
        exit(1);
    }
}

static void *fn(AirCode *c) {
    for (uint32_t d = 0; d < x.o.ndefs; d++)
        if (x.o.defs[d].sym == c->proc->sym)
            return x.image + x.o.defs[d].offset;
    printf("FAIL: %s not defined\n", c->proc->sym->name);
    exit(1);
}

static void emit(AirCode *c) { b3_emit_proc(&b3_x86_64_emit, c, &x.o); }

typedef int64_t (*F_ii)(int64_t, int64_t);
typedef int64_t (*F_i)(int64_t);
typedef int64_t (*F_dd)(double, double);
typedef int64_t (*F_ff)(float, float);
typedef int64_t (*F_ddii)(double, double, int64_t, int64_t);
typedef int64_t (*F_ffii)(float, float, int64_t, int64_t);
typedef double (*F_dddd)(double, double, double, double);
typedef double (*F_ffdd)(float, float, double, double);
typedef double (*F_iidd)(int64_t, int64_t, double, double);
typedef double (*F_d)(double);
typedef float (*F_f)(float);
typedef double (*F_i_d)(int64_t);
typedef float (*F_i_f)(int64_t);
typedef int64_t (*F_d_i)(double);
typedef int64_t (*F_f_i)(float);
typedef int64_t (*F_v)(void);
typedef float (*F_d_f)(double);
typedef double (*F_f_d)(float);
typedef int64_t (*F_p)(void *, int64_t);

#define CAST(T, p) ((T)(uintptr_t)(p))

/* ---- values ---- */

static const int64_t ivals[] = {0,
                                1,
                                -1,
                                2,
                                7,
                                31,
                                32,
                                63,
                                64,
                                127,
                                128,
                                -128,
                                255,
                                0x7fffffff,
                                (int64_t)0x80000000ll,
                                0xffffffffll,
                                0x100000000ll,
                                (int64_t)0xdeadbeef12345678ull,
                                INT64_MIN,
                                INT64_MAX,
                                -0x7fffffffll,
                                0x123456789ll};
#define NIV (sizeof ivals / sizeof ivals[0])

static bool rel(unsigned cc, int64_t a, int64_t b, bool is32) {
    if (is32) {
        a = (int32_t)a;
        b = (int32_t)b;
    }
    uint64_t ua = is32 ? (uint32_t)a : (uint64_t)a, ub = is32 ? (uint32_t)b : (uint64_t)b;
    switch (cc) {
    case AirCond_Equal:
        return a == b;
    case AirCond_NotEqual:
        return a != b;
    case AirCond_Above:
        return ua > ub;
    case AirCond_AboveOrEqual:
        return ua >= ub;
    case AirCond_Below:
        return ua < ub;
    case AirCond_BelowOrEqual:
        return ua <= ub;
    case AirCond_GreaterThan:
        return a > b;
    case AirCond_GreaterThanOrEqual:
        return a >= b;
    case AirCond_LessThan:
        return a < b;
    case AirCond_LessThanOrEqual:
        return a <= b;
    }
    abort();
}

static bool res(unsigned cc, int64_t a, int64_t b, bool is32) {
    int64_t v = a & b;
    if (is32)
        v = (int32_t)v;
    switch (cc) {
    case AirCond_Zero:
        return v == 0;
    case AirCond_NonZero:
        return v != 0;
    case AirCond_Signed:
        return v < 0;
    case AirCond_PositiveOrZero:
        return v >= 0;
    case AirCond_Overflow:
        return false;
    }
    abort();
}

static const unsigned relconds[] = {
    AirCond_Equal,    AirCond_NotEqual,       AirCond_Above,       AirCond_AboveOrEqual,
    AirCond_Below,    AirCond_BelowOrEqual,   AirCond_GreaterThan, AirCond_GreaterThanOrEqual,
    AirCond_LessThan, AirCond_LessThanOrEqual};
static const unsigned resconds[] = {AirCond_Zero, AirCond_NonZero, AirCond_Signed, AirCond_PositiveOrZero,
                                    AirCond_Overflow};

static bool dcmp(unsigned c, double a, double b) {
    switch (c) {
    case AirDCond_Equal:
        return a == b;
    case AirDCond_NotEqual:
        return a < b || a > b;
    case AirDCond_GreaterThan:
        return a > b;
    case AirDCond_GreaterThanOrEqual:
        return a >= b;
    case AirDCond_LessThan:
        return a < b;
    case AirDCond_LessThanOrEqual:
        return a <= b;
    case AirDCond_EqualOrUnordered:
        return !(a < b || a > b);
    case AirDCond_NotEqualOrUnordered:
        return !(a == b);
    case AirDCond_GreaterThanOrUnordered:
        return !(a <= b);
    case AirDCond_GreaterThanOrEqualOrUnordered:
        return !(a < b);
    case AirDCond_LessThanOrUnordered:
        return !(a >= b);
    case AirDCond_LessThanOrEqualOrUnordered:
        return !(a > b);
    }
    abort();
}

static const double dvals[] = {0.0, -0.0, 1.0, -1.0, 2.5, 1e300, -INFINITY, INFINITY, NAN};
#define NDV (sizeof dvals / sizeof dvals[0])

/* ---- integer arithmetic ---- */

typedef struct {
    AirOpcode op;
    bool is32;
    int kind; /* 0 binary, 1 shift (amount in rcx), 2 unary */
} BinOp;

static uint64_t eval_bin(AirOpcode op, int64_t a, int64_t b) {
    uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    unsigned s32 = b & 31, s64 = b & 63;
    switch (op) {
    case Air_Add32:
        return (uint32_t)(a32 + b32);
    case Air_Add64:
        return ua + ub;
    case Air_Sub32:
        return (uint32_t)(a32 - b32);
    case Air_Sub64:
        return ua - ub;
    case Air_And32:
        return a32 & b32;
    case Air_And64:
        return ua & ub;
    case Air_Or32:
        return a32 | b32;
    case Air_Or64:
        return ua | ub;
    case Air_Xor32:
        return a32 ^ b32;
    case Air_Xor64:
        return ua ^ ub;
    case Air_Mul32:
        return (uint32_t)(a32 * b32);
    case Air_Mul64:
        return ua * ub;
    case Air_Lshift32:
        return (uint32_t)(a32 << s32);
    case Air_Lshift64:
        return ua << s64;
    case Air_Rshift32:
        return (uint32_t)((int32_t)a32 >> s32);
    case Air_Rshift64:
        return (uint64_t)(a >> s64);
    case Air_Urshift32:
        return a32 >> s32;
    case Air_Urshift64:
        return ua >> s64;
    case Air_RotateRight32:
        return s32 ? (uint32_t)(a32 >> s32 | a32 << (32 - s32)) : a32;
    case Air_RotateRight64:
        return s64 ? ua >> s64 | ua << (64 - s64) : ua;
    case Air_RotateLeft32:
        return s32 ? (uint32_t)(a32 << s32 | a32 >> (32 - s32)) : a32;
    case Air_RotateLeft64:
        return s64 ? ua << s64 | ua >> (64 - s64) : ua;
    case Air_Neg32:
        return (uint32_t)(0u - a32);
    case Air_Neg64:
        return 0 - ua;
    case Air_Not32:
        return (uint32_t)~a32;
    case Air_Not64:
        return ~ua;
    default:
        abort();
    }
}

static void test_int_arith(void) {
    static const BinOp ops[] = {
        {Air_Add32, 1, 0},         {Air_Add64, 0, 0},         {Air_Sub32, 1, 0},
        {Air_Sub64, 0, 0},         {Air_And32, 1, 0},         {Air_And64, 0, 0},
        {Air_Or32, 1, 0},          {Air_Or64, 0, 0},          {Air_Xor32, 1, 0},
        {Air_Xor64, 0, 0},         {Air_Mul32, 1, 0},         {Air_Mul64, 0, 0},
        {Air_Lshift32, 1, 1},      {Air_Lshift64, 0, 1},      {Air_Rshift32, 1, 1},
        {Air_Rshift64, 0, 1},      {Air_Urshift32, 1, 1},     {Air_Urshift64, 0, 1},
        {Air_RotateRight32, 1, 1}, {Air_RotateRight64, 0, 1}, {Air_RotateLeft32, 1, 1},
        {Air_RotateLeft64, 0, 1},  {Air_Neg32, 1, 2},         {Air_Neg64, 0, 2},
        {Air_Not32, 1, 2},         {Air_Not64, 0, 2},
    };
    enum { V_Reg, V_Mem, V_ToMem, V_Imm, NV };
    static const int64_t imms[] = {0, 1, -1, 5, 31, 33, 127, 128, -129, INT32_MAX, INT32_MIN};
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const BinOp *o = &ops[i];
        AirCode *cs[NV + 16] = {0};
        int64_t imm_of[NV + 16];
        unsigned n = 0;
        for (unsigned v = 0; v < NV; v++) {
            if (o->kind == 2 && v == V_Imm)
                continue;
            if (o->kind != 0 && v == V_ToMem)
                continue;
            if (o->kind == 1 && v == V_Mem)
                continue;
            if ((o->op == Air_Mul32 || o->op == Air_Mul64) && (v == V_ToMem || v == V_Imm))
                continue; /* no such 2-operand forms (the imm form is 3-operand) */
            unsigned nimm = v == V_Imm ? sizeof imms / sizeof imms[0] : 1;
            for (unsigned k = 0; k < nimm; k++) {
                AirCode *c = proc("arith");
                c->frame_size = 16;
                AirArg mem = air_addr(B3X_rbp, -16);
                /* Garbage in the upper half of 32-bit inputs must not matter. */
                if (o->kind == 1)
                    ins(c, 0, Air_Move, 2, R(rsi), R(rcx));
                if (v == V_Reg) {
                    if (o->kind == 2)
                        ins(c, 0, o->op, 1, R(rdi));
                    else
                        ins(c, 0, o->op, 2, o->kind == 1 ? R(rcx) : R(rsi), R(rdi));
                    ins(c, 0, Air_Move, 2, R(rdi), R(rax));
                } else if (v == V_Mem) { /* op mem, reg (or op mem for unary) */
                    if (o->kind == 2) {
                        ins(c, 0, Air_Move, 2, R(rdi), mem);
                        ins(c, 0, o->op, 1, mem);
                        ins(c, 0, o->is32 ? Air_Move32 : Air_Move, 2, mem, R(rax));
                    } else {
                        ins(c, 0, Air_Move, 2, R(rsi), mem);
                        ins(c, 0, o->op, 2, mem, R(rdi));
                        ins(c, 0, Air_Move, 2, R(rdi), R(rax));
                    }
                } else if (v == V_ToMem) { /* op reg, mem */
                    ins(c, 0, Air_Move, 2, R(rdi), mem);
                    ins(c, 0, o->op, 2, R(rsi), mem);
                    ins(c, 0, o->is32 ? Air_Move32 : Air_Move, 2, mem, R(rax));
                } else {
                    ins(c, 0, o->op, 2, IMM(imms[k]), R(rdi));
                    ins(c, 0, Air_Move, 2, R(rdi), R(rax));
                }
                ins(c, 0, Air_Ret64, 1, R(rax));
                emit(c);
                imm_of[n] = v == V_Imm ? imms[k] : INT64_MAX;
                cs[n++] = c;
            }
        }
        load();
        for (unsigned k = 0; k < n; k++)
            for (unsigned a = 0; a < NIV; a++)
                for (unsigned b = 0; b < NIV; b++) {
                    int64_t bb = imm_of[k] != INT64_MAX ? imm_of[k] : ivals[b];
                    uint64_t want = eval_bin(o->op, ivals[a], bb);
                    uint64_t got = (uint64_t)CAST(F_ii, fn(cs[k]))(ivals[a], ivals[b]);
                    CHECK(got == want,
                          "%s variant %u (%" PRId64 ", %" PRId64 "): got %" PRIx64 " want %" PRIx64,
                          air_opcode_names[o->op], k, ivals[a], bb, got, want);
                }
    }

    /* Three-operand Add and Mul with every aliasing. */
    for (int is32 = 0; is32 < 2; is32++) {
        AirOpcode add = is32 ? Air_Add32 : Air_Add64, mul = is32 ? Air_Mul32 : Air_Mul64;
        AirCode *c[7];
        c[0] = proc("add3");
        ins(c[0], 0, add, 3, R(rdi), R(rsi), R(rax));
        c[1] = proc("add3");
        ins(c[1], 0, add, 3, R(rdi), R(rsi), R(rdi));
        ins(c[1], 0, Air_Move, 2, R(rdi), R(rax));
        c[2] = proc("add3");
        ins(c[2], 0, add, 3, R(rdi), R(rsi), R(rsi));
        ins(c[2], 0, Air_Move, 2, R(rsi), R(rax));
        c[3] = proc("add3");
        ins(c[3], 0, Air_Move, 2, R(rdi), R(r13));
        ins(c[3], 0, Air_Move, 2, R(rsi), R(r12));
        ins(c[3], 0, add, 3, R(r13), R(r12), R(rax)); /* lea (r13, r12): the rbp-like base and r12 index */
        c[4] = proc("add3imm");
        ins(c[4], 0, add, 3, IMM(-1000), R(rdi), R(rax));
        c[5] = proc("add3imm");
        ins(c[5], 0, add, 3, IMM(0), R(rdi), R(rax));
        c[6] = proc("mul3");
        ins(c[6], 0, mul, 3, IMM(-77), R(rdi), R(rax));
        for (int k = 0; k < 7; k++) {
            if (k == 3) {
                c[k]->frame_size = 16;
                b3_regset_add(&c[k]->used_callee_saves, B3X_r12);
                b3_regset_add(&c[k]->used_callee_saves, B3X_r13);
            }
            ins(c[k], 0, Air_Ret64, 1, R(rax));
            emit(c[k]);
        }
        load();
        for (unsigned a = 0; a < NIV; a++)
            for (unsigned b = 0; b < NIV; b++) {
                int64_t A = ivals[a], Bv = ivals[b];
                for (int k = 0; k < 4; k++)
                    CHECK((uint64_t)CAST(F_ii, fn(c[k]))(A, Bv) == eval_bin(add, A, Bv), "add3 variant %d",
                          k);
                CHECK((uint64_t)CAST(F_ii, fn(c[4]))(A, Bv) == eval_bin(add, A, -1000), "add3 imm");
                CHECK((uint64_t)CAST(F_ii, fn(c[5]))(A, Bv) == eval_bin(add, A, 0), "add3 imm 0");
                CHECK((uint64_t)CAST(F_ii, fn(c[6]))(A, Bv) == eval_bin(mul, A, -77), "mul3 imm");
            }
    }
}

/* ---- compares, tests, branches and conditional moves on integers ---- */

static void test_int_conditions(void) {
    for (int is32 = 0; is32 < 2; is32++) {
        AirOpcode cmp = is32 ? Air_Compare32 : Air_Compare64, tst = is32 ? Air_Test32 : Air_Test64;
        AirOpcode br = is32 ? Air_Branch32 : Air_Branch64, brt = is32 ? Air_BranchTest32 : Air_BranchTest64;
        AirOpcode cmov = is32 ? Air_MoveConditionally32 : Air_MoveConditionally64;
        AirOpcode cmovt = is32 ? Air_MoveConditionallyTest32 : Air_MoveConditionallyTest64;
        AirOpcode fmov = is32 ? Air_MoveDoubleConditionally32 : Air_MoveDoubleConditionally64;
        AirOpcode fmovt = is32 ? Air_MoveDoubleConditionallyTest32 : Air_MoveDoubleConditionallyTest64;
        for (int test = 0; test < 2; test++) {
            unsigned nconds = test ? 5 : 10;
            for (unsigned ci = 0; ci < nconds; ci++) {
                unsigned cc = test ? resconds[ci] : relconds[ci];
                AirArg cond = test ? air_rescond((AirCond)cc) : air_relcond((AirCond)cc);
                enum { NC = 12 };
                AirCode *c[NC];
                /* 0: compare reg,reg (garbage dst first); 1: compare reg,imm 0; 2: compare mem,reg */
                c[0] = proc("cmp");
                ins(c[0], 0, Air_Move, 2, air_bigimm(0x5555555555555555), R(rax));
                ins(c[0], 0, test ? tst : cmp, 4, cond, R(rdi), R(rsi), R(rax));
                ins(c[0], 0, Air_Ret64, 1, R(rax));
                c[1] = proc("cmp0");
                ins(c[1], 0, test ? tst : cmp, 4, cond, R(rdi), IMM(test ? -1 : 0), R(rax));
                ins(c[1], 0, Air_Ret64, 1, R(rax));
                c[2] = proc("cmpmem");
                c[2]->frame_size = 16;
                ins(c[2], 0, Air_Move, 2, R(rdi), air_addr(B3X_rbp, -8));
                if (test)
                    ins(c[2], 0, tst, 4, cond, air_addr(B3X_rbp, -8), IMM(0x70000001), R(rax));
                else
                    ins(c[2], 0, cmp, 4, cond, air_addr(B3X_rbp, -8), R(rsi), R(rax));
                ins(c[2], 0, Air_Ret64, 1, R(rax));
                /* 3..5: branch with each layout */
                for (int l = 0; l < 3; l++) {
                    AirCode *b = c[3 + l] = proc("br");
                    ins(b, 0, test ? brt : br, 3, cond, R(rdi), R(rsi));
                    unsigned tk = l == 0 ? 1 : l == 1 ? 2 : 3, nt = l == 0 ? 2 : l == 1 ? 1 : 2;
                    if (l == 2)
                        ins(b, 1, Air_Oops, 0);
                    succs(b, 0, 2, tk, nt);
                    ret_const(b, tk, 1);
                    ret_const(b, nt, 0);
                }
                /* 6: cmov; 7: cmov with imm; 8: FP conditional move */
                c[6] = proc("cmov");
                ins(c[6], 0, Air_Move, 2, R(rdx), R(rax));
                ins(c[6], 0, test ? cmovt : cmov, 5, cond, R(rdi), R(rsi), R(rcx), R(rax));
                ins(c[6], 0, Air_Ret64, 1, R(rax));
                c[7] = proc("cmovimm");
                ins(c[7], 0, Air_Move, 2, R(rdx), R(rax));
                ins(c[7], 0, test ? cmovt : cmov, 5, cond, R(rdi), IMM(test ? 0x10 : -5), R(rcx), R(rax));
                ins(c[7], 0, Air_Ret64, 1, R(rax));
                c[8] = proc("fmov");
                ins(c[8], 0, test ? fmovt : fmov, 5, cond, R(rdi), R(rsi), XMM(0), XMM(1));
                ins(c[8], 0, Air_MoveDouble, 2, XMM(1), XMM(0));
                ins(c[8], 0, Air_RetDouble, 1, XMM(0));
                /* 9..11: six-arg cmov (then rcx, else rdx) into else, into then, elsewhere */
                static const unsigned idst[3] = {B3X_rdx, B3X_rcx, B3X_rax};
                for (int k = 0; k < 3; k++) {
                    c[9 + k] = proc("cmov6");
                    ins(c[9 + k], 0, test ? cmovt : cmov, 6, cond, R(rdi), R(rsi), R(rcx), R(rdx),
                        air_tmp((AirTmp)idst[k]));
                    ins(c[9 + k], 0, Air_Move, 2, air_tmp((AirTmp)idst[k]), R(rax));
                    ins(c[9 + k], 0, Air_Ret64, 1, R(rax));
                }
                for (int k = 0; k < NC; k++)
                    emit(c[k]);
                load();
                typedef int64_t (*F4)(int64_t, int64_t, int64_t, int64_t);
                for (unsigned a = 0; a < NIV; a++)
                    for (unsigned bi = 0; bi < NIV; bi++) {
                        int64_t A = ivals[a], Bv = ivals[bi];
                        bool want = test ? res(cc, A, Bv, is32) : rel(cc, A, Bv, is32);
                        const char *name = x86_cc_name(cc);
                        CHECK(CAST(F_ii, fn(c[0]))(A, Bv) == want, "%s %s%s (%" PRId64 ",%" PRId64 ")",
                              air_opcode_names[test ? tst : cmp], name, "", A, Bv);
                        bool w1 = test ? res(cc, A, -1, is32) : rel(cc, A, 0, is32);
                        CHECK(CAST(F_ii, fn(c[1]))(A, Bv) == w1, "%s %s with 0/-1 (%" PRId64 ")",
                              air_opcode_names[test ? tst : cmp], name, A);
                        bool w2 = test ? res(cc, A, 0x70000001, is32) : want;
                        CHECK(CAST(F_ii, fn(c[2]))(A, Bv) == w2, "%s %s mem (%" PRId64 ",%" PRId64 ")",
                              air_opcode_names[test ? tst : cmp], name, A, Bv);
                        for (int l = 0; l < 3; l++)
                            CHECK(CAST(F_ii, fn(c[3 + l]))(A, Bv) == want,
                                  "%s %s layout %d (%" PRId64 ",%" PRId64 ")",
                                  air_opcode_names[test ? brt : br], name, l, A, Bv);
                        CHECK(CAST(F4, fn(c[6]))(A, Bv, 111, 222) == (want ? 222 : 111), "cmov %s", name);
                        for (int k = 0; k < 3; k++)
                            CHECK(CAST(F4, fn(c[9 + k]))(A, Bv, 111, 222) == (want ? 222 : 111),
                                  "cmov six-arg %d %s", k, name);
                        bool w7 = test ? res(cc, A, 0x10, is32) : rel(cc, A, -5, is32);
                        CHECK(CAST(F4, fn(c[7]))(A, Bv, 111, 222) == (w7 ? 222 : 111), "cmov imm %s", name);
                        CHECK(CAST(F_iidd, fn(c[8]))(A, Bv, 1.5, 2.5) == (want ? 1.5 : 2.5), "fmov %s", name);
                    }
            }
        }
    }
}

/* ---- double and float conditions ---- */

static void test_double_conditions(void) {
    for (int isf = 0; isf < 2; isf++) {
        AirOpcode cmp = isf ? Air_CompareFloat : Air_CompareDouble,
                  br = isf ? Air_BranchFloat : Air_BranchDouble;
        AirOpcode cmov = isf ? Air_MoveConditionallyFloat : Air_MoveConditionallyDouble;
        AirOpcode fmov = isf ? Air_MoveDoubleConditionallyFloat : Air_MoveDoubleConditionallyDouble;
        for (unsigned dc = 0; dc <= AirDCond_LessThanOrEqualOrUnordered; dc++) {
            AirArg cond = air_dcond((AirDoubleCond)dc);
            AirCode *c[13];
            c[0] = proc("dcmp");
            ins(c[0], 0, Air_Move, 2, air_bigimm(-1), R(rax));
            ins(c[0], 0, cmp, 5, cond, XMM(0), XMM(1), R(rax), R(rcx));
            ins(c[0], 0, Air_Ret64, 1, R(rax));
            for (int l = 0; l < 3; l++) {
                AirCode *b = c[1 + l] = proc("dbr");
                ins(b, 0, br, 3, cond, XMM(0), XMM(1));
                unsigned tk = l == 0 ? 1 : l == 1 ? 2 : 3, nt = l == 0 ? 2 : l == 1 ? 1 : 2;
                if (l == 2)
                    ins(b, 1, Air_Oops, 0);
                succs(b, 0, 2, tk, nt);
                ret_const(b, tk, 1);
                ret_const(b, nt, 0);
            }
            c[4] = proc("dcmov");
            ins(c[4], 0, cmov, 5, cond, XMM(0), XMM(1), R(rdi), R(rsi));
            ins(c[4], 0, Air_Move, 2, R(rsi), R(rax));
            ins(c[4], 0, Air_Ret64, 1, R(rax));
            c[5] = proc("dfmov");
            ins(c[5], 0, fmov, 5, cond, XMM(0), XMM(1), XMM(2), XMM(3));
            ins(c[5], 0, Air_MoveDouble, 2, XMM(3), XMM(0));
            ins(c[5], 0, Air_RetDouble, 1, XMM(0));
            /* The high registers (REX encodings). */
            c[6] = proc("dcmp_hi");
            ins(c[6], 0, Air_MoveDouble, 2, XMM(0), XMM(13));
            ins(c[6], 0, Air_MoveDouble, 2, XMM(1), XMM(9));
            ins(c[6], 0, cmp, 5, cond, XMM(13), XMM(9), R(r9), R(r10));
            ins(c[6], 0, Air_Move, 2, R(r9), R(rax));
            ins(c[6], 0, Air_Ret64, 1, R(rax));
            /* 7..9: six-arg cmov (then rdi, else rsi) into else, into then, elsewhere;
             * 10..12: the same for the FP conditional move (then xmm2, else xmm3). */
            static const unsigned gdst[3] = {B3X_rsi, B3X_rdi, B3X_rax};
            for (int k = 0; k < 3; k++) {
                c[7 + k] = proc("dcmov6");
                ins(c[7 + k], 0, cmov, 6, cond, XMM(0), XMM(1), R(rdi), R(rsi), air_tmp((AirTmp)gdst[k]));
                ins(c[7 + k], 0, Air_Move, 2, air_tmp((AirTmp)gdst[k]), R(rax));
                ins(c[7 + k], 0, Air_Ret64, 1, R(rax));
                c[10 + k] = proc("dfmov6");
                AirArg fd = k == 0 ? XMM(3) : k == 1 ? XMM(2) : XMM(4);
                ins(c[10 + k], 0, fmov, 6, cond, XMM(0), XMM(1), XMM(2), XMM(3), fd);
                ins(c[10 + k], 0, Air_MoveDouble, 2, fd, XMM(0));
                ins(c[10 + k], 0, Air_RetDouble, 1, XMM(0));
            }
            for (int k = 0; k < 13; k++)
                emit(c[k]);
            load();
            for (unsigned a = 0; a < NDV; a++)
                for (unsigned b = 0; b < NDV; b++) {
                    double A = dvals[a], Bv = dvals[b];
                    if (isf) {
                        float fa = (float)A, fb = (float)Bv;
                        bool want = dcmp(dc, fa, fb);
                        CHECK(CAST(F_ff, fn(c[0]))(fa, fb) == want, "CompareFloat %u (%g,%g)", dc, A, Bv);
                        for (int l = 0; l < 3; l++)
                            CHECK(CAST(F_ff, fn(c[1 + l]))(fa, fb) == want,
                                  "BranchFloat %u layout %d (%g,%g)", dc, l, A, Bv);
                        CHECK(CAST(F_ffii, fn(c[4]))(fa, fb, 7, 9) == (want ? 7 : 9),
                              "MoveCondFloat %u (%g,%g)", dc, A, Bv);
                        CHECK(CAST(F_ffdd, fn(c[5]))(fa, fb, 1.5, 2.5) == (want ? 1.5 : 2.5),
                              "MoveDoubleCondFloat %u (%g,%g)", dc, A, Bv);
                        CHECK(CAST(F_ff, fn(c[6]))(fa, fb) == want, "CompareFloat hi %u (%g,%g)", dc, A, Bv);
                        for (int k = 0; k < 3; k++) {
                            CHECK(CAST(F_ffii, fn(c[7 + k]))(fa, fb, 7, 9) == (want ? 7 : 9),
                                  "MoveCondFloat six-arg %d %u (%g,%g)", k, dc, A, Bv);
                            CHECK(CAST(F_ffdd, fn(c[10 + k]))(fa, fb, 1.5, 2.5) == (want ? 1.5 : 2.5),
                                  "MoveDoubleCondFloat six-arg %d %u (%g,%g)", k, dc, A, Bv);
                        }
                    } else {
                        bool want = dcmp(dc, A, Bv);
                        CHECK(CAST(F_dd, fn(c[0]))(A, Bv) == want, "CompareDouble %u (%g,%g)", dc, A, Bv);
                        for (int l = 0; l < 3; l++)
                            CHECK(CAST(F_dd, fn(c[1 + l]))(A, Bv) == want,
                                  "BranchDouble %u layout %d (%g,%g)", dc, l, A, Bv);
                        CHECK(CAST(F_ddii, fn(c[4]))(A, Bv, 7, 9) == (want ? 7 : 9),
                              "MoveCondDouble %u (%g,%g)", dc, A, Bv);
                        CHECK(CAST(F_dddd, fn(c[5]))(A, Bv, 1.5, 2.5) == (want ? 1.5 : 2.5),
                              "MoveDoubleCondDouble %u (%g,%g)", dc, A, Bv);
                        CHECK(CAST(F_dd, fn(c[6]))(A, Bv) == want, "CompareDouble hi %u (%g,%g)", dc, A, Bv);
                        for (int k = 0; k < 3; k++) {
                            CHECK(CAST(F_ddii, fn(c[7 + k]))(A, Bv, 7, 9) == (want ? 7 : 9),
                                  "MoveCondDouble six-arg %d %u (%g,%g)", k, dc, A, Bv);
                            CHECK(CAST(F_dddd, fn(c[10 + k]))(A, Bv, 1.5, 2.5) == (want ? 1.5 : 2.5),
                                  "MoveDoubleCondDouble six-arg %d %u (%g,%g)", k, dc, A, Bv);
                        }
                    }
                }
        }
    }
}

/* ---- branches on arithmetic ---- */

static void test_branch_arith(void) {
    static const struct {
        AirOpcode op;
        bool is32;
    } ops[] = {{Air_BranchAdd32, 1}, {Air_BranchAdd64, 0}, {Air_BranchSub32, 1}, {Air_BranchSub64, 0},
               {Air_BranchMul32, 1}, {Air_BranchMul64, 0}, {Air_BranchNeg32, 1}, {Air_BranchNeg64, 0}};
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (unsigned ci = 0; ci < 5; ci++) {
            unsigned cc = resconds[ci];
            AirOpcode op = ops[i].op;
            bool neg = op == Air_BranchNeg32 || op == Air_BranchNeg64;
            /* taken: 1000 + result, not taken: result (results are checked too) */
            AirCode *c = proc("brarith");
            if (neg)
                ins(c, 0, op, 2, air_rescond((AirCond)cc), R(rdi));
            else
                ins(c, 0, op, 3, air_rescond((AirCond)cc), R(rsi), R(rdi));
            succs(c, 0, 2, 1, 2);
            ins(c, 1, Air_Move, 2, IMM(1), R(rax));
            ins(c, 1, Air_Ret64, 1, R(rax));
            ins(c, 2, Air_Move, 2, R(rdi), R(rax));
            ins(c, 2, Air_Ret64, 1, R(rax));
            emit(c);
            load();
            for (unsigned a = 0; a < NIV; a++)
                for (unsigned b = 0; b < NIV; b++) {
                    int64_t A = ivals[a], Bv = ivals[b], r;
                    bool ovf;
                    if (ops[i].is32) {
                        int32_t r32, a32 = (int32_t)A, b32 = (int32_t)Bv;
                        ovf = op == Air_BranchAdd32   ? __builtin_add_overflow(a32, b32, &r32)
                              : op == Air_BranchSub32 ? __builtin_sub_overflow(a32, b32, &r32)
                              : op == Air_BranchMul32 ? __builtin_mul_overflow(a32, b32, &r32)
                                                      : __builtin_sub_overflow(0, a32, &r32);
                        r = (uint32_t)r32;
                    } else {
                        ovf = op == Air_BranchAdd64   ? __builtin_add_overflow(A, Bv, &r)
                              : op == Air_BranchSub64 ? __builtin_sub_overflow(A, Bv, &r)
                              : op == Air_BranchMul64 ? __builtin_mul_overflow(A, Bv, &r)
                                                      : __builtin_sub_overflow((int64_t)0, A, &r);
                    }
                    int64_t sr = ops[i].is32 ? (int32_t)r : r;
                    bool want = cc == AirCond_Overflow  ? ovf
                                : cc == AirCond_Zero    ? sr == 0
                                : cc == AirCond_NonZero ? sr != 0
                                : cc == AirCond_Signed  ? sr < 0
                                                        : sr >= 0;
                    int64_t got = CAST(F_ii, fn(c))(A, Bv);
                    CHECK(got == (want ? 1 : r), "%s %s (%" PRId64 ",%" PRId64 "): got %" PRId64,
                          air_opcode_names[op], x86_cc_name(cc), A, Bv, got);
                }
        }
}

/* ---- division, bit counts ---- */

static void test_div_clz(void) {
    AirCode *c[8];
    for (int k = 0; k < 8; k++) {
        bool is32 = k < 4, sign = (k & 2) == 0, rem = k & 1;
        AirCode *p = c[k] = proc("div");
        ins(p, 0, Air_Move, 2, R(rdi), R(rax));
        if (sign)
            ins(p, 0, is32 ? Air_X86ConvertToDoubleWord32 : Air_X86ConvertToQuadWord64, 2, R(rax), R(rdx));
        else
            ins(p, 0, Air_Move, 2, IMM(0), R(rdx));
        AirOpcode op = is32 ? (sign ? Air_X86Div32 : Air_X86UDiv32) : (sign ? Air_X86Div64 : Air_X86UDiv64);
        if (k == 0 || k == 5) { /* divisor in memory */
            p->frame_size = 16;
            ins(p, 0, Air_Move, 2, R(rsi), air_addr(B3X_rbp, -16));
            ins(p, 0, op, 3, R(rax), R(rdx), air_addr(B3X_rbp, -16));
        } else {
            ins(p, 0, op, 3, R(rax), R(rdx), R(rsi));
        }
        if (rem)
            ins(p, 0, Air_Move, 2, R(rdx), R(rax));
        ins(p, 0, Air_Ret64, 1, R(rax));
        emit(p);
    }
    AirCode *clz[2];
    for (int k = 0; k < 2; k++) {
        clz[k] = proc("clz");
        ins(clz[k], 0, k ? Air_CountLeadingZeros64 : Air_CountLeadingZeros32, 3, R(rdi), R(rax), R(r11));
        ins(clz[k], 0, Air_Ret64, 1, R(rax));
        emit(clz[k]);
    }
    load();
    for (unsigned a = 0; a < NIV; a++) {
        int64_t A = ivals[a];
        uint32_t a32 = (uint32_t)A;
        CHECK(CAST(F_i, fn(clz[0]))(A) == (a32 ? __builtin_clz(a32) : 32), "clz32 %" PRIx64, A);
        CHECK(CAST(F_i, fn(clz[1]))(A) == (A ? __builtin_clzll((uint64_t)A) : 64), "clz64 %" PRIx64, A);
        for (unsigned b = 0; b < NIV; b++) {
            int64_t Bv = ivals[b];
            int32_t a_32 = (int32_t)A, b_32 = (int32_t)Bv;
            for (int k = 0; k < 8; k++) {
                bool is32 = k < 4, sign = (k & 2) == 0, rem = k & 1;
                uint64_t want;
                if (is32) {
                    if (!b_32 || (sign && a_32 == INT32_MIN && b_32 == -1))
                        continue;
                    want = sign ? (uint32_t)(rem ? a_32 % b_32 : a_32 / b_32)
                                : (uint32_t)(rem ? (uint32_t)A % (uint32_t)Bv : (uint32_t)A / (uint32_t)Bv);
                } else {
                    if (!Bv || (sign && A == INT64_MIN && Bv == -1))
                        continue;
                    want = sign ? (uint64_t)(rem ? A % Bv : A / Bv)
                                : (rem ? (uint64_t)A % (uint64_t)Bv : (uint64_t)A / (uint64_t)Bv);
                }
                uint64_t got = (uint64_t)CAST(F_ii, fn(c[k]))(A, Bv);
                CHECK(got == want, "div variant %d (%" PRId64 ",%" PRId64 "): got %" PRIx64 " want %" PRIx64,
                      k, A, Bv, got, want);
            }
        }
    }
}

/* ---- floating point arithmetic and conversions ---- */

static void test_fp(void) {
    static const struct {
        AirOpcode op;
        bool f32;
    } bins[] = {{Air_AddDouble, 0}, {Air_SubDouble, 0}, {Air_MulDouble, 0}, {Air_DivDouble, 0},
                {Air_AddFloat, 1},  {Air_SubFloat, 1},  {Air_MulFloat, 1},  {Air_DivFloat, 1}};
    AirCode *bc[8][2];
    for (unsigned i = 0; i < 8; i++)
        for (int mem = 0; mem < 2; mem++) {
            AirCode *c = bc[i][mem] = proc("fbin");
            if (mem) {
                c->frame_size = 16;
                ins(c, 0, bins[i].f32 ? Air_MoveFloat : Air_MoveDouble, 2, XMM(1), air_addr(B3X_rbp, -16));
                ins(c, 0, bins[i].op, 2, air_addr(B3X_rbp, -16), XMM(0));
            } else {
                ins(c, 0, Air_MoveDouble, 2, XMM(1), XMM(9));
                ins(c, 0, bins[i].op, 2, XMM(9), XMM(0));
            }
            ins(c, 0, Air_RetDouble, 1, XMM(0));
            emit(c);
        }
    static const AirOpcode unops[] = {Air_SqrtDouble, Air_CeilDouble, Air_FloorDouble,
                                      Air_SqrtFloat,  Air_CeilFloat,  Air_FloorFloat};
    AirCode *uc[6][2];
    for (unsigned i = 0; i < 6; i++)
        for (int mem = 0; mem < 2; mem++) {
            AirCode *c = uc[i][mem] = proc("fun");
            if (mem) {
                c->frame_size = 16;
                ins(c, 0, i < 3 ? Air_MoveDouble : Air_MoveFloat, 2, XMM(0), air_addr(B3X_rbp, -16));
                ins(c, 0, unops[i], 2, air_addr(B3X_rbp, -16), XMM(14));
            } else {
                ins(c, 0, unops[i], 2, XMM(0), XMM(14));
            }
            ins(c, 0, Air_MoveDouble, 2, XMM(14), XMM(0));
            ins(c, 0, Air_RetDouble, 1, XMM(0));
            emit(c);
        }
    /* conversions */
    AirCode *i2d = proc("i2d"), *l2d = proc("l2d"), *i2f = proc("i2f"), *l2f = proc("l2f");
    ins(i2d, 0, Air_ConvertInt32ToDouble, 2, R(rdi), XMM(0));
    ins(l2d, 0, Air_ConvertInt64ToDouble, 2, R(rdi), XMM(0));
    ins(i2f, 0, Air_ConvertInt32ToFloat, 2, R(rdi), XMM(0));
    ins(l2f, 0, Air_ConvertInt64ToFloat, 2, R(rdi), XMM(0));
    AirCode *d2i = proc("d2i"), *d2l = proc("d2l"), *f2i = proc("f2i"), *f2l = proc("f2l");
    ins(d2i, 0, Air_TruncateDoubleToInt32, 2, XMM(0), R(rax));
    ins(d2l, 0, Air_TruncateDoubleToInt64, 2, XMM(0), R(rax));
    ins(f2i, 0, Air_TruncateFloatToInt32, 2, XMM(0), R(rax));
    ins(f2l, 0, Air_TruncateFloatToInt64, 2, XMM(0), R(rax));
    AirCode *d2f = proc("d2f"), *f2d = proc("f2d"), *bits = proc("bits"), *unbits = proc("unbits");
    ins(d2f, 0, Air_ConvertDoubleToFloat, 2, XMM(0), XMM(0));
    ins(f2d, 0, Air_ConvertFloatToDouble, 2, XMM(0), XMM(0));
    ins(bits, 0, Air_MoveDoubleTo64, 2, XMM(0), R(rax));
    ins(unbits, 0, Air_Move64ToDouble, 2, R(rdi), XMM(8));
    ins(unbits, 0, Air_MoveDouble, 2, XMM(8), XMM(0));
    AirCode *fbits = proc("fbits"), *funbits = proc("funbits"), *zero = proc("zero"), *absd = proc("abs");
    ins(fbits, 0, Air_MoveFloatTo32, 2, XMM(0), R(rax));
    ins(funbits, 0, Air_Move32ToFloat, 2, R(rdi), XMM(0));
    ins(zero, 0, Air_MoveZeroToDouble, 1, XMM(0));
    /* abs and negate through the bit operations */
    ins(absd, 0, Air_Move, 2, air_bigimm(INT64_MAX), R(rax));
    ins(absd, 0, Air_Move64ToDouble, 2, R(rax), XMM(1));
    ins(absd, 0, Air_AndDouble, 2, XMM(1), XMM(0));
    AirCode *negd = proc("neg"), *orf = proc("orf");
    ins(negd, 0, Air_Move, 2, air_bigimm(INT64_MIN), R(rax));
    ins(negd, 0, Air_Move64ToDouble, 2, R(rax), XMM(11));
    ins(negd, 0, Air_XorDouble, 2, XMM(11), XMM(0));
    ins(orf, 0, Air_Move32, 2, IMM((int32_t)0x80000000u), R(rax));
    ins(orf, 0, Air_Move32ToFloat, 2, R(rax), XMM(1));
    ins(orf, 0, Air_OrFloat, 2, XMM(1), XMM(0));
    AirCode *all[] = {i2d, l2d, i2f, l2f, d2f, f2d, unbits, funbits, zero, absd, negd, orf};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        ins(all[i], 0, Air_RetDouble, 1, XMM(0));
    AirCode *alli[] = {d2i, d2l, f2i, f2l, bits, fbits};
    for (unsigned i = 0; i < sizeof alli / sizeof alli[0]; i++)
        ins(alli[i], 0, Air_Ret64, 1, R(rax));
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        emit(all[i]);
    for (unsigned i = 0; i < sizeof alli / sizeof alli[0]; i++)
        emit(alli[i]);
    load();

    static const double fv[] = {0.0, -0.0, 1.0, -1.5, 2.5, 3.5, -2.5, 1e10, -1e-10, 123.456, INFINITY, NAN};
    for (unsigned a = 0; a < sizeof fv / sizeof fv[0]; a++) {
        double A = fv[a];
        float fa = (float)A;
        for (unsigned b = 0; b < sizeof fv / sizeof fv[0]; b++) {
            double Bv = fv[b];
            float fb = (float)Bv;
            double dw[4] = {A + Bv, A - Bv, A * Bv, A / Bv};
            float fw[4] = {fa + fb, fa - fb, fa * fb, fa / fb};
            for (unsigned i = 0; i < 8; i++)
                for (int mem = 0; mem < 2; mem++) {
                    if (i < 4) {
                        double g = CAST(F_dddd, fn(bc[i][mem]))(A, Bv, 0, 0);
                        CHECK(memcmp(&g, &dw[i], 8) == 0 || (isnan(g) && isnan(dw[i])), "%s %g %g: %g",
                              air_opcode_names[bins[i].op], A, Bv, g);
                    } else {
                        typedef float (*FF)(float, float);
                        float g = CAST(FF, fn(bc[i][mem]))(fa, fb);
                        CHECK(memcmp(&g, &fw[i - 4], 4) == 0 || (isnan(g) && isnan(fw[i - 4])),
                              "%s %g %g: %g", air_opcode_names[bins[i].op], A, Bv, g);
                    }
                }
        }
        double dw[3] = {sqrt(A), ceil(A), floor(A)};
        float fw[3] = {sqrtf(fa), ceilf(fa), floorf(fa)};
        for (unsigned i = 0; i < 6; i++)
            for (int mem = 0; mem < 2; mem++) {
                if (i < 3) {
                    double g = CAST(F_d, fn(uc[i][mem]))(A);
                    CHECK(memcmp(&g, &dw[i], 8) == 0 || (isnan(g) && isnan(dw[i])), "%s %g: %g",
                          air_opcode_names[unops[i]], A, g);
                } else {
                    float g = CAST(F_f, fn(uc[i][mem]))(fa);
                    CHECK(memcmp(&g, &fw[i - 3], 4) == 0 || (isnan(g) && isnan(fw[i - 3])), "%s %g: %g",
                          air_opcode_names[unops[i]], A, (double)g);
                }
            }
        if (A == A && fabs(A) < 1e9) {
            CHECK(CAST(F_d_i, fn(d2i))(A) == (uint32_t)(int32_t)A, "d2i %g", A);
            CHECK(CAST(F_f_i, fn(f2i))(fa) == (uint32_t)(int32_t)fa, "f2i %g", A);
        }
        if (A == A && fabs(A) < 1e18) {
            CHECK(CAST(F_d_i, fn(d2l))(A) == (int64_t)A, "d2l %g", A);
            CHECK(CAST(F_f_i, fn(f2l))(fa) == (int64_t)fa, "f2l %g", A);
        }
        {
            float g = CAST(F_d_f, fn(d2f))(A);
            CHECK(memcmp(&g, &fa, 4) == 0 || (isnan(g) && isnan(fa)), "d2f %g", A);
            double dd = CAST(F_f_d, fn(f2d))(fa), want = fa;
            CHECK(memcmp(&dd, &want, 8) == 0 || (isnan(dd) && isnan(want)), "f2d %g", A);
        }
        uint64_t bitsA;
        memcpy(&bitsA, &A, 8);
        CHECK((uint64_t)CAST(F_d_i, fn(bits))(A) == bitsA, "MoveDoubleTo64 %g", A);
        double back = CAST(F_i_d, fn(unbits))((int64_t)bitsA);
        CHECK(memcmp(&back, &A, 8) == 0, "Move64ToDouble %g", A);
        uint32_t fbitsA;
        memcpy(&fbitsA, &fa, 4);
        CHECK((uint64_t)CAST(F_f_i, fn(fbits))(fa) == fbitsA, "MoveFloatTo32 %g", A);
        float fback = CAST(F_i_f, fn(funbits))((int64_t)fbitsA | (int64_t)0x1234567800000000);
        CHECK(memcmp(&fback, &fa, 4) == 0, "Move32ToFloat %g", A);
        double ab = CAST(F_d, fn(absd))(A), ngd = CAST(F_d, fn(negd))(A), wab = fabs(A), wng = -A;
        CHECK(memcmp(&ab, &wab, 8) == 0 || (isnan(ab) && isnan(A)), "abs %g", A);
        CHECK(memcmp(&ngd, &wng, 8) == 0 || (isnan(ngd) && isnan(A)), "neg %g", A);
        float of = CAST(F_f, fn(orf))(fa), wof = -fabsf(fa);
        CHECK(memcmp(&of, &wof, 4) == 0 || (isnan(of) && isnan(fa)), "orf %g", A);
    }
    double z = CAST(F_d, fn(zero))(5.0);
    CHECK(z == 0.0 && !signbit(z), "MoveZeroToDouble");
    for (unsigned a = 0; a < NIV; a++) {
        int64_t A = ivals[a];
        CHECK(CAST(F_i_d, fn(i2d))(A) == (double)(int32_t)A, "i2d %" PRId64, A);
        CHECK(CAST(F_i_d, fn(l2d))(A) == (double)A, "l2d %" PRId64, A);
        CHECK(CAST(F_i_f, fn(i2f))(A) == (float)(int32_t)A, "i2f %" PRId64, A);
        CHECK(CAST(F_i_f, fn(l2f))(A) == (float)A, "l2f %" PRId64, A);
    }
}

/* ---- memory access ---- */

static void test_memory(void) {
    /* f(p, v): each proc stores or loads through p (rdi) with rsi = v or an index. */
    enum { NM = 16 };
    AirCode *c[NM];
    for (int k = 0; k < NM; k++)
        c[k] = proc("mem");
    ins(c[0], 0, Air_Store8, 2, R(rsi), air_addr(B3X_rdi, 3));
    ins(c[1], 0, Air_Store16, 2, R(rsi), air_addr(B3X_rdi, 6));
    ins(c[2], 0, Air_Move32, 2, R(rsi), air_index(B3X_rdi, B3X_rdx, 4, 8)); /* rdx = 2 */
    ins(c[3], 0, Air_Move, 2, R(rsi), air_index(B3X_rdi, B3X_rdx, 8, -8));
    ins(c[4], 0, Air_Load8, 2, air_addr(B3X_rdi, 3), R(rax));
    ins(c[5], 0, Air_Load8SignedExtendTo32, 2, air_addr(B3X_rdi, 3), R(rax));
    ins(c[6], 0, Air_Load16, 2, air_addr(B3X_rdi, 6), R(rax));
    ins(c[7], 0, Air_Load16SignedExtendTo32, 2, air_addr(B3X_rdi, 6), R(rax));
    ins(c[8], 0, Air_Move32, 2, air_index(B3X_rdi, B3X_rdx, 4, 8), R(rax));
    ins(c[9], 0, Air_Move, 2, air_index(B3X_rdi, B3X_rdx, 8, -8), R(rax));
    ins(c[10], 0, Air_Store8, 2, IMM(-2), air_addr(B3X_rdi, 3));
    ins(c[11], 0, Air_Store16, 2, IMM(0x1234), air_addr(B3X_rdi, 6));
    ins(c[12], 0, Air_Move, 2, IMM(-3), air_addr(B3X_rdi, 8));
    ins(c[13], 0, Air_SignExtend32ToPtr, 2, air_addr(B3X_rdi, 16), R(rax));
    ins(c[14], 0, Air_Lea64, 2, air_index(B3X_rdi, B3X_rsi, 2, 100), R(rax));
    ins(c[15], 0, Air_Lea32, 2, air_addr(B3X_rdi, -1), R(rax));
    for (int k = 0; k < NM; k++) {
        if (k < 4 || (k >= 10 && k <= 12))
            ins(c[k], 0, Air_Move, 2, IMM(0), R(rax));
        ins(c[k], 0, Air_Ret64, 1, R(rax));
        emit(c[k]);
    }
    /* Byte registers that need a REX prefix: sil/dil as sources. */
    AirCode *b8 = proc("bytereg");
    ins(b8, 0, Air_Move, 2, R(rdi), R(rax));
    ins(b8, 0, Air_Move, 2, R(rsi), R(rdi));
    ins(b8, 0, Air_Store8, 2, R(rdi), air_addr(B3X_rax, 0));
    ins(b8, 0, Air_SignExtend8To32, 2, R(rsi), R(rax));
    ins(b8, 0, Air_Ret64, 1, R(rax));
    emit(b8);
    AirCode *ext[4];
    static const AirOpcode exts[] = {Air_SignExtend8To32, Air_ZeroExtend8To32, Air_SignExtend16To32,
                                     Air_ZeroExtend16To32};
    for (int k = 0; k < 4; k++) {
        ext[k] = proc("ext");
        ins(ext[k], 0, exts[k], 2, R(rdi), R(r14));
        ins(ext[k], 0, Air_Move, 2, R(r14), R(rax));
        ext[k]->frame_size = 16;
        b3_regset_add(&ext[k]->used_callee_saves, B3X_r14);
        ins(ext[k], 0, Air_Ret64, 1, R(rax));
        emit(ext[k]);
    }
    load();
    typedef int64_t (*F3)(void *, int64_t, int64_t);
    uint8_t buf[64];
    memset(buf, 0xAA, sizeof buf);
    CAST(F3, fn(c[0]))(buf, 0x1234567890abcdefll, 2);
    CHECK(buf[3] == 0xef && buf[2] == 0xAA && buf[4] == 0xAA, "Store8");
    CAST(F3, fn(c[1]))(buf, 0x1234567890ab8001ll, 2);
    CHECK(buf[6] == 0x01 && buf[7] == 0x80 && buf[8] == 0xAA && buf[5] == 0xAA, "Store16");
    CAST(F3, fn(c[2]))(buf, 0x11223344556677ll, 2);
    uint32_t u32;
    memcpy(&u32, buf + 16, 4);
    CHECK(u32 == 0x44556677 && buf[20] == 0xAA, "Move32 store index");
    CAST(F3, fn(c[3]))(buf, 0x0102030405060708ll, 2);
    uint64_t u64;
    memcpy(&u64, buf + 8, 8);
    CHECK(u64 == 0x0102030405060708ull, "Move store index");
    CHECK(CAST(F3, fn(c[4]))(buf, 0, 2) == 0xef, "Load8");
    CHECK(CAST(F3, fn(c[5]))(buf, 0, 2) == (uint32_t)(int8_t)0xef, "Load8SignedExtendTo32");
    CHECK(CAST(F3, fn(c[6]))(buf, 0, 2) == 0x8001, "Load16");
    memset(buf + 6, 0x80, 2);
    CHECK(CAST(F3, fn(c[7]))(buf, 0, 2) == (uint32_t)(int16_t)0x8080, "Load16SignedExtendTo32");
    memcpy(buf + 16, "\x01\x02\x03\x84", 4);
    CHECK(CAST(F3, fn(c[8]))(buf, 0, 2) == 0x84030201, "Move32 load index");
    memcpy(&u64, buf + 8, 8);
    CHECK(CAST(F3, fn(c[9]))(buf, 0, 2) == (int64_t)u64, "Move load index");
    CAST(F3, fn(c[10]))(buf, 0, 0);
    CHECK(buf[3] == 0xfe, "Store8 imm");
    CAST(F3, fn(c[11]))(buf, 0, 0);
    CHECK(buf[6] == 0x34 && buf[7] == 0x12, "Store16 imm");
    CAST(F3, fn(c[12]))(buf, 0, 0);
    memcpy(&u64, buf + 8, 8);
    CHECK(u64 == (uint64_t)-3, "Move imm store");
    memcpy(buf + 16, "\x00\x00\x00\x80", 4);
    CHECK(CAST(F3, fn(c[13]))(buf, 0, 0) == (int64_t)INT32_MIN, "SignExtend32ToPtr mem");
    CHECK(CAST(F3, fn(c[14]))(buf, 5, 0) == (int64_t)(uintptr_t)buf + 110, "Lea64 index");
    CHECK((uint64_t)CAST(F3, fn(c[15]))(buf, 0, 0) == (uint32_t)((uintptr_t)buf - 1), "Lea32");
    uint8_t cell = 0;
    CHECK(CAST(F3, fn(b8))(&cell, 0x1F0, 0) == (uint32_t)(int8_t)0xF0 && cell == 0xF0, "byte registers");
    for (unsigned a = 0; a < NIV; a++) {
        int64_t A = ivals[a];
        CHECK(CAST(F_i, fn(ext[0]))(A) == (uint32_t)(int8_t)A, "SignExtend8To32");
        CHECK(CAST(F_i, fn(ext[1]))(A) == (uint8_t)A, "ZeroExtend8To32");
        CHECK(CAST(F_i, fn(ext[2]))(A) == (uint32_t)(int16_t)A, "SignExtend16To32");
        CHECK(CAST(F_i, fn(ext[3]))(A) == (uint16_t)A, "ZeroExtend16To32");
    }
}

/* ---- moves of constants ---- */

static void test_constants(void) {
    static const int64_t v[] = {0,
                                1,
                                -1,
                                0x7fffffff,
                                0x80000000ll,
                                0xffffffffll,
                                0x100000000ll,
                                INT64_MIN,
                                INT64_MAX,
                                -0x80000000ll,
                                0x123456789abcdef0ll};
    enum { NC = sizeof v / sizeof v[0] };
    AirCode *c[NC][3];
    for (unsigned i = 0; i < NC; i++) {
        c[i][0] = proc("big");
        ins(c[i][0], 0, Air_Move, 2, R(rdi), R(r9));
        ins(c[i][0], 0, Air_Move, 2, air_bigimm(v[i]), R(r9));
        ins(c[i][0], 0, Air_Move, 2, R(r9), R(rax));
        c[i][1] = proc("imm");
        ins(c[i][1], 0, Air_Move, 2, R(rdi), R(rax));
        if (v[i] >= INT32_MIN && v[i] <= INT32_MAX)
            ins(c[i][1], 0, Air_Move, 2, IMM(v[i]), R(rax));
        else
            ins(c[i][1], 0, Air_Move, 2, air_bigimm(v[i]), R(rax));
        c[i][2] = proc("imm32");
        ins(c[i][2], 0, Air_Move, 2, R(rdi), R(rax));
        ins(c[i][2], 0, Air_Move32, 2, IMM((int32_t)v[i]), R(rax));
        for (int k = 0; k < 3; k++) {
            ins(c[i][k], 0, Air_Ret64, 1, R(rax));
            emit(c[i][k]);
        }
    }
    load();
    for (unsigned i = 0; i < NC; i++) {
        CHECK(CAST(F_i, fn(c[i][0]))(-1) == v[i], "Move BigImm %" PRIx64, v[i]);
        CHECK(CAST(F_i, fn(c[i][1]))(-1) == v[i], "Move Imm %" PRIx64, v[i]);
        CHECK((uint64_t)CAST(F_i, fn(c[i][2]))(-1) == (uint32_t)v[i], "Move32 Imm %" PRIx64, v[i]);
    }
}

/* ---- frames, callee-saves, calls, symbols ---- */

static double varargs_sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}

static int64_t eight_args(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g,
                          int64_t h) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

static void test_calls(void) {
    /* clobber: uses every callee-save (saved and restored by the frame). */
    static const B3Reg saves[] = {B3X_rbx, B3X_r12, B3X_r13, B3X_r14, B3X_r15};
    AirCode *clobber = proc("clobber");
    clobber->frame_size = 48;
    for (unsigned i = 0; i < 5; i++) {
        b3_regset_add(&clobber->used_callee_saves, saves[i]);
        ins(clobber, 0, Air_Move, 2, air_bigimm(-12345 - (int64_t)i), air_tmp(saves[i]));
    }
    ins(clobber, 0, Air_Move, 2, IMM(77), R(rax));
    ins(clobber, 0, Air_Ret64, 1, R(rax));
    /* checker: puts known values in the callee-saves, calls clobber directly
     * (PLT32) and returns the number of registers that changed + 100 * clobber's result. */
    AirCode *chk = proc("checker");
    chk->frame_size = 48;
    for (unsigned i = 0; i < 5; i++) {
        b3_regset_add(&chk->used_callee_saves, saves[i]);
        ins(chk, 0, Air_Move, 2, IMM(1000 + i), air_tmp(saves[i]));
    }
    AirSpecial *sp = b3_arena_alloc(&x.m.arena, sizeof *sp);
    AirCallInfo *ci = b3_arena_alloc(&x.m.arena, sizeof *ci);
    sp->data = ci;
    air_append(chk, chk->blocks[0], Air_Call, NULL, 2,
               (AirArg[]){air_sym(clobber->proc->sym, 0, false), R(rax)})
        ->special = sp;
    ins(chk, 0, Air_Mul64, 3, IMM(100), R(rax), R(rax));
    for (unsigned i = 0; i < 5; i++) {
        ins(chk, 0, Air_Compare64, 4, air_relcond(AirCond_NotEqual), air_tmp(saves[i]), IMM(1000 + i),
            R(rcx));
        ins(chk, 0, Air_Add64, 2, R(rcx), R(rax));
    }
    ins(chk, 0, Air_Ret64, 1, R(rax));

    /* A call through the GOT into C with 8 integer arguments (two on the stack). */
    B3Symbol *eight = b3_symbol_get(&x.m, "eight_args", 10, NULL);
    x.ext[0].sym = eight;
    x.ext[0].addr = (void *)(uintptr_t)eight_args;
    AirCode *call8 = proc("call8");
    call8->frame_size = 16;
    call8->call_arg_area = 16;
    static const B3Reg argr[] = {B3X_rdi, B3X_rsi, B3X_rdx, B3X_rcx, B3X_r8, B3X_r9};
    for (unsigned i = 0; i < 6; i++)
        ins(call8, 0, Air_Move, 2, IMM(i + 1), air_tmp(argr[i]));
    ins(call8, 0, Air_Move, 2, IMM(7), air_callarg(0)); /* leftover CallArg: the emitter uses rsp */
    ins(call8, 0, Air_Move, 2, IMM(8), air_addr(B3X_rsp, 8));
    ins(call8, 0, Air_Move, 2, air_sym(eight, 0, true), R(r11));
    AirSpecial *sp8 = b3_arena_alloc(&x.m.arena, sizeof *sp8);
    sp8->data = b3_arena_alloc(&x.m.arena, sizeof(AirCallInfo));
    air_append(call8, call8->blocks[0], Air_Call, NULL, 2, (AirArg[]){R(r11), R(rax)})->special = sp8;
    ins(call8, 0, Air_Ret64, 1, R(rax));

    /* A varargs callee: %al must count the vector registers. */
    B3Symbol *vs = b3_symbol_get(&x.m, "varargs_sum", 11, NULL);
    x.ext[1].sym = vs;
    x.ext[1].addr = (void *)(uintptr_t)varargs_sum;
    AirCode *callv = proc("callv");
    ins(callv, 0, Air_Move, 2, IMM(3), R(rdi));
    ins(callv, 0, Air_MoveDouble, 2, XMM(0), XMM(2));
    ins(callv, 0, Air_MoveDouble, 2, XMM(0), XMM(1));
    ins(callv, 0, Air_AddDouble, 2, XMM(1), XMM(1));
    ins(callv, 0, Air_Move, 2, air_sym(vs, 0, true), R(r11));
    AirSpecial *spv = b3_arena_alloc(&x.m.arena, sizeof *spv);
    AirCallInfo *civ = b3_arena_alloc(&x.m.arena, sizeof *civ);
    civ->nfprs = 3;
    spv->data = civ;
    air_append(callv, callv->blocks[0], Air_Call, NULL, 2, (AirArg[]){R(r11), XMM(0)})->special = spv;
    ins(callv, 0, Air_RetDouble, 1, XMM(0));

    /* Symbols: lea data_sym+8, load/store through data_sym, the GOT. */
    AirCode *lea = proc("lea"), *got = proc("got"), *ld = proc("ld"), *st = proc("st");
    ins(lea, 0, Air_Lea64, 2, air_sym(x.data_sym, 8, false), R(rax));
    ins(got, 0, Air_Move, 2, air_sym(x.data_sym, 0, true), R(rax));
    ins(ld, 0, Air_Move, 2, air_sym(x.data_sym, 16, false), R(rax));
    ins(ld, 0, Air_Add64, 2, air_sym(x.data_sym, 24, false), R(rax));
    ins(st, 0, Air_Move, 2, R(rdi), air_sym(x.data_sym, 32, false));
    ins(st, 0, Air_Move32, 2, IMM(-7), air_sym(x.data_sym, 40, false));
    ins(st, 0, Air_Store8, 2, IMM(0x55), air_sym(x.data_sym, 44, false));
    ins(st, 0, Air_Add32, 2, IMM(5), air_sym(x.data_sym, 48, false));
    ins(st, 0, Air_Move, 2, IMM(0), R(rax));
    for (int k = 0; k < 3; k++)
        ins(k == 0 ? lea : k == 1 ? got : ld, 0, Air_Ret64, 1, R(rax));
    ins(st, 0, Air_Ret64, 1, R(rax));

    /* Leftover Stack args become rbp-relative. */
    AirCode *stk = proc("stack");
    AirStackSlot *slot = air_slot_new(stk, 8, 8, true);
    slot->offset = -16;
    stk->frame_size = 16;
    ins(stk, 0, Air_Move, 2, R(rdi), air_stack(slot, 0));
    ins(stk, 0, Air_Add64, 2, IMM(1), air_stack(slot, 0));
    ins(stk, 0, Air_Move, 2, air_addr(B3X_rbp, -16), R(rax));
    ins(stk, 0, Air_Ret64, 1, R(rax));

    /* A proc with two entrypoints and no EntrySwitch. */
    AirCode *multi = proc("multi");
    B3Symbol *alt = b3_symbol_get(&x.m, "multi_alt", 9, NULL);
    multi->proc->entrypoints = b3_arena_alloc(&x.m.arena, 2 * sizeof(B3Symbol *));
    multi->proc->entrypoints[0] = multi->proc->sym;
    multi->proc->entrypoints[1] = alt;
    multi->proc->nentrypoints = 2;
    ins(multi, 0, Air_Lea64, 2, air_addr(B3X_rdi, 1), R(rax));
    ins(multi, 0, Air_Ret64, 1, R(rax));

    AirCode *procs[] = {clobber, chk, call8, callv, lea, got, ld, st, stk, multi};
    for (unsigned i = 0; i < sizeof procs / sizeof procs[0]; i++)
        emit(procs[i]);
    load();
    CHECK(CAST(F_v, fn(chk))() == 7700, "callee-saves preserved across a call: %" PRId64,
          CAST(F_v, fn(chk))());
    CHECK(CAST(F_v, fn(call8))() == eight_args(1, 2, 3, 4, 5, 6, 7, 8), "8-argument call: %" PRId64,
          CAST(F_v, fn(call8))());
    CHECK(CAST(F_d, fn(callv))(1.25) == 1.25 + 2.5 + 1.25, "varargs call: %g", CAST(F_d, fn(callv))(1.25));
    uint8_t *d = data_area();
    CHECK(CAST(F_v, fn(lea))() == (int64_t)(uintptr_t)(d + 8), "Lea64 Sym");
    CHECK(CAST(F_v, fn(got))() == (int64_t)(uintptr_t)d, "Move Sym(got)");
    int64_t a = 40, b = 2;
    memcpy(d + 16, &a, 8);
    memcpy(d + 24, &b, 8);
    CHECK(CAST(F_v, fn(ld))() == 42, "Move/Add64 from Sym");
    memset(d + 32, 0, 24);
    int32_t five = 10;
    memcpy(d + 48, &five, 4);
    CAST(F_i, fn(st))(0x1122334455667788ll);
    int64_t s64;
    int32_t s32;
    memcpy(&s64, d + 32, 8);
    memcpy(&s32, d + 40, 4);
    memcpy(&five, d + 48, 4);
    CHECK(s64 == 0x1122334455667788ll && s32 == -7 && d[44] == 0x55 && five == 15, "stores to Sym");
    CHECK(CAST(F_i, fn(stk))(41) == 42, "Stack arg");
    CHECK(CAST(F_i, fn(multi))(1) == 2, "multi-entry proc");
    bool found = false;
    for (uint32_t i = 0; i < x.o.ndefs; i++)
        if (x.o.defs[i].sym == alt) {
            found = true;
            CHECK(CAST(F_i, x.image + x.o.defs[i].offset)(9) == 10, "second entrypoint");
        }
    CHECK(found, "second entrypoint defined");
}

/* ---- jump tables ---- */

static void test_jump_table(void) {
    /* switch (i) { case 0..4 } with a bounds check like lowering's; each case
     * returns 100 + case, default returns -1.  Two tables in one proc. */
    AirCode *c = proc("switch");
    ins(c, 0, Air_Branch64, 3, air_relcond(AirCond_Above), R(rdi), IMM(4));
    succs(c, 0, 2, 7, 1);
    ins(c, 1, Air_JumpTable, 3, R(rdi), R(rcx), R(rdx));
    succs(c, 1, 6, 2, 3, 4, 5, 6, 7);
    for (unsigned k = 0; k < 5; k++) {
        if (k == 3) { /* a case that goes through a second table */
            ins(c, 2 + k, Air_Move, 2, IMM(1), R(rsi));
            ins(c, 2 + k, Air_JumpTable, 3, R(rsi), R(r8), R(r9));
            succs(c, 2 + k, 3, 8, 9, 7);
            continue;
        }
        ret_const(c, 2 + k, 100 + k);
    }
    ret_const(c, 7, -1);
    ret_const(c, 8, 50);
    ret_const(c, 9, 51);
    emit(c);
    load();
    for (int64_t i = -2; i < 8; i++) {
        int64_t want = i < 0 || i > 4 ? -1 : i == 3 ? 51 : 100 + i;
        CHECK(CAST(F_i, fn(c))(i) == want, "switch(%" PRId64 ") = %" PRId64, i, CAST(F_i, fn(c))(i));
    }
}

int main(void) {
    B3Target t = {B3Arch_X86_64, B3OS_Linux, 0, 0};
    b3_module_init(&x.m, t);
    b3_obj_init(&x.o, &x.m);
    x.data_sym = b3_symbol_get(&x.m, "data_sym", 8, NULL);
    test_int_arith();
    test_int_conditions();
    test_double_conditions();
    test_branch_arith();
    test_div_clz();
    test_fp();
    test_memory();
    test_constants();
    test_calls();
    test_jump_table();
    unload();
    printf("exec: %u checks, %u failures, %" PRIu64 " bytes of code\n", x.checks, x.failures,
           x.o.sec[B3Sec_Text].size);
    b3_obj_free(&x.o);
    b3_module_free(&x.m);
    return x.failures ? 1 : 0;
}
