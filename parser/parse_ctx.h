/* Front-end internals shared by the lexer (lexer/lexer.re), the grammar
 * (parser/parser.y) and the IR builder (parser/build.c).
 *
 * The grammar is deliberately generic: it turns every value line into a
 * small tree of B3Nodes (its arguments), and build.c interprets that tree per
 * opcode.  Nodes live in one growable vector that is reset after every line,
 * so parsing allocates nothing per token; IR memory comes from the module's
 * arena. */
#ifndef B3_PARSE_CTX_H
#define B3_PARSE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ir/diag.h"
#include "ir/ir.h"
#include "parser/parser.h"
#include "util/strmap.h"
#include "util/vec.h"

/* The semantic value of a token. */
typedef struct {
    const char *p; /* text in the source; decoded bytes for strings and @"..." */
    uint32_t len;
    uint32_t aux; /* $..(b@N): column offset of the value name inside the token */
    uint64_t u;   /* integer magnitude; the number of @N, #N, ^N, BB#N; B3Type of a type */
    bool neg;     /* integer written with a leading '-' */
    bool ovf;     /* integer magnitude does not fit in 64 bits */
    bool hex;     /* integer written in hex */
} B3Tok;

typedef enum {
    B3N_NONE,
    /* arguments of a value */
    B3N_CHILD,     /* @N or $..(b@N); sub: constraint (a metaval) */
    B3N_INT,       /* integer literal */
    B3N_FLOAT,     /* float literal (inf and nan included) */
    B3N_DUMPCONST, /* 1.5e+00(4609434218613702656): tok the number, tok2 the bits */
    B3N_META,      /* key = value: tok the key, sub the value */
    B3N_CALL,      /* name(args): bits(...), Register(%r), nop(4), ...; sub: first arg */
    B3N_PHI,       /* ^@N or ^N */
    B3N_REG,       /* %name */
    B3N_SYM,       /* @name */
    B3N_SUCC,      /* successor: tok.u the block number; see B3SF_* */
    B3N_WORD,      /* a lone identifier: variable, slot, effect, Top, trap, ... */
    B3N_EFFECTS,   /* effects joined with '|': sub a list of WORD and RANGE_EFF nodes */
    B3N_EFFRANGE,  /* Reads:R / Writes:R inside effects: tok the label, sub the range */
    B3N_RANGE,     /* heap range A...B: tok A, tok2 B */
    B3N_LIST,      /* [a, b, ...]: sub the first element */
    B3N_ORIGIN,    /* D@N, Origin(...): ignored */
    B3N_STRING,    /* "..." (data) */
    /* other line structure */
    B3N_KIND, /* opcode and flags of a value line */
    B3N_ADDR, /* @sym +/- N in data: tok the symbol, tok2 the addend */
} B3NodeKind;

/* Successor node flags. */
enum {
    B3SF_RARE = 1 << 0,
    B3SF_THEN = 1 << 1,
    B3SF_ELSE = 1 << 2,
    B3SF_CASE = 1 << 3,    /* N -> #b: tok2 the case value */
    B3SF_DEFAULT = 1 << 4, /* default -> #b */
    B3SF_BADLABEL = 1 << 5,
};

typedef struct {
    uint8_t kind; /* B3NodeKind */
    uint8_t flags;
    uint16_t kflags; /* B3N_KIND: B3K_* flags written */
    B3Loc loc;       /* first token */
    B3Loc loc2;      /* second interesting token (tok2, a label, the constraint) */
    B3Loc loc3;      /* B3N_KIND: where Traps was written (loc2: Chill) */
    uint32_t next;   /* next sibling (0: none; node 0 is never used) */
    uint32_t sub;    /* first child node */
    uint32_t tail;   /* last node of the list this node heads */
    B3Tok tok, tok2;
} B3Node;

typedef struct {
    B3Value *v;
    uint32_t slot; /* child index; UINT32_MAX for an Upsilon's phi */
    uint32_t num;
    B3Loc loc;
} B3PendingValue;

typedef struct {
    B3Block *b;
    uint32_t slot;
    uint32_t num;
    B3Loc loc;
} B3PendingBlock;

typedef struct {
    B3Value *v;
    const char *name;
    uint32_t len;
    B3Loc loc;
} B3PendingName;

typedef struct {
    B3Block *b;
    B3Loc loc;
    uint32_t first, count; /* into pred_nums */
} B3WrittenPreds;

