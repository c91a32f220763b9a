/* The IR builder behind the grammar (parser/parser.y).
 *
 * The grammar hands over one line at a time: a value line as an opcode node
 * plus a list of argument nodes, a block header, a Successors line, a data
 * line.  This file gives those lines their meaning per opcode (spec sections
 * 4, 5 and 8), builds the IR through the construction API of ir/ir.h, and,
 * when a procedure ends, resolves what may be written before it is defined:
 * children and Phis (forward references), successor blocks, variables and
 * stack slots.  Symbols are checked when the module ends.
 *
 * What is reported here: everything about the text (unknown names, malformed
 * or misplaced arguments, literals out of range, references to nothing,
 * things defined twice, Predecessors lines that disagree with the CFG).
 * What is left to b3_validate: the rules of the IR itself (types, child
 * counts, terminals, dominance, register banks, ...).
 *
 * Decisions where the spec leaves room:
 * - A Fence written with effects takes Bottom for a missing Reads: as well
 *   as for a missing Writes: (a dump omits whichever range is empty); meta
 *   entries read = / write = win over effects.
 * - A dump's generator address on Check* (generator = 0x...) is its exit.
 * - Kind flags SensitiveToNaN and CloningForbidden (real B3 flags with no
 *   meaning here) are dropped with a warning; any other flag is an error.
 * - Values written without 'TYPE @N =' are numbered after the largest
 *   written number of their procedure, in order, when the procedure ends.
 * - Entry symbols other than the procedure's own inherit its 'internal'.
 * - A data item's written 'align N' can raise its alignment, never lower it
 *   below the largest natural alignment of its items.
 * - After a syntax error in a procedure its names are not resolved: a line
 *   lost to recovery would otherwise turn into "use of undefined" noise. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/x87.h"
#include "parser/parse_ctx.h"
#include "util/alloc.h"
#include "util/bits.h"
#include "util/strmap.h"
#include "util/vec.h"

#define N(i) b3p_n(c, (i))
#define TOKF(t) (int)(t).len, (t).p

/* ---- vectors, nodes, name maps ------------------------------------------ */

uint32_t b3p_node(B3ParseCtx *c, B3NodeKind kind, B3Loc loc) {
    B3_VEC_RESERVE("parse", c->nodes.a, c->nodes.cap, c->nodes.n + 1);
    /* Built in place: a node is big, and copying one in costs as much again. */
    static const B3Node blank;
    B3Node *n = &c->nodes.a[c->nodes.n];
    *n = blank;
    n->kind = (uint8_t)kind;
    n->loc = loc;
    n->tail = c->nodes.n;
    return c->nodes.n++;
}

uint32_t b3p_append(B3ParseCtx *c, uint32_t list, uint32_t item) {
    if (!list)
        return item;
    N(N(list)->tail)->next = item;
    N(list)->tail = N(item)->tail;
    return list;
}

void b3p_reset_nodes(B3ParseCtx *c) { c->nodes.n = 1; /* node 0 means "none" */ }

/* ---- values by number -------------------------------------------------------- */

/* value_define past the dense map: the map grows only while the numbering
 * stays reasonably dense; a far number is found through the procedure's map. */
static void value_define_slow(B3ParseCtx *c, uint32_t num, B3Value *v) {
    uint64_t limit = (uint64_t)8 * c->proc->nvalues + (1u << 16);
    if (num >= limit) {
        B3P_PUSH(c->vsparse, v);
        b3_nummap_put(&c->proc->value_map, &c->proc->arena, num, v);
        return;
    }
    B3_VEC_RESERVE_ZEROED("parse", c->vdense, c->vcap, (size_t)num + 1);
    uint32_t k = 0;
    for (uint32_t i = 0; i < c->vsparse.n; i++) {
        B3Value *w = c->vsparse.a[i];
        if (w->index < c->vcap)
            c->vdense[w->index] = w;
        else
            c->vsparse.a[k++] = w;
    }
    c->vsparse.n = k;
    c->vdense[num] = v;
}

static inline void value_define(B3ParseCtx *c, uint32_t num, B3Value *v) {
    if (num < c->vcap)
        c->vdense[num] = v;
    else
        value_define_slow(c, num, v);
}

static void values_clear(B3ParseCtx *c) {
    B3Proc *p = c->proc;
    for (uint32_t i = 0; i < p->nvalues; i++)
        if (p->values[i]->index < c->vcap)
            c->vdense[p->values[i]->index] = NULL;
    c->vsparse.n = 0;
}

/* ---- small helpers ------------------------------------------------------- */

static bool tok_is(const B3Tok *t, const char *s) { return !strncmp(t->p, s, t->len) && !s[t->len]; }

static const char *opname(B3Opcode op) { return b3_op_info[op].name; }

static void init_ops(B3ParseCtx *c) {
    for (int op = 0; op < B3_NUM_OPCODES; op++) {
        const char *n = b3_op_info[op].name;
        uint32_t len = (uint32_t)strlen(n);
        uint64_t w[2];
        char buf[16] = {0};
        memcpy(buf, n, len < 16 ? len : 16);
        memcpy(w, buf, 16);
        uint32_t h = b3p_op_hash(w, len);
        while (c->ops[h].op1)
            h = (h + 1) & (B3_OP_SLOTS - 1);
        c->ops[h] = (B3OpSlot){w[0], w[1], (uint16_t)(op + 1), (uint16_t)len};
    }
    /* Direct lines: opcodes whose meta data is at most a constant's
     * literal, a memory access's offset and range or an Upsilon's Phi. */
    for (int op = 0; op <= B3_NUM_OPCODES; op++) {
        int meta = op < B3_NUM_OPCODES ? b3_op_info[op].meta : -1;
        uint8_t need = 0, may = 0;
        switch (meta) {
        case B3M_NONE:
        case B3M_CCALL:
        case B3M_RETURN: break;
        case B3M_CONST: need = may = B3FL_LIT; break;
        case B3M_MEMORY: may = B3FL_OFFSET | B3FL_RANGE; break;
        case B3M_UPSILON: break;
        default: need = B3FL_NEVER; break;
        }
        if (op == B3_Upsilon)
            need = may = B3FL_PHI;
        c->direct_need[op] = need;
        c->direct_may[op] = may;
    }
}

/* How a node was written, for messages: its first token, quoted. */
static const char *node_text(B3ParseCtx *c, uint32_t i, char *buf, size_t size) {
    B3Node *n = N(i);
    switch (n->kind) {
    case B3N_LIST:
        snprintf(buf, size, "a list '[...]'");
        break;
    case B3N_CALL:
        snprintf(buf, size, "'%.*s(...)'", TOKF(n->tok));
        break;
    case B3N_REG:
        snprintf(buf, size, "'%%%.*s'", TOKF(n->tok));
        break;
    case B3N_SYM:
        snprintf(buf, size, "'@%.*s'", TOKF(n->tok));
        break;
    case B3N_RANGE:
        snprintf(buf, size, "'%.*s...%.*s'", TOKF(n->tok), TOKF(n->tok2));
        break;
    case B3N_STRING:
        snprintf(buf, size, "a string");
        break;
    case B3N_SUCC:
        snprintf(buf, size, "'#%llu'", (unsigned long long)n->tok.u);
        break;
    case B3N_CHILD:
        snprintf(buf, size, "'@%llu'", (unsigned long long)n->tok.u);
        break;
    case B3N_PHI:
        snprintf(buf, size, "'^@%llu'", (unsigned long long)n->tok.u);
        break;
    case B3N_EFFECTS:
        snprintf(buf, size, "effects");
        break;
    default:
        snprintf(buf, size, "'%.*s'", (int)(n->tok.len > 40 ? 40 : n->tok.len), n->tok.p);
        break;
    }
    return buf;
}

