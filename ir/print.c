/* The canonical text printer (docs/canonical-form.md).
 *
 * Output goes through a private 64 KiB buffer flushed with fwrite: printing
 * a million values must take a fraction of a second, so tokens are copied
 * and integers formatted by hand rather than through printf. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/x87.h"
#include "util/alloc.h"

enum { BUF_SIZE = 1 << 16 };

typedef struct {
    FILE *out;
    const B3Module *m;
    size_t n;
    char buf[BUF_SIZE];
} Printer;

static void flush(Printer *p) {
    if (p->n)
        fwrite(p->buf, 1, p->n, p->out);
    p->n = 0;
}

/* Guarantees room for `need` more bytes (need <= BUF_SIZE). */
static inline char *reserve(Printer *p, size_t need) {
    if (p->n + need > BUF_SIZE)
        flush(p);
    return p->buf + p->n;
}

static void put_mem(Printer *p, const char *s, size_t len) {
    if (len > BUF_SIZE) {
        flush(p);
        fwrite(s, 1, len, p->out);
        return;
    }
    memcpy(reserve(p, len), s, len);
    p->n += len;
}

static inline void put(Printer *p, const char *s) { put_mem(p, s, strlen(s)); }

static inline void put_c(Printer *p, char c) {
    *reserve(p, 1) = c;
    p->n++;
}

static void put_u64(Printer *p, uint64_t x) {
    char tmp[24];
    int i = 24;
    do {
        tmp[--i] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    put_mem(p, tmp + i, (size_t)(24 - i));
}

static void put_i64(Printer *p, int64_t x) {
    if (x < 0) {
        put_c(p, '-');
        put_u64(p, 0 - (uint64_t)x);
    } else {
        put_u64(p, (uint64_t)x);
    }
}

/* Lower-case hex, at least `digits` digits, with 0x. */
static void put_hex(Printer *p, uint64_t x, int digits) {
    static const char hex[] = "0123456789abcdef";
    char tmp[16];
    int i = 16;
    do {
        tmp[--i] = hex[x & 15];
        x >>= 4;
    } while (x || 16 - i < digits);
    put(p, "0x");
    put_mem(p, tmp + i, (size_t)(16 - i));
}

/* ---- floating point ------------------------------------------------------ */

/* Writes what printf's "%.{prec}g" writes for the value whose significant
 * digits are dig[0..n) (n <= prec, dig[0] != '0') and whose leading digit
 * has decimal exponent exp: trailing zeros dropped, exponent form when
 * exp < -4 or exp >= prec. */
static void format_g(char *out, bool neg, const char *dig, int n, int exp, int prec) {
    while (n > 1 && dig[n - 1] == '0')
        n--;
    char *o = out;
    if (neg)
        *o++ = '-';
    if (exp < -4 || exp >= prec) {
        *o++ = dig[0];
        if (n > 1) {
            *o++ = '.';
            memcpy(o, dig + 1, (size_t)(n - 1));
            o += n - 1;
        }
        *o++ = 'e';
        *o++ = exp < 0 ? '-' : '+';
        int e = exp < 0 ? -exp : exp;
        if (e >= 100)
            *o++ = (char)('0' + e / 100);
        *o++ = (char)('0' + e / 10 % 10);
        *o++ = (char)('0' + e % 10);
    } else if (exp < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -exp - 1; i++)
            *o++ = '0';
        memcpy(o, dig, (size_t)n);
        o += n;
    } else {
        for (int i = 0; i <= exp; i++)
            *o++ = i < n ? dig[i] : '0';
        if (n > exp + 1) {
            *o++ = '.';
            memcpy(o, dig + exp + 1, (size_t)(n - exp - 1));
            o += n - exp - 1;
        }
    }
    *o = 0;
}

static bool reads_back(const char *s, double d, bool single) {
    return single ? strtof(s, NULL) == (float)d : strtod(s, NULL) == d;
}