/* Growable malloc'ed vector (parser bookkeeping only, not IR; util/vec.h). */
#define B3_VEC(T)        \
    struct {             \
        T *a;            \
        uint32_t n, cap; \
    }

/* An opcode name in the lookup table: its first sixteen bytes (zero past the
 * name), the opcode plus one (0: a free slot) and the name's length. */
enum { B3_OP_SLOTS = 512 };
typedef struct {
    uint64_t w0, w1;
    uint16_t op1, len;
} B3OpSlot;

enum { B3Sec_None, B3Sec_Block, B3Sec_Vars, B3Sec_Slots, B3Sec_Orphans };

typedef struct B3ParseCtx {
    B3Module *m;
    B3Diag *d;
    const B3ParseOptions *opt;

    /* ---- lexer ---- */
    const unsigned char *src, *cur, *lim, *line_start;
    uint32_t line;
    bool at_bol;                      /* the next character starts a line */
    bool line_has_tok;                /* a token was already returned on this line */
    bool skip_line;                   /* error recovery: drop the rest of this line */
    int byproducts;                   /* indentation of a Byproducts: line being skipped, or -1 */
    const unsigned char *dollar_fail; /* a '$' before this starts no $C(@N) */
    /* the most recent token, for "found 'X'" in syntax errors */
    const char *tok_p;
    uint32_t tok_len;
    bool tok_first; /* it was the first token on its line */
    bool tok_eof;
    B3Loc last_end; /* just past the last real token (where EOF is reported) */

    /* ---- grammar state ---- */
    bool in_args; /* inside a value's argument list */
    unsigned syntax_errors;
    struct {
        bool have_type, have_name;
        uint8_t type;
        uint32_t num;
        B3Loc type_loc, name_loc;
    } lhs;
    B3_VEC(B3Node) nodes;
    B3_VEC(B3Tok) toks; /* token values of the current line (YYSTYPE.tok indexes it) */

    /* ---- the procedure being built ---- */
    B3Proc *proc;
    B3Block *block;
    int section;   /* B3Sec_* */
    int succ_kind; /* successors of the current block: 0 none, 1 inline, 2 line */
    bool block_has_preds;
    unsigned proc_errors; /* d->errors when the procedure began */
    unsigned proc_syntax; /* syntax_errors when the procedure began */
    uint32_t max_index;   /* largest explicit @N */
    uint32_t next_provisional;
    B3Proc *scratch; /* orphaned and misplaced values go here */
    B3Block *scratch_block;
    B3StrMap vars, slots; /* by name; zeroed: allocation failures name the running phase */
    B3_VEC(B3PendingValue) pend_values;
    B3_VEC(B3PendingBlock) pend_blocks;
    B3_VEC(B3PendingName) pend_names;
    B3_VEC(B3Value *) unnamed;
    B3_VEC(B3WrittenPreds) preds;
    B3_VEC(uint32_t) pred_nums;
    B3_VEC(B3Loc) pred_locs;
    B3_VEC(uint32_t) tmp;

    /* ---- the data item being built ---- */
    B3Symbol *data_sym;
    B3Data *data;
    B3_VEC(B3DataLine) data_lines;

    /* @N -> value for the procedure being built: dense for the usual compact
     * numbering (cache-friendly), values with outlying numbers in vsparse
     * (and, like every value, in the procedure's own hash map). */
    B3Value **vdense;
    uint32_t vcap;
    B3_VEC(B3Value *) vsparse;

    /* opcode name lookup (build.c, find_op) */
    B3OpSlot ops[B3_OP_SLOTS];
    /* per opcode (B3_NUM_OPCODES: unknown): the B3FL_* arguments a direct
     * line of it must have and may have (B3FL_NEVER: it is never direct);
     * derived from the opcode table by b3p_init */
    uint8_t direct_need[B3_NUM_OPCODES + 1], direct_may[B3_NUM_OPCODES + 1];
} B3ParseCtx;

/* Opcode names are found through an open-addressing table keyed by their
 * first sixteen bytes (zero past the name) and their length, hashed from
 * those bytes: one probe finds nearly every name, and a match is two word
 * compares (and, for names past sixteen bytes, a compare of the rest). */