/* A symbol name as written: @name, or @"..." with escapes. */
static const char *sym_text(const B3Symbol *s, char *buf, size_t size) {
    bool plain = s->name_len > 0;
    for (uint32_t i = 0; i < s->name_len && plain; i++) {
        unsigned char ch = (unsigned char)s->name[i];
        bool alpha =
            (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '.' || ch == '$';
        plain = alpha || (i > 0 && ch >= '0' && ch <= '9');
    }
    if (plain) {
        snprintf(buf, size, "@%.*s", (int)s->name_len, s->name);
        return buf;
    }
    size_t k = 0;
    k += (size_t)snprintf(buf + k, size - k, "@\"");
    for (uint32_t i = 0; i < s->name_len && k + 8 < size; i++) {
        unsigned char ch = (unsigned char)s->name[i];
        if (ch == '"' || ch == '\\')
            k += (size_t)snprintf(buf + k, size - k, "\\%c", ch);
        else if (ch >= 0x20 && ch < 0x7f)
            buf[k++] = (char)ch;
        else
            k += (size_t)snprintf(buf + k, size - k, "\\%03o", ch);
    }
    snprintf(buf + k, size - k, "\"");
    return buf;
}

/* Every symbol written in the input, defined or referenced, comes through
 * here.  @"..." may hold any byte, but no object file can hold a NUL in a
 * symbol name: rejected at the name's first appearance, whatever is emitted,
 * so that --emit=b3 and --emit=obj agree on what is valid. */
static B3Symbol *sym_get(B3ParseCtx *c, B3Tok t, B3Loc loc) {
    bool created = false;
    B3Symbol *s = b3_symbol_get(c->m, t.p, t.len, &created);
    if (created && memchr(t.p, 0, t.len)) {
        char buf[300];
        b3_error(c->d, loc, "symbol %s contains a NUL byte, which no object file can hold in a symbol name",
                 sym_text(s, buf, sizeof buf));
    }
    return s;
}

static B3Symbol *sym_ref(B3ParseCtx *c, B3Tok t, B3Loc loc) {
    B3Symbol *s = sym_get(c, t, loc);
    if (!s->ref_loc.line)
        s->ref_loc = loc;
    return s;
}

static B3Reg reg_ref(B3ParseCtx *c, B3Tok t, B3Loc loc) {
    bool elsewhere = false;
    B3Reg r = b3_reg_parse(c->m->target, t.p, t.len, &elsewhere);
    if (r != B3_NO_REG)
        return r;
    if (elsewhere)
        b3_error(c->d, loc, "register '%%%.*s' does not exist on %s", TOKF(t), b3_target_name(c->m->target));
    else
        b3_error(c->d, loc, "unknown register '%%%.*s'", TOKF(t));
    return B3_NO_REG;
}

/* ---- literals -------------------------------------------------------------- */

/* Whether an integer literal lies in [-2^(bits-1), 2^bits) (unsigned_ok) or
 * in [-2^(bits-1), 2^(bits-1)) (signed only). */
static bool lit_fits(const B3Tok *t, unsigned bits, bool unsigned_ok) {
    if (t->ovf)
        return false;
    uint64_t neg_lim = 1ull << (bits - 1);
    uint64_t pos_lim = unsigned_ok ? (bits == 64 ? UINT64_MAX : (1ull << bits) - 1) : neg_lim - 1;
    return t->neg ? t->u <= neg_lim : t->u <= pos_lim;
}

/* The literal's value modulo 2^64. */
static uint64_t lit_bits(const B3Tok *t) { return t->neg ? 0 - t->u : t->u; }

/* Integer meta values: the ranges they accept. */
enum { R_S32, R_S64, R_ANY64, R_U64 };

static bool meta_int(B3ParseCtx *c, uint32_t node, const char *what, int range, int64_t *out) {
    B3Node *n = N(node);
    char buf[80];
    if (n->kind != B3N_INT) {
        b3_error(c->d, n->loc, "malformed value for '%s': expected an integer, found %s", what,
                 node_text(c, node, buf, sizeof buf));
        return false;
    }
    bool ok;
    const char *desc;
    switch (range) {
    case R_S32:
        ok = lit_fits(&n->tok, 32, false);
        desc = "a signed 32-bit integer";
        break;
    case R_S64:
        ok = lit_fits(&n->tok, 64, false);
        desc = "a signed 64-bit integer";
        break;
    case R_U64:
        ok = !n->tok.ovf && (!n->tok.neg || n->tok.u == 0);
        desc = "an unsigned 64-bit integer";
        break;
    default:
        ok = lit_fits(&n->tok, 64, true);
        desc = "a 64-bit integer";
        break;
    }
    if (!ok) {
        b3_error(c->d, n->loc, "value %.*s for '%s' is out of range for %s", TOKF(n->tok), what, desc);
        return false;
    }
    *out = (int64_t)lit_bits(&n->tok);
    return true;
}

/* A float or double literal, converted once, straight to its type. */
static bool lit_float(B3ParseCtx *c, uint32_t node, bool single, const char *what, uint64_t *bits) {
    B3Node *n = N(node);
    char buf[80];
    if (n->kind == B3N_INT || n->kind == B3N_FLOAT) {
        char text[128];
        if (n->tok.len >= sizeof text) {
            b3_error(c->d, n->loc, "number is too long");
            return false;
        }
        memcpy(text, n->tok.p, n->tok.len);
        text[n->tok.len] = 0;
        char *end;
        errno = 0;
        if (single) {
            float f = strtof(text, &end);
            uint32_t b;
            memcpy(&b, &f, 4);
            *bits = b;
        } else {
            double d = strtod(text, &end);
            memcpy(bits, &d, 8);
        }
        if (*end) {
            b3_error(c->d, n->loc, "malformed number '%s'", text);
            return false;
        }
        return true;
    }
    if (n->kind == B3N_DUMPCONST) {
        /* A dump's value(bits) form: the bits, in signed decimal, decide. */
        if (n->tok2.hex || !lit_fits(&n->tok2, single ? 32 : 64, true)) {
            b3_error(c->d, n->loc2, "bit pattern %.*s does not fit in %d bits", TOKF(n->tok2),
                     single ? 32 : 64);
            return false;
        }
        *bits = lit_bits(&n->tok2) & (single ? 0xffffffffull : UINT64_MAX);
        return true;
    }
    if (n->kind == B3N_CALL && tok_is(&n->tok, "bits")) {
        uint32_t a = n->sub;
        if (!a || N(a)->next || N(a)->kind != B3N_INT || N(a)->tok.neg) {
            b3_error(c->d, n->loc, "malformed bits(...): expected one non-negative integer, as in bits(0x%s)",
                     single ? "7fc00001" : "7ff8000000000001");
            return false;
        }
        if (!lit_fits(&N(a)->tok, single ? 32 : 64, true)) {
            b3_error(c->d, N(a)->loc, "bit pattern %.*s does not fit in %d bits", TOKF(N(a)->tok),
                     single ? 32 : 64);
            return false;
        }
        *bits = N(a)->tok.u;
        return true;
    }
    b3_error(c->d, n->loc, "expected a number for %s, found %s", what, node_text(c, node, buf, sizeof buf));
    return false;
}

/* ---- meta values ------------------------------------------------------------- */

static bool heap_num(B3ParseCtx *c, const B3Tok *t, B3Loc loc, uint64_t max, uint32_t *out) {
    if (t->neg || t->ovf || t->u > max) {
        b3_error(c->d, loc, "abstract heap %.*s is out of range (heaps are numbered 0 to %llu)", TOKF(*t),
                 (unsigned long long)max);
        return false;
    }
    *out = (uint32_t)t->u;
    return true;
}

static bool read_range(B3ParseCtx *c, uint32_t node, const char *what, B3HeapRange *out) {
    B3Node *n = N(node);
    char buf[80];
    if (n->kind == B3N_WORD && tok_is(&n->tok, "Top")) {
        *out = B3_HEAP_TOP;
        return true;
    }
    if (n->kind == B3N_WORD && tok_is(&n->tok, "Bottom")) {
        *out = B3_HEAP_BOTTOM;
        return true;
    }
    if (n->kind == B3N_INT) {
        uint32_t a;
        if (!heap_num(c, &n->tok, n->loc, UINT32_MAX - 1, &a))
            return false;
        *out = (B3HeapRange){a, a + 1};
        return true;
    }
    if (n->kind == B3N_RANGE) {
        uint32_t a, b;
        if (!heap_num(c, &n->tok, n->loc, UINT32_MAX, &a) || !heap_num(c, &n->tok2, n->loc2, UINT32_MAX, &b))
            return false;
        if (a > b) {
            b3_error(c->d, n->loc, "heap range %.*s...%.*s ends before it begins", TOKF(n->tok),
                     TOKF(n->tok2));
            return false;
        }
        *out = (B3HeapRange){a, b};
        return true;
    }
    b3_error(c->d, n->loc, "malformed heap range for '%s': expected Top, Bottom, N or A...B, found %s", what,
             node_text(c, node, buf, sizeof buf));
    return false;
}

static bool read_rep(B3ParseCtx *c, uint32_t node, B3ValueRep *out) {
    B3Node *n = N(node);
    char buf[80];
    int kind = -1;
    if (n->kind == B3N_WORD || n->kind == B3N_CALL)
        for (int k = 0; k <= B3Rep_Constant; k++)
            if (tok_is(&n->tok, b3_rep_name((B3RepKind)k)))
                kind = k;
    memset(out, 0, sizeof *out);
    bool takes_reg = kind == B3Rep_Register || kind == B3Rep_LateRegister;
    bool takes_int = kind == B3Rep_Stack || kind == B3Rep_StackArgument || kind == B3Rep_Constant;
    if (kind < 0) {
        if (n->kind == B3N_WORD || n->kind == B3N_CALL)
            b3_error(c->d, n->loc, "unknown constraint '%.*s'", TOKF(n->tok));
        else
            b3_error(c->d, n->loc,
                     "malformed constraint: expected a ValueRep such as SomeRegister or "
                     "Register(%%rax), found %s",
                     node_text(c, node, buf, sizeof buf));
        return false;
    }
    out->kind = (uint8_t)kind;
    out->reg = B3_NO_REG;
    const char *name = b3_rep_name((B3RepKind)kind);
    if (!takes_reg && !takes_int) {
        if (n->kind == B3N_CALL) {
            b3_error(c->d, n->loc, "constraint %s takes no argument", name);
            return false;
        }
        return true;
    }
    uint32_t a = n->kind == B3N_CALL ? n->sub : 0;
    if (!a || N(a)->next || (takes_reg && N(a)->kind != B3N_REG) || (takes_int && N(a)->kind != B3N_INT)) {
        b3_error(c->d, n->loc, "malformed constraint: %s takes %s, as in %s(%s)", name,
                 takes_reg ? "a register" : "an integer", name, takes_reg ? "%rax" : "8");
        return false;
    }
    if (takes_reg) {
        out->reg = reg_ref(c, N(a)->tok, N(a)->loc);
        return out->reg != B3_NO_REG;
    }
    int64_t v;
    if (!meta_int(c, a, name, kind == B3Rep_Constant ? R_ANY64 : R_S64, &v))
        return false;
    out->value = v;
    return true;
}

static bool read_regset(B3ParseCtx *c, uint32_t node, const char *what, B3RegSet *set, bool resolve) {
    B3Node *n = N(node);
    char buf[80];
    if (n->kind != B3N_LIST) {
        b3_error(c->d, n->loc,
                 "malformed value for '%s': expected a register list such as [%%rax, %%xmm0], found %s", what,
                 node_text(c, node, buf, sizeof buf));
        return false;
    }
    bool ok = true;
    for (uint32_t a = n->sub; a; a = N(a)->next) {
        if (N(a)->kind != B3N_REG) {
            b3_error(c->d, N(a)->loc, "expected a register (%%name) in '%s', found %s", what,
                     node_text(c, a, buf, sizeof buf));
            ok = false;
            continue;
        }
        if (!resolve)
            continue;
        B3Reg r = reg_ref(c, N(a)->tok, N(a)->loc);
        if (r == B3_NO_REG)
            ok = false;
        else
            b3_regset_add(set, r);
    }
    return ok;
}

static void read_generator(B3ParseCtx *c, uint32_t node, const char *what, bool exit, B3Generator *g) {
    B3Node *n = N(node);
    char buf[80];
    g->loc = n->loc;
    if (n->kind == B3N_WORD && tok_is(&n->tok, "trap")) {
        g->kind = B3Gen_Trap;
        return;
    }
    if (n->kind == B3N_SYM) {
        g->kind = B3Gen_Symbol;
        g->sym = sym_ref(c, n->tok, n->loc);
        return;
    }
    if (n->kind == B3N_CALL && tok_is(&n->tok, "nop")) {
        uint32_t a = n->sub;
        int64_t v;
        if (!a || N(a)->next) {
            b3_error(c->d, n->loc, "malformed nop(...): expected a byte count, as in nop(4)");
            return;
        }
        if (meta_int(c, a, "nop", R_U64, &v)) {
            g->kind = B3Gen_Nop;
            g->n = (uint64_t)v;
        }
        return;
    }
    if (n->kind == B3N_INT && n->tok.hex && !n->tok.neg && !n->tok.ovf) {
        g->kind = B3Gen_Address;
        g->n = n->tok.u;
        b3_warning(c->d, n->loc, "'%s = %.*s' is a code address from a dump; it compiles as %s", what,
                   TOKF(n->tok), exit ? "exit = trap" : "a trap");
        return;
    }
    b3_error(c->d, n->loc, "malformed value for '%s': expected %s, found %s", what,
             exit ? "trap, @handler or a dump's 0x address"
                  : "trap, nop(N), @function or a dump's 0x address",
             node_text(c, node, buf, sizeof buf));
}

/* ---- module items ------------------------------------------------------------ */

void b3p_init(B3ParseCtx *c, B3Module *m, B3Diag *d, const B3ParseOptions *opt, size_t len) {
    c->m = m;
    c->d = d;
    c->opt = opt;
    init_ops(c);
    /* The dense number map, sized for the numbers a source of len bytes
     * usually writes (a value line takes more than 24 bytes): it is then
     * not regrown and copied as the numbers rise.  Zeroed by calloc, whose
     * untouched pages cost nothing. */
    size_t guess = len / 24 < B3_DENSE_GUESS_MAX ? len / 24 : B3_DENSE_GUESS_MAX;
    if (guess > 1024) {
        c->vdense = b3_xcalloc("parse", guess, sizeof *c->vdense);
        c->vcap = (uint32_t)guess;
    }
    b3p_node(c, B3N_NONE, (B3Loc){0, 0, 0});
}

static void proc_state_free(B3ParseCtx *c) {
    b3_strmap_free(&c->vars);
    b3_strmap_free(&c->slots);
    c->pend_values.n = c->pend_blocks.n = c->pend_names.n = 0;
    c->unnamed.n = c->preds.n = c->pred_nums.n = c->pred_locs.n = 0;
}

void b3p_free(B3ParseCtx *c) {
    proc_state_free(c);
    free(c->nodes.a);
    free(c->toks.a);
    free(c->pend_values.a);
    free(c->pend_blocks.a);
    free(c->pend_names.a);
    free(c->unnamed.a);
    free(c->preds.a);
    free(c->pred_nums.a);
    free(c->pred_locs.a);
    free(c->tmp.a);
    free(c->data_lines.a);
    free(c->vdense);
    free(c->vsparse.a);
}

static void redefinition(B3ParseCtx *c, B3Symbol *s, B3Loc loc) {
    char buf[300];
    b3_error(c->d, loc, "redefinition of symbol %s", sym_text(s, buf, sizeof buf));
    if (s->loc.line)
        b3_note(c->d, s->loc, "previous definition is here");
}

/* threadlocal or threadlocal(MODEL) (docs/c-extensions.md) on data or an
 * extern.  Returns false if n is not that attribute. */
static bool tls_attr(B3ParseCtx *c, B3Symbol *s, uint32_t a) {
    const B3Node *n = N(a);
    if ((n->kind != B3N_WORD && n->kind != B3N_CALL) || !tok_is(&n->tok, "threadlocal"))
        return false;
    s->tls = B3Tls_GeneralDynamic;
    if (n->kind == B3N_WORD)
        return true;
    const B3Node *m = n->sub ? N(n->sub) : NULL;
    int model = -1;
    for (int k = 1; m && m->kind == B3N_WORD && !m->next && k < B3_NUM_TLS_MODELS; k++)
        if (tok_is(&m->tok, b3_tls_model_names[k]))
            model = k;
    if (model < 0) {
        char buf[80];
        b3_error(
            c->d, m ? m->loc : n->loc,
            "unknown thread-local model %s (expected generaldynamic, localdynamic, initialexec or localexec)",
            m ? node_text(c, n->sub, buf, sizeof buf) : "()");
        return true;
    }
    s->tls = (uint8_t)model;
    return true;
}

void b3p_extern(B3ParseCtx *c, B3Tok t, B3Loc loc, uint32_t attrs) {
    B3Symbol *s = sym_get(c, t, loc);
    bool already = s->declared && !s->defined;
    s->declared = true;
    if (!s->loc.line)
        s->loc = loc;
    if (!already)
        b3_module_add_item(c->m, B3Item_Extern, s);
    char buf[80];
    for (uint32_t a = attrs; a; a = N(a)->next) {
        if (N(a)->kind == B3N_WORD && tok_is(&N(a)->tok, "weak"))
            s->weak_ref = true;
        else if (!tls_attr(c, s, a))
            b3_error(c->d, N(a)->loc, "unknown extern attribute %s (expected weak or threadlocal(MODEL))",
                     node_text(c, a, buf, sizeof buf));
    }
    b3p_reset_nodes(c);
}

/* The linkage words of a definition (docs/c-extensions.md): weak and hidden,
 * which internal excludes, and used.  Returns false if n is none of them. */
static bool linkage_attr(B3ParseCtx *c, B3Symbol *s, const B3Node *n, B3Loc *internal_loc, B3Loc *other_loc) {
    if (n->kind != B3N_WORD)
        return false;
    if (tok_is(&n->tok, "internal")) {
        s->internal = true;
        *internal_loc = n->loc;
    } else if (tok_is(&n->tok, "weak")) {
        s->weak = true;
        *other_loc = n->loc;
    } else if (tok_is(&n->tok, "hidden")) {
        s->hidden = true;
        *other_loc = n->loc;
    } else if (tok_is(&n->tok, "used")) {
        s->used = true; /* any linkage: a static used function is kept too */
        return true;
    } else {
        return false;
    }
    if (s->internal && (s->weak || s->hidden) && internal_loc->line && other_loc->line) {
        b3_error(c->d,
                 internal_loc->line > other_loc->line ||
                         (internal_loc->line == other_loc->line && internal_loc->col > other_loc->col)
                     ? *internal_loc
                     : *other_loc,
                 "an internal symbol cannot be weak or hidden (internal is local to this object)");
        internal_loc->line = 0; /* reported once */
    }
    return true;
}

void b3p_alias(B3ParseCtx *c, B3Tok t, B3Loc loc, uint32_t attrs, B3Tok target, B3Loc target_loc,
               const B3Tok *offset, B3Loc offset_loc) {
    B3Symbol *s = sym_get(c, t, loc);
    B3Alias *a = b3_arena_alloc(&c->m->arena, sizeof *a);
    if (s->defined) {
        redefinition(c, s, loc);
    } else {
        s->defined = s->declared = true;
        s->kind = B3Sym_Alias;
        s->loc = loc;
        s->def.alias = a;
        b3_module_add_item(c->m, B3Item_Alias, s);
    }
    a->target = sym_ref(c, target, target_loc);
    a->target_loc = target_loc;
    if (offset) {
        if (offset->neg || offset->ovf || offset->u > INT32_MAX)
            b3_error(c->d, offset_loc, "an alias's offset is a byte count from 0 to 2^31-1, found %.*s",
                     TOKF(*offset));
        else
            a->offset = (int64_t)offset->u;
    }
    char buf[80];
    B3Loc internal_loc = {0, 0, 0}, other_loc = {0, 0, 0};
    for (uint32_t k = attrs; k; k = N(k)->next)
        if (!linkage_attr(c, s, N(k), &internal_loc, &other_loc))
            b3_error(c->d, N(k)->loc, "unknown alias attribute %s (expected internal, weak, hidden or used)",
                     node_text(c, k, buf, sizeof buf));
    b3p_reset_nodes(c);
}

/* `variadic(G, F, S)`: the registers and stack bytes the named parameters
 * of a C variadic function take (docs/c-extensions.md); the validator
 * checks them against the target. */
static void proc_variadic(B3ParseCtx *c, B3Proc *p, B3Node *n) {
    static const char *const what[3] = {"integer registers", "floating-point registers", "stack bytes"};
    uint32_t vals[3] = {0, 0, 0}, k = 0;
    char buf[80];
    if (p->variadic) {
        b3_error(c->d, n->loc, "variadic(...) given twice");
        return;
    }
    for (uint32_t e = n->sub; e; e = N(e)->next, k++) {
        if (k >= 3)
            continue;
        B3Node *x = N(e);
        if (x->kind != B3N_INT || x->tok.neg || x->tok.ovf || x->tok.u > (1u << 20)) {
            b3_error(c->d, x->loc, "expected a count of %s (0 to 2^20) in variadic(...), found %s", what[k],
                     node_text(c, e, buf, sizeof buf));
            return;
        }
        vals[k] = (uint32_t)x->tok.u;
    }
    if (k != 3) {
        b3_error(c->d, n->loc,
                 "variadic(...) takes 3 numbers, the integer registers, floating-point registers and "
                 "stack bytes of the named parameters, as in variadic(1, 0, 0); found %u",
                 k);
        return;
    }
    p->variadic = true;
    p->va_gprs = vals[0];
    p->va_fprs = vals[1];
    p->va_stack = vals[2];
}

/* section("NAME") on data or a procedure (docs/c-extensions.md): sets
 * s's section; false if n is another attribute. */
static bool section_attr(B3ParseCtx *c, B3Symbol *s, const B3Node *n) {
    if (n->kind != B3N_CALL || !tok_is(&n->tok, "section") || !n->sub || N(n->sub)->kind != B3N_STRING ||
        N(n->sub)->next)
        return false;
    const B3Node *str = N(n->sub);
    if (!str->tok.len || memchr(str->tok.p, 0, str->tok.len))
        b3_error(c->d, str->loc, "a section name is not empty and has no NUL byte");
    else if (s->section)
        b3_error(c->d, n->loc, "section(...) given twice");
    else {
        s->section = str->tok.p;
        s->section_len = str->tok.len;
    }
    return true;
}

void b3p_proc_begin(B3ParseCtx *c, B3Tok *name, B3Loc loc, uint32_t attrs) {
    B3Module *m = c->m;
    const char *bare = c->opt && c->opt->bare_name ? c->opt->bare_name : "main";
    B3Tok t = {0};
    if (name)
        t = *name;
    else {
        t.p = bare;
        t.len = (uint32_t)strlen(bare);
    }
    B3Symbol *s = sym_get(c, t, loc);
    B3Proc *p = b3_proc_new(m, s);
    p->bare = name == NULL;
    p->loc = loc;
    if (s->defined) {
        redefinition(c, s, loc);
    } else {
        s->defined = s->declared = true;
        s->kind = B3Sym_Proc;
        s->loc = loc;
        s->def.proc = p;
        b3_module_add_item(m, B3Item_Proc, s);
    }

    /* Attributes: linkage first, since entry symbols inherit it. */
    char buf[80];
    B3Loc internal_loc = {0, 0, 0}, other_loc = {0, 0, 0};
    uint32_t linkage = 0; /* bit k: attribute k is a linkage word */
    uint32_t k_attr = 0;
    for (uint32_t a = attrs; a; a = N(a)->next, k_attr++)
        if (linkage_attr(c, s, N(a), &internal_loc, &other_loc) && k_attr < 32)
            linkage |= 1u << k_attr;
    k_attr = 0;
    for (uint32_t a = attrs; a; a = N(a)->next, k_attr++) {
        B3Node *n = N(a);
        if (k_attr < 32 && (linkage >> k_attr & 1))
            continue;
        if (n->kind == B3N_CALL && tok_is(&n->tok, "entrypoints")) {
            if (p->entrypoints) {
                b3_error(c->d, n->loc, "entrypoints(...) given twice");
                continue;
            }
            uint32_t k = 0;
            for (uint32_t e = n->sub; e; e = N(e)->next)
                k++;
            if (!k) {
                b3_error(c->d, n->loc, "entrypoints(...) needs at least one symbol");
                continue;
            }
            p->entrypoints = b3_arena_alloc(&m->arena, k * sizeof(B3Symbol *));
            p->entry_locs = b3_arena_alloc(&m->arena, k * sizeof(B3Loc));
            for (uint32_t e = n->sub; e; e = N(e)->next) {
                if (N(e)->kind != B3N_SYM) {
                    b3_error(c->d, N(e)->loc,
                             "expected an entry symbol (@name) in entrypoints(...), found %s",
                             node_text(c, e, buf, sizeof buf));
                    continue;
                }
                B3Symbol *es = sym_get(c, N(e)->tok, N(e)->loc);
                uint32_t i = p->nentrypoints++;
                p->entrypoints[i] = es;
                p->entry_locs[i] = N(e)->loc;
                if (es == s) {
                    s->entry_index = i;
                } else if (!es->defined) {
                    /* Defined elsewhere already: the validator names the clash. */
                    es->kind = B3Sym_Entry;
                    es->defined = es->declared = true;
                    es->def.proc = p;
                    es->entry_index = i;
                    es->internal = s->internal;
                    es->weak = s->weak;
                    es->hidden = s->hidden;
                    es->loc = N(e)->loc;
                }
            }
            continue;
        }
        if ((n->kind == B3N_WORD || n->kind == B3N_CALL) &&
            (tok_is(&n->tok, "constructor") || tok_is(&n->tok, "destructor"))) {
            int32_t *prio = tok_is(&n->tok, "constructor") ? &p->ctor_priority : &p->dtor_priority;
            *prio = B3_DEFAULT_INIT_PRIORITY;
            if (n->kind == B3N_CALL) {
                const B3Node *k = n->sub ? N(n->sub) : NULL;
                if (!k || k->kind != B3N_INT || k->next || k->tok.neg || k->tok.ovf || k->tok.u > 65535)
                    b3_error(c->d, k ? k->loc : n->loc, "%.*s(N) needs a priority N from 0 to 65535",
                             TOKF(n->tok));
                else
                    *prio = (int32_t)k->tok.u;
            }
            continue;
        }
        if (n->kind == B3N_CALL && tok_is(&n->tok, "pinned")) {
            uint32_t k = p->npinned;
            for (uint32_t e = n->sub; e; e = N(e)->next)
                k++;
            B3Reg *regs = b3_arena_alloc(&m->arena, (k ? k : 1) * sizeof(B3Reg));
            if (p->npinned)
                memcpy(regs, p->pinned, p->npinned * sizeof(B3Reg));
            p->pinned = regs;
            for (uint32_t e = n->sub; e; e = N(e)->next) {
                if (N(e)->kind != B3N_REG) {
                    b3_error(c->d, N(e)->loc, "expected a register (%%name) in pinned(...), found %s",
                             node_text(c, e, buf, sizeof buf));
                    continue;
                }
                B3Reg r = reg_ref(c, N(e)->tok, N(e)->loc);
                if (r != B3_NO_REG)
                    p->pinned[p->npinned++] = r;
            }
            continue;
        }
        if (section_attr(c, s, n))
            continue;
        if (tok_is(&n->tok, "variadic")) {
            if (n->kind == B3N_CALL)
                proc_variadic(c, p, n);
            else
                b3_error(c->d, n->loc,
                         "variadic needs the registers and stack bytes of the named parameters, as in "
                         "variadic(1, 0, 0)");
            continue;
        }
        b3_error(c->d, n->loc,
                 "unknown procedure attribute %s (expected internal, weak, hidden, entrypoints(...), "
                 "pinned(...), variadic(...), constructor(N), destructor(N) or section(\"NAME\"))",
                 node_text(c, a, buf, sizeof buf));
    }
    b3p_reset_nodes(c);

    c->proc = p;
    c->block = NULL;
    c->section = B3Sec_None;
    c->succ_kind = 0;
    c->block_has_preds = false;
    c->proc_errors = c->d->errors;
    c->proc_syntax = c->syntax_errors;
    c->max_index = 0;
    c->next_provisional = UINT32_MAX - 1;
    c->scratch = b3_proc_new(m, s);
    c->scratch_block = b3_arena_alloc(&m->arena, sizeof(B3Block));
}

void b3p_data_begin(B3ParseCtx *c, B3Tok t, B3Loc loc, uint32_t attrs) {
    B3Module *m = c->m;
    B3Symbol *s = sym_get(c, t, loc);
    B3Data *d = b3_arena_alloc(&m->arena, sizeof *d);
    c->data = d;
    c->data_sym = NULL;
    if (s->defined) {
        redefinition(c, s, loc);
    } else {
        s->defined = s->declared = true;
        s->kind = B3Sym_Data;
        s->loc = loc;
        s->def.data = d;
        c->data_sym = s;
        b3_module_add_item(m, B3Item_Data, s);
    }
    char buf[80];
    B3Loc internal_loc = {0, 0, 0}, other_loc = {0, 0, 0};
    for (uint32_t a = attrs; a; a = N(a)->next) {
        B3Node *n = N(a);
        if (tls_attr(c, s, a))
            continue;
        if (section_attr(c, s, n))
            continue;
        if (n->kind == B3N_CALL) {
            b3_error(c->d, n->loc,
                     "unknown data attribute %s (expected internal, weak, hidden, used, readonly, align N, "
                     "section(\"NAME\") or threadlocal(MODEL))",
                     node_text(c, a, buf, sizeof buf));
            continue;
        }
        if (tok_is(&n->tok, "align")) {
            if (!n->flags) {
                b3_error(c->d, n->loc, "'align' needs a power of two, as in align 16");
                continue;
            }
            if (n->tok2.neg || n->tok2.ovf || !b3_is_pow2(n->tok2.u) || n->tok2.u > (1u << 30)) {
                b3_error(c->d, n->loc2, "alignment %.*s is not a power of two between 1 and 2^30",
                         TOKF(n->tok2));
                continue;
            }
            d->has_align = true;
            d->align = (uint32_t)n->tok2.u;
            continue;
        }
        if (n->flags) {
            b3_error(c->d, n->loc2, "unexpected %.*s after '%.*s'", TOKF(n->tok2), TOKF(n->tok));
            continue;
        }
        if (linkage_attr(c, s, n, &internal_loc, &other_loc))
            continue;
        if (tok_is(&n->tok, "readonly")) {
            d->readonly = true;
            continue;
        }
        b3_error(c->d, n->loc,
                 "unknown data attribute %s (expected internal, weak, hidden, readonly, align N or "
                 "threadlocal(MODEL))",
                 node_text(c, a, buf, sizeof buf));
    }
    c->data_lines.n = 0;
    b3p_reset_nodes(c);
}

static const char *const data_kind_names[] = {
    [B3Data_Int8] = "Int8",   [B3Data_Int16] = "Int16", [B3Data_Int32] = "Int32",
    [B3Data_Int64] = "Int64", [B3Data_Float] = "Float", [B3Data_Double] = "Double",
    [B3Data_Bytes] = "Bytes", [B3Data_Zero] = "Zero",   [B3Data_Addr] = "Addr",
    [B3Data_Rel32] = "Rel32",
};

void b3p_data_line(B3ParseCtx *c, B3Tok kt, B3Loc loc, uint32_t items) {
    int kind = -1;
    for (int k = 0; k <= B3Data_Rel32; k++)
        if (tok_is(&kt, data_kind_names[k]))
            kind = k;
    if (kind < 0) {
        b3_error(c->d, loc,
                 "unknown data item kind '%.*s' (expected Int8, Int16, Int32, Int64, Float, Double, Bytes, "
                 "Zero, Addr or Rel32)",
                 TOKF(kt));
        b3p_reset_nodes(c);
        return;
    }
    uint32_t count = 0;
    for (uint32_t a = items; a; a = N(a)->next)
        count++;
    B3DataLine line = {(uint8_t)kind, b3_arena_alloc(&c->m->arena, count * sizeof(B3DataItem)), 0};
    char buf[80];
    static const unsigned bits_of[] = {
        [B3Data_Int8] = 8, [B3Data_Int16] = 16, [B3Data_Int32] = 32, [B3Data_Int64] = 64};
    for (uint32_t a = items; a; a = N(a)->next) {
        B3Node *n = N(a);
        B3DataItem *it = &line.items[line.nitems];
        it->kind = (uint8_t)kind;
        it->loc = n->loc;
        bool ok = false;
        switch (kind) {
        case B3Data_Int8:
        case B3Data_Int16:
        case B3Data_Int32:
        case B3Data_Int64: {
            unsigned bits = bits_of[kind];
            if (n->kind != B3N_INT) {
                b3_error(c->d, n->loc, "expected an integer in %s data, found %s", data_kind_names[kind],
                         node_text(c, a, buf, sizeof buf));
                break;
            }
            if (!lit_fits(&n->tok, bits, true)) {
                b3_error(c->d, n->loc, "%s item %.*s is out of range [%lld, %llu]", data_kind_names[kind],
                         TOKF(n->tok), bits == 64 ? (long long)INT64_MIN : -(1ll << (bits - 1)),
                         bits == 64 ? (unsigned long long)UINT64_MAX : (1ull << bits) - 1);
                break;
            }
            it->u.bits = lit_bits(&n->tok) & (bits == 64 ? UINT64_MAX : (1ull << bits) - 1);
            ok = true;
            break;
        }
        case B3Data_Float:
        case B3Data_Double:
            ok = lit_float(c, a, kind == B3Data_Float, kind == B3Data_Float ? "Float data" : "Double data",
                           &it->u.bits);
            break;
        case B3Data_Bytes:
            if (n->kind != B3N_STRING) {
                b3_error(c->d, n->loc, "expected a string in Bytes data, found %s",
                         node_text(c, a, buf, sizeof buf));
                break;
            }
            it->u.str.bytes = (uint8_t *)n->tok.p;
            it->u.str.len = n->tok.len;
            ok = true;
            break;
        case B3Data_Zero:
            if (n->kind != B3N_INT || n->tok.neg || n->tok.ovf) {
                b3_error(c->d, n->loc, "expected a byte count in Zero data, found %s",
                         node_text(c, a, buf, sizeof buf));
                break;
            }
            it->u.zero = n->tok.u;
            ok = true;
            break;
        case B3Data_Addr:
        case B3Data_Rel32:
            if (n->kind == B3N_SYM) {
                it->u.addr.sym = sym_ref(c, n->tok, n->loc);
                ok = true;
                break;
            }
            if (n->kind == B3N_ADDR) {
                if (n->flags && n->tok2.p[0] != '-') {
                    b3_error(c->d, n->loc2, "expected '+' or '-' before the addend %.*s", TOKF(n->tok2));
                    break;
                }
                /* "@s - 5" arrives as the literal 5 with its sign flipped. */
                B3Tok off = n->tok2;
                if (!lit_fits(&off, 64, false)) {
                    b3_error(c->d, n->loc2, "addend %.*s is out of range for a signed 64-bit integer",
                             TOKF(n->tok2));
                    break;
                }
                it->u.addr.sym = sym_ref(c, n->tok, n->loc);
                it->u.addr.addend = (int64_t)lit_bits(&off);
                ok = true;
                break;
            }
            b3_error(c->d, n->loc, "expected a symbol (@name, @name + N) in %s data, found %s",
                     data_kind_names[kind], node_text(c, a, buf, sizeof buf));
            break;
        }
        if (ok)
            line.nitems++;
    }
    B3P_PUSH(c->data_lines, line);
    b3p_reset_nodes(c);
}

void b3p_data_end(B3ParseCtx *c) {
    B3Data *d = c->data;
    if (!d)
        return;
    uint64_t off = 0;
    uint32_t align = 1;
    for (uint32_t i = 0; i < c->data_lines.n; i++) {
        const B3DataLine *l = &c->data_lines.a[i];
        for (uint32_t j = 0; j < l->nitems; j++) {
            const B3DataItem *it = &l->items[j];
            uint64_t size;
            uint32_t a;
            switch (it->kind) {
            case B3Data_Int8:
                size = a = 1;
                break;
            case B3Data_Int16:
                size = a = 2;
                break;
            case B3Data_Int32:
            case B3Data_Rel32:
            case B3Data_Float:
                size = a = 4;
                break;
            case B3Data_Bytes:
                size = it->u.str.len;
                a = 1;
                break;
            case B3Data_Zero:
                size = it->u.zero;
                a = 1;
                break;
            default:
                size = a = 8;
                break; /* Int64, Double, Addr (pointer-sized on every target) */
            }
            off = (off + a - 1) & ~(uint64_t)(a - 1);
            off += size;
            if (a > align)
                align = a;
        }
    }
    d->size = off;
    /* A written alignment may raise the natural one, never lower it. */
    d->align = d->has_align && d->align > align ? d->align : align;
    d->nlines = c->data_lines.n;
    if (d->nlines) {
        d->lines = b3_arena_alloc(&c->m->arena, d->nlines * sizeof(B3DataLine));
        memcpy(d->lines, c->data_lines.a, d->nlines * sizeof(B3DataLine));
    }
    c->data_lines.n = 0;
    c->data = NULL;
    c->data_sym = NULL;
}

void b3p_module_end(B3ParseCtx *c) {
    B3Module *m = c->m;
    char buf[300];
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        B3Symbol *s = m->symbols[i];
        if (!s->declared)
            b3_error(c->d, s->ref_loc, "use of undeclared symbol %s (define it, or declare it with 'extern')",
                     sym_text(s, buf, sizeof buf));
    }
}