/* The shortest "%.Ng" (1 <= N <= 17, 9 for a Float) that reads back to the
 * same bits.
 *
 * If N digits read back, so do N+1 (the nearest (N+1)-digit decimal is at
 * least as close). A normal Double has 53 bits, less than half a unit of
 * the 15th digit, so when the shortest form has N <= 15 digits, rounding to
 * 15 digits gives exactly those digits: trying 15, 16, 17 finds it (6..9
 * for a Float). The candidates come from one "%.16e": rounding its 17
 * correctly rounded digits to N is exact unless the dropped digits are
 * exactly 5000..., where printf decides. Subnormals have fewer bits and
 * take a binary search over N. */
static void fmt_shortest(char *out, size_t size, double d, bool single) {
    int max = single ? 9 : 17, guess = single ? 6 : 15;
    double tiny = single ? 1.17549435e-38 : 2.2250738585072014e-308;
    if (fabs(d) < tiny) {
        int lo = 1, hi = max;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            snprintf(out, size, "%.*g", mid, d);
            if (reads_back(out, d, single))
                hi = mid;
            else
                lo = mid + 1;
        }
        snprintf(out, size, "%.*g", lo, d);
        return;
    }
    char e[40]; /* [-]d.dddde[+-]XX */
    snprintf(e, sizeof e, "%.*e", max - 1, d);
    bool neg = e[0] == '-';
    const char *p = e + neg;
    char dig[20];
    dig[0] = p[0];
    memcpy(dig + 1, p + 2, (size_t)(max - 1));
    int exp = atoi(p + max + 2);
    for (int n = guess; n < max; n++) {
        char r[20];
        int rexp = exp;
        bool tie = dig[n] == '5';
        for (int i = n + 1; i < max && tie; i++)
            tie = dig[i] == '0';
        if (tie) {
            snprintf(out, size, "%.*g", n, d);
        } else {
            memcpy(r, dig, (size_t)n);
            if (dig[n] >= '5') {
                int i = n - 1;
                while (i >= 0 && r[i] == '9')
                    r[i--] = '0';
                if (i >= 0) {
                    r[i]++;
                } else { /* 999... rounds up to 1000... */
                    r[0] = '1';
                    rexp++;
                }
            }
            format_g(out, neg, r, n, rexp, n);
        }
        if (reads_back(out, d, single))
            return;
    }
    format_g(out, neg, dig, max, exp, max);
}

/* Integral values below 2^53 print as plain digits plus ".0" ("100.0", not
 * the shortest "1e+02"); they are exact, and this is the common case. */
static void put_integral(Printer *p, double d) {
    if (signbit(d))
        put_c(p, '-');
    put_u64(p, (uint64_t)fabs(d));
    put(p, ".0");
}

/* Appends ".0" when a finite number printed without '.' or an exponent. */
static void put_number_text(Printer *p, const char *s) {
    put(p, s);
    if (!strpbrk(s, ".e"))
        put(p, ".0");
}

static void put_double(Printer *p, double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    if (isnan(d)) {
        if (bits == 0x7ff8000000000000ull) {
            put(p, "nan");
        } else {
            put(p, "bits(");
            put_hex(p, bits, 16);
            put_c(p, ')');
        }
        return;
    }
    if (isinf(d)) {
        put(p, d < 0 ? "-inf" : "inf");
        return;
    }
    if (d == floor(d) && fabs(d) < 9007199254740992.0) {
        put_integral(p, d);
        return;
    }
    char tmp[40];
    fmt_shortest(tmp, sizeof tmp, d, false);
    put_number_text(p, tmp);
}

