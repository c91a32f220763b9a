/* Encoder test: every x86-64 form of the Air opcode table, instantiated over
 * a spread of registers, immediates, addresses and conditions, emitted with
 * the emitter's per-inst path (x86_emit_inst).  For each case it writes the
 * assembler's AT&T listing to CASES.s (one label "cN:" per case) and the bytes
 * and relocations it produced to CASES.expected; compare.py assembles the
 * listing with llvm-mc and compares both exactly.
 *
 *   encoder_test OUT.s OUT.expected
 *
 * Forms that cannot be checked are listed (with the reason) on stdout. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/air/air.h"
#include "codegen/air/stackmaps.h"
#include "codegen/x86_64/asm.h"
#include "codegen/x86_64/emit.h"
#include "codegen/x86_64/emit_operands.h"
#include "ir/x87.h"

enum { Layout_Backward, Layout_NextTaken, Layout_NextNotTaken, Layout_Forward, Layout_Far, Layout_N };

typedef struct {
    B3Module m;
    AirCode c;
    AirBlock *blk;     /* holds the inst under test */
    AirBlock *succ[3]; /* its successors */
    AirSucc succs[3];
    AirStackSlot *slot, *big_slot;
    B3Symbol *ext, *data;
    FILE *s_out, *exp_out;
    uint32_t ncases, nforms, asm_cases;
    uint32_t cases_per_op[AIR_NUM_OPCODES];
} T;

/* ---- operand lists ---- */

static const AirCond relconds[] = {
    AirCond_Equal,    AirCond_NotEqual,       AirCond_Above,       AirCond_AboveOrEqual,
    AirCond_Below,    AirCond_BelowOrEqual,   AirCond_GreaterThan, AirCond_GreaterThanOrEqual,
    AirCond_LessThan, AirCond_LessThanOrEqual};
static const AirCond resconds[] = {AirCond_Overflow, AirCond_Signed, AirCond_PositiveOrZero, AirCond_Zero,
                                   AirCond_NonZero};
static const B3Reg fp_regs[] = {32 + 0, 32 + 1, 32 + 5, 32 + 7, 32 + 8, 32 + 12, 32 + 15};
static const int64_t imms[] = {0, 1, -1, 127, 128, -128, -129, 255, 0x7fff, 0x12345, INT32_MIN, INT32_MAX};
static const int64_t shift_imms[] = {0, 1, 2, 7, 31, 32, 63};
static const int64_t narrow_imms[] = {0, 1, -1, 127, -128, 255, 0x7fff, -32768, 0xffff};
static const int64_t big_imms[] = {(int64_t)0x123456789abcdef0ull,
                                   0,
                                   1,
                                   -1,
                                   0xffffffffll,
                                   0x80000000ll,
                                   INT32_MIN,
                                   INT32_MAX,
                                   INT64_MIN,
                                   INT64_MAX};
static const B3Reg addr_bases[] = {B3X_rax, B3X_rcx, B3X_rsp, B3X_rbp, B3X_r12,
                                   B3X_r13, B3X_r8,  B3X_r15, B3X_rdi};
static const int64_t addr_disps[] = {0, 8, -8, 127, 128, -129, 0x12345678, INT32_MIN};
static const B3Reg index_bases[] = {B3X_rax, B3X_rsp, B3X_rbp, B3X_r12, B3X_r13, B3X_r15};
static const B3Reg index_regs[] = {B3X_rax, B3X_rcx, B3X_rbp, B3X_r12, B3X_r13, B3X_r15};
static const unsigned scales[] = {1, 2, 4, 8};
static const int64_t index_disps[] = {0, 8, -129, 0x12345678, 127};

#define N(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    AirArg *v;
    uint32_t n;
} List;

static List list_new(uint32_t cap) { return (List){calloc(cap, sizeof(AirArg)), 0}; }
static void list_add(List *l, AirArg a) { l->v[l->n++] = a; }

static List gp_list, fp_list, addr_list, addr_got_list, index_list, imm_list, shift_list, narrow_list,
    big_list, rel_list, res_list, dbl_list;

static void make_lists(T *t) {
    gp_list = list_new(16);
    for (B3Reg r = 0; r < 16; r++)
        list_add(&gp_list, air_tmp(r));
    fp_list = list_new(N(fp_regs));
    for (unsigned i = 0; i < N(fp_regs); i++)
        list_add(&fp_list, air_tmp(fp_regs[i]));
    addr_list = list_new(N(addr_bases) * N(addr_disps) + 8);
    for (unsigned b = 0; b < N(addr_bases); b++)
        for (unsigned d = 0; d < N(addr_disps); d++)
            list_add(&addr_list, air_addr(addr_bases[b], addr_disps[d]));
    /* Leftover abstract operands get the addresses allocate_stack would give. */
    list_add(&addr_list, air_stack(t->slot, 8));
    list_add(&addr_list, air_stack(t->big_slot, 0));
    list_add(&addr_list, air_callarg(0));
    list_add(&addr_list, air_callarg(24));
    list_add(&addr_list, air_sym(t->ext, 0, false));
    list_add(&addr_list, air_sym(t->ext, 16, false));
    list_add(&addr_list, air_sym(t->data, -8, false));
    addr_got_list = list_new(addr_list.n + 1);
    for (uint32_t i = 0; i < addr_list.n; i++)
        list_add(&addr_got_list, addr_list.v[i]);
    list_add(&addr_got_list, air_sym(t->ext, 0, true));
    index_list = list_new(N(index_bases) * N(index_regs) * N(scales));
    for (unsigned b = 0; b < N(index_bases); b++)
        for (unsigned i = 0; i < N(index_regs); i++)
            for (unsigned s = 0; s < N(scales); s++)
                list_add(&index_list, air_index(index_bases[b], index_regs[i], scales[s],
                                                index_disps[index_list.n % N(index_disps)]));
    imm_list = list_new(N(imms));
    for (unsigned i = 0; i < N(imms); i++)
        list_add(&imm_list, air_imm(imms[i]));
    shift_list = list_new(N(shift_imms));
    for (unsigned i = 0; i < N(shift_imms); i++)
        list_add(&shift_list, air_imm(shift_imms[i]));
    narrow_list = list_new(N(narrow_imms));
    for (unsigned i = 0; i < N(narrow_imms); i++)
        list_add(&narrow_list, air_imm(narrow_imms[i]));
    big_list = list_new(N(big_imms));
    for (unsigned i = 0; i < N(big_imms); i++)
        list_add(&big_list, air_bigimm(big_imms[i]));
    rel_list = list_new(N(relconds));
    for (unsigned i = 0; i < N(relconds); i++)
        list_add(&rel_list, air_relcond(relconds[i]));
    res_list = list_new(N(resconds));
    for (unsigned i = 0; i < N(resconds); i++)
        list_add(&res_list, air_rescond(resconds[i]));
    dbl_list = list_new(12);
    for (unsigned i = 0; i <= AirDCond_LessThanOrEqualOrUnordered; i++)
        list_add(&dbl_list, air_dcond((AirDoubleCond)i));
}