/* ---- body lines ------------------------------------------------------------ */

void b3p_section(B3ParseCtx *c, int section, B3Loc loc) {
    c->section = section;
    c->block = NULL;
    if (section == B3Sec_Orphans)
        b3_warning(c->d, loc, "ignoring orphaned values (values that are in no block)");
    b3p_reset_nodes(c);
}

void b3p_block_header(B3ParseCtx *c, B3Tok num, B3Loc loc) {
    B3Proc *p = c->proc;
    c->section = B3Sec_Block;
    c->succ_kind = 0;
    c->block_has_preds = false;
    if (!p->loc.line) {
        p->loc = loc; /* a bare body is located at its first block */
        if (p->sym && !p->sym->loc.line)
            p->sym->loc = loc;
    }
    B3Block *old = b3_block_find(p, (uint32_t)num.u);
    if (old) {
        b3_error(c->d, loc, "redefinition of block #%u", old->index);
        b3_note(c->d, old->loc, "previous definition is here");
        /* Keep parsing its lines into a block that is not part of the procedure. */
        c->block = b3_arena_alloc(&c->m->arena, sizeof(B3Block));
        c->block->index = (uint32_t)num.u;
        c->block->loc = loc;
        return;
    }
    c->block = b3_block_new(c->m, p, (uint32_t)num.u);
    c->block->loc = loc;
}