static inline void b3p_op_words(const B3ParseCtx *c, const char *s, uint32_t len, uint64_t w[2]) {
    uintptr_t a = (uintptr_t)s, lo = (uintptr_t)c->src, hi = (uintptr_t)c->lim;
    if (a >= lo && hi >= 16 && a <= hi - 16) {
        memcpy(w, s, 16); /* inside the source: no read past its end */
    } else {
        char buf[16] = {0};
        memcpy(buf, s, len < 16 ? len : 16);
        memcpy(w, buf, 16);
    }
    if (len < 8) {
        w[0] &= ((uint64_t)1 << (8 * len)) - 1;
        w[1] = 0;
    } else if (len < 16) {
        w[1] &= ((uint64_t)1 << (8 * (len - 8))) - 1;
    }
}

static inline uint32_t b3p_op_hash(const uint64_t w[2], uint32_t len) {
    return (uint32_t)(((w[0] ^ (w[1] * 0xff51afd7ed558ccdull) ^ len) * 0x9e3779b97f4a7c15ull) >> 55) &
           (B3_OP_SLOTS - 1);
}

static inline B3Opcode b3p_find_op(const B3ParseCtx *c, const char *s, uint32_t len) {
    uint64_t w[2];
    b3p_op_words(c, s, len, w);
    for (uint32_t h = b3p_op_hash(w, len); c->ops[h].op1; h = (h + 1) & (B3_OP_SLOTS - 1)) {
        const B3OpSlot *o = &c->ops[h];
        if (o->w0 != w[0] || o->w1 != w[1] || o->len != len)
            continue;
        int op = o->op1 - 1;
        if (len <= 16 || !memcmp(s + 16, b3_op_info[op].name + 16, len - 16))
            return (B3Opcode)op;
    }
    return B3_NUM_OPCODES;
}

/* Children a direct value line may have (more: the line builds nodes). */
enum { B3_DIRECT_KIDS = 16 };

/* The arguments besides children a direct line may have (B3FastLine.extras). */
enum { B3FL_LIT = 1, B3FL_PHI = 2, B3FL_OFFSET = 4, B3FL_RANGE = 8, B3FL_NEVER = 0x80 };

/* A plain value line read by the lexer's fast path (b3_lex_value_line).
 * A direct line (the usual "TYPE @N = Op(@a, @b)", constants, memory
 * offsets and ranges, an Upsilon's Phi) builds no nodes: its arguments are
 * kept here, b3p_direct_ok checks that b3p_value would report nothing about
 * them, and b3p_value_direct builds the value as b3p_value would. */
typedef struct {
    uint32_t num;               /* N of the @N written */
    B3Loc name_loc, rparen_loc; /* where @N and the closing ')' are */
    const unsigned char *end;   /* just past the ')' */
    const unsigned char *eol;   /* the newline that ends the line */
    uint32_t kind, args;        /* nodes, as the grammar would build them (not direct) */
    int next_type;              /* the B3Type that starts the next line, or -1 */
    uint32_t next_len;          /* the length of its name */
    const unsigned char *next_tok;

    bool direct;
    uint8_t lit_kind; /* 0: no literal, B3N_INT or B3N_FLOAT */
    uint8_t extras;   /* B3FL_*: which of lit, phi, offset and range were written */
    uint8_t type;     /* B3Type written before @N */
    uint16_t opcode;  /* resolved by b3p_direct_ok */
    uint32_t nkids;
    B3Tok lit, phi, offset, range;
    B3Loc type_loc, op_loc, phi_loc;
    uint64_t bits; /* the literal's bits for the constant (b3p_direct_ok) */
    uint32_t kid_num[B3_DIRECT_KIDS];
    B3Loc kid_loc[B3_DIRECT_KIDS];
} B3FastLine;

/* Value numbers written in the source stay below this; values written
 * without a name get provisional numbers above it until the procedure ends. */
#define B3_MAX_VALUE_NUMBER 0x7fffffffu
/* The most numbers the dense map is first sized for (b3p_init). */
#define B3_DENSE_GUESS_MAX (1u << 24)

/* The value numbered num in the procedure being built, or NULL. */
static inline B3Value *b3p_value_at(B3ParseCtx *c, uint32_t num) {
    if (num < c->vcap)
        return c->vdense[num];
    B3Value *v = b3_value_find(c->proc, num);
    return v && v->index == num ? v : NULL;
}

/* Whether b3p_value, given fl's line as nodes, would report nothing and do
 * no more than b3p_value_direct does (see b3p_direct_args_ok).  Changes
 * nothing but fl. */
bool b3p_direct_args_ok(B3ParseCtx *c, B3FastLine *fl);
static inline bool b3p_direct_ok(B3ParseCtx *c, B3FastLine *fl) {
    uint32_t op = fl->opcode, x = fl->extras;
    uint32_t need = c->direct_need[op], may = c->direct_may[op];
    if ((x & need) != need || (x & ~may) || c->section != B3Sec_Block || !c->block ||
        b3p_value_at(c, fl->num))
        return false;
    return !x || b3p_direct_args_ok(c, fl);
}

