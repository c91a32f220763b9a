/* The grammar of .b3 files (spec sections 2-8), for bison.
 *
 * The grammar knows the shape of lines, not the meaning of opcodes: a value
 * line becomes a list of argument nodes that parser/build.c interprets per
 * opcode (children, literals, meta entries, references, successors,
 * effects).  A procedure body is a flat sequence of lines (block headers,
 * values, Predecessors/Successors lines, section headers, declarations); the
 * builder keeps track of which block or section each belongs to.  That keeps
 * the grammar LALR(1) without conflicts and lets error recovery restart at
 * the next line. */

%code requires {
#include "parser/parse_ctx.h"
}

%code provides {
int yylex(YYSTYPE *lval, B3Loc *lloc, B3ParseCtx *c);
int b3_lex_after_value_line(B3ParseCtx *c, const B3FastLine *fl, YYSTYPE *lval, B3Loc *lloc);
int b3_lex_type_token(B3ParseCtx *c, const unsigned char *tok, int type, YYSTYPE *lval, B3Loc *lloc);
int b3_lex_token(B3ParseCtx *c, const unsigned char *tok, const unsigned char *end, int kind, uint64_t u,
                 YYSTYPE *lval, B3Loc *lloc);
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                            \
    do {                                                                       \
        (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0);                     \
    } while (0)

static void yyerror(B3Loc *loc, B3ParseCtx *c, const char *msg);
static void recover(B3ParseCtx *c);
static void fast_lines(B3ParseCtx *c, int *yychar, YYSTYPE *lval, B3Loc *lloc, int errstatus);

#define NODE(kind, loc) b3p_node(c, (kind), (loc))
#define N(i) b3p_n(c, (i))
#define TOK(i) (c->toks.a[(i)])
/* After a whole line (or item) is reduced no token value on the stack is
 * read again: the token vector restarts, keeping only the lookahead. */
#define LINE_DONE()                                                            \
    do {                                                                       \
        if (yychar != TK_YYEMPTY) {                                            \
            c->toks.a[0] = c->toks.a[yylval.tok];                              \
            yylval.tok = 0;                                                    \
            c->toks.n = 1;                                                     \
        } else {                                                               \
            c->toks.n = 0;                                                     \
        }                                                                      \
    } while (0)
}

%define api.pure full
%define api.location.type {B3Loc}
%define api.token.prefix {TK_}
%define parse.error custom
/* No default reductions: a syntax error is found in the state where the
 * offending token arrives, so the "expected" sets in messages are exact. */
%define lr.default-reduction accepting
%locations
%param {B3ParseCtx *c}

/* Both members are indices, so the value stack copies 4 bytes per symbol
 * (a big union there costs a store-forwarding stall per reduction): tok
 * names a token in c->toks (TOK), node a node. */
%union {
    uint32_t tok;
    uint32_t node;
}

%token <tok> TYPE "a type"
%token <tok> IDENT "an identifier"
%token <tok> LABEL "a label (name:)"
%token <tok> INT "an integer"
%token <tok> FLOAT "a floating-point number"
%token <tok> STRING "a string"
%token <tok> VALUENAME "a value name (@N)"
%token <tok> CONSTCHILD "a constant child ($C(@N))"
%token <tok> PHIREF "a Phi reference (^@N)"
%token <tok> SYMBOL "a symbol (@name)"
%token <tok> BLOCKREF "a block (#N)"
%token <tok> BBNAME "a block header (BB#N:)"
%token <tok> REG "a register (%name)"
%token <tok> ORIGIN "an origin"
%token <tok> ARROW "'->'"
%token <tok> ELLIPSIS "'...'"
%token <tok> KW_EXTERN "'extern'"
%token <tok> KW_ALIAS "'alias'"
%token <tok> KW_DATA "'data'"
%token <tok> KW_PROC "'proc'"
%token <tok> PREDECESSORS "'Predecessors:'"
%token <tok> SUCCESSORS "'Successors:'"
%token <tok> VARIABLES "'Variables:'"
%token <tok> STACKSLOTS "'Stack slots:'"
%token <tok> ORPHANED "'Orphaned values:'"
%token <tok> CHILL_OPEN "'chill('"
%token <tok> TRAPPING_OPEN "'trapping('"