uint32_t b3p_kind(B3ParseCtx *c, B3Tok name, B3Loc loc, uint32_t flags) {
    uint32_t k = b3p_node(c, B3N_KIND, loc);
    N(k)->tok = name;
    for (uint32_t f = flags; f; f = N(f)->next) {
        B3Tok t = N(f)->tok;
        B3Loc fl = N(f)->loc;
        if (tok_is(&t, "Chill")) {
            N(k)->kflags |= B3K_CHILL;
            N(k)->loc2 = fl;
        } else if (tok_is(&t, "Traps")) {
            N(k)->kflags |= B3K_TRAPS;
            N(k)->loc3 = fl;
        } else if (tok_is(&t, "SensitiveToNaN") || tok_is(&t, "CloningForbidden")) {
            b3_warning(c->d, fl, "kind flag '%.*s' is ignored", TOKF(t));
        } else {
            b3_error(c->d, fl, "unknown kind flag '%.*s' (the flags are Chill and Traps)", TOKF(t));
        }
    }
    return k;
}

uint32_t b3p_kind_wrap(B3ParseCtx *c, B3Tok wrapper, B3Loc loc, uint32_t k) {
    if (wrapper.p[0] == 'c') {
        N(k)->kflags |= B3K_CHILL;
        N(k)->loc2 = loc;
    } else {
        N(k)->kflags |= B3K_TRAPS;
        N(k)->loc3 = loc;
    }
    return k;
}

uint32_t b3p_effects(B3ParseCtx *c, uint32_t list) {
    if (N(list)->kind == B3N_WORD && !N(list)->next)
        return list; /* a lone identifier: resolved per opcode */
    uint32_t e = b3p_node(c, B3N_EFFECTS, N(list)->loc);
    N(e)->sub = list;
    N(e)->tok = N(list)->tok;
    return e;
}

uint32_t b3p_succ_label(B3ParseCtx *c, B3Tok label, B3Loc loc, uint32_t target) {
    B3Node *n = N(target);
    if (tok_is(&label, "Rare"))
        n->flags |= B3SF_RARE;
    else if (tok_is(&label, "Then"))
        n->flags |= B3SF_THEN;
    else if (tok_is(&label, "Else"))
        n->flags |= B3SF_ELSE;
    else if (!tok_is(&label, "Normal")) {
        b3_error(c->d, loc, "unknown successor label '%.*s:' (expected Then:, Else: or Rare:)", TOKF(label));
        n->flags |= B3SF_BADLABEL;
    }
    n->loc = loc;
    return target;
}

static const char *const effect_words[] = {
    "Terminal",        "ExitsSideways", "ControlDependent", "WritesLocalState",
    "ReadsLocalState", "WritesPinned",  "ReadsPinned",      "Fence",
};

static bool is_effect_word(const B3Tok *t) {
    for (size_t i = 0; i < sizeof effect_words / sizeof effect_words[0]; i++)
        if (tok_is(t, effect_words[i]))
            return true;
    return false;
}

static void list_ints(char *buf, size_t size, const int64_t *v, uint32_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < n && k + 24 < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (n && k + 24 >= size)
        snprintf(buf + k, size - k, ", ...");
}

/* Where a successor names its block. */
static B3Loc succ_block_loc(B3ParseCtx *c, uint32_t s) { return N(s)->loc3.line ? N(s)->loc3 : N(s)->loc; }

static void pend_block(B3ParseCtx *c, B3Block *b, uint32_t slot, uint32_t num, B3Loc loc) {
    B3PendingBlock pb = {b, slot, num, loc};
    B3P_PUSH(c->pend_blocks, pb);
}

/* Gives the current block its successors (nodes in c->tmp), read the way
 * the block's terminal term (possibly NULL) defines them. */