static bool is_shift(AirOpcode op) {
    switch (op) {
    case Air_Lshift32:
    case Air_Lshift64:
    case Air_Rshift32:
    case Air_Rshift64:
    case Air_Urshift32:
    case Air_Urshift64:
    case Air_RotateRight32:
    case Air_RotateRight64:
    case Air_RotateLeft32:
    case Air_RotateLeft64:
        return true;
    default:
        return false;
    }
}

static unsigned num_succs(AirOpcode op) {
    switch (op) {
    case Air_Jump:
        return 1;
    case Air_JumpTable:
        return 3;
    case Air_Branch32:
    case Air_Branch64:
    case Air_BranchTest32:
    case Air_BranchTest64:
    case Air_BranchDouble:
    case Air_BranchFloat:
    case Air_BranchAdd32:
    case Air_BranchAdd64:
    case Air_BranchSub32:
    case Air_BranchSub64:
    case Air_BranchMul32:
    case Air_BranchMul64:
    case Air_BranchNeg32:
    case Air_BranchNeg64:
    case Air_BranchAtomicStrongCAS8:
    case Air_BranchAtomicStrongCAS16:
    case Air_BranchAtomicStrongCAS32:
    case Air_BranchAtomicStrongCAS64:
        return 2;
    default:
        return 0;
    }
}

/* ---- describing a case ---- */

static void describe_arg(FILE *f, const AirArg *a) {
    switch (a->kind) {
    case AirArg_Tmp:
        fprintf(f, "%%%s", x86_reg_name((B3Reg)a->base, 8));
        break;
    case AirArg_Imm:
        fprintf(f, "$%" PRId64, a->value);
        break;
    case AirArg_BigImm:
        fprintf(f, "$0x%" PRIx64, (uint64_t)a->value);
        break;
    case AirArg_Addr:
        fprintf(f, "%" PRId64 "(%%%s)", a->value, x86_reg_name((B3Reg)a->base, 8));
        break;
    case AirArg_Index:
        fprintf(f, "%" PRId64 "(%%%s,%%%s,%u)", a->value, x86_reg_name((B3Reg)a->base, 8),
                x86_reg_name((B3Reg)a->index, 8), a->scale);
        break;
    case AirArg_Stack:
        fprintf(f, "stack%u+%" PRId64, a->u.slot->index, a->value);
        break;
    case AirArg_CallArg:
        fprintf(f, "callArg(%" PRId64 ")", a->value);
        break;
    case AirArg_Sym:
        fprintf(f, "@%s%s%+" PRId64, a->u.sym->name, a->got ? "@got" : "", a->value);
        break;
    case AirArg_RelCond:
    case AirArg_ResCond:
        fprintf(f, "cc%s", x86_cc_name(x86_cc((AirCond)a->cond)));
        break;
    case AirArg_DoubleCond:
        fprintf(f, "dcond%u", a->cond);
        break;
    default:
        fprintf(f, "?");
        break;
    }
}

static const char *reloc_name(unsigned k) {
    switch (k) {
    case B3Reloc_PC32:
    case B3Reloc_X86_Branch32: /* a call to sym + addend: PC32 on ELF */
        return "R_X86_64_PC32";
    case B3Reloc_X86_PLT32:
        return "R_X86_64_PLT32";
    case B3Reloc_X86_GOTPCRELX:
        return "R_X86_64_GOTPCRELX";
    case B3Reloc_X86_REX_GOTPCRELX:
        return "R_X86_64_REX_GOTPCRELX";
    case B3Reloc_X86_TPOFF32:
        return "R_X86_64_TPOFF32";
    case B3Reloc_X86_GOTTPOFF:
        return "R_X86_64_GOTTPOFF";
    default:
        return "?";
    }
}

/* ---- running one case ---- */