static void put_float(Printer *p, float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (isnan(f)) {
        if (bits == 0x7fc00000u) {
            put(p, "nan");
        } else {
            put(p, "bits(");
            put_hex(p, bits, 8);
            put_c(p, ')');
        }
        return;
    }
    if (isinf(f)) {
        put(p, f < 0 ? "-inf" : "inf");
        return;
    }
    if (f == floorf(f) && fabsf(f) < 16777216.0f) {
        put_integral(p, f);
        return;
    }
    char tmp[40];
    fmt_shortest(tmp, sizeof tmp, f, true);
    put_number_text(p, tmp);
}

/* ---- names ---------------------------------------------------------------- */

static bool plain_symbol(const B3Symbol *s) {
    if (!s->name_len)
        return false;
    for (uint32_t i = 0; i < s->name_len; i++) {
        unsigned char c = (unsigned char)s->name[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '$';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

/* A string body with the escapes of the canonical form (no quotes). */
static void put_escaped(Printer *p, const uint8_t *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        uint8_t c = s[i];
        switch (c) {
        case '\n':
            put(p, "\\n");
            break;
        case '\t':
            put(p, "\\t");
            break;
        case '\r':
            put(p, "\\r");
            break;
        case '\\':
            put(p, "\\\\");
            break;
        case '"':
            put(p, "\\\"");
            break;
        default:
            if (c >= 0x20 && c <= 0x7e) {
                put_c(p, (char)c);
            } else {
                char o[4] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
                             (char)('0' + (c & 7))};
                put_mem(p, o, 4);
            }
        }
    }
}

static void put_symbol(Printer *p, const B3Symbol *s) {
    put_c(p, '@');
    if (!s) { /* only in a debugging print of half-built IR */
        put_c(p, '?');
    } else if (plain_symbol(s)) {
        put_mem(p, s->name, s->name_len);
    } else {
        put_c(p, '"');
        put_escaped(p, (const uint8_t *)s->name, s->name_len);
        put_c(p, '"');
    }
}

static void put_reg(Printer *p, B3Reg r) {
    put_c(p, '%');
    put(p, b3_reg_name(p->m->target, r));
}

static inline void put_value_name(Printer *p, const B3Value *v) {
    put_c(p, '@');
    if (v)
        put_u64(p, v->index);
    else
        put_c(p, '?');
}

static inline void put_block_name(Printer *p, const B3Block *b) {
    put_c(p, '#');
    if (b)
        put_u64(p, b->index);
    else
        put_c(p, '?');
}

/* ---- meta data -------------------------------------------------------------- */

static void put_heap(Printer *p, B3HeapRange r) {
    if (b3_heap_is_top(r)) {
        put(p, "Top");
    } else if (b3_heap_is_bottom(r)) {
        put(p, "Bottom");
    } else if (r.end == r.begin + 1) {
        put_u64(p, r.begin);
    } else {
        put_u64(p, r.begin);
        put(p, "...");
        put_u64(p, r.end);
    }
}

static void put_rep(Printer *p, const B3ValueRep *r) {
    put(p, b3_rep_name((B3RepKind)r->kind));
    switch (r->kind) {
    case B3Rep_Register:
    case B3Rep_LateRegister:
        put_c(p, '(');
        put_reg(p, r->reg);
        put_c(p, ')');
        break;
    case B3Rep_Stack:
    case B3Rep_StackArgument:
    case B3Rep_Constant:
        put_c(p, '(');
        put_i64(p, r->value);
        put_c(p, ')');
        break;
    default:
        break;
    }
}

static bool rep_equal(const B3ValueRep *a, const B3ValueRep *b) {
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case B3Rep_Register:
    case B3Rep_LateRegister:
        return a->reg == b->reg;
    case B3Rep_Stack:
    case B3Rep_StackArgument:
    case B3Rep_Constant:
        return a->value == b->value;
    default:
        return true;
    }
}

static void put_regset(Printer *p, const B3RegSet *s) {
    put_c(p, '[');
    bool first = true;
    for (unsigned r = 0; r < 128; r++) {
        if (!b3_regset_has(s, (B3Reg)r))
            continue;
        if (!first)
            put(p, ", ");
        first = false;
        put_reg(p, (B3Reg)r);
    }
    put_c(p, ']');
}