%type <node> proc_attrs proc_attr attr_string data_attrs data_vals data_val extern_attrs
%type <node> kind inner_kind flags_opt inner_flags_opt flag_list args_opt args arg number succ succ_target
%type <node> effects effect heaprange metaval metavals metavals_opt block_list succ_list slot_kvs slot_kv

%%

module
    : items                                 { b3p_module_end(c); }
    | bare_begin BBNAME ':'                 { b3p_block_header(c, TOK($2), @2); }
      body_elems                            { b3p_proc_end(c); b3p_module_end(c); }
    ;

bare_begin
    : %empty                                { b3p_proc_begin(c, NULL, (B3Loc){0, 0, 0}, 0); }
    ;

items
    : %empty                                { }
    | items item                            { LINE_DONE(); }
    ;

item
    : KW_EXTERN SYMBOL extern_attrs         { b3p_extern(c, TOK($2), @2, $3); }
    | KW_ALIAS SYMBOL extern_attrs '=' SYMBOL
                                            { b3p_alias(c, TOK($2), @2, $3, TOK($5), @5, NULL, @5); }
    | KW_ALIAS SYMBOL extern_attrs '=' SYMBOL '+' INT
                                            { b3p_alias(c, TOK($2), @2, $3, TOK($5), @5, &TOK($7), @7); }
    | KW_PROC SYMBOL proc_attrs '{'         { b3p_proc_begin(c, &TOK($2), @2, $3); }
      body_elems '}'                        { b3p_proc_end(c); }
    | KW_DATA SYMBOL data_attrs '{'         { b3p_data_begin(c, TOK($2), @2, $3); }
      data_lines '}'                        { b3p_data_end(c); }
    | error                                 { recover(c); if (c->skip_line) { yyclearin; yyerrok; } }
    ;

extern_attrs
    : %empty                                { $$ = 0; }
    | extern_attrs IDENT                    { uint32_t n = NODE(B3N_WORD, @2); N(n)->tok = TOK($2);
                                              $$ = b3p_append(c, $1, n); }
    | extern_attrs IDENT '(' metavals_opt ')'
                                            { uint32_t n = NODE(B3N_CALL, @2); N(n)->tok = TOK($2); N(n)->sub = $4;
                                              $$ = b3p_append(c, $1, n); }
    ;

proc_attrs
    : %empty                                { $$ = 0; }
    | proc_attrs proc_attr                  { $$ = b3p_append(c, $1, $2); }
    ;