static void run_case(T *t, AirOpcode op, uint32_t nargs, const AirArg *args, AirSpecial *sp, unsigned layout,
                     const char *form, AirCode *prologue_of) {
    uint32_t n = t->ncases++;
    t->cases_per_op[op]++;
    AirCode *c = prologue_of ? prologue_of : &t->c;
    t->blk->ninsts = 0;
    AirInst *inst = air_append(&t->c, t->blk, op, NULL, nargs, args);
    inst->special = sp;
    unsigned ns = num_succs(op);
    for (unsigned i = 0; i < ns; i++)
        t->succs[i] = (AirSucc){t->succ[i], 0};
    t->blk->succs = t->succs;
    t->blk->nsuccs = ns;

    X86Asm a;
    x86_asm_init(&a);
    char *text = NULL;
    size_t tlen = 0;
    a.listing = open_memstream(&text, &tlen);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "c%u_L", n);
    a.label_prefix = prefix;
    X86Emitter e;
    x86_emitter_init(&e, c, &a);
    if (layout != Layout_Forward)
        for (unsigned i = 0; i < ns; i++)
            x86_bind(&a, e.block_label[t->succ[i]->index]);
    if (layout == Layout_Far)
        x86_nops(&a, 130);
    AirBlock *next = layout == Layout_NextTaken      ? t->succ[0]
                     : layout == Layout_NextNotTaken ? t->succ[1]
                                                     : NULL;
    if (prologue_of)
        x86_emit_prologue(&e);
    x86_emit_inst(&e, t->blk, inst, next);
    x86_emit_jump_tables(&e);
    fclose(a.listing);

    fprintf(t->s_out, "# case %u: %s %s", n, air_opcode_names[op], form);
    for (uint32_t i = 0; i < nargs; i++) {
        fputs(i ? ", " : " : ", t->s_out);
        describe_arg(t->s_out, &args[i]);
    }
    if (ns)
        fprintf(t->s_out, " (layout %u)", layout);
    if (prologue_of)
        fprintf(t->s_out, " (frame %" PRIu64 ")", prologue_of->frame_size);
    fprintf(t->s_out, "\nc%u:\n%s", n, text);
    fprintf(t->exp_out, "case %u ", n);
    for (uint32_t i = 0; i < a.len; i++)
        fprintf(t->exp_out, "%02x", a.buf[i]);
    fputs(a.len ? "\n" : "-\n", t->exp_out);
    for (uint32_t i = 0; i < a.nrelocs; i++)
        fprintf(t->exp_out, "reloc %u %u %s %s %" PRId64 "\n", n, a.relocs[i].offset,
                reloc_name(a.relocs[i].kind), a.relocs[i].sym->name, a.relocs[i].addend);
    free(text);
    x86_emitter_free(&e);
    x86_asm_free(&a);
}

/* ---- the assembler API directly: every size and shape, including those the
 * emitter does not use today ---- */

typedef struct {
    X86Asm a;
    char *text;
    size_t tlen;
    uint32_t n;
    char prefix[32];
} AsmCase;

static void asm_begin(T *t, AsmCase *k) {
    k->n = t->ncases++;
    x86_asm_init(&k->a);
    k->text = NULL;
    k->tlen = 0;
    k->a.listing = open_memstream(&k->text, &k->tlen);
    snprintf(k->prefix, sizeof k->prefix, "c%u_L", k->n);
    k->a.label_prefix = k->prefix;
}

static void asm_end(T *t, AsmCase *k, const char *what) {
    fclose(k->a.listing);
    fprintf(t->s_out, "# case %u: assembler %s\nc%u:\n%s", k->n, what, k->n, k->text);
    fprintf(t->exp_out, "case %u ", k->n);
    for (uint32_t i = 0; i < k->a.len; i++)
        fprintf(t->exp_out, "%02x", k->a.buf[i]);
    fputs(k->a.len ? "\n" : "-\n", t->exp_out);
    for (uint32_t i = 0; i < k->a.nrelocs; i++)
        fprintf(t->exp_out, "reloc %u %u %s %s %" PRId64 "\n", k->n, k->a.relocs[i].offset,
                reloc_name(k->a.relocs[i].kind), k->a.relocs[i].sym->name, k->a.relocs[i].addend);
    free(k->text);
    x86_asm_free(&k->a);
    t->asm_cases++;
}

static const B3Reg sweep_regs[] = {B3X_rax, B3X_rcx, B3X_rbx, B3X_rsp, B3X_rbp, B3X_rsi,
                                   B3X_rdi, B3X_r8,  B3X_r12, B3X_r13, B3X_r15};
#define NSR N(sweep_regs)

/* A few memory operands of each shape. */
static X86Mem sweep_mem(T *t, unsigned i) {
    switch (i % 6) {
    case 0:
        return x86_mem(B3X_rax, 0);
    case 1:
        return x86_mem(B3X_r13, -8);
    case 2:
        return x86_mem(B3X_rsp, 0x1234);
    case 3:
        return x86_mem_index(B3X_rbp, B3X_r12, 8, 0);
    case 4:
        return x86_mem_index(B3X_r12, B3X_rsi, 2, -300);
    default:
        return x86_mem_sym(t->ext, 12, false);
    }
}
#define NSM 6

static const int32_t sweep_imms[] = {0, 1, -1, 127, -128, 128, 255, 0x7fff, -32768, 0x12345678, INT32_MIN};

/* Relaxed jumps (asm.h, X86Relax), assembled in passes as the emitter does
 * until no rel8 jump is out of range: every jump starts short and grows only
 * when its target is too far, as llvm-mc relaxes the same text. */