static void attach_succs(B3ParseCtx *c, B3Value *term, B3Loc loc, bool inline_form) {
    B3Block *b = c->block;
    uint32_t n = c->tmp.n;
    uint32_t *s = c->tmp.a;
    if (!b) {
        b3_error(c->d, loc, "'Successors:' line outside of a block");
        return;
    }
    if (c->succ_kind) {
        if (c->succ_kind != (inline_form ? 1 : 2))
            b3_error(c->d, loc, "successors of block #%u are written both inline and in a 'Successors:' line",
                     b->index);
        else if (inline_form)
            b3_error(c->d, loc, "block #%u already has successors from an earlier terminal", b->index);
        else
            b3_error(c->d, loc, "block #%u has a second 'Successors:' line", b->index);
        return;
    }
    c->succ_kind = inline_form ? 1 : 2;
    int op = term ? term->opcode : -1;
    const char *what = term ? opname((B3Opcode)term->opcode) : "a block without a terminal";
    bool ok = true;
    for (uint32_t i = 0; i < n; i++)
        if (N(s[i])->flags & B3SF_BADLABEL)
            ok = false;

    /* Branch: "Then:#a, Else:#b" in either order, or positional. */
    uint32_t order[2] = {0, 1};
    if (op == B3_Branch) {
        bool labels = false;
        for (uint32_t i = 0; i < n; i++)
            labels |= (N(s[i])->flags & (B3SF_THEN | B3SF_ELSE)) != 0;
        if (labels) {
            if (n == 2 && (N(s[0])->flags & B3SF_THEN) && (N(s[1])->flags & B3SF_ELSE)) {
                /* as written */
            } else if (n == 2 && (N(s[0])->flags & B3SF_ELSE) && (N(s[1])->flags & B3SF_THEN)) {
                order[0] = 1;
                order[1] = 0;
            } else {
                b3_error(c->d, loc, "Branch successors are written 'Then:#a, Else:#b'");
                ok = false;
            }
        }
    }
    for (uint32_t i = 0; i < n && ok; i++) {
        uint8_t f = N(s[i])->flags;
        if ((f & (B3SF_THEN | B3SF_ELSE)) && op != B3_Branch) {
            b3_error(c->d, N(s[i])->loc, "'%s:' labels only the successors of a Branch, not of %s",
                     f & B3SF_THEN ? "Then" : "Else", what);
            ok = false;
        } else if ((f & (B3SF_CASE | B3SF_DEFAULT)) && op != B3_Switch) {
            b3_error(c->d, N(s[i])->loc,
                     "case labels ('N->', 'default->') apply only to Switch successors, not to %s", what);
            ok = false;
        } else if (op == B3_Switch && !(f & (B3SF_CASE | B3SF_DEFAULT))) {
            b3_error(c->d, N(s[i])->loc,
                     "a Switch successor needs a case value or 'default', as in 0->#1 or "
                     "default->#2");
            ok = false;
        }
    }
    if (!ok)
        return;

    int64_t *cases = NULL;
    if (op == B3_Switch) {
        uint32_t ndef = 0;
        for (uint32_t i = 0; i < n; i++)
            ndef += (N(s[i])->flags & B3SF_DEFAULT) != 0;
        if (ndef != 1 || !(N(s[n - 1])->flags & B3SF_DEFAULT)) {
            b3_error(c->d, loc,
                     ndef == 0  ? "Switch successors need a 'default->#N' target"
                     : ndef > 1 ? "Switch successors have more than one 'default->' target"
                                : "the 'default->' target must be the last Switch successor");
            return;
        }
        cases = b3_arena_alloc(&c->m->arena, n * sizeof(int64_t));
        for (uint32_t i = 0; i + 1 < n; i++) {
            B3Node *sn = N(s[i]);
            if (!lit_fits(&sn->tok2, 64, true)) {
                b3_error(c->d, sn->loc2, "case value %.*s is out of range for a 64-bit integer",
                         TOKF(sn->tok2));
                return;
            }
            cases[i] = (int64_t)lit_bits(&sn->tok2);
        }
        B3SwitchMeta *sw = &term->m.sw;
        if (sw->cases) {
            bool same = sw->ncases == n - 1;
            for (uint32_t i = 0; same && i + 1 < n; i++)
                same = sw->cases[i] == cases[i];
            if (!same) {
                char written[160], here[160];
                list_ints(written, sizeof written, sw->cases, sw->ncases);
                list_ints(here, sizeof here, cases, n - 1);
                b3_error(c->d, loc,
                         "the successors' case values [%s] do not agree with 'cases = [%s]' of Switch @%u",
                         here, written, term->index);
                return;
            }
        }
        sw->cases = cases;
        sw->ncases = n - 1;
    }

    b->succs = b3_arena_alloc(&c->m->arena, (n ? n : 1) * sizeof(B3Succ));
    b->nsuccs = n;
    b->succ_loc = loc;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = n == 2 && op == B3_Branch ? s[order[i]] : s[i];
        b->succs[i].freq = (N(k)->flags & B3SF_RARE) ? B3Freq_Rare : B3Freq_Normal;
        pend_block(c, b, i, (uint32_t)N(k)->tok.u, succ_block_loc(c, k));
    }
}

void b3p_succs_line(B3ParseCtx *c, B3Loc loc, uint32_t list) {
    c->tmp.n = 0;
    for (uint32_t s = list; s; s = N(s)->next)
        B3P_PUSH(c->tmp, s);
    if (c->section == B3Sec_Orphans) {
        b3p_reset_nodes(c);
        return;
    }
    B3Value *term = c->block ? b3_block_last(c->block) : NULL;
    attach_succs(c, term, loc, false);
    b3p_reset_nodes(c);
}

void b3p_preds_line(B3ParseCtx *c, B3Loc loc, uint32_t list) {
    if (c->section == B3Sec_Orphans) {
        b3p_reset_nodes(c);
        return;
    }
    if (!c->block) {
        b3_error(c->d, loc, "'Predecessors:' line outside of a block");
    } else if (c->block_has_preds) {
        b3_error(c->d, loc, "block #%u has a second 'Predecessors:' line", c->block->index);
    } else {
        c->block_has_preds = true;
        B3WrittenPreds w = {c->block, loc, c->pred_nums.n, 0};
        for (uint32_t s = list; s; s = N(s)->next) {
            B3P_PUSH(c->pred_nums, (uint32_t)N(s)->tok.u);
            B3P_PUSH(c->pred_locs, N(s)->loc);
            w.count++;
        }
        B3P_PUSH(c->preds, w);
    }
    b3p_reset_nodes(c);
}

void b3p_var_decl(B3ParseCtx *c, B3Tok type, B3Loc tloc, B3Tok name, B3Loc nloc) {
    b3p_reset_nodes(c);
    if (c->section != B3Sec_Vars) {
        b3_error(c->d, tloc, "variable declaration outside a 'Variables:' section");
        return;
    }
    B3Variable *old = b3_strmap_get(&c->vars, name.p, name.len);
    if (old) {
        b3_error(c->d, nloc, "redefinition of variable '%.*s'", TOKF(name));
        b3_note(c->d, old->loc, "previous definition is here");
        return;
    }
    B3Variable *v =
        b3_variable_new(c->m, c->proc, b3_arena_strndup(&c->m->arena, name.p, name.len), (B3Type)type.u);
    v->loc = nloc;
    b3_strmap_put(&c->vars, name.p, name.len, v);
}

void b3p_slot_decl(B3ParseCtx *c, B3Tok name, B3Loc loc, uint32_t kvs) {
    if (c->section != B3Sec_Slots) {
        b3_error(c->d, loc, "stack slot declaration '%.*s:' outside a 'Stack slots:' section", TOKF(name));
        b3p_reset_nodes(c);
        return;
    }
    bool have_size = false, have_align = false, ok = true;
    int64_t size = 0, align = 0;
    for (uint32_t a = kvs; a; a = N(a)->next) {
        B3Node *n = N(a);
        if (tok_is(&n->tok, "byteSize") || tok_is(&n->tok, "align")) {
            bool is_size = n->tok.p[0] == 'b';
            if (is_size ? have_size : have_align) {
                b3_error(c->d, n->loc, "duplicate '%.*s'", TOKF(n->tok));
                ok = false;
                continue;
            }
            if (!meta_int(c, n->sub, is_size ? "byteSize" : "align", R_U64, is_size ? &size : &align)) {
                ok = false;
                continue;
            }
            if (is_size)
                have_size = true;
            else
                have_align = true;
        }
        /* Anything else a dump prints (offsetFromFP, kind, ...) is ignored. */
    }
    if (!have_size && ok)
        b3_error(c->d, loc, "stack slot '%.*s' needs 'byteSize = N'", TOKF(name));
    B3StackSlot *old = b3_strmap_get(&c->slots, name.p, name.len);
    if (old) {
        b3_error(c->d, loc, "redefinition of stack slot '%.*s'", TOKF(name));
        b3_note(c->d, old->loc, "previous definition is here");
    } else if (have_size && ok) {
        B3StackSlot *s =
            b3_slot_new(c->m, c->proc, b3_arena_strndup(&c->m->arena, name.p, name.len), (uint64_t)size);
        s->loc = loc;
        if (have_align) {
            s->has_align = true;
            s->align = (uint64_t)align > UINT32_MAX ? UINT32_MAX : (uint32_t)align;
        }
        b3_strmap_put(&c->slots, name.p, name.len, s);
    }
    b3p_reset_nodes(c);
}

/* ---- values ------------------------------------------------------------------- */

enum {
    MK_offset, MK_range, MK_fenceRange, MK_width, MK_read, MK_write, MK_variadic, MK_cases,
    MK_result, MK_early, MK_late, MK_clobbered, MK_used, MK_id, MK_exit, MK_generator,
    MK_pinned, MK_maximum, MK_numgp, MK_numfp, MK_sret, MK_returns_twice, MK_float128, MK_align, MK_index, MK_op, MK_COUNT
};

#define KEY(name, key) \
    { name, sizeof name - 1, key }
static const struct {
    const char *name;
    uint8_t len;
    uint8_t key;
} meta_keys[] = {
    KEY("offset", MK_offset),
    KEY("range", MK_range),
    KEY("fenceRange", MK_fenceRange),
    KEY("width", MK_width),
    KEY("read", MK_read),
    KEY("write", MK_write),
    KEY("variadic", MK_variadic),
    KEY("cases", MK_cases),
    KEY("resultConstraints", MK_result),
    KEY("resultConstraint", MK_result),
    KEY("earlyClobbered", MK_early),
    KEY("lateClobbered", MK_late),
    KEY("clobbered", MK_clobbered),
    KEY("usedRegisters", MK_used),
    KEY("id", MK_id),
    KEY("exit", MK_exit),
    KEY("generator", MK_generator),
    KEY("pinnedSize", MK_pinned),
    KEY("pinnedGPR", MK_pinned),
    KEY("maximum", MK_maximum),
    KEY("numGPScratchRegisters", MK_numgp),
    KEY("numFPScratchRegisters", MK_numfp),
    KEY("sret", MK_sret),
    KEY("returnsTwice", MK_returns_twice),
    KEY("float128", MK_float128),
    KEY("align", MK_align),
    KEY("index", MK_index),
    KEY("op", MK_op),
};
#undef KEY

static bool meta_applies(int key, B3Opcode op) {
    const B3OpInfo *info = b3_op(op);
    switch (key) {
    case MK_offset:
        return info->meta == B3M_MEMORY || info->meta == B3M_BOUNDS || info->meta == B3M_SYMBOL;
    case MK_range:
    case MK_fenceRange:
        return info->meta == B3M_MEMORY;
    case MK_width:
        return (info->flags & B3OF_ATOMIC) != 0;
    case MK_read:
    case MK_write:
        return info->meta == B3M_FENCE;
    case MK_variadic:
    case MK_sret:
    case MK_returns_twice:
        return info->meta == B3M_CCALL;
    case MK_float128:
        return info->meta == B3M_CCALL;
    case MK_cases: return info->meta == B3M_SWITCH;
    case MK_align: return info->meta == B3M_ALLOCA;
    case MK_index: return info->meta == B3M_RESULT;
    case MK_op: return info->meta == B3M_X87;
    case MK_result:
    case MK_numgp:
    case MK_numfp:
        return op == B3_Patchpoint;
    case MK_early:
    case MK_late:
    case MK_clobbered:
    case MK_used:
    case MK_id:
    case MK_generator:
        return info->meta == B3M_STACKMAP;
    case MK_exit:
        return (info->flags & B3OF_CHECK) || info->meta == B3M_BOUNDS;
    case MK_pinned:
    case MK_maximum:
        return info->meta == B3M_BOUNDS;
    default:
        return false;
    }
}

/* The out-of-line CCall facts of v, made on first use. */
static B3CCallExtra *ccall_extra(B3ParseCtx *c, B3Value *v) {
    if (!v->m.ccall.extra)
        v->m.ccall.extra = b3_arena_alloc(&c->m->arena, sizeof(B3CCallExtra));
    return v->m.ccall.extra;
}