static bool regset_empty(const B3RegSet *s) { return !s->bits[0] && !s->bits[1]; }

static void put_generator(Printer *p, const B3Generator *g) {
    switch (g->kind) {
    case B3Gen_Trap:
        put(p, "trap");
        break;
    case B3Gen_Symbol:
        put_symbol(p, g->sym);
        break;
    case B3Gen_Nop:
        put(p, "nop(");
        put_u64(p, g->n);
        put_c(p, ')');
        break;
    case B3Gen_Address:
        put_hex(p, g->n, 1);
        break;
    default:
        break;
    }
}

/* ---- values ------------------------------------------------------------------ */

/* Separator state for an argument list. */
typedef struct {
    Printer *p;
    bool any;
} Args;

static inline void sep(Args *a) {
    if (a->any)
        put(a->p, ", ");
    a->any = true;
}

static void key(Args *a, const char *k) {
    sep(a);
    put(a->p, k);
    put(a->p, " = ");
}

static B3RepKind default_rep(const B3Value *v, uint32_t i) {
    if ((v->opcode == B3_Check && i == 0) ||
        ((v->opcode == B3_CheckAdd || v->opcode == B3_CheckSub || v->opcode == B3_CheckMul) && i < 2))
        return B3Rep_WarmAny;
    return B3Rep_ColdAny;
}

static void put_children(Args *a, const B3Value *v) {
    const B3StackmapMeta *sm = b3_op(v->opcode)->meta == B3M_STACKMAP ? v->m.stackmap : NULL;
    for (uint32_t i = 0; i < v->nkids; i++) {
        sep(a);
        put_value_name(a->p, v->kids[i]);
        B3ByVal bv = v->opcode == B3_CCall ? b3_ccall_byval(v, i) : (B3ByVal){0, 0, 0};
        if (bv.size) {
            put(a->p, ":ByVal(");
            put_u64(a->p, bv.size);
            put(a->p, ", ");
            put_u64(a->p, bv.align);
            put_c(a->p, ')');
        }
        if (bv.f128 == B3F128_Low || (v->opcode == B3_Return && v->m.float128 && i % 2 == 0))
            put(a->p, ":Float128");
        if (sm && sm->reps) {
            B3ValueRep def = {0};
            def.kind = (uint8_t)default_rep(v, i);
            if (!rep_equal(&sm->reps[i], &def)) {
                put_c(a->p, ':');
                put_rep(a->p, &sm->reps[i]);
            }
        }
    }
}

static void put_memory_meta(Args *a, const B3Value *v) {
    Printer *p = a->p;
    if (v->m.mem.offset) {
        key(a, "offset");
        put_i64(p, v->m.mem.offset);
    }
    if (b3_op(v->opcode)->flags & B3OF_ATOMIC) {
        /* The default width is that of the accessed value (child 0), which
         * for AtomicWeakCAS differs from its Int32 result. */
        B3Type t = v->nkids && v->kids[0] ? (B3Type)v->kids[0]->type : (B3Type)v->type;
        unsigned def = b3_type_bytes(t) * 8;
        if (v->m.mem.width && v->m.mem.width != def) {
            key(a, "width");
            put_u64(p, v->m.mem.width);
        }
    }
    if (!b3_heap_is_top(v->m.mem.range)) {
        key(a, "range");
        put_heap(p, v->m.mem.range);
    }
    if (!b3_heap_is_bottom(v->m.mem.fence_range)) {
        key(a, "fenceRange");
        put_heap(p, v->m.mem.fence_range);
    }
}