static void relaxed_jumps_body(X86Asm *a) {
    uint32_t back = x86_label_new(a), near = x86_label_new(a), edge = x86_label_new(a),
             over = x86_label_new(a), outer = x86_label_new(a), inner = x86_label_new(a);
    x86_bind(a, back);
    for (unsigned cc = 0; cc < 16; cc++)
        x86_jcc(a, cc, near); /* forward, near: rel8 */
    x86_jmp(a, near);
    x86_bind(a, near);
    x86_jcc(a, AirCond_Equal, back); /* backward, near: rel8 */
    x86_jmp(a, edge);
    x86_nops(a, 127); /* rel8 +127: the last that fits */
    x86_bind(a, edge);
    x86_jcc(a, AirCond_Below, over);
    x86_nops(a, 128); /* +128: rel32 */
    x86_bind(a, over);
    /* A cascade: the outer jump fits until the inner one, spanning more than
     * 127 bytes, grows to rel32 under it. */
    x86_jmp(a, outer);
    x86_jcc(a, AirCond_NotEqual, inner);
    x86_nops(a, 123);
    x86_bind(a, outer);
    x86_nops(a, 10);
    x86_bind(a, inner);
    x86_jcc(a, AirCond_Above, back); /* backward, far: rel32 */
    x86_jmp(a, back);
}

static void gen_relaxed_jumps(T *t) {
    X86Relax relax = {0};
    AsmCase k;
    for (unsigned pass = 0;; pass++) {
        if (pass > 8) {
            fprintf(stderr, "relaxation did not settle\n");
            exit(1);
        }
        asm_begin(t, &k);
        k.a.relax = &relax;
        relax.again = false;
        relaxed_jumps_body(&k.a);
        if (!relax.again)
            break;
        /* A trial pass: assemble again with the jumps marked long. */
        fclose(k.a.listing);
        free(k.text);
        x86_asm_free(&k.a);
        t->ncases--;
    }
    asm_end(t, &k, "relaxed jumps");
    x86_relax_free(&relax);
}