/* A CCall or Return child's `:Float128`: it and the next child are the low
 * and high halves of one 128-bit floating-point value (docs/c-extensions.md). */
static void read_float128(B3ParseCtx *c, B3Value *v, uint32_t i, uint32_t node) {
    if (i + 1 >= v->nkids) {
        b3_error(c->d, N(node)->loc,
                 "Float128 marks the low half of a pair: the high half must be the next child");
        return;
    }
    if (v->opcode == B3_Return) {
        /* Two children (q0), or four: two pairs (q0 and q1, AAPCS64's
         * _Complex long double), each marked. */
        if (i % 2 || (v->nkids != 2 && v->nkids != 4) || (i == 2 && !v->m.float128))
            b3_error(c->d, N(node)->loc,
                     "a Return's Float128 pairs are its two or four children: mark the first (and the third)");
        v->m.float128 = true;
        return;
    }
    B3CCallExtra *x = ccall_extra(c, v);
    if (!x->byval)
        x->byval = b3_arena_alloc(&c->m->arena, v->nkids * sizeof(B3ByVal));
    if (x->byval[i].f128 || x->byval[i + 1].f128) {
        b3_error(c->d, N(node)->loc, "Float128 pairs cannot overlap: child %u is already a half of one",
                 x->byval[i].f128 ? i : i + 1);
        return;
    }
    x->byval[i].f128 = B3F128_Low;
    x->byval[i + 1].f128 = B3F128_High;
}

/* A CCall child's `:ByVal(SIZE, ALIGN)` or `:Float128` (docs/c-extensions.md). */
static void read_byval(B3ParseCtx *c, B3Value *v, uint32_t i, uint32_t node) {
    B3Node *n = N(node);
    char buf[80];
    uint32_t a = n->kind == B3N_CALL ? n->sub : 0;
    if (n->kind == B3N_WORD && tok_is(&n->tok, "Float128")) {
        read_float128(c, v, i, node);
        return;
    }
    if (!tok_is(&n->tok, "ByVal") || (n->kind != B3N_CALL && n->kind != B3N_WORD)) {
        b3_error(c->d, n->loc, "a CCall child takes only ByVal(SIZE, ALIGN) or Float128, not %s",
                 node_text(c, node, buf, sizeof buf));
        return;
    }
    if (!a || !N(a)->next || N(N(a)->next)->next || N(a)->kind != B3N_INT || N(N(a)->next)->kind != B3N_INT) {
        b3_error(c->d, n->loc, "malformed ByVal: expected ByVal(SIZE, ALIGN), as in ByVal(24, 8)");
        return;
    }
    int64_t size, align;
    if (!meta_int(c, a, "ByVal", R_U64, &size) || !meta_int(c, N(a)->next, "ByVal", R_U64, &align))
        return;
    if (size < 1 || size > UINT32_MAX || align < 0 || align > UINT32_MAX) {
        b3_error(c->d, n->loc, "ByVal size and alignment must be between 1 and 4294967295 bytes");
        return;
    }
    B3CCallExtra *x = ccall_extra(c, v);
    if (!x->byval)
        x->byval = b3_arena_alloc(&c->m->arena, v->nkids * sizeof(B3ByVal));
    x->byval[i].size = (uint32_t)size;
    x->byval[i].align = (uint32_t)align;
}

/* State of one value line while its arguments are read. */
typedef struct {
    B3Value *v;
    B3Opcode op;
    uint32_t seen; /* meta keys given, one bit per MK_* */
    bool have_literal, have_ref, have_name;
    bool fence_effects, fence_read_meta, fence_write_meta;
    B3HeapRange eff_read, eff_write;
} ValueState;

static void apply_meta(B3ParseCtx *c, ValueState *st, uint32_t node) {
    B3Node *n = N(node);
    B3Value *v = st->v;
    int key = -1;
    const char *what = NULL;
    for (size_t i = 0; i < sizeof meta_keys / sizeof meta_keys[0] && key < 0; i++)
        if (n->tok.len == meta_keys[i].len && !memcmp(n->tok.p, meta_keys[i].name, n->tok.len)) {
            key = meta_keys[i].key;
            what = meta_keys[i].name;
        }
    if (key < 0) {
        b3_error(c->d, n->loc, "unknown meta key '%.*s' for %s", TOKF(n->tok), opname(st->op));
        return;
    }
    if (!meta_applies(key, st->op)) {
        if (key == MK_generator || (key == MK_exit && b3_op(st->op)->meta == B3M_STACKMAP))
            b3_error(c->d, n->loc,
                     "meta key '%.*s' does not apply to %s (Check, CheckAdd, CheckSub and CheckMul "
                     "take 'exit =', Patchpoint takes 'generator =')",
                     TOKF(n->tok), opname(st->op));
        else
            b3_error(c->d, n->loc, "meta key '%.*s' does not apply to %s", TOKF(n->tok), opname(st->op));
        return;
    }
    /* A Check's dump-form generator address is its exit. */
    int bit = key == MK_generator && st->op != B3_Patchpoint ? MK_exit : key;
    if (st->seen & (1u << bit)) {
        b3_error(c->d, n->loc, "duplicate meta key '%.*s'", TOKF(n->tok));
        return;
    }
    st->seen |= 1u << bit;
    uint32_t val = n->sub;
    int64_t x;
    B3StackmapMeta *sm = b3_op(st->op)->meta == B3M_STACKMAP ? v->m.stackmap : NULL;
    switch (key) {
    case MK_offset:
        if (b3_op(st->op)->meta == B3M_MEMORY) {
            if (meta_int(c, val, what, R_S32, &x))
                v->m.mem.offset = (int32_t)x;
        } else if (b3_op(st->op)->meta == B3M_BOUNDS) {
            if (meta_int(c, val, what, R_ANY64, &x))
                v->m.bounds->offset = x;
        } else if (meta_int(c, val, what, R_ANY64, &x)) {
            v->m.symbol.offset = x;
        }
        break;
    case MK_range:
        read_range(c, val, what, &v->m.mem.range);
        break;
    case MK_fenceRange:
        read_range(c, val, what, &v->m.mem.fence_range);
        break;
    case MK_width: {
        B3Node *w = N(val);
        int64_t bits = -1;
        if (w->kind == B3N_INT && !w->tok.neg && !w->tok.ovf)
            bits = (int64_t)w->tok.u;
        else if (w->kind == B3N_WORD && w->tok.len > 5 && !memcmp(w->tok.p, "Width", 5))
            bits = strtol(w->tok.p + 5, NULL, 10);
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
            char buf[80];
            b3_error(c->d, w->loc, "malformed value for 'width': expected 8, 16, 32 or 64, found %s",
                     node_text(c, val, buf, sizeof buf));
            break;
        }
        v->m.mem.width = (uint8_t)bits;
        v->m.mem.has_width = true;
        break;
    }
    case MK_read:
        if (read_range(c, val, what, &v->m.fence.read))
            st->fence_read_meta = true;
        break;
    case MK_write:
        if (read_range(c, val, what, &v->m.fence.write))
            st->fence_write_meta = true;
        break;
    case MK_variadic:
        if (meta_int(c, val, what, R_S32, &x))
            v->m.ccall.variadic = (int32_t)x;
        break;
    case MK_cases: {
        B3Node *l = N(val);
        if (l->kind != B3N_LIST) {
            char buf[80];
            b3_error(c->d, l->loc, "malformed value for 'cases': expected a list such as [0, 5], found %s",
                     node_text(c, val, buf, sizeof buf));
            break;
        }
        uint32_t k = 0;
        for (uint32_t e = l->sub; e; e = N(e)->next)
            k++;
        int64_t *cases = b3_arena_alloc(&c->m->arena, (k ? k : 1) * sizeof(int64_t));
        uint32_t i = 0;
        bool ok = true;
        for (uint32_t e = l->sub; e; e = N(e)->next)
            ok &= meta_int(c, e, "cases", R_ANY64, &cases[i++]);
        if (ok) {
            v->m.sw.cases = cases;
            v->m.sw.ncases = k;
        }
        break;
    }
    case MK_result: {
        uint32_t r = val;
        if (N(val)->kind == B3N_LIST) {
            uint32_t k = 0;
            for (uint32_t e = N(val)->sub; e; e = N(e)->next)
                k++;
            if (k != 1) {
                b3_error(c->d, N(val)->loc, "a Patchpoint has one result, so '%s' takes one constraint",
                         what);
                break;
            }
            r = N(val)->sub;
        }
        B3ValueRep rep;
        /* A dump prints B3's default for a Void Patchpoint, WarmAny: there is no result to constrain. */
        if (read_rep(c, r, &rep) && !(v->type == B3_Void && rep.kind == B3Rep_WarmAny)) {
            sm->result = rep;
            sm->has_result_rep = true;
        }
        break;
    }
    case MK_early:
        read_regset(c, val, what, &sm->early_clobbered, true);
        break;
    case MK_late:
        read_regset(c, val, what, &sm->late_clobbered, true);
        break;
    case MK_clobbered: {
        B3RegSet set = {{0, 0}};
        if (read_regset(c, val, what, &set, true)) {
            for (int w = 0; w < 2; w++) {
                sm->early_clobbered.bits[w] |= set.bits[w];
                sm->late_clobbered.bits[w] |= set.bits[w];
            }
        }
        break;
    }
    case MK_used: {
        /* Accepted and dropped: it is recomputed, and a dump's registers may be another target's. */
        B3RegSet set = {{0, 0}};
        read_regset(c, val, what, &set, false);
        break;
    }
    case MK_id:
        if (meta_int(c, val, what, R_S64, &x)) {
            sm->id = x;
            sm->has_id = true;
        }
        break;
    case MK_exit:
        if (b3_op(st->op)->meta == B3M_BOUNDS)
            read_generator(c, val, what, true, &v->m.bounds->exit);
        else
            read_generator(c, val, what, true, &sm->gen);
        break;
    case MK_generator:
        if (st->op == B3_Patchpoint) {
            read_generator(c, val, what, false, &sm->gen);
        } else {
            /* A dump prints a Check's exit as 'generator = 0x...'. */
            B3Node *g = N(val);
            if (g->kind == B3N_INT && g->tok.hex) {
                read_generator(c, val, what, true, &sm->gen);
            } else {
                char buf[80];
                b3_error(c->d, n->loc, "%s takes 'exit = trap|@handler', not 'generator = %s'",
                         opname(st->op), node_text(c, val, buf, sizeof buf));
            }
        }
        break;
    case MK_pinned: {
        B3Node *r = N(val);
        if (r->kind != B3N_REG) {
            char buf[80];
            b3_error(c->d, r->loc, "malformed value for '%s': expected a register (%%name), found %s", what,
                     node_text(c, val, buf, sizeof buf));
            break;
        }
        v->m.bounds->pinned = reg_ref(c, r->tok, r->loc);
        break;
    }
    case MK_maximum:
        if (meta_int(c, val, what, R_U64, &x)) {
            v->m.bounds->maximum = (uint64_t)x;
            v->m.bounds->has_maximum = true;
        }
        break;
    case MK_numgp:
    case MK_numfp:
        meta_int(c, val, what, R_U64, &x);
        break;
    case MK_sret:
        if (meta_int(c, val, what, R_U64, &x)) {
            if (x > 1)
                b3_error(c->d, N(val)->loc, "malformed value for 'sret': expected 0 or 1");
            else if (x)
                ccall_extra(c, v)->sret = true;
        }
        break;
    case MK_align:
        if (meta_int(c, val, what, R_U64, &x)) {
            if (x < 1 || x > 4096 || (x & (x - 1)))
                b3_error(c->d, N(val)->loc,
                         "malformed value for 'align': expected a power of two from 1 to 4096");
            else
                v->m.align = (uint32_t)x;
        }
        break;
    case MK_index:
        if (meta_int(c, val, what, R_U64, &x)) {
            if (x > UINT32_MAX)
                b3_error(c->d, N(val)->loc, "malformed value for 'index': expected a result number");
            else
                v->m.result_index = (uint32_t)x;
        }
        break;
    case MK_op: {
        B3Node *w = N(val);
        unsigned k = w->kind == B3N_WORD ? b3_x87_lookup(w->tok.p, w->tok.len) : B3_NUM_X87_OPS;
        if (k == B3_NUM_X87_OPS) {
            char buf[80], names[400] = "";
            for (unsigned i = 0; i < B3_NUM_X87_OPS; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         b3_x87_info[i].name);
            b3_error(c->d, w->loc, "unknown X87 operation %s (expected one of %s)",
                     node_text(c, val, buf, sizeof buf), names);
        } else {
            v->m.x87 = (uint8_t)k;
        }
        break;
    }
    case MK_returns_twice:
        if (meta_int(c, val, what, R_U64, &x)) {
            if (x > 1)
                b3_error(c->d, N(val)->loc, "malformed value for 'returnsTwice': expected 0 or 1");
            else if (x)
                ccall_extra(c, v)->returns_twice = true;
        }
        break;
    case MK_float128:
        if (meta_int(c, val, what, R_U64, &x)) {
            if (x > 1)
                b3_error(c->d, N(val)->loc, "malformed value for 'float128': expected 0 or 1");
            else if (x)
                ccall_extra(c, v)->float128 = true;
        }
        break;
    }
}