static void put_stackmap_meta(Args *a, const B3Value *v) {
    Printer *p = a->p;
    const B3StackmapMeta *sm = v->m.stackmap;
    if (!sm)
        return;
    if (sm->has_result_rep) {
        key(a, "resultConstraints");
        put_rep(p, &sm->result);
    }
    bool early = !regset_empty(&sm->early_clobbered), late = !regset_empty(&sm->late_clobbered);
    if (early && late && !memcmp(&sm->early_clobbered, &sm->late_clobbered, sizeof(B3RegSet))) {
        key(a, "clobbered");
        put_regset(p, &sm->early_clobbered);
    } else {
        if (early) {
            key(a, "earlyClobbered");
            put_regset(p, &sm->early_clobbered);
        }
        if (late) {
            key(a, "lateClobbered");
            put_regset(p, &sm->late_clobbered);
        }
    }
    if (sm->has_id) {
        key(a, "id");
        put_i64(p, sm->id);
    }
    if (sm->gen.kind != B3Gen_Default) {
        key(a, v->opcode == B3_Patchpoint ? "generator" : "exit");
        put_generator(p, &sm->gen);
    }
}

static void put_args(Args *a, const B3Value *v) {
    Printer *p = a->p;
    const B3OpInfo *op = b3_op(v->opcode);
    switch (v->opcode) {
    case B3_Const32:
        sep(a);
        put_i64(p, (int32_t)v->m.c.i);
        return;
    case B3_Const64:
        sep(a);
        put_i64(p, v->m.c.i);
        return;
    case B3_ConstFloat:
        sep(a);
        put_float(p, v->m.c.f);
        return;
    case B3_ConstDouble:
        sep(a);
        put_double(p, v->m.c.d);
        return;
    default:
        break;
    }
    put_children(a, v);
    switch (op->meta) {
    case B3M_VARIABLE:
        sep(a);
        put(p, v->m.var ? v->m.var->name : "?");
        break;
    case B3M_SLOT:
        sep(a);
        put(p, v->m.slot ? v->m.slot->name : "?");
        break;
    case B3M_REG:
        if (v->m.reg != B3_NO_REG) {
            sep(a);
            put_reg(p, v->m.reg);
        }
        break;
    case B3M_MEMORY:
        put_memory_meta(a, v);
        break;
    case B3M_FENCE:
        if (!b3_heap_is_top(v->m.fence.read) || !b3_heap_is_top(v->m.fence.write)) {
            key(a, "read");
            put_heap(p, v->m.fence.read);
            key(a, "write");
            put_heap(p, v->m.fence.write);
        }
        break;
    case B3M_BOUNDS:
        key(a, "offset");
        put_i64(p, v->m.bounds->offset);
        if (v->m.bounds->has_maximum) {
            key(a, "maximum");
            put_u64(p, v->m.bounds->maximum);
        } else if (v->m.bounds->pinned != B3_NO_REG) {
            key(a, "pinnedSize");
            put_reg(p, v->m.bounds->pinned);
        }
        if (v->m.bounds->exit.kind != B3Gen_Default) {
            key(a, "exit");
            put_generator(p, &v->m.bounds->exit);
        }
        break;
    case B3M_CCALL:
        if (v->m.ccall.variadic >= 0) {
            key(a, "variadic");
            put_i64(p, v->m.ccall.variadic);
        }
        if (b3_ccall_sret(v)) {
            key(a, "sret");
            put_i64(p, 1);
        }
        if (b3_ccall_float128(v)) {
            key(a, "float128");
            put_i64(p, 1);
        }
        if (b3_ccall_returns_twice(v)) {
            key(a, "returnsTwice");
            put_i64(p, 1);
        }
        break;
    case B3M_STACKMAP:
        put_stackmap_meta(a, v);
        break;
    case B3M_ALLOCA:
        if (b3_alloca_align(v) > 16) {
            key(a, "align");
            put_i64(p, b3_alloca_align(v));
        }
        break;
    case B3M_RESULT:
        key(a, "index");
        put_i64(p, v->m.result_index);
        break;
    case B3M_X87:
        key(a, "op");
        put(p, v->m.x87 < B3_NUM_X87_OPS ? b3_x87_info[v->m.x87].name : "?");
        break;
    case B3M_UPSILON:
        sep(a);
        put_c(p, '^');
        put_value_name(p, v->m.phi);
        break;
    case B3M_SYMBOL:
        sep(a);
        put_symbol(p, v->m.symbol.sym);
        if (v->m.symbol.offset) {
            key(a, "offset");
            put_i64(p, v->m.symbol.offset);
        }
        break;
    default: /* NONE, SWITCH (cases print with the successors), CONST */
        break;
    }
}