static void gen_asm_api(T *t) {
    static const unsigned sizes[] = {1, 2, 4, 8};
    AsmCase k;
    for (unsigned si = 0; si < 4; si++) {
        unsigned sz = sizes[si];
        for (unsigned op = 0; op < 8; op++)
            for (unsigned i = 0; i < NSR; i++) {
                X86RM r1 = x86_rm_reg(sweep_regs[i]), r2 = x86_rm_reg(sweep_regs[(i * 3 + op) % NSR]);
                X86RM m = x86_rm_mem(sweep_mem(t, i + op));
                asm_begin(t, &k);
                x86_alu(&k.a, (X86AluOp)op, sz, &r1, &r2);
                x86_alu(&k.a, (X86AluOp)op, sz, &r1, &m);
                x86_alu(&k.a, (X86AluOp)op, sz, &m, &r2);
                for (unsigned j = 0; j < N(sweep_imms); j++) {
                    x86_alu_imm(&k.a, (X86AluOp)op, sz, sweep_imms[j], j & 1 ? &r1 : &m);
                    x86_alu_imm(&k.a, (X86AluOp)op, sz, sweep_imms[j], &(X86RM){.reg = B3X_rax});
                }
                asm_end(t, &k, "alu");
            }
        for (unsigned i = 0; i < NSR; i++) {
            X86RM r1 = x86_rm_reg(sweep_regs[i]), r2 = x86_rm_reg(sweep_regs[(i * 5 + 1) % NSR]);
            X86RM m = x86_rm_mem(sweep_mem(t, i));
            asm_begin(t, &k);
            x86_test(&k.a, sz, r1.reg, &r2);
            x86_test(&k.a, sz, r1.reg, &m);
            x86_mov(&k.a, sz, &r1, &r2);
            x86_mov(&k.a, sz, &r1, &m);
            x86_mov(&k.a, sz, &m, &r2);
            for (unsigned j = 0; j < N(sweep_imms); j++) {
                x86_test_imm(&k.a, sz, sweep_imms[j], j & 1 ? &r1 : &m);
                x86_test_imm(&k.a, sz, sweep_imms[j], &(X86RM){.reg = B3X_rax});
                x86_mov_imm(&k.a, sz, sweep_imms[j], &r1);
                x86_mov_imm(&k.a, sz, sweep_imms[j], &m);
            }
            if (sz == 8)
                x86_mov_imm(&k.a, 8, (int64_t)0x8877665544332211ull, &r1);
            for (unsigned u = X86Unary_Not; u <= X86Unary_IDiv; u++) {
                if (u == 4 || u == 5)
                    continue; /* mul/imul one-operand forms are not in the API */
                x86_unary(&k.a, (X86UnaryOp)u, sz, &r1);
                x86_unary(&k.a, (X86UnaryOp)u, sz, &m);
            }
            static const X86ShiftOp shifts[] = {X86Shift_Rol, X86Shift_Ror, X86Shift_Shl, X86Shift_Shr,
                                                X86Shift_Sar};
            for (unsigned sh = 0; sh < 5; sh++) {
                x86_shift_cl(&k.a, shifts[sh], sz, &r1);
                x86_shift_cl(&k.a, shifts[sh], sz, &m);
                x86_shift_imm(&k.a, shifts[sh], sz, 1, &r1);
                x86_shift_imm(&k.a, shifts[sh], sz, (uint8_t)(i * 7 % (sz * 8)), &m);
            }
            if (sz > 1) {
                X86Mem mm = sweep_mem(t, i + 1);
                x86_lea(&k.a, sz, &mm, r1.reg);
                x86_imul(&k.a, sz, &r2, r1.reg);
                x86_imul(&k.a, sz, &m, r1.reg);
                x86_imul_imm(&k.a, sz, 100, &r2, r1.reg);
                x86_imul_imm(&k.a, sz, sz == 2 ? 1000 : 100000, &m, r1.reg);
                x86_bsr(&k.a, sz, &r2, r1.reg);
                x86_bsr(&k.a, sz, &m, r1.reg);
                for (unsigned cc = 0; cc < 16; cc++)
                    x86_cmov(&k.a, cc, sz, cc & 1 ? &r2 : &m, r1.reg);
            }
            asm_end(t, &k, "integer");
        }
    }
    /* Atomics: lock'd ALU ops, cmpxchg and xadd (register and memory), xchg (memory). */
    for (unsigned si = 0; si < 4; si++)
        for (unsigned i = 0; i < NSR; i++) {
            unsigned sz = sizes[si];
            X86RM r2 = x86_rm_reg(sweep_regs[(i * 7 + 3) % NSR]);
            X86Mem mm = sweep_mem(t, i + si);
            X86RM m = x86_rm_mem(mm);
            B3Reg r1 = sweep_regs[i];
            asm_begin(t, &k);
            for (unsigned op = 0; op < 8; op++) {
                x86_lock(&k.a);
                x86_alu(&k.a, (X86AluOp)op, sz, &(X86RM){.reg = r1}, &m);
                x86_lock(&k.a);
                x86_alu_imm(&k.a, (X86AluOp)op, sz, sweep_imms[(i + op) % N(sweep_imms)], &m);
            }
            x86_lock(&k.a);
            x86_cmpxchg(&k.a, sz, r1, &m);
            x86_cmpxchg(&k.a, sz, r1, &r2);
            x86_lock(&k.a);
            x86_xadd(&k.a, sz, r1, &m);
            x86_xadd(&k.a, sz, r1, &r2);
            x86_xchg(&k.a, sz, r1, &mm);
            asm_end(t, &k, "atomics");
        }
    for (unsigned i = 0; i < NSR; i++) {
        X86RM r1 = x86_rm_reg(sweep_regs[i]), m = x86_rm_mem(sweep_mem(t, i));
        B3Reg r2 = sweep_regs[(i + 4) % NSR];
        asm_begin(t, &k);
        for (unsigned e = X86Ext_Movzbl; e <= X86Ext_Movslq; e++) {
            x86_movx(&k.a, (X86ExtOp)e, &r1, r2);
            x86_movx(&k.a, (X86ExtOp)e, &m, r2);
        }
        for (unsigned cc = 0; cc < 16; cc++)
            x86_setcc(&k.a, cc, cc & 1 ? &r1 : &m);
        x86_push(&k.a, r1.reg);
        x86_pop(&k.a, r2);
        x86_jmp_rm(&k.a, &r1);
        x86_jmp_rm(&k.a, &m);
        x86_call_rm(&k.a, &r1);
        x86_call_rm(&k.a, &m);
        asm_end(t, &k, "moves, setcc, stack, indirect");
    }
    for (B3Reg r = 0; r < 16; r++) {
        asm_begin(t, &k);
        x86_push(&k.a, r);
        x86_pop(&k.a, r);
        x86_mov_imm(&k.a, 1, -3, &(X86RM){.reg = r});
        x86_mov_imm(&k.a, 2, 0x1234, &(X86RM){.reg = r});
        x86_mov_imm(&k.a, 4, -5, &(X86RM){.reg = r});
        x86_mov_imm(&k.a, 8, INT64_MIN, &(X86RM){.reg = r});
        asm_end(t, &k, "push/pop/mov imm");
    }
    /* SSE: register forms over low and high registers, memory forms where
     * the instruction has one (the "store" ops only to memory; movq to/from a
     * GPR only between registers — llvm-mc uses other opcodes for memory). */
    static const B3Reg xr[] = {32 + 0, 32 + 3, 32 + 8, 32 + 15};
    for (unsigned op = 0; op < X86_NUM_SSE_OPS; op++)
        for (unsigned i = 0; i < 4; i++) {
            bool src_g = op >= X86Sse_Cvtsi2sdl && op <= X86Sse_MovqToXmm;
            bool dst_g = (op >= X86Sse_Cvttsd2si32 && op <= X86Sse_Cvttss2si64) || op == X86Sse_MovdFromXmm ||
                         op == X86Sse_MovqFromXmm;
            bool store = op == X86Sse_MovsdStore || op == X86Sse_MovssStore;
            X86RM src = x86_rm_reg(src_g ? sweep_regs[i * 3] : xr[i]);
            X86RM dst = x86_rm_reg(dst_g ? sweep_regs[(i * 3 + 5) % NSR] : xr[(i + 1) % 4]);
            X86RM m = x86_rm_mem(sweep_mem(t, i + op));
            asm_begin(t, &k);
            if (!store)
                x86_sse(&k.a, (X86SseOp)op, &src, &dst);
            if (store || op == X86Sse_MovdFromXmm)
                x86_sse(&k.a, (X86SseOp)op, &src, &m);
            else if (!dst_g && op != X86Sse_MovqToXmm && !(src_g && op == X86Sse_MovqToXmm))
                x86_sse(&k.a, (X86SseOp)op, &m, &dst);
            else if (dst_g && op != X86Sse_MovdFromXmm && op != X86Sse_MovqFromXmm)
                x86_sse(&k.a, (X86SseOp)op, &m, &dst);
            asm_end(t, &k, "sse");
        }
    for (unsigned i = 0; i < 4; i++) {
        X86RM src = x86_rm_reg(xr[i]), m = x86_rm_mem(sweep_mem(t, i));
        asm_begin(t, &k);
        for (uint8_t mode = 0; mode < 16; mode++) {
            x86_round(&k.a, mode & 1, mode, &src, xr[(i + 1) % 4]);
            x86_round(&k.a, mode & 2, mode, &m, xr[(i + 2) % 4]);
        }
        asm_end(t, &k, "round");
    }
    /* Jumps: backward short and long, forward (rel32, and forced rel8), to symbols. */
    asm_begin(t, &k);
    uint32_t back = x86_label_new(&k.a), fwd = x86_label_new(&k.a), fwd8 = x86_label_new(&k.a);
    x86_bind(&k.a, back);
    for (unsigned cc = 0; cc < 16; cc++)
        x86_jcc(&k.a, cc, back);
    for (unsigned cc = 0; cc < 16; cc++)
        x86_jcc_short(&k.a, cc, fwd8);
    x86_bind(&k.a, fwd8);
    for (unsigned cc = 0; cc < 16; cc++)
        x86_jcc(&k.a, cc, fwd);
    x86_jmp(&k.a, back);
    x86_jmp(&k.a, fwd);
    x86_nops(&k.a, 120);
    for (unsigned cc = 0; cc < 16; cc++)
        x86_jcc(&k.a, cc, back);
    x86_jmp(&k.a, back);
    x86_bind(&k.a, fwd);
    x86_call_sym(&k.a, t->ext, 0);
    x86_call_sym(&k.a, t->data, 8);
    x86_cdq(&k.a);
    x86_cqo(&k.a);
    x86_ret(&k.a);
    x86_leave(&k.a);
    x86_ud2(&k.a);
    x86_mfence(&k.a);
    for (uint32_t n = 0; n <= 20; n++)
        x86_nops(&k.a, n);
    X86Mem lm = x86_mem_label(back, 4);
    x86_lea(&k.a, 8, &lm, B3X_r9);
    x86_alu_imm(&k.a, X86Alu_Cmp, 4, 1000, &(X86RM){.is_mem = true, .mem = lm});
    x86_align(&k.a, 16, 0xCC);
    x86_data32_label_diff(&k.a, back, fwd);
    asm_end(t, &k, "control flow");
    gen_relaxed_jumps(t);
}