/* Effects are computed, not read; a Fence takes its ranges from them. */
static void apply_effects(B3ParseCtx *c, ValueState *st, uint32_t node) {
    bool lone = N(node)->kind != B3N_EFFECTS; /* a single word: its next is the next argument */
    for (uint32_t e = lone ? node : N(node)->sub; e; e = lone ? 0 : N(e)->next) {
        B3Node *n = N(e);
        if (n->kind == B3N_WORD) {
            if (!is_effect_word(&n->tok))
                b3_error(c->d, n->loc, "unknown effect '%.*s'", TOKF(n->tok));
            continue;
        }
        bool reads = tok_is(&n->tok, "Reads"), writes = tok_is(&n->tok, "Writes");
        if (!reads && !writes) {
            b3_error(c->d, n->loc, "unknown effect '%.*s:' (expected Reads: or Writes:)", TOKF(n->tok));
            continue;
        }
        B3HeapRange r;
        if (!read_range(c, n->sub, reads ? "Reads" : "Writes", &r))
            continue;
        if (reads)
            st->eff_read = r;
        else
            st->eff_write = r;
    }
    st->fence_effects = true;
}

static void pend_value(B3ParseCtx *c, B3Value *v, uint32_t slot, uint32_t num, B3Loc loc) {
    B3PendingValue pv = {v, slot, num, loc};
    B3P_PUSH(c->pend_values, pv);
}

void b3p_value(B3ParseCtx *c, uint32_t kind_node, uint32_t args, B3Loc rparen) {
    (void)rparen;
    B3Module *m = c->m;
    c->in_args = false;
    B3Node *k = N(kind_node);
    B3Loc start = c->lhs.have_type ? c->lhs.type_loc : c->lhs.have_name ? c->lhs.name_loc : k->loc;
    char buf[300];
    B3Opcode op = b3p_find_op(c, k->tok.p, k->tok.len);
    bool unknown = op == B3_NUM_OPCODES;
    if (unknown) {
        /* Keep going with a placeholder so that uses of the name still resolve. */
        b3_error(c->d, k->loc, "unknown opcode '%.*s'", TOKF(k->tok));
        op = B3_Nop;
        args = 0;
    }
    const B3OpInfo *info = b3_op(op);
    if ((k->kflags & B3K_CHILL) && !(info->flags & B3OF_CHILL_OK))
        b3_error(c->d, k->loc2, "kind flag 'Chill' does not apply to %s (only Div and Mod take it)",
                 info->name);
    if ((k->kflags & B3K_TRAPS) && !(info->flags & B3OF_TRAPS_OK))
        b3_error(c->d, k->loc3, "kind flag 'Traps' does not apply to %s (only loads and stores take it)",
                 info->name);

    /* Where the value goes: the current block, or nowhere for orphans. */
    bool orphan = c->section == B3Sec_Orphans;
    bool placed = !orphan && c->section == B3Sec_Block && c->block;
    if (!orphan && !placed)
        b3_error(c->d, start, "value outside of a block (a block starts with a 'BB#N:' header)");
    B3Proc *p = placed ? c->proc : c->scratch;
    B3Block *block = placed ? c->block : c->scratch_block;

    /* Children come first. */
    uint32_t nkids = 0;
    bool past_kids = false;
    for (uint32_t a = args; a; a = N(a)->next) {
        if (N(a)->kind == B3N_CHILD) {
            if (past_kids)
                b3_error(c->d, N(a)->loc, "child %s must come before meta entries and references",
                         node_text(c, a, buf, sizeof buf));
            else
                nkids++;
        } else if (N(a)->kind != B3N_ORIGIN) {
            past_kids = true;
        }
    }

    B3Type type;
    if (c->lhs.have_type) {
        type = (B3Type)c->lhs.type;
    } else {
        type = B3_Void;
        bool may_be_void = info->result == B3R_VOID || op == B3_CCall || op == B3_Patchpoint;
        if (unknown)
            ;
        else if (c->lhs.have_name)
            b3_error(c->d, c->lhs.name_loc, "missing type annotation before @%u", c->lhs.num);
        else if (!may_be_void)
            b3_error(c->d, k->loc,
                     "missing 'TYPE @N =' before %s, which produces a value (only Void values may "
                     "leave it out)",
                     info->name);
    }

    uint32_t index;
    bool named = false;
    if (c->lhs.have_name && placed) {
        B3Value *old = b3p_value_at(c, c->lhs.num);
        if (old) {
            b3_error(c->d, c->lhs.name_loc, "redefinition of @%u", c->lhs.num);
            b3_note(c->d, old->type_loc.line ? old->type_loc : old->loc, "previous definition is here");
            index = c->next_provisional--;
        } else {
            index = c->lhs.num;
            named = true;
            if (index > c->max_index)
                c->max_index = index;
        }
    } else {
        index = c->next_provisional--;
    }

    B3Value *v = b3_value_new_located(m, p, op, type, nkids, index);
    if (placed && !named)
        B3P_PUSH(c->unnamed, v);
    if (named)
        value_define(c, index, v);
    v->kflags = (uint8_t)k->kflags;
    v->loc = k->loc;
    v->type_loc = c->lhs.have_type ? c->lhs.type_loc : k->loc;
    B3StackmapMeta *sm = info->meta == B3M_STACKMAP ? v->m.stackmap : NULL;
    if (sm) {
        for (uint32_t i = 0; i < nkids; i++)
            if ((op == B3_Check && i == 0) || (info->flags & B3OF_CHECK && op != B3_Check && i < 2))
                sm->reps[i].kind = B3Rep_WarmAny;
    }

    ValueState st;
    memset(&st, 0, sizeof st);
    st.v = v;
    st.op = op;
    st.eff_read = st.eff_write = B3_HEAP_BOTTOM;
    c->tmp.n = 0;
    uint32_t i = 0;
    B3Loc first_succ = {0, 0, 0};
    for (uint32_t a = args; a; a = N(a)->next) {
        B3Node *n = N(a);
        switch ((B3NodeKind)n->kind) {
        case B3N_CHILD: {
            if (i >= nkids)
                break; /* misplaced, reported above */
            uint32_t num = (uint32_t)n->tok.u;
            v->kid_locs[i] = n->loc;
            if (placed) {
                B3Value *kid = b3p_value_at(c, num);
                if (kid)
                    v->kids[i] = kid;
                else
                    pend_value(c, v, i, num, n->loc);
            }
            if (n->sub) {
                if (op == B3_CCall && i > 0)
                    read_byval(c, v, i, n->sub);
                else if (op == B3_Return && N(n->sub)->kind == B3N_WORD &&
                         tok_is(&N(n->sub)->tok, "Float128"))
                    read_float128(c, v, i, n->sub);
                else if (op == B3_CCall)
                    b3_error(c->d, n->loc2, "the callee of a CCall takes no ByVal or constraint");
                else if (!sm)
                    b3_error(c->d, n->loc2,
                             "a constraint applies only to the children of Patchpoint, Check, "
                             "CheckAdd, CheckSub and CheckMul (and ByVal(SIZE, ALIGN) to a CCall "
                             "argument), not %s",
                             info->name);
                else
                    read_rep(c, n->sub, &sm->reps[i]);
            }
            i++;
            break;
        }
        case B3N_INT:
        case B3N_FLOAT:
        case B3N_DUMPCONST:
            if (info->meta != B3M_CONST) {
                b3_error(c->d, n->loc, "unexpected number %s in %s (only constants take a literal)",
                         node_text(c, a, buf, sizeof buf), info->name);
                break;
            }
            goto literal;
        case B3N_CALL:
            if (info->meta != B3M_CONST || !tok_is(&n->tok, "bits")) {
                b3_error(c->d, n->loc, "unexpected argument %s for %s", node_text(c, a, buf, sizeof buf),
                         info->name);
                break;
            }
        literal:
            if (st.have_literal) {
                b3_error(c->d, n->loc, "%s takes a single constant", info->name);
                break;
            }
            st.have_literal = true;
            if (op == B3_Const32 || op == B3_Const64) {
                unsigned bits = op == B3_Const32 ? 32 : 64;
                if (n->kind != B3N_INT) {
                    b3_error(c->d, n->loc, "%s takes an integer, found %s", info->name,
                             node_text(c, a, buf, sizeof buf));
                } else if (!lit_fits(&n->tok, bits, true)) {
                    b3_error(c->d, n->loc, "constant %.*s is out of range for %s (accepted: %s)",
                             TOKF(n->tok), op == B3_Const32 ? "Int32" : "Int64",
                             op == B3_Const32 ? "-2147483648 to 4294967295"
                                              : "-9223372036854775808 to 18446744073709551615");
                } else {
                    uint64_t b = lit_bits(&n->tok);
                    v->m.c.i = op == B3_Const32 ? (int64_t)(int32_t)(uint32_t)b : (int64_t)b;
                }
            } else {
                bool single = op == B3_ConstFloat;
                uint64_t b;
                if (lit_float(c, a, single, info->name, &b)) {
                    if (single) {
                        uint32_t b32 = (uint32_t)b;
                        v->m.c.bits = 0;
                        memcpy(&v->m.c.f, &b32, 4);
                    } else {
                        v->m.c.bits = b;
                    }
                }
            }
            break;
        case B3N_META:
            apply_meta(c, &st, a);
            break;
        case B3N_PHI:
            if (op != B3_Upsilon) {
                b3_error(c->d, n->loc, "a Phi reference ('%.*s') applies only to Upsilon", TOKF(n->tok));
            } else if (st.have_ref) {
                b3_error(c->d, n->loc, "Upsilon writes a single Phi");
            } else {
                st.have_ref = true;
                uint32_t num = (uint32_t)n->tok.u;
                if (placed) {
                    B3Value *phi = b3p_value_at(c, num);
                    if (phi)
                        v->m.phi = phi;
                    else
                        pend_value(c, v, UINT32_MAX, num, n->loc);
                }
            }
            break;
        case B3N_REG:
            if (op != B3_ArgumentReg && op != B3_ArgumentRegHigh && op != B3_WasmAddress) {
                b3_error(c->d, n->loc, "unexpected register '%%%.*s' for %s", TOKF(n->tok), info->name);
            } else if (st.have_ref) {
                b3_error(c->d, n->loc, "%s takes a single register", info->name);
            } else {
                st.have_ref = true;
                v->m.reg = reg_ref(c, n->tok, n->loc);
            }
            break;
        case B3N_SYM:
            if (op != B3_SymbolAddress && op != B3_ThreadLocalAddress) {
                b3_error(c->d, n->loc, "unexpected symbol %s for %s (symbols are used through SymbolAddress)",
                         node_text(c, a, buf, sizeof buf), info->name);
            } else if (st.have_ref) {
                b3_error(c->d, n->loc, "%s takes a single symbol", info->name);
            } else {
                st.have_ref = true;
                v->m.symbol.sym = sym_ref(c, n->tok, n->loc);
            }
            break;
        case B3N_SUCC:
            if (op != B3_Jump && op != B3_Branch && op != B3_Switch && op != B3_EntrySwitch) {
                b3_error(c->d, n->loc,
                         "unexpected successor %s for %s (only Jump, Branch, Switch and EntrySwitch "
                         "have successors)",
                         node_text(c, a, buf, sizeof buf), info->name);
                break;
            }
            if (!first_succ.line)
                first_succ = n->loc;
            B3P_PUSH(c->tmp, a);
            break;
        case B3N_WORD:
            if (is_effect_word(&n->tok)) {
                if (op == B3_Fence)
                    apply_effects(c, &st, a);
                break;
            }
            if (op == B3_Get || op == B3_Set || op == B3_SlotBase) {
                if (st.have_name) {
                    b3_error(c->d, n->loc, "%s names a single %s", info->name,
                             op == B3_SlotBase ? "stack slot" : "variable");
                    break;
                }
                st.have_name = true;
                if (placed) {
                    B3PendingName pn = {v, n->tok.p, n->tok.len, n->loc};
                    B3P_PUSH(c->pend_names, pn);
                }
                break;
            }
            b3_error(c->d, n->loc, "unexpected argument '%.*s' for %s", TOKF(n->tok), info->name);
            break;
        case B3N_EFFECTS: {
            ValueState ignore = st;
            apply_effects(c, op == B3_Fence ? &st : &ignore, a);
            break;
        }
        case B3N_ORIGIN:
            break;
        default:
            b3_error(c->d, n->loc, "unexpected argument %s for %s", node_text(c, a, buf, sizeof buf),
                     info->name);
            break;
        }
    }

    if (info->meta == B3M_CONST && !st.have_literal)
        b3_error(c->d, k->loc, "%s needs a constant, as in %s(%s)", info->name, info->name,
                 op == B3_Const32 || op == B3_Const64 ? "0" : "0.0");
    if (op == B3_Fence && st.fence_effects) {
        /* A dump shows a Fence's ranges only through its effects. */
        if (!st.fence_read_meta)
            v->m.fence.read = st.eff_read;
        if (!st.fence_write_meta)
            v->m.fence.write = st.eff_write;
    }
    if (op == B3_Upsilon && !st.have_ref)
        b3_error(c->d, k->loc, "Upsilon needs the Phi it writes, as in Upsilon(@1, ^@2)");
    else if (op == B3_ArgumentReg && !st.have_ref)
        b3_error(c->d, k->loc, "ArgumentReg needs a register, as in ArgumentReg(%%argumentGPR0)");
    else if (op == B3_ArgumentRegHigh && !st.have_ref)
        b3_error(c->d, k->loc, "ArgumentRegHigh needs a register, as in ArgumentRegHigh(%%argumentFPR0)");
    else if (op == B3_WasmAddress && !st.have_ref)
        b3_error(c->d, k->loc, "WasmAddress needs its pinned base register, as in WasmAddress(@1, %%r15)");
    else if (op == B3_SymbolAddress && !st.have_ref)
        b3_error(c->d, k->loc, "SymbolAddress needs a symbol, as in SymbolAddress(@puts)");
    else if (op == B3_ThreadLocalAddress && !st.have_ref)
        b3_error(c->d, k->loc, "ThreadLocalAddress needs a symbol, as in ThreadLocalAddress(@x)");
    else if ((op == B3_Get || op == B3_Set) && !st.have_name)
        b3_error(c->d, k->loc, "%s needs a variable, as in %s", info->name, op == B3_Get ? "Get(var0)" : "Set(@1, var0)");
    else if (op == B3_X87 && !(st.seen & (1u << MK_op)))
        b3_error(c->d, k->loc, "X87 needs an operation, as in X87(@dst, @a, @b, op = add)");
    else if (op == B3_SlotBase && !st.have_name)
        b3_error(c->d, k->loc, "SlotBase needs a stack slot, as in SlotBase(stack0)");

    b3_block_append(m, block, v);
    if (c->tmp.n && placed)
        attach_succs(c, v, first_succ, true);
    c->lhs.have_type = c->lhs.have_name = false;
    b3p_reset_nodes(c);
}