/* "TYPE @N = KIND(ARGS)", without indentation or newline. */
static void print_value(Printer *p, const B3Value *v) {
    const B3OpInfo *op = b3_op(v->opcode);
    put(p, b3_type_name((B3Type)v->type));
    put_c(p, ' ');
    put_value_name(p, v);
    put(p, " = ");
    put(p, op->name);
    if (v->kflags & (B3K_CHILL | B3K_TRAPS)) {
        put_c(p, '<');
        if (v->kflags & B3K_CHILL)
            put(p, "Chill");
        if ((v->kflags & B3K_CHILL) && (v->kflags & B3K_TRAPS))
            put(p, ", ");
        if (v->kflags & B3K_TRAPS)
            put(p, "Traps");
        put_c(p, '>');
    }
    put_c(p, '(');
    Args a = {p, false};
    put_args(&a, v);
    put_c(p, ')');
}

/* ---- blocks and procedures --------------------------------------------------- */

static void put_succ_target(Printer *p, const B3Succ *s) {
    if (s->freq == B3Freq_Rare)
        put(p, "Rare:");
    put_block_name(p, s->block);
}

static void print_successors(Printer *p, const B3Block *b) {
    if (!b->nsuccs)
        return;
    const B3Value *t = b3_block_last(b);
    put(p, "  Successors: ");
    if (t && t->opcode == B3_Branch && b->nsuccs == 2) {
        put(p, "Then:");
        put_succ_target(p, &b->succs[0]);
        put(p, ", Else:");
        put_succ_target(p, &b->succs[1]);
    } else if (t && t->opcode == B3_Switch && t->m.sw.ncases + 1 == b->nsuccs) {
        for (uint32_t i = 0; i < b->nsuccs; i++) {
            if (i)
                put(p, ", ");
            if (i < t->m.sw.ncases)
                put_i64(p, t->m.sw.cases[i]);
            else
                put(p, "default");
            put(p, "->");
            put_succ_target(p, &b->succs[i]);
        }
    } else {
        for (uint32_t i = 0; i < b->nsuccs; i++) {
            if (i)
                put(p, ", ");
            put_succ_target(p, &b->succs[i]);
        }
    }
    put_c(p, '\n');
}

static void print_block(Printer *p, const B3Block *b) {
    put(p, "BB#");
    put_u64(p, b->index);
    put(p, ":\n");
    if (b->npreds) {
        put(p, "  Predecessors: ");
        for (uint32_t i = 0; i < b->npreds; i++) {
            if (i)
                put(p, ", ");
            put_block_name(p, b->preds[i]);
        }
        put_c(p, '\n');
    }
    for (uint32_t i = 0; i < b->nvalues; i++) {
        put(p, "    ");
        print_value(p, b->values[i]);
        put_c(p, '\n');
    }
    print_successors(p, b);
}

/* A definition's linkage words, in canonical order. */
static void put_linkage(Printer *p, const B3Symbol *sym) {
    if (sym->internal)
        put(p, " internal");
    if (sym->weak)
        put(p, " weak");
    if (sym->hidden)
        put(p, " hidden");
    if (sym->used)
        put(p, " used");
    if (sym->tls) {
        put(p, " threadlocal(");
        put(p, b3_tls_model_names[sym->tls]);
        put_c(p, ')');
    }
}