/* ---- forms ---- */

static const List *list_for(const AirOverloadInfo *o, const uint8_t *kinds, unsigned p) {
    switch (kinds[p]) {
    case AirArg_RelCond:
        return &rel_list;
    case AirArg_ResCond:
        return &res_list;
    case AirArg_DoubleCond:
        return &dbl_list;
    case AirArg_Tmp:
        return o->banks[p] == AirFP ? &fp_list : &gp_list;
    case AirArg_Imm:
        if (is_shift(o->opcode))
            return &shift_list;
        if (o->opcode == Air_Store8 || o->opcode == Air_Store16)
            return &narrow_list;
        return &imm_list;
    case AirArg_BigImm:
        return &big_list;
    case AirArg_Addr:
        /* Only Move loads a GOT entry. */
        return o->opcode == Air_Move && p == 0 && kinds[1] == AirArg_Tmp ? &addr_got_list : &addr_list;
    case AirArg_Index:
        return &index_list;
    default:
        fprintf(stderr, "encoder_test: no operands for arg kind %u of %s\n", kinds[p],
                air_opcode_names[o->opcode]);
        exit(1);
    }
}

static B3Reg next_gpr(B3Reg r) { return (B3Reg)((r + 1) % 16); }

/* Thread-local symbols, local-exec and initial-exec (ThreadLocalAddress). */
static B3Symbol *tls_syms[2];

/* The register constraints that lowering and register allocation guarantee. */
static void repair(AirOpcode op, uint32_t nargs, AirArg *args) {
    if (is_shift(op) && args[0].kind == AirArg_Tmp)
        args[0].base = B3X_rcx;
    switch (op) {
    case Air_X87: { /* arg 0 is an operation of memory (ir/x87.h), spread by the registers */
        static const uint8_t ops[] = {B3X87_Add,       B3X87_Sub,        B3X87_Mul,      B3X87_Div,
                                      B3X87_Neg,       B3X87_Abs,        B3X87_FromI32,  B3X87_FromI64,
                                      B3X87_FromFloat, B3X87_FromDouble, B3X87_ToI64,    B3X87_ToFloat,
                                      B3X87_ToDouble,  B3X87_Ret,        B3X87_Result,   B3X87_Ret2,
                                      B3X87_Result2};
        args[0] = air_imm(ops[(args[1].base + args[2].base) % sizeof ops]);
        break;
    }
    case Air_X87Compare: /* a comparison */
        args[0] = air_imm(B3X87_Gt + (args[1].base + args[3].base) % (B3X87_Ord - B3X87_Gt + 1));
        break;
    case Air_ThreadLocalAddress: /* its Sym is a thread-local variable; either model */
        args[0] = air_sym(tls_syms[args[1].base & 1], 0, false);
        break;
    case Air_X86ConvertToDoubleWord32:
    case Air_X86ConvertToQuadWord64:
    case Air_X86Div32:
    case Air_X86Div64:
    case Air_X86UDiv32:
    case Air_X86UDiv64:
    case Air_X86MulHigh32:
    case Air_X86MulHigh64:
    case Air_X86UMulHigh32:
    case Air_X86UMulHigh64:
        args[0].base = B3X_rax;
        args[1].base = B3X_rdx;
        if (nargs == 3 && args[2].kind == AirArg_Tmp && (args[2].base == B3X_rax || args[2].base == B3X_rdx))
            args[2].base = B3X_rbx;
        break;
    case Air_CountLeadingZeros32:
    case Air_CountLeadingZeros64:
        while (args[2].base == args[0].base || args[2].base == args[1].base)
            args[2].base = next_gpr((B3Reg)args[2].base);
        break;
    case Air_CompareDouble:
    case Air_CompareFloat:
        while (args[4].base == args[3].base)
            args[4].base = next_gpr((B3Reg)args[4].base);
        break;
    case Air_JumpTable:
        if (args[0].base == B3X_rsp)
            args[0].base = B3X_rdi;
        while (args[1].base == args[0].base)
            args[1].base = next_gpr((B3Reg)args[1].base);
        while (args[2].base == args[0].base || args[2].base == args[1].base)
            args[2].base = next_gpr((B3Reg)args[2].base);
        break;
    /* cmpxchg: the expected/old value is %rax (after the condition, if any);
     * the boolean result is another register (both are defined). */
    case Air_AtomicStrongCAS8:
    case Air_AtomicStrongCAS16:
    case Air_AtomicStrongCAS32:
    case Air_AtomicStrongCAS64:
    case Air_BranchAtomicStrongCAS8:
    case Air_BranchAtomicStrongCAS16:
    case Air_BranchAtomicStrongCAS32:
    case Air_BranchAtomicStrongCAS64: {
        unsigned first = args[0].kind == AirArg_ResCond ? 1 : 0;
        args[first].base = B3X_rax;
        if (nargs == 5 && args[4].base == B3X_rax)
            args[4].base = B3X_rdx;
        break;
    }
    default:
        break;
    }
}