/* lexer/lexer.re */
void b3_lex_init(B3ParseCtx *c, const char *src, size_t len);
bool b3_lex_value_line(B3ParseCtx *c, B3FastLine *fl);
B3Loc b3_lex_next_type(B3ParseCtx *c, const B3FastLine *fl);
int b3_lex_type_word(const B3ParseCtx *c, const unsigned char *q, uint32_t *len);
int b3_lex_block_word(const B3ParseCtx *c, const unsigned char *q, const unsigned char **end, uint32_t *num);
bool b3_lex_block_rest(B3ParseCtx *c, int kind, const unsigned char *p, uint32_t *list,
                       const unsigned char **eol, const unsigned char **last);
void b3_lex_enter_line(B3ParseCtx *c, const unsigned char *eol, const unsigned char *q);
void b3_lex_leave_line(B3ParseCtx *c, const unsigned char *eol, const unsigned char *last);
B3Loc b3_lex_loc(const B3ParseCtx *c, const unsigned char *p);
const unsigned char *b3_lex_first_token(const unsigned char *eol);
/* (in the grammar's %code provides: b3_lex_after_value_line,
 * b3_lex_type_token and b3_lex_token, which take a YYSTYPE) */

/* parser/build.c: nodes */
uint32_t b3p_node(B3ParseCtx *c, B3NodeKind kind, B3Loc loc);
static inline B3Node *b3p_n(B3ParseCtx *c, uint32_t i) { return &c->nodes.a[i]; }
uint32_t b3p_append(B3ParseCtx *c, uint32_t list, uint32_t item);
void b3p_reset_nodes(B3ParseCtx *c);
#define B3P_PUSH(v, x) B3_VEC_PUSH("parse", (v).a, (v).n, (v).cap, (x))

/* parser/build.c: module items */
/* len: the source's length, for the size of the number map. */
void b3p_init(B3ParseCtx *c, B3Module *m, B3Diag *d, const B3ParseOptions *opt, size_t len);
void b3p_free(B3ParseCtx *c);
void b3p_extern(B3ParseCtx *c, B3Tok sym, B3Loc loc, uint32_t attrs);
/* alias @a ATTRS = @target [+ offset] (offset NULL: none). */
void b3p_alias(B3ParseCtx *c, B3Tok sym, B3Loc loc, uint32_t attrs, B3Tok target, B3Loc target_loc,
               const B3Tok *offset, B3Loc offset_loc);
void b3p_proc_begin(B3ParseCtx *c, B3Tok *sym, B3Loc loc, uint32_t attrs);
void b3p_proc_end(B3ParseCtx *c);
void b3p_data_begin(B3ParseCtx *c, B3Tok sym, B3Loc loc, uint32_t attrs);
void b3p_data_line(B3ParseCtx *c, B3Tok kind, B3Loc loc, uint32_t items);
void b3p_data_end(B3ParseCtx *c);
void b3p_module_end(B3ParseCtx *c);

/* parser/build.c: body lines */
void b3p_block_header(B3ParseCtx *c, B3Tok num, B3Loc loc);
void b3p_value(B3ParseCtx *c, uint32_t kind, uint32_t args, B3Loc rparen);
void b3p_value_direct(B3ParseCtx *c, const B3FastLine *fl);
void b3p_preds_line(B3ParseCtx *c, B3Loc loc, uint32_t list);
void b3p_succs_line(B3ParseCtx *c, B3Loc loc, uint32_t list);
void b3p_section(B3ParseCtx *c, int section, B3Loc loc);
void b3p_var_decl(B3ParseCtx *c, B3Tok type, B3Loc tloc, B3Tok name, B3Loc nloc);
void b3p_slot_decl(B3ParseCtx *c, B3Tok name, B3Loc loc, uint32_t kvs);
uint32_t b3p_kind(B3ParseCtx *c, B3Tok name, B3Loc loc, uint32_t flags);
uint32_t b3p_kind_wrap(B3ParseCtx *c, B3Tok wrapper, B3Loc loc, uint32_t kind);
uint32_t b3p_effects(B3ParseCtx *c, uint32_t list);
uint32_t b3p_succ_label(B3ParseCtx *c, B3Tok label, B3Loc loc, uint32_t target);

#endif