/* section("NAME") of data or a procedure (docs/c-extensions.md). */
static void put_section(Printer *p, const B3Symbol *sym) {
    if (!sym->section)
        return;
    put(p, " section(\"");
    put_escaped(p, (const uint8_t *)sym->section, sym->section_len);
    put(p, "\")");
}

static void print_proc(Printer *p, const B3Proc *proc) {
    /* A bare body is printed wrapped, under the name it was given, so that
     * reading the output back does not depend on the file name. */
    put(p, "proc ");
    put_symbol(p, proc->sym);
    put_linkage(p, proc->sym);
    if (proc->nentrypoints) {
        put(p, " entrypoints(");
        for (uint32_t i = 0; i < proc->nentrypoints; i++) {
            if (i)
                put(p, ", ");
            put_symbol(p, proc->entrypoints[i]);
        }
        put_c(p, ')');
    }
    for (int k = 0; k < 2; k++) {
        int32_t prio = k ? proc->dtor_priority : proc->ctor_priority;
        if (prio < 0)
            continue;
        put(p, k ? " destructor" : " constructor");
        if (prio != B3_DEFAULT_INIT_PRIORITY) {
            put_c(p, '(');
            put_u64(p, (uint64_t)prio);
            put_c(p, ')');
        }
    }
    if (proc->npinned) {
        put(p, " pinned(");
        for (uint32_t i = 0; i < proc->npinned; i++) {
            if (i)
                put(p, ", ");
            put_reg(p, proc->pinned[i]);
        }
        put_c(p, ')');
    }
    if (proc->variadic) {
        char buf[64];
        snprintf(buf, sizeof buf, " variadic(%u, %u, %u)", proc->va_gprs, proc->va_fprs, proc->va_stack);
        put(p, buf);
    }
    put_section(p, proc->sym);
    put(p, " {\n");
    for (uint32_t i = 0; i < proc->nblocks; i++)
        print_block(p, proc->blocks[i]);
    if (proc->nvars) {
        put(p, "Variables:\n");
        for (uint32_t i = 0; i < proc->nvars; i++) {
            put(p, "    ");
            put(p, b3_type_name(proc->vars[i]->type));
            put_c(p, ' ');
            put(p, proc->vars[i]->name);
            put_c(p, '\n');
        }
    }
    if (proc->nslots) {
        put(p, "Stack slots:\n");
        for (uint32_t i = 0; i < proc->nslots; i++) {
            const B3StackSlot *s = proc->slots[i];
            put(p, "    ");
            put(p, s->name);
            put(p, ": byteSize = ");
            put_u64(p, s->size);
            put(p, ", align = ");
            put_u64(p, s->align);
            put_c(p, '\n');
        }
    }
    put(p, "}\n");
}

/* ---- data --------------------------------------------------------------------- */

static const char *data_kind_name(B3DataKind k) {
    static const char *const names[] = {
        [B3Data_Int8] = "Int8",   [B3Data_Int16] = "Int16", [B3Data_Int32] = "Int32",
        [B3Data_Int64] = "Int64", [B3Data_Float] = "Float", [B3Data_Double] = "Double",
        [B3Data_Bytes] = "Bytes", [B3Data_Zero] = "Zero",   [B3Data_Addr] = "Addr",
        [B3Data_Rel32] = "Rel32",
    };
    return k <= B3Data_Rel32 ? names[k] : "?";
}