/* ---- direct value lines ------------------------------------------------------------ */

/* The checks of b3p_direct_ok that depend on a direct line's literal,
 * offset and range (the opcode takes the ones written, has the ones it
 * needs): the literal a constant needs (its bits in fl->bits), and an
 * offset and range for a memory access that fit. */
bool b3p_direct_args_ok(B3ParseCtx *c, B3FastLine *fl) {
    (void)c;
    B3Opcode op = (B3Opcode)fl->opcode;
    if ((fl->extras & B3FL_OFFSET) && !lit_fits(&fl->offset, 32, false))
        return false;
    if ((fl->extras & B3FL_RANGE) && (fl->range.neg || fl->range.ovf || fl->range.u > UINT32_MAX - 1))
        return false;
    if (op == B3_Const32 || op == B3_Const64) {
        if (fl->lit_kind != B3N_INT || !lit_fits(&fl->lit, op == B3_Const32 ? 32 : 64, true))
            return false;
        uint64_t b = lit_bits(&fl->lit);
        fl->bits = op == B3_Const32 ? (uint64_t)(int64_t)(int32_t)(uint32_t)b : b;
    } else if (fl->extras & B3FL_LIT) {
        char text[128];
        if (fl->lit.len >= sizeof text)
            return false;
        memcpy(text, fl->lit.p, fl->lit.len);
        text[fl->lit.len] = 0;
        char *end;
        if (op == B3_ConstFloat) {
            float f = strtof(text, &end);
            uint32_t b32;
            memcpy(&b32, &f, 4);
            fl->bits = b32;
        } else {
            double d = strtod(text, &end);
            memcpy(&fl->bits, &d, 8);
        }
        if (*end)
            return false;
    }
    return true;
}

/* Builds the value of a line b3p_direct_ok accepted, as b3p_value would. */
void b3p_value_direct(B3ParseCtx *c, const B3FastLine *fl) {
    B3Opcode op = (B3Opcode)fl->opcode;
    uint32_t index = fl->num;
    if (index > c->max_index)
        c->max_index = index;
    B3Value *v = b3_value_new_parsed(c->m, c->proc, op, (B3Type)fl->type, fl->nkids, index, fl->op_loc,
                                     fl->type_loc);
    value_define(c, index, v);
    for (uint32_t i = 0; i < fl->nkids; i++) {
        v->kid_locs[i] = fl->kid_loc[i];
        B3Value *kid = b3p_value_at(c, fl->kid_num[i]);
        v->kids[i] = kid;
        if (!kid)
            pend_value(c, v, i, fl->kid_num[i], fl->kid_loc[i]);
    }
    if (fl->extras & B3FL_LIT) {
        if (op == B3_ConstFloat) {
            uint32_t b32 = (uint32_t)fl->bits;
            v->m.c.bits = 0;
            memcpy(&v->m.c.f, &b32, 4);
        } else {
            v->m.c.bits = fl->bits;
        }
    }
    if (fl->extras & B3FL_OFFSET)
        v->m.mem.offset = (int32_t)lit_bits(&fl->offset);
    if (fl->extras & B3FL_RANGE)
        v->m.mem.range = (B3HeapRange){(uint32_t)fl->range.u, (uint32_t)fl->range.u + 1};
    if (fl->extras & B3FL_PHI) {
        B3Value *phi = b3p_value_at(c, (uint32_t)fl->phi.u);
        if (phi)
            v->m.phi = phi;
        else
            pend_value(c, v, UINT32_MAX, (uint32_t)fl->phi.u, fl->phi_loc);
    }
    b3_block_append(c->m, c->block, v);
    c->in_args = false;
    c->lhs.have_type = c->lhs.have_name = false;
}

/* ---- the end of a procedure ----------------------------------------------------- */

static void resolve(B3ParseCtx *c) {
    B3Proc *p = c->proc;
    for (uint32_t i = 0; i < c->pend_values.n; i++) {
        B3PendingValue *pv = &c->pend_values.a[i];
        B3Value *w = b3p_value_at(c, pv->num);
        if (!w) {
            if (pv->slot == UINT32_MAX)
                b3_error(c->d, pv->loc, "Upsilon writes undefined value @%u", pv->num);
            else
                b3_error(c->d, pv->loc, "use of undefined value @%u", pv->num);
            continue;
        }
        if (pv->slot == UINT32_MAX)
            pv->v->m.phi = w;
        else
            pv->v->kids[pv->slot] = w;
    }
    for (uint32_t i = 0; i < c->pend_blocks.n; i++) {
        B3PendingBlock *pb = &c->pend_blocks.a[i];
        B3Block *t = b3_block_find(p, pb->num);
        if (!t)
            b3_error(c->d, pb->loc, "branch to undefined block #%u", pb->num);
        else
            pb->b->succs[pb->slot].block = t;
    }
    for (uint32_t i = 0; i < c->pend_names.n; i++) {
        B3PendingName *pn = &c->pend_names.a[i];
        if (pn->v->opcode == B3_SlotBase) {
            B3StackSlot *s = b3_strmap_get(&c->slots, pn->name, pn->len);
            if (!s)
                b3_error(c->d, pn->loc, "use of undefined stack slot '%.*s'", (int)pn->len, pn->name);
            pn->v->m.slot = s;
        } else {
            B3Variable *var = b3_strmap_get(&c->vars, pn->name, pn->len);
            if (!var)
                b3_error(c->d, pn->loc, "use of undefined variable '%.*s'", (int)pn->len, pn->name);
            pn->v->m.var = var;
        }
    }
    for (uint32_t i = 0; i < c->preds.n; i++) {
        B3WrittenPreds *w = &c->preds.a[i];
        for (uint32_t j = 0; j < w->count; j++)
            if (!b3_block_find(p, c->pred_nums.a[w->first + j]))
                b3_error(c->d, c->pred_locs.a[w->first + j], "'Predecessors:' names undefined block #%u",
                         c->pred_nums.a[w->first + j]);
    }
}

/* Values written without a name get numbers after the largest written one. */
static void number_unnamed(B3ParseCtx *c) {
    B3Proc *p = c->proc;
    uint32_t next = 0;
    for (uint32_t i = 0; i < p->nvalues; i++) {
        uint32_t x = p->values[i]->index;
        if (x <= B3_MAX_VALUE_NUMBER && x >= next)
            next = x + 1;
    }
    for (uint32_t i = 0; i < c->unnamed.n; i++)
        c->unnamed.a[i]->index = next++;
    /* The values are mapped now, all at once (b3_value_new_located): the
     * map is sized for them, with no arrays outgrown on the way. */
    uint32_t slots = next < (uint64_t)4 * p->nvalues + 1024 ? next : p->nvalues;
    b3_nummap_clear(&p->value_map, &p->arena, slots);
    B3NumMap *map = &p->value_map;
    for (uint32_t i = 0; i < p->nvalues; i++) {
        B3Value *v = p->values[i];
        if (!map->keys && v->index < map->cap && !map->vals[v->index]) {
            map->vals[v->index] = v; /* b3_nummap_put's dense case, without the call */
            map->count++;
        } else {
            b3_nummap_put(map, &p->arena, v->index, v);
        }
    }
    p->next_value_index = next;
}

static int list_blocks(char *buf, size_t size, B3Block **bs, uint32_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < n && k + 16 < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s#%u", i ? ", " : "", bs[i]->index);
    if (k + 16 >= size)
        snprintf(buf + k, size - k, ", ...");
    return (int)k;
}

/* Written Predecessors lines must equal the computed predecessors as sets. */
static void check_preds(B3ParseCtx *c) {
    B3Proc *p = c->proc;
    if (!c->preds.n)
        return;
    uint32_t *mark = b3_xcalloc("parse", p->nblocks ? p->nblocks : 1, sizeof *mark);
    for (uint32_t i = 0; i < c->preds.n; i++) {
        B3WrittenPreds *w = &c->preds.a[i];
        B3Block *b = w->b;
        if (b3_block_find(p, b->index) != b)
            continue; /* a block defined twice */
        uint32_t stamp = i + 1, distinct = 0;
        B3Block **written = b3_xmalloc("parse", (w->count ? w->count : 1) * sizeof *written);
        uint32_t nw = 0;
        for (uint32_t j = 0; j < w->count; j++) {
            B3Block *q = b3_block_find(p, c->pred_nums.a[w->first + j]);
            if (q && mark[q->pos] != stamp) {
                mark[q->pos] = stamp;
                distinct++;
                written[nw++] = q;
            }
        }
        bool same = distinct == b->npreds;
        for (uint32_t j = 0; j < b->npreds && same; j++)
            same = mark[b->preds[j]->pos] == stamp;
        if (!same) {
            char lw[200], lc[200];
            list_blocks(lw, sizeof lw, written, nw);
            list_blocks(lc, sizeof lc, b->preds, b->npreds);
            if (b->npreds)
                b3_error(c->d, w->loc,
                         "'Predecessors:' of block #%u lists %s, but the blocks that branch to it are %s",
                         b->index, nw ? lw : "nothing", lc);
            else
                b3_error(c->d, w->loc, "'Predecessors:' of block #%u lists %s, but no block branches to it",
                         b->index, lw);
        }
        free(written);
    }
    free(mark);
}

void b3p_proc_end(B3ParseCtx *c) {
    B3Proc *p = c->proc;
    if (!p)
        return;
    /* After a syntax error a line may be missing: names it defined would be
     * reported as undefined, so resolution is skipped. */
    if (c->syntax_errors == c->proc_syntax)
        resolve(c);
    values_clear(c);
    number_unnamed(c);
    if (c->d->errors == c->proc_errors) {
        b3_proc_compute_preds(c->m, p);
        check_preds(c);
        if (c->d->errors == c->proc_errors)
            b3_proc_remove_unreachable(c->m, p);
    }
    proc_state_free(c);
    b3_arena_trim(&p->arena); /* the phases grow it much later */
    c->proc = NULL;
    c->block = NULL;
    c->scratch = NULL;
    c->section = B3Sec_None;
    b3p_reset_nodes(c);
}