static void gen_form(T *t, const AirOverloadInfo *o, const uint8_t *kinds) {
    char form[128] = "";
    for (uint32_t p = 0; p < o->nargs; p++) {
        static const char *const kn[] = {"None",    "Tmp",        "Imm",     "BigImm", "Addr",
                                         "Index",   "Stack",      "CallArg", "Sym",    "RelCond",
                                         "ResCond", "DoubleCond", "Special"};
        strcat(form, p ? "," : "");
        strcat(form, kn[kinds[p]]);
    }
    if (!o->nargs)
        strcpy(form, "()");
    t->nforms++;

    const List *lists[8];
    uint32_t k = 1, ngp = 0, nfp = 0;
    for (uint32_t p = 0; p < o->nargs; p++) {
        lists[p] = list_for(o, kinds, p);
        if (lists[p]->n > k)
            k = lists[p]->n;
        ngp += lists[p] == &gp_list;
        nfp += lists[p] == &fp_list;
    }
    /* Rounds over the register lists: all positions alike (aliasing), then shifted apart. */
    if (ngp >= 2 && k < 3 * gp_list.n)
        k = 3 * gp_list.n;
    if (nfp >= 2 && k < 3 * fp_list.n)
        k = 3 * fp_list.n;
    unsigned ns = num_succs(o->opcode);
    for (uint32_t v = 0; v < k; v++) {
        AirArg args[8];
        for (uint32_t p = 0; p < o->nargs; p++) {
            uint32_t len = lists[p]->n;
            args[p] = lists[p]->v[(v + p * (v / len)) % len];
        }
        repair(o->opcode, o->nargs, args);
        if (o->nargs && !air_is_valid_form(t->c.target, o->opcode, o->nargs, args)) {
            fprintf(stderr, "encoder_test: generated an invalid form of %s (%s)\n",
                    air_opcode_names[o->opcode], form);
            exit(1);
        }
        /* Branches: every layout (fall-through to either successor or neither, forward, far). */
        unsigned nlayouts = ns && o->opcode != Air_JumpTable ? Layout_N : 1;
        for (unsigned layout = 0; layout < nlayouts; layout++)
            run_case(t, o->opcode, o->nargs, args, NULL, layout, form, NULL);
    }
}

/* ---- hand-written cases: what the form table does not describe ---- */

static void gen_calls(T *t) {
    static AirCallInfo infos[] = {{0, false}, {3, false}, {8, false}};
    static AirSpecial sps[3];
    const AirArg callees[] = {air_sym(t->ext, 0, false), air_sym(t->data, 0, false), air_tmp(B3X_r11),
                              air_tmp(B3X_rcx), air_tmp(B3X_r15)};
    for (unsigned i = 0; i < 3; i++)
        sps[i].data = &infos[i];
    for (unsigned c = 0; c < N(callees); c++)
        for (unsigned i = 0; i < 3; i++) {
            AirArg args[3] = {callees[c], air_tmp(B3X_rdi), air_tmp(B3X_rax)};
            run_case(t, Air_Call, 3, args, &sps[i], Layout_Backward, "(callee, uses, def)", NULL);
        }
}

/* RetMany (a return of several values): its args are the result registers, the
 * code the ret of the one-value forms. */
static void gen_ret2(T *t) {
    static uint8_t roles[2] = {AirRole_Use, AirRole_Use}, banks[2] = {AirGP, AirFP}, widths[2] = {AirW64, AirW64};
    static AirSpecial sp = {.roles = roles, .banks = banks, .widths = widths};
    AirArg args[2] = {air_tmp(B3X_rax), air_tmp(B3X_xmm0)};
    run_case(t, Air_RetMany, 2, args, &sp, Layout_Backward, "(rax, xmm0)", NULL);
}

/* Patchpoints (codegen/air/stackmaps.h): a bare stackmap point (no bytes),
 * nop(N) for the nop sequences and their concatenations, ud2, and a call;
 * the recorded args (a register, an immediate, memory) emit no code. */