static void put_data_item(Printer *p, const B3DataItem *it) {
    switch (it->kind) {
    case B3Data_Int8:
        put_i64(p, (int8_t)it->u.bits);
        break;
    case B3Data_Int16:
        put_i64(p, (int16_t)it->u.bits);
        break;
    case B3Data_Int32:
        put_i64(p, (int32_t)it->u.bits);
        break;
    case B3Data_Int64:
        put_i64(p, (int64_t)it->u.bits);
        break;
    case B3Data_Float: {
        uint32_t b = (uint32_t)it->u.bits;
        float f;
        memcpy(&f, &b, sizeof f);
        put_float(p, f);
        break;
    }
    case B3Data_Double: {
        double d;
        memcpy(&d, &it->u.bits, sizeof d);
        put_double(p, d);
        break;
    }
    case B3Data_Bytes:
        put_c(p, '"');
        put_escaped(p, it->u.str.bytes, it->u.str.len);
        put_c(p, '"');
        break;
    case B3Data_Zero:
        put_u64(p, it->u.zero);
        break;
    case B3Data_Addr:
    case B3Data_Rel32:
        put_symbol(p, it->u.addr.sym);
        if (it->u.addr.addend > 0) {
            put(p, " + ");
            put_u64(p, (uint64_t)it->u.addr.addend);
        } else if (it->u.addr.addend < 0) {
            put(p, " - ");
            put_u64(p, 0 - (uint64_t)it->u.addr.addend);
        }
        break;
    default:
        break;
    }
}

static void print_data(Printer *p, const B3Symbol *sym) {
    const B3Data *d = sym->def.data;
    put(p, "data ");
    put_symbol(p, sym);
    put_linkage(p, sym);
    if (d && d->readonly)
        put(p, " readonly");
    if (d && d->has_align) {
        put(p, " align ");
        put_u64(p, d->align);
    }
    put_section(p, sym);
    put(p, " {\n");
    for (uint32_t i = 0; d && i < d->nlines; i++) {
        const B3DataLine *l = &d->lines[i];
        put(p, "    ");
        put(p, data_kind_name((B3DataKind)l->kind));
        for (uint32_t j = 0; j < l->nitems; j++) {
            put(p, j ? ", " : " ");
            put_data_item(p, &l->items[j]);
        }
        put_c(p, '\n');
    }
    put(p, "}\n");
}

/* ---- entry points --------------------------------------------------------------- */

static Printer *printer_new(const B3Module *m, FILE *out) {
    Printer *p = b3_xmalloc("print", sizeof *p);
    p->out = out;
    p->m = m;
    p->n = 0;
    return p;
}

static void printer_done(Printer *p) {
    flush(p);
    free(p);
}

void b3_print_module(const B3Module *m, FILE *out) {
    Printer *p = printer_new(m, out);
    for (uint32_t i = 0; i < m->nitems; i++) {
        const B3Item *it = &m->items[i];
        if (i)
            put_c(p, '\n');
        switch (it->kind) {
        case B3Item_Extern:
            put(p, "extern ");
            put_symbol(p, it->sym);
            if (it->sym->weak_ref)
                put(p, " weak");
            put_linkage(p, it->sym); /* an extern's only other word: threadlocal(MODEL) */
            put_c(p, '\n');
            break;
        case B3Item_Data:
            print_data(p, it->sym);
            break;
        case B3Item_Alias:
            put(p, "alias ");
            put_symbol(p, it->sym);
            put_linkage(p, it->sym);
            put(p, " = ");
            put_symbol(p, it->sym->def.alias->target);
            if (it->sym->def.alias->offset) {
                char num[32];
                snprintf(num, sizeof num, " + %lld", (long long)it->sym->def.alias->offset);
                put(p, num);
            }
            put_c(p, '\n');
            break;
        case B3Item_Proc:
            if (it->sym->def.proc)
                print_proc(p, it->sym->def.proc);
            break;
        default:
            break;
        }
    }
    printer_done(p);
}

void b3_print_proc(const B3Module *m, const B3Proc *proc, FILE *out) {
    Printer *p = printer_new(m, out);
    print_proc(p, proc);
    printer_done(p);
}

/* One value as it appears in a block, without indentation or newline. */
void b3_print_value(const B3Module *m, const B3Value *v, FILE *out) {
    Printer *p = printer_new(m, out);
    print_value(p, v);
    printer_done(p);
}