proc_attr
    : IDENT                                 { $$ = NODE(B3N_WORD, @1); N($$)->tok = TOK($1); }
    | IDENT '(' metavals_opt ')'            { $$ = NODE(B3N_CALL, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    | IDENT '(' attr_string ')'             { $$ = NODE(B3N_CALL, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    ;

/* section("name") */
attr_string
    : STRING                                { $$ = NODE(B3N_STRING, @1); N($$)->tok = TOK($1); }
    ;

data_attrs
    : %empty                                { $$ = 0; }
    | data_attrs IDENT                      { uint32_t n = NODE(B3N_WORD, @2); N(n)->tok = TOK($2);
                                              $$ = b3p_append(c, $1, n); }
    | data_attrs IDENT INT                  { uint32_t n = NODE(B3N_WORD, @2); N(n)->tok = TOK($2);
                                              N(n)->tok2 = TOK($3); N(n)->loc2 = @3; N(n)->flags = 1;
                                              $$ = b3p_append(c, $1, n); }
    | data_attrs IDENT '(' metavals_opt ')' { uint32_t n = NODE(B3N_CALL, @2); N(n)->tok = TOK($2); N(n)->sub = $4;
                                              $$ = b3p_append(c, $1, n); }
    | data_attrs IDENT '(' attr_string ')'  { uint32_t n = NODE(B3N_CALL, @2); N(n)->tok = TOK($2); N(n)->sub = $4;
                                              $$ = b3p_append(c, $1, n); }
    ;

data_lines
    : %empty
    | data_lines data_line                  { LINE_DONE(); }
    ;

data_line
    : TYPE data_vals                        { b3p_data_line(c, TOK($1), @1, $2); }
    | IDENT data_vals                       { b3p_data_line(c, TOK($1), @1, $2); }
    | error                                 { recover(c); if (c->skip_line) { yyclearin; yyerrok; } }
    ;

data_vals
    : data_val                              { $$ = $1; }
    | data_vals ',' data_val                { $$ = b3p_append(c, $1, $3); }
    ;

data_val
    : INT                                   { $$ = NODE(B3N_INT, @1); N($$)->tok = TOK($1); }
    | FLOAT                                 { $$ = NODE(B3N_FLOAT, @1); N($$)->tok = TOK($1); }
    | STRING                                { $$ = NODE(B3N_STRING, @1); N($$)->tok = TOK($1); }
    | SYMBOL                                { $$ = NODE(B3N_SYM, @1); N($$)->tok = TOK($1); }
    | SYMBOL '+' INT                        { $$ = NODE(B3N_ADDR, @1); N($$)->tok = TOK($1); N($$)->tok2 = TOK($3);
                                              N($$)->loc2 = @3; }
    | SYMBOL '-' INT                        { $$ = NODE(B3N_ADDR, @1); N($$)->tok = TOK($1); N($$)->tok2 = TOK($3);
                                              N($$)->tok2.neg = !TOK($3).neg; N($$)->loc2 = @3; }
    | SYMBOL INT                            { $$ = NODE(B3N_ADDR, @1); N($$)->tok = TOK($1); N($$)->tok2 = TOK($2);
                                              N($$)->loc2 = @2; N($$)->flags = 1; }
    | IDENT '(' metavals_opt ')'            { $$ = NODE(B3N_CALL, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    ;

body_elems
    : %empty
    | body_elems body_elem                  { LINE_DONE(); fast_lines(c, &yychar, &yylval, &yylloc, yyerrstatus); }
    ;

body_elem
    : BBNAME ':'                            { b3p_block_header(c, TOK($1), @1); }
    | value_line
    | PREDECESSORS block_list               { b3p_preds_line(c, @1, $2); }
    | SUCCESSORS succ_list                  { b3p_succs_line(c, @1, $2); }
    | VARIABLES                             { b3p_section(c, B3Sec_Vars, @1); }
    | STACKSLOTS                            { b3p_section(c, B3Sec_Slots, @1); }
    | ORPHANED                              { b3p_section(c, B3Sec_Orphans, @1); }
    | TYPE IDENT                            { b3p_var_decl(c, TOK($1), @1, TOK($2), @2); }
    | LABEL slot_kvs                        { b3p_slot_decl(c, TOK($1), @1, $2); }
    | error                                 { recover(c); if (c->skip_line) { yyclearin; yyerrok; } }
    ;

block_list
    : BLOCKREF                              { $$ = NODE(B3N_SUCC, @1); N($$)->tok = TOK($1); N($$)->loc3 = @1; }
    | block_list ',' BLOCKREF               { uint32_t n = NODE(B3N_SUCC, @3); N(n)->tok = TOK($3); N(n)->loc3 = @3;
                                              $$ = b3p_append(c, $1, n); }
    ;

succ_list
    : succ                                  { $$ = $1; }
    | succ_list ',' succ                    { $$ = b3p_append(c, $1, $3); }
    ;

slot_kvs
    : slot_kv                               { $$ = $1; }
    | slot_kvs ',' slot_kv                  { $$ = b3p_append(c, $1, $3); }
    ;

slot_kv
    : IDENT '=' metaval                     { $$ = NODE(B3N_META, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    ;

value_line
    : value_lhs kind args_open args_opt ')' { b3p_value(c, $2, $4, @5); }
    ;

args_open
    : '('                                   { c->in_args = true; }
    ;

value_lhs
    : %empty                                { c->lhs.have_type = c->lhs.have_name = false; }
    | TYPE VALUENAME '='                    { c->lhs.have_type = c->lhs.have_name = true;
                                              c->lhs.type = (uint8_t)TOK($1).u; c->lhs.type_loc = @1;
                                              c->lhs.num = (uint32_t)TOK($2).u; c->lhs.name_loc = @2; }
    | VALUENAME '='                         { c->lhs.have_type = false; c->lhs.have_name = true;
                                              c->lhs.num = (uint32_t)TOK($1).u; c->lhs.name_loc = @1; }
    ;

kind
    : IDENT flags_opt                       { $$ = b3p_kind(c, TOK($1), @1, $2); }
    | CHILL_OPEN inner_kind ')'             { $$ = b3p_kind_wrap(c, TOK($1), @1, $2); }
    | TRAPPING_OPEN inner_kind ')'          { $$ = b3p_kind_wrap(c, TOK($1), @1, $2); }
    ;

/* The same as kind, kept apart so that "expected" sets stay exact. */
inner_kind
    : IDENT inner_flags_opt                 { $$ = b3p_kind(c, TOK($1), @1, $2); }
    | CHILL_OPEN inner_kind ')'             { $$ = b3p_kind_wrap(c, TOK($1), @1, $2); }
    | TRAPPING_OPEN inner_kind ')'          { $$ = b3p_kind_wrap(c, TOK($1), @1, $2); }
    ;

flags_opt
    : %empty                                { $$ = 0; }
    | '<' flag_list '>'                     { $$ = $2; }
    ;

inner_flags_opt
    : %empty                                { $$ = 0; }
    | '<' flag_list '>'                     { $$ = $2; }
    ;

flag_list
    : IDENT                                 { $$ = NODE(B3N_WORD, @1); N($$)->tok = TOK($1); }
    | flag_list ',' IDENT                   { uint32_t n = NODE(B3N_WORD, @3); N(n)->tok = TOK($3);
                                              $$ = b3p_append(c, $1, n); }
    ;

args_opt
    : %empty                                { $$ = 0; }
    | args                                  { $$ = $1; }
    ;

args
    : arg                                   { $$ = $1; }
    | args ',' arg                          { $$ = b3p_append(c, $1, $3); }
    ;

arg
    : VALUENAME                             { $$ = NODE(B3N_CHILD, @1); N($$)->tok = TOK($1); }
    | VALUENAME ':' metaval                 { $$ = NODE(B3N_CHILD, @1); N($$)->tok = TOK($1); N($$)->sub = $3;
                                              N($$)->loc2 = @3; }
    | CONSTCHILD                            { $$ = NODE(B3N_CHILD, @1); N($$)->tok = TOK($1);
                                              N($$)->loc.col += TOK($1).aux; }
    | CONSTCHILD ':' metaval                { $$ = NODE(B3N_CHILD, @1); N($$)->tok = TOK($1); N($$)->sub = $3;
                                              N($$)->loc.col += TOK($1).aux; N($$)->loc2 = @3; }
    | number                                { $$ = $1; }
    | number '(' INT ')'                    { $$ = $1; N($$)->kind = B3N_DUMPCONST; N($$)->tok2 = TOK($3);
                                              N($$)->loc2 = @3; }
    | IDENT '=' metaval                     { $$ = NODE(B3N_META, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    | IDENT '(' metavals_opt ')'            { $$ = NODE(B3N_CALL, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    | PHIREF                                { $$ = NODE(B3N_PHI, @1); N($$)->tok = TOK($1); }
    | REG                                   { $$ = NODE(B3N_REG, @1); N($$)->tok = TOK($1); }
    | SYMBOL                                { $$ = NODE(B3N_SYM, @1); N($$)->tok = TOK($1); }
    | ORIGIN                                { $$ = NODE(B3N_ORIGIN, @1); N($$)->tok = TOK($1); }
    | succ                                  { $$ = $1; }
    | effects                               { $$ = b3p_effects(c, $1); }
    ;

number
    : INT                                   { $$ = NODE(B3N_INT, @1); N($$)->tok = TOK($1); }
    | FLOAT                                 { $$ = NODE(B3N_FLOAT, @1); N($$)->tok = TOK($1); }
    ;

succ
    : succ_target                           { $$ = $1; }
    | INT ARROW succ_target                 { $$ = $3; N($$)->flags |= B3SF_CASE; N($$)->tok2 = TOK($1);
                                              N($$)->loc2 = @1; N($$)->loc = @1; }
    | IDENT ARROW succ_target               { $$ = $3; N($$)->loc2 = @1; N($$)->loc = @1;
                                              if (TOK($1).len == 7 && !memcmp(TOK($1).p, "default", 7)) {
                                                  N($$)->flags |= B3SF_DEFAULT;
                                              } else {
                                                  b3_error(c->d, @1, "expected a case value or 'default' before "
                                                           "'->', found '%.*s'", (int)TOK($1).len, TOK($1).p);
                                                  N($$)->flags |= B3SF_BADLABEL;
                                              } }
    ;

succ_target
    : BLOCKREF                              { $$ = NODE(B3N_SUCC, @1); N($$)->tok = TOK($1); N($$)->loc3 = @1; }
    | LABEL succ_target                     { $$ = b3p_succ_label(c, TOK($1), @1, $2); }
    ;

effects
    : effect                                { $$ = $1; }
    | effects '|' effect                    { $$ = b3p_append(c, $1, $3); }
    ;

effect
    : IDENT                                 { $$ = NODE(B3N_WORD, @1); N($$)->tok = TOK($1); }
    | LABEL heaprange                       { $$ = NODE(B3N_EFFRANGE, @1); N($$)->tok = TOK($1); N($$)->sub = $2; }
    ;

heaprange
    : IDENT                                 { $$ = NODE(B3N_WORD, @1); N($$)->tok = TOK($1); }
    | INT                                   { $$ = NODE(B3N_INT, @1); N($$)->tok = TOK($1); }
    | INT ELLIPSIS INT                      { $$ = NODE(B3N_RANGE, @1); N($$)->tok = TOK($1); N($$)->tok2 = TOK($3);
                                              N($$)->loc2 = @3; }
    ;

metaval
    : INT                                   { $$ = NODE(B3N_INT, @1); N($$)->tok = TOK($1); }
    | INT ELLIPSIS INT                      { $$ = NODE(B3N_RANGE, @1); N($$)->tok = TOK($1); N($$)->tok2 = TOK($3);
                                              N($$)->loc2 = @3; }
    | FLOAT                                 { $$ = NODE(B3N_FLOAT, @1); N($$)->tok = TOK($1); }
    | IDENT                                 { $$ = NODE(B3N_WORD, @1); N($$)->tok = TOK($1); }
    | IDENT '(' metavals_opt ')'            { $$ = NODE(B3N_CALL, @1); N($$)->tok = TOK($1); N($$)->sub = $3; }
    | REG                                   { $$ = NODE(B3N_REG, @1); N($$)->tok = TOK($1); }
    | SYMBOL                                { $$ = NODE(B3N_SYM, @1); N($$)->tok = TOK($1); }
    | '[' metavals_opt ']'                  { $$ = NODE(B3N_LIST, @1); N($$)->sub = $2; }
    ;

metavals_opt
    : %empty                                { $$ = 0; }
    | metavals                              { $$ = $1; }
    ;

metavals
    : metaval                               { $$ = $1; }
    | metavals ',' metaval                  { $$ = b3p_append(c, $1, $3); }
    ;

%%

/* Error recovery at a line: forget the half-built line. */
static void recover(B3ParseCtx *c) {
    c->in_args = false;
    c->lhs.have_type = c->lhs.have_name = false;
    b3p_reset_nodes(c);
}

/* Block-structure lines ("BB#N:", "Predecessors:", "Successors:") after a
 * direct value line read by fl, built at once like the lines the fast path
 * reads: each in the grammar's order of effects, once the next line's first
 * token is read (no reading reports anything; a line that the lexer cannot
 * read by hand goes back to the grammar with its first token).  Returns
 * true on reaching a line that starts with a type, moved past it (fl->type,
 * fl->type_loc and *type_tok say which and where); false with bison's
 * lookahead in *yychar otherwise. */
static bool block_lines(B3ParseCtx *c, B3FastLine *fl, int *yychar, YYSTYPE *lval, B3Loc *lloc,
                        const unsigned char **type_tok) {
    const unsigned char *eol = fl->eol, *last = fl->end, *q = fl->next_tok, *wend = NULL;
    uint32_t num = 0;
    b3_lex_leave_line(c, eol, last);
    int kind = b3_lex_block_word(c, q, &wend, &num);
    if (!kind) {
        *yychar = yylex(lval, lloc, c);
        return false;
    }
    b3_lex_enter_line(c, eol, q);
    for (;;) {
        uint32_t nodes = c->nodes.n, list;
        B3Loc loc = b3_lex_loc(c, q);
        if (!b3_lex_block_rest(c, kind, wend, &list, &eol, &last)) {
            c->nodes.n = nodes;
            *yychar = b3_lex_token(c, q, wend, kind, num, lval, lloc);
            return false;
        }
        B3Tok word = {.p = (const char *)q, .len = (uint32_t)(wend - q), .u = num};
        b3_lex_leave_line(c, eol, last);
        /* The next line's first token, then this line's effects. */
        const unsigned char *q2 = b3_lex_first_token(eol), *wend2 = NULL;
        uint32_t num2 = 0, len = 0;
        int type = b3_lex_type_word(c, q2, &len);
        int kind2 = type < 0 ? b3_lex_block_word(c, q2, &wend2, &num2) : 0;
        if (type >= 0 || kind2) {
            b3_lex_enter_line(c, eol, q2);
            if (type >= 0)
                c->cur = q2 + len;
        } else {
            *yychar = yylex(lval, lloc, c);
        }
        if (kind == TK_BBNAME)
            b3p_block_header(c, word, loc);
        else if (kind == TK_PREDECESSORS)
            b3p_preds_line(c, loc, list);
        else
            b3p_succs_line(c, loc, list);
        if (type < 0 && !kind2)
            return false;
        if (b3_diag_stopped(c->d)) {
            /* the next token was read before the limit was reached */
            *yychar = type >= 0 ? b3_lex_type_token(c, q2, type, lval, lloc)
                                : b3_lex_token(c, q2, wend2, kind2, num2, lval, lloc);
            return false;
        }
        if (type >= 0) {
            fl->type = (uint8_t)type;
            fl->type_loc = b3_lex_loc(c, q2);
            *type_tok = q2;
            return true;
        }
        kind = kind2;
        q = q2;
        wend = wend2;
        num = num2;
    }
}

/* Plain value lines without the grammar.  Here, after a body line, the
 * parser is in the state that reads the next body line, and the lookahead
 * is that line's first token.  If it is a TYPE starting a line that
 * b3_lex_value_line can read, the line is handled here as the grammar would
 * handle it, in the same order: its nodes are built, the next line's first
 * token is read (the grammar reads it before it reduces the line, so any
 * diagnostic of that token comes first), then the value is built, and that
 * token becomes the lookahead, in the same parser state.  The lexer accepts
 * a line only when the next line starts with a token after which the grammar
 * reduces the value line (so the value is built in both cases), and only
 * when no error recovery is under way (bison counts shifted tokens then).
 * A direct line (B3FastLine) builds no nodes, and b3p_value_direct reports
 * nothing: its value is built before the next line's type is read (which
 * reports nothing either), and that type becomes a token only when the
 * next line is not a direct one too, so a run of direct lines goes by
 * without the grammar's tokens. */
static void fast_lines(B3ParseCtx *c, int *yychar, YYSTYPE *lval, B3Loc *lloc, int errstatus) {
    if (c->opt && c->opt->no_fast_lines)
        return;
    if (*yychar != TK_TYPE)
        return;
    B3FastLine fl;
    fl.type = (uint8_t)c->toks.a[lval->tok].u;
    fl.type_loc = *lloc;
    /* The type token that starts the line is bison's lookahead (pending:
     * it is still to be made one, at type_tok) */
    bool pending = false;
    const unsigned char *type_tok = NULL;
    while (!errstatus && (pending || c->tok_first) && !c->skip_line && c->byproducts < 0 &&
           !b3_diag_stopped(c->d)) {
        uint32_t nodes = c->nodes.n;
        if (!b3_lex_value_line(c, &fl)) {
            c->nodes.n = nodes;
            break;
        }
        if (fl.direct && fl.next_type >= 0) {
            b3p_value_direct(c, &fl);
            type_tok = fl.next_tok;
            fl.type_loc = b3_lex_next_type(c, &fl);
            fl.type = (uint8_t)fl.next_type;
            pending = true;
            continue;
        }
        pending = false;
        if (fl.direct && fl.next_type < 0 && *fl.next_tok != '@' && *fl.next_tok != '}') {
            c->toks.n = 0;
            b3p_value_direct(c, &fl);
            if (!block_lines(c, &fl, yychar, lval, lloc, &type_tok))
                return;
            pending = true;
            continue;
        }
        if (fl.direct) {
            c->toks.n = 0;
            *yychar = b3_lex_after_value_line(c, &fl, lval, lloc);
            b3p_value_direct(c, &fl);
        } else {
            c->lhs.have_type = c->lhs.have_name = true;
            c->lhs.type = fl.type;
            c->lhs.type_loc = fl.type_loc;
            c->lhs.num = fl.num;
            c->lhs.name_loc = fl.name_loc;
            c->in_args = true;
            c->toks.n = 0;
            *yychar = b3_lex_after_value_line(c, &fl, lval, lloc);
            b3p_value(c, fl.kind, fl.args, fl.rparen_loc);
        }
        if (*yychar != TK_TYPE)
            return;
        fl.type = (uint8_t)c->toks.a[lval->tok].u;
        fl.type_loc = *lloc;
    }
    if (pending) {
        c->toks.n = 0;
        *yychar = b3_lex_type_token(c, type_tok, fl.type, lval, lloc);
    }
}

/* Bison calls this only when its stack overflows. */
static void yyerror(B3Loc *loc, B3ParseCtx *c, const char *msg) {
    (void)msg;
    b3_error(c->d, *loc, "nesting is too deep to parse");
    c->syntax_errors++;
}

/* A token kind as the messages name it: aliases lose their quotes. */
static void symbol_text(char *out, size_t size, yysymbol_kind_t k) {
    const char *name = yysymbol_name(k);
    if (k == YYSYMBOL_YYEOF) {
        snprintf(out, size, "end of file");
        return;
    }
    size_t n = strlen(name);
    if (n >= 2 && name[0] == '"' && name[n - 1] == '"')
        snprintf(out, size, "%.*s", (int)(n - 2), name + 1);
    else
        snprintf(out, size, "%s", name);
}

/* What the offending token was: its text, quoted and shortened. */
static void found_text(char *out, size_t size, const B3ParseCtx *c) {
    if (c->tok_eof || !c->tok_p) {
        snprintf(out, size, "end of file");
        return;
    }
    uint32_t n = c->tok_len > 40 ? 40 : c->tok_len;
    char buf[64];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)c->tok_p[i];
        buf[k++] = ch >= 0x20 && ch != 0x7f ? (char)ch : '?';
    }
    buf[k] = 0;
    snprintf(out, size, "'%s%s'", buf, c->tok_len > n ? "..." : "");
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, B3ParseCtx *c) {
    B3Loc loc = *yypcontext_location(yyctx);
    yysymbol_kind_t exp[64];
    int n = yypcontext_expected_tokens(yyctx, exp, 64);
    if (n < 0)
        n = 0;
    bool has[YYNTOKENS] = {false};
    for (int i = 0; i < n; i++)
        if (exp[i] >= 0 && exp[i] < YYNTOKENS)
            has[exp[i]] = true;
    char found[80];
    found_text(found, sizeof found, c);
    bool line_ended = c->tok_eof || c->tok_first;
    yysymbol_kind_t rparen = YYTRANSLATE(')');
    yysymbol_kind_t comma = YYTRANSLATE(',');

    if (c->in_args && has[rparen] && line_ended)
        b3_error(c->d, loc, "expected ')' after arguments, found %s", found);
    else if (c->in_args && has[rparen] && has[comma])
        b3_error(c->d, loc, "expected ',' or ')' after argument, found %s", found);
    else if (has[YYSYMBOL_VALUENAME] && has[YYSYMBOL_BLOCKREF] && has[YYSYMBOL_SYMBOL])
        b3_error(c->d, loc, "expected an argument, found %s", found);
    else if (has[YYSYMBOL_INT] && has[YYSYMBOL_REG] && has[YYTRANSLATE('[')])
        b3_error(c->d, loc, "expected a meta value, found %s", found);
    else if (c->tok_eof && has[YYTRANSLATE('}')])
        b3_error(c->d, loc, "expected '}' before the end of the file");
    else if (has[YYSYMBOL_BBNAME] && has[YYSYMBOL_PREDECESSORS])
        b3_error(c->d, loc, "expected a value, a block header (BB#N:) or a section, found %s", found);
    else if (has[YYSYMBOL_IDENT] && has[YYSYMBOL_CHILL_OPEN])
        b3_error(c->d, loc, "expected an opcode, found %s", found);
    else if (n == 2 && has[YYTRANSLATE('(')] && has[YYTRANSLATE('<')])
        b3_error(c->d, loc, "expected '(' after the opcode, found %s", found);
    else if (n == 0 || n > 6)
        b3_error(c->d, loc, "unexpected %s", found);
    else {
        /* End of file reads best last in the list. */
        if (exp[0] == YYSYMBOL_YYEOF) {
            for (int i = 1; i < n; i++)
                exp[i - 1] = exp[i];
            exp[n - 1] = YYSYMBOL_YYEOF;
        }
        char msg[512];
        size_t len = (size_t)snprintf(msg, sizeof msg, "expected ");
        for (int i = 0; i < n && len < sizeof msg; i++) {
            char name[64];
            symbol_text(name, sizeof name, exp[i]);
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                                    name);
        }
        b3_error(c->d, loc, "%s, found %s", msg, found);
    }
    c->syntax_errors++;
    /* Resynchronise at the next line unless the offending token starts one. */
    c->skip_line = !line_ended;
    return 0;
}

bool b3_parse(B3Module *m, B3Diag *d, const char *src, size_t len, const B3ParseOptions *opt) {
    unsigned errors = d->errors;
    B3ParseCtx *c = b3_xcalloc("parse", 1, sizeof *c);
    b3p_init(c, m, d, opt, len);
    b3_lex_init(c, src, len);
    int r = yyparse(c);
    if (r != 0 && d->errors == errors)
        b3_error(d, c->last_end, "cannot parse this file");
    if (c->proc)
        b3p_proc_end(c); /* a body cut off by an unrecoverable error */
    b3p_free(c);
    free(c);
    return d->errors == errors;
}