static void gen_patchpoints(T *t) {
    static uint8_t roles[3] = {AirRole_ColdUse, AirRole_ColdUse, AirRole_LateColdUse};
    static uint8_t banks[3] = {AirGP, AirGP, AirGP}, widths[3] = {AirW64, AirW64, AirW32};
    static uint8_t types[3] = {B3_Int64, B3_Int64, B3_Int32};
    static const uint32_t nops[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 17, 18, 31, 64};
    static AirPatchpointInfo infos[4 + N(nops)];
    static AirSpecial sps[4 + N(nops)];
    const AirArg args[3] = {air_tmp(B3X_r12), air_imm(-5), air_addr(B3X_rbp, -24)};
    uint32_t n = 0;
    infos[n++] = (AirPatchpointInfo){.id = 1, .code = AirPatch_Point, .nrecorded = 3, .types = types};
    infos[n++] = (AirPatchpointInfo){.id = 2, .code = AirPatch_Trap, .nrecorded = 3, .types = types};
    infos[n++] = (AirPatchpointInfo){.id = 3, .code = AirPatch_Call, .callee = t->ext, .types = types};
    infos[n++] = (AirPatchpointInfo){.id = 4, .code = AirPatch_Call, .callee = t->data, .nrecorded = 1,
                                     .types = types};
    for (unsigned i = 0; i < N(nops); i++)
        infos[n++] =
            (AirPatchpointInfo){.id = 5 + i, .code = AirPatch_Nop, .nop_bytes = nops[i], .types = types};
    for (uint32_t i = 0; i < n; i++) {
        sps[i] = (AirSpecial){.roles = roles, .banks = banks, .widths = widths, .data = &infos[i]};
        run_case(t, Air_Patchpoint, infos[i].nrecorded ? 3 : 0, args, &sps[i], Layout_Backward,
                 "(recorded values)", NULL);
    }
}

static void gen_frames(T *t) {
    static const uint64_t sizes[] = {0, 16, 48, 128, 4096, 1u << 20};
    static const B3Reg saves[][6] = {
        {B3_NO_REG}, {B3X_rbx, B3_NO_REG}, {B3X_rbx, B3X_r12, B3X_r13, B3X_r14, B3X_r15, B3_NO_REG}};
    for (unsigned s = 0; s < N(sizes); s++)
        for (unsigned r = 0; r < N(saves); r++) {
            AirCode c = t->c;
            memset(&c.used_callee_saves, 0, sizeof c.used_callee_saves);
            unsigned n = 0;
            for (; saves[r][n] != B3_NO_REG; n++)
                b3_regset_add(&c.used_callee_saves, saves[r][n]);
            c.frame_size = sizes[s];
            if (c.frame_size < 8 * n)
                continue;
            run_case(t, Air_RetVoid, 0, NULL, NULL, Layout_Backward, "() with prologue", &c);
            AirArg rax = air_tmp(B3X_rax);
            run_case(t, Air_Ret64, 1, &rax, NULL, Layout_Backward, "Tmp with prologue", &c);
        }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: encoder_test OUT.s OUT.expected\n");
        return 2;
    }
    static T t;
    B3Target target = {B3Arch_X86_64, B3OS_Linux, 0, 0};
    b3_module_init(&t.m, target);
    t.c.module = &t.m;
    t.c.target = target;
    t.c.desc = b3_target_desc(target);
    t.c.arena = &t.m.arena;
    t.blk = air_block_new(&t.c);
    for (unsigned i = 0; i < 3; i++)
        t.succ[i] = air_block_new(&t.c);
    t.slot = air_slot_new(&t.c, 16, 8, true);
    t.slot->offset = -40;
    t.big_slot = air_slot_new(&t.c, 4096, 16, false);
    t.big_slot->offset = -4112;
    t.ext = b3_symbol_get(&t.m, "ext_sym", 7, NULL);
    t.data = b3_symbol_get(&t.m, "data_sym", 8, NULL);
    tls_syms[0] = b3_symbol_get(&t.m, "tls_le", 6, NULL);
    tls_syms[0]->tls = B3Tls_LocalExec;
    tls_syms[1] = b3_symbol_get(&t.m, "tls_ie", 6, NULL);
    tls_syms[1]->tls = B3Tls_InitialExec;
    make_lists(&t);

    t.s_out = fopen(argv[1], "w");
    t.exp_out = fopen(argv[2], "w");
    if (!t.s_out || !t.exp_out) {
        perror("encoder_test");
        return 1;
    }
    fprintf(t.s_out, "\t.text\n");

    uint32_t arm_only = 0;
    /* Opcodes with forms but no x86-64 one (the arm64-only opcodes). */
    uint8_t has_form[AIR_NUM_OPCODES] = {0}, has_x86[AIR_NUM_OPCODES] = {0};
    for (uint32_t i = 0; i < air_num_overloads(); i++) {
        AirOverloadInfo o;
        air_overload_info(i, &o);
        uint8_t kinds[8];
        if (o.opcode == Air_EntrySwitch) {
            /* Never reaches the emitter: air_lower_entry_switch turns it into Jumps. */
            printf("not emitted: EntrySwitch (lowered before emission)\n");
            t.cases_per_op[o.opcode]++;
            continue;
        }
        if (o.nargs == 0) {
            gen_form(&t, &o, kinds); /* the table lists no tuple for zero-arg overloads */
            continue;
        }
        for (uint32_t j = 0; j < o.nforms; j++) {
            has_form[o.opcode] = 1;
            if (!(air_overload_form(i, j, kinds) & 1)) {
                arm_only++;
                continue;
            }
            has_x86[o.opcode] = 1;
            gen_form(&t, &o, kinds);
        }
    }
    uint32_t table_forms = t.nforms;
    gen_calls(&t);
    gen_ret2(&t);
    gen_patchpoints(&t);
    gen_frames(&t);
    gen_asm_api(&t);
    fclose(t.s_out);
    fclose(t.exp_out);

    printf("forms: %u x86-64 forms of the table (%u arm64-only forms skipped) + Call + prologue/epilogue\n",
           table_forms, arm_only);
    printf("cases: %u (%u of them direct assembler API sweeps)\n", t.ncases, t.asm_cases);
    for (unsigned op = 0; op < AIR_NUM_OPCODES; op++)
        if (!t.cases_per_op[op] && (has_x86[op] || !has_form[op]))
            printf("unchecked: %s: no cases generated\n", air_opcode_names[op]);
    b3_module_free(&t.m);
    return 0;
}
