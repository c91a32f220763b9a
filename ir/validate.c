/* The IR validator.
 *
 * Checks the invariants of B3 IR itself (not the text it came from), so it can
 * run after parsing and again after every optimizer phase (--verify-each).
 * Every problem is reported, each at the most precise location known: a
 * child's own location for a child problem, the type annotation for a result
 * type mismatch, the opcode otherwise.  Values made by phases may have no
 * location (line 0); the message then stands alone.
 *
 * Linear in the size of the module (plus O(E log N) for the dominators).  It
 * overwrites B3Value.scratch of every value it visits.
 *
 * Decisions where the B3 references leave room:
 * - The root block may have predecessors (a loop back to the root).  B3's own
 *   validator does not forbid it and the dominator tree is well defined (the
 *   root dominates everything); a lowering that needs an entry block without
 *   predecessors can insert one.
 * - Traps is accepted exactly on the opcodes the table marks B3OF_TRAPS_OK:
 *   the loads and stores.  Both references list only those (WebKit's
 *   Kind::hasTraps too); atomics are not included.
 * - A stack slot must hold at least one byte (byteSize 0 gives SlotBase a
 *   pointer to nothing) and at most INT32_MAX bytes (frame offsets are
 *   32-bit), and so must a procedure's slots together (each rounded up to
 *   16 bytes).  An explicit alignment is a power of two up to 16 (the spec).
 * - Constraints: as in WebKit's validator, Check's predicate and the operands of
 *   CheckAdd/CheckSub/CheckMul are WarmAny; SomeRegisterWithClobber only on a
 *   Patchpoint child; SomeEarlyRegister only as a result constraint;
 *   LateRegister, ColdAny and LateColdAny only on children.  Our language also
 *   has Stack(N) and Constant(N) on children (spec 8.3): Constant requires a
 *   constant child (of that value, for integers); StackArgument offsets are
 *   non-negative and a multiple of the child's size.  Register constraints
 *   must be of the child's bank and may not name the stack or frame pointer.
 * - Pinned registers are callee-saved GPRs of the C convention other than the
 *   frame pointer (target.h), each pinned once.
 * - nop(N) generators are limited to 1 MiB (an implementation limit).
 * - An Upsilon may write a Phi in any block, even one dropped as unreachable;
 *   a Phi that no Upsilon writes is only a warning (spec section 9).
 */
#include <stdlib.h>
#include <string.h>

#include "ir/dominators.h"
#include "ir/effects.h"
#include "ir/fold.h"
#include "ir/ir.h"
#include "ir/x87.h"
#include "util/alloc.h"
#include "util/bits.h"
#include "util/vec.h"

#define MAX_NOP_BYTES (1u << 20)

/* Each value placed in a block records its position there in v->scratch
 * (the top bit marks a Phi that some Upsilon writes), so membership and order
 * are O(1) without any table. */
#define POS_MASK 0x7fffffffu
#define PHI_WRITTEN 0x80000000u

typedef struct {
    B3Module *m;
    B3Diag *d;
    B3Proc *p;
    B3Dominators dom;
    bool have_dom;
    B3RegSet pinned;
    const B3Value *first_return;
    const B3Value **phis; /* every Phi, for the final "never written" pass */
    uint32_t nphis, cap_phis;
} Ctx;

/* ---- small helpers ---------------------------------------------------- */

static const char *tname(unsigned t) { return b3_type_name((B3Type)t); }
/* "an Int32", "a Float", ... */
static const char *a_type(unsigned t) {
    static const char *const names[] = {"a Void", "an Int32", "an Int64", "a Float", "a Double"};
    return t < B3_NUM_TYPES ? names[t] : "an invalid";
}
static const char *oname(const B3Value *v) { return b3_op_info[v->opcode].name; }

static B3Loc kid_loc(const B3Value *v, uint32_t i) {
    if (v->kid_locs && v->kid_locs[i].line)
        return v->kid_locs[i];
    return v->loc;
}

static B3Loc type_loc(const B3Value *v) { return v->type_loc.line ? v->type_loc : v->loc; }

static B3Loc gen_loc(const B3Value *v, const B3Generator *g) { return g->loc.line ? g->loc : v->loc; }

static uint32_t reg_bits(B3Type t) { return b3_type_bytes(t) * 8; }

static B3Reg frame_pointer(B3Target t) { return b3_target_desc(t)->frame_pointer; }
static B3Reg stack_pointer(B3Target t) { return b3_target_desc(t)->stack_pointer; }

static const char *rname(const Ctx *c, B3Reg r) { return b3_reg_name(c->m->target, r); }

static bool block_in_proc(const B3Proc *p, const B3Block *b) {
    return b && b->pos < p->nblocks && p->blocks[b->pos] == b;
}

/* True if v stands in a block of the procedure (at the position it recorded). */
static bool placed(const Ctx *c, const B3Value *v) {
    const B3Block *b = v->owner;
    uint32_t pos = v->scratch & POS_MASK;
    return block_in_proc(c->p, b) && pos < b->nvalues && b->values[pos] == v;
}

/* ---- procedure-level checks -------------------------------------------- */

static void check_pinned(Ctx *c) {
    B3Proc *p = c->p;
    B3Target t = c->m->target;
    memset(&c->pinned, 0, sizeof c->pinned);
    for (uint32_t i = 0; i < p->npinned; i++) {
        B3Reg r = p->pinned[i];
        if (!b3_reg_valid(t, r)) {
            b3_error(c->d, p->loc, "pinned register number %u does not exist on %s", r, b3_target_name(t));
            continue;
        }
        if (b3_reg_is_fpr(r)) {
            b3_error(c->d, p->loc, "pinned register %%%s is not a general-purpose register", rname(c, r));
        } else if (r == frame_pointer(t) || r == stack_pointer(t)) {
            b3_error(c->d, p->loc, "register %%%s cannot be pinned: it is the %s pointer", rname(c, r),
                     r == frame_pointer(t) ? "frame" : "stack");
        } else if (b3_target_is_reserved(t, r)) {
            b3_error(c->d, p->loc, "register %%%s cannot be pinned: %s reserves it; pin one of %s",
                     rname(c, r), b3_target_name(t), b3_target_desc(t)->pinnable_text);
        } else if (!b3_target_is_callee_saved(t, r)) {
            b3_error(c->d, p->loc,
                     "pinned register %%%s is not callee-saved in the C convention; pin one of %s",
                     rname(c, r), b3_target_desc(t)->pinnable_text);
        }
        if (b3_regset_has(&c->pinned, r))
            b3_error(c->d, p->loc, "register %%%s is pinned twice", rname(c, r));
        b3_regset_add(&c->pinned, r);
    }
}

/* variadic(G, F, S): within the target's argument registers; the variadic
 * stack arguments start at an 8-byte slot (every target's rule). */
static void check_variadic(Ctx *c) {
    const B3Proc *p = c->p;
    const B3TargetDesc *d = b3_target_desc(c->m->target);
    if (!p->variadic)
        return;
    if (p->va_gprs > d->narg_gprs)
        b3_error(c->d, p->loc, "variadic(%u, ...): %s has %u integer argument registers", p->va_gprs,
                 b3_target_name(c->m->target), d->narg_gprs);
    if (p->va_fprs > d->narg_fprs)
        b3_error(c->d, p->loc, "variadic(%u, %u, ...): %s has %u floating-point argument registers",
                 p->va_gprs, p->va_fprs, b3_target_name(c->m->target), d->narg_fprs);
    if (p->va_stack % 8)
        b3_error(c->d, p->loc, "variadic(..., %u): variadic stack arguments start at a multiple of 8 bytes",
                 p->va_stack);
}

static void check_entrypoints(Ctx *c) {
    B3Proc *p = c->p;
    for (uint32_t i = 0; i < p->nentrypoints; i++) {
        B3Symbol *s = p->entrypoints[i];
        B3Loc loc = p->entry_locs && p->entry_locs[i].line ? p->entry_locs[i] : p->loc;
        if (!s)
            continue;
        bool dup = false;
        for (uint32_t j = 0; j < i && !dup; j++)
            dup = p->entrypoints[j] == s;
        if (dup) {
            b3_error(c->d, loc, "entrypoint @%.*s is listed twice", (int)s->name_len, s->name);
            continue;
        }
        if (s == p->sym || (s->kind == B3Sym_Entry && s->def.proc == p))
            continue;
        if (s->kind == B3Sym_Entry)
            b3_error(c->d, loc, "entrypoint @%.*s is already an entrypoint of @%.*s", (int)s->name_len,
                     s->name, (int)s->def.proc->sym->name_len, s->def.proc->sym->name);
        else if (s->kind == B3Sym_Proc)
            b3_error(c->d, loc, "entrypoint @%.*s is already defined as a procedure", (int)s->name_len,
                     s->name);
        else if (s->kind == B3Sym_Data)
            b3_error(c->d, loc, "entrypoint @%.*s is already defined as data", (int)s->name_len, s->name);
        else if (s->kind == B3Sym_Alias)
            b3_error(c->d, loc, "entrypoint @%.*s is already defined as an alias", (int)s->name_len, s->name);
    }
}

static void check_vars_and_slots(Ctx *c) {
    B3Proc *p = c->p;
    for (uint32_t i = 0; i < p->nvars; i++) {
        B3Variable *v = p->vars[i];
        if (v->type == B3_Void || v->type >= B3_NUM_TYPES)
            b3_error(c->d, v->loc, "variable %s cannot have type %s", v->name ? v->name : "?",
                     tname(v->type));
    }
    uint64_t total = 0; /* the slots' bytes so far, each rounded up to 16 */
    for (uint32_t i = 0; i < p->nslots; i++) {
        B3StackSlot *s = p->slots[i];
        const char *n = s->name ? s->name : "?";
        if (s->size <= INT32_MAX && total <= INT32_MAX) {
            total += (s->size + 15) & ~(uint64_t)15;
            if (total > INT32_MAX)
                b3_error(c->d, s->loc,
                         "with stack slot %s, the stack slots of @%.*s take more than %d bytes (each "
                         "rounded up to 16; frame offsets are 32-bit)",
                         n, (int)p->sym->name_len, p->sym->name, INT32_MAX);
        }
        if (s->size == 0)
            b3_error(c->d, s->loc, "stack slot %s has byteSize 0; a stack slot must hold at least one byte",
                     n);
        else if (s->size > INT32_MAX)
            b3_error(c->d, s->loc, "stack slot %s is too large: byteSize %llu exceeds %d", n,
                     (unsigned long long)s->size, INT32_MAX);
        if (!b3_is_pow2(s->align))
            b3_error(c->d, s->loc, "stack slot %s has alignment %u, which is not a power of two", n,
                     s->align);
        else if (s->align > 16)
            b3_error(c->d, s->loc, "stack slot %s has alignment %u; the largest supported alignment is 16", n,
                     s->align);
    }
}

/* ---- values ------------------------------------------------------------- */

/* "OP expects WHAT, but @N is TYPE", at child i. */
static void kid_type_error(Ctx *c, const B3Value *v, uint32_t i, const char *what) {
    b3_error(c->d, kid_loc(v, i), "%s expects %s, but @%u is %s", oname(v), what, v->kids[i]->index,
             tname(v->kids[i]->type));
}

/* Children i and j must have one type; "OP expects PHRASE, but @a is A and @b is B". */
static bool same_type(Ctx *c, const B3Value *v, uint32_t i, uint32_t j, const char *phrase) {
    if (v->kids[i]->type == v->kids[j]->type)
        return true;
    b3_error(c->d, kid_loc(v, j), "%s expects %s, but @%u is %s and @%u is %s", oname(v), phrase,
             v->kids[i]->index, tname(v->kids[i]->type), v->kids[j]->index, tname(v->kids[j]->type));
    return false;
}

static bool want(Ctx *c, const B3Value *v, uint32_t i, bool ok, const char *what) {
    if (!ok)
        kid_type_error(c, v, i, what);
    return ok;
}

static bool is_int_kid(const B3Value *v, uint32_t i) { return b3_type_is_int(v->kids[i]->type); }
static bool is_fp_kid(const B3Value *v, uint32_t i) { return b3_type_is_float(v->kids[i]->type); }

/* Every child has child 0's type. */
static bool kids_same_type(Ctx *c, const B3Value *v) {
    bool ok = true;
    for (uint32_t i = 1; i < v->nkids && ok; i++)
        ok = same_type(c, v, 0, i, "children of the same type");
    return ok;
}

/* The child type rule of the opcode; children exist, their count is right and
 * none is Void.  Returns false if something was reported. */
static bool check_child_rule(Ctx *c, const B3Value *v) {
    const B3OpInfo *op = b3_op(v->opcode);
    uint32_t n = v->nkids;
    bool ok = true;
    switch ((B3ChildRule)op->children) {
    case B3C_NONE:
    case B3C_ANY:
    case B3C_NONVOID:
        break;
    case B3C_SAME_NUM:
    case B3C_CMP:
        ok = kids_same_type(c, v);
        break;
    case B3C_SAME_INT:
    case B3C_ICMP:
        for (uint32_t i = 0; i < n && ok; i++)
            ok = want(c, v, i, is_int_kid(v, i),
                      n == 1 ? "an Int32 or Int64 child" : "Int32 or Int64 children");
        ok = ok && kids_same_type(c, v);
        break;
    case B3C_SAME_FP:
    case B3C_FCMP:
        for (uint32_t i = 0; i < n && ok; i++)
            ok = want(c, v, i, is_fp_kid(v, i),
                      n == 1 ? "a Float or Double child" : "Float or Double children");
        ok = ok && kids_same_type(c, v);
        break;
    case B3C_SHIFT:
        ok = want(c, v, 0, is_int_kid(v, 0), "an Int32 or Int64 value to shift");
        ok &= want(c, v, 1, v->kids[1]->type == B3_Int32, "an Int32 shift amount");
        break;
    case B3C_I32:
        ok = want(c, v, 0, v->kids[0]->type == B3_Int32, "an Int32 child");
        break;
    case B3C_F32:
        ok = want(c, v, 0, v->kids[0]->type == B3_Float, "a Float child");
        break;
    case B3C_F64:
        ok = want(c, v, 0, v->kids[0]->type == B3_Double, "a Double child");
        break;
    case B3C_INT:
        ok = want(c, v, 0, is_int_kid(v, 0),
                  v->opcode == B3_Branch || v->opcode == B3_Switch ? "an Int32 or Int64 condition"
                                                                   : "an Int32 or Int64 child");
        break;
    case B3C_FP:
        ok = want(c, v, 0, is_fp_kid(v, 0), "a Float or Double child");
        break;
    case B3C_TRUNC:
        ok = want(c, v, 0, v->kids[0]->type == B3_Int64 || v->kids[0]->type == B3_Double,
                  "an Int64 or Double child");
        break;
    case B3C_SELECT:
        ok = want(c, v, 0, is_int_kid(v, 0), "an Int32 or Int64 condition");
        ok &= same_type(c, v, 1, 2, "both choices to have the same type");
        break;
    case B3C_PTR:
        ok = want(c, v, 0, v->kids[0]->type == B3_Int64, "an Int64 pointer");
        break;
    case B3C_STORE:
        ok = want(c, v, 1, v->kids[1]->type == B3_Int64, "an Int64 pointer");
        break;
    case B3C_STORE_I32:
        ok = want(c, v, 0, v->kids[0]->type == B3_Int32, "an Int32 value to store");
        ok &= want(c, v, 1, v->kids[1]->type == B3_Int64, "an Int64 pointer");
        break;
    case B3C_CAS:
        ok = want(c, v, 0, is_int_kid(v, 0), "an Int32 or Int64 expected value");
        if (ok)
            ok = same_type(c, v, 0, 1, "the expected and new values to have the same type");
        ok &= want(c, v, 2, v->kids[2]->type == B3_Int64, "an Int64 pointer");
        break;
    case B3C_XCHG:
        ok = want(c, v, 0, is_int_kid(v, 0), "an Int32 or Int64 value");
        ok &= want(c, v, 1, v->kids[1]->type == B3_Int64, "an Int64 pointer");
        break;
    case B3C_VAR:
        if (v->m.var && v->m.var->type != B3_Void && v->kids[0]->type != v->m.var->type) {
            b3_error(c->d, kid_loc(v, 0), "%s of variable %s expects %s value, but @%u is %s", oname(v),
                     v->m.var->name ? v->m.var->name : "?", a_type(v->m.var->type), v->kids[0]->index,
                     tname(v->kids[0]->type));
            ok = false;
        }
        break;
    case B3C_CCALL:
        ok = want(c, v, 0, v->kids[0]->type == B3_Int64, "an Int64 callee");
        break;
    case B3C_CHECKARITH:
        ok = want(c, v, 0, is_int_kid(v, 0), "Int32 or Int64 operands");
        if (ok)
            ok = same_type(c, v, 0, 1, "operands of the same type");
        break;
    case B3C_CHECK:
        ok = want(c, v, 0, is_int_kid(v, 0), "an Int32 or Int64 predicate");
        break;
    case B3C_UPSILON: {
        const B3Value *phi = v->m.phi;
        if (phi && phi->opcode == B3_Phi && phi->type != B3_Void && v->kids[0]->type != phi->type) {
            b3_error(c->d, kid_loc(v, 0), "Upsilon writes @%u of type %s to Phi @%u of type %s",
                     v->kids[0]->index, tname(v->kids[0]->type), phi->index, tname(phi->type));
            ok = false;
        }
        break;
    }
    }
    return ok;
}

/* The result type the opcode computes; B3_NUM_TYPES when it cannot be known
 * (a child problem already reported) or the written type is the rule. */
static unsigned expected_type(Ctx *c, const B3Value *v, bool kids_ok) {
    const B3OpInfo *op = b3_op(v->opcode);
    switch ((B3ResultRule)op->result) {
    case B3R_VOID:
        return B3_Void;
    case B3R_I32:
        return B3_Int32;
    case B3R_I64:
        return B3_Int64;
    case B3R_F32:
        return B3_Float;
    case B3R_F64:
        return B3_Double;
    case B3R_PTR:
        return B3_Int64;
    case B3R_SAME0:
        return kids_ok && v->nkids >= 1 ? v->kids[0]->type : B3_NUM_TYPES;
    case B3R_SAME1:
        return kids_ok && v->nkids >= 2 ? v->kids[1]->type : B3_NUM_TYPES;
    case B3R_VAR:
        return v->m.var && v->m.var->type != B3_Void ? v->m.var->type : B3_NUM_TYPES;
    case B3R_ARGREG:
        if (v->m.reg == B3_NO_REG || !b3_reg_valid(c->m->target, v->m.reg))
            return B3_NUM_TYPES;
        return b3_reg_is_fpr(v->m.reg) ? B3_Double : B3_Int64;
    case B3R_BITCAST:
        if (!kids_ok || v->nkids < 1)
            return B3_NUM_TYPES;
        switch (v->kids[0]->type) {
        case B3_Int32:
            return B3_Float;
        case B3_Float:
            return B3_Int32;
        case B3_Int64:
            return B3_Double;
        case B3_Double:
            return B3_Int64;
        default:
            return B3_NUM_TYPES;
        }
    case B3R_TRUNC:
        if (!kids_ok || v->nkids < 1)
            return B3_NUM_TYPES;
        return v->kids[0]->type == B3_Int64    ? B3_Int32
               : v->kids[0]->type == B3_Double ? B3_Float
                                               : B3_NUM_TYPES;
    case B3R_DECL:
        if ((v->opcode == B3_Load || v->opcode == B3_Phi || v->opcode == B3_SecondResult ||
             v->opcode == B3_Result) &&
            v->type == B3_Void)
            b3_error(c->d, type_loc(v), "%s must have a non-Void type", oname(v));
        return B3_NUM_TYPES;
    case B3R_DECL_INT:
        if (!b3_type_is_int(v->type))
            b3_error(c->d, type_loc(v), "%s produces Int32 or Int64, but its type annotation is %s", oname(v),
                     tname(v->type));
        return B3_NUM_TYPES;
    }
    return B3_NUM_TYPES;
}

static void check_kind_flags(Ctx *c, const B3Value *v) {
    const B3OpInfo *op = b3_op(v->opcode);
    if (v->kflags & B3K_CHILL) {
        if (!(op->flags & B3OF_CHILL_OK))
            b3_error(c->d, v->loc, "%s cannot be Chill; only integer Div and Mod can", oname(v));
        else if (!b3_type_is_int(v->type))
            b3_error(c->d, v->loc, "Chill applies only to integer %s, but this %s is %s", oname(v), oname(v),
                     tname(v->type));
    }
    if ((v->kflags & B3K_TRAPS) && !(op->flags & B3OF_TRAPS_OK))
        b3_error(c->d, v->loc, "%s cannot be Traps; only loads and stores can", oname(v));
    if (v->kflags & ~(B3K_CHILL | B3K_TRAPS))
        b3_error(c->d, v->loc, "%s has unknown kind flags 0x%x", oname(v), v->kflags);
}

static void check_symbol_target(Ctx *c, const B3Value *v, const B3Generator *g, const char *role) {
    B3Symbol *s = g->sym;
    if (!s) {
        b3_error(c->d, gen_loc(v, g), "%s of %s names no symbol", role, oname(v));
        return;
    }
    if (!s->declared)
        return; /* the parser reports undeclared symbols */
    if (s->kind == B3Sym_Data)
        b3_error(c->d, gen_loc(v, g), "%s @%.*s is data, not a function", role, (int)s->name_len, s->name);
}

static void check_exit(Ctx *c, const B3Value *v, const B3Generator *g) {
    switch (g->kind) {
    case B3Gen_Default:
    case B3Gen_Trap:
    case B3Gen_Address:
        break;
    case B3Gen_Symbol:
        check_symbol_target(c, v, g, "exit handler");
        break;
    case B3Gen_Nop:
        b3_error(c->d, gen_loc(v, g), "%s cannot exit to nop(%llu); an exit is trap or @handler", oname(v),
                 (unsigned long long)g->n);
        break;
    default:
        b3_error(c->d, gen_loc(v, g), "%s has an invalid exit", oname(v));
        break;
    }
}

static void check_generator(Ctx *c, const B3Value *v, const B3Generator *g) {
    switch (g->kind) {
    case B3Gen_Default:
    case B3Gen_Trap:
    case B3Gen_Address:
        break;
    case B3Gen_Symbol:
        check_symbol_target(c, v, g, "generator");
        break;
    case B3Gen_Nop:
        if (g->n > MAX_NOP_BYTES)
            b3_error(c->d, gen_loc(v, g), "nop(%llu) is too large; the limit is %u bytes",
                     (unsigned long long)g->n, MAX_NOP_BYTES);
        else if (g->n % b3_target_desc(c->m->target)->insn_align)
            b3_error(c->d, gen_loc(v, g), "nop(%llu) on %s must be a multiple of %u bytes",
                     (unsigned long long)g->n, b3_target_desc(c->m->target)->name,
                     b3_target_desc(c->m->target)->insn_align);
        break;
    default:
        b3_error(c->d, gen_loc(v, g), "%s has an invalid generator", oname(v));
        break;
    }
}

static const char *rep_name(unsigned k) {
    static const char *const names[] = {
        "WarmAny",           "ColdAny",          "LateColdAny", "SomeRegister", "SomeRegisterWithClobber",
        "SomeEarlyRegister", "SomeLateRegister", "Register",    "LateRegister", "Stack",
        "StackArgument",     "Constant",
    };
    return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* A Register/LateRegister constraint: a real register of the child's bank. */
static void check_rep_register(Ctx *c, B3Loc loc, const B3ValueRep *rep, unsigned type, const char *what) {
    B3Target t = c->m->target;
    if (rep->reg == B3_NO_REG || !b3_reg_valid(t, rep->reg)) {
        b3_error(c->d, loc, "%s constraint of %s names register number %u, which does not exist on %s",
                 rep_name(rep->kind), what, rep->reg, b3_target_name(t));
        return;
    }
    if (rep->reg == stack_pointer(t) || rep->reg == frame_pointer(t)) {
        b3_error(c->d, loc, "%s constraint of %s cannot use %%%s, the %s pointer", rep_name(rep->kind), what,
                 rname(c, rep->reg), rep->reg == stack_pointer(t) ? "stack" : "frame");
        return;
    }
    if (b3_target_is_reserved(t, rep->reg)) {
        b3_error(c->d, loc, "%s constraint of %s cannot use %%%s: %s reserves it", rep_name(rep->kind), what,
                 rname(c, rep->reg), b3_target_name(t));
        return;
    }
    bool fpr = b3_reg_is_fpr(rep->reg);
    if (fpr && !b3_type_is_float(type))
        b3_error(c->d, loc, "%s is %s, but %%%s is a floating-point register", what, tname(type),
                 rname(c, rep->reg));
    else if (!fpr && !b3_type_is_int(type))
        b3_error(c->d, loc, "%s is %s, but %%%s is a general-purpose register", what, tname(type),
                 rname(c, rep->reg));
}

static bool const_matches(const B3Value *k, int64_t value) {
    switch (k->opcode) {
    case B3_Const32:
        return (int32_t)k->m.c.i == value || (uint32_t)k->m.c.i == value;
    case B3_Const64:
        return k->m.c.i == value;
    default:
        return true; /* float constants: any spelling of the bits is accepted */
    }
}

/* Two children constrained to one register must be one value (or equal
 * constants): a register holds one value at a time. */
static bool same_contents(const B3Value *a, const B3Value *b) {
    return a == b ||
           ((b3_op(a->opcode)->flags & B3OF_CONST) && a->opcode == b->opcode && a->m.c.bits == b->m.c.bits);
}

static bool needs_early_register(unsigned k) {
    return k == B3Rep_SomeRegister || k == B3Rep_SomeRegisterWithClobber || k == B3Rep_Register;
}
static bool needs_late_register(unsigned k) { return k == B3Rep_SomeLateRegister || k == B3Rep_LateRegister; }

/* Is r in its bank's allocation order? */
static bool in_order(const B3TargetDesc *d, B3Reg r) {
    const B3Reg *order = b3_reg_is_fpr(r) ? d->fp_order : d->gp_order;
    unsigned n = b3_reg_is_fpr(r) ? d->nfp_order : d->ngp_order;
    for (unsigned i = 0; i < n; i++)
        if (order[i] == r)
            return true;
    return false;
}

/* Register constraints no allocation can satisfy are errors in the input, at
 * the value's line, before the backend runs (the allocator would otherwise
 * fail with an internal error, or silently drop a constraint):
 *   - one register named for two different values;
 *   - more registers of a bank needed at once than the procedure can
 *     allocate: at the top of the value, every child held in a register (a
 *     late use is held from the top too) plus the early clobbers; at the
 *     bottom, the late uses plus the late clobbers (for a call generator,
 *     the C convention's caller-saved registers).
 * A clobbered register that is also a child's fixed register counts once:
 * users list a call's argument registers in `clobbered`, and b3c has always
 * accepted that.  SomeRegisterWithClobber hands the stackmap a copy, so it
 * needs a register of its own even when its value is in another one too. */
static void check_register_demand(Ctx *c, const B3Value *v) {
    const B3StackmapMeta *sm = v->m.stackmap;
    B3Target t = c->m->target;
    uint32_t first = v->opcode == B3_Check ? 1 : v->opcode == B3_Patchpoint ? 0 : 2;
    B3RegSet late_clobbered = sm->late_clobbered, fixed_early = {{0, 0}}, fixed_late = {{0, 0}};
    if (v->opcode == B3_Patchpoint && sm->gen.kind == B3Gen_Symbol)
        for (unsigned r = 0; r < 128; r++)
            if (b3_reg_valid(t, (B3Reg)r) && !b3_target_is_callee_saved(t, (B3Reg)r) &&
                !b3_target_is_reserved(t, (B3Reg)r))
                b3_regset_add(&late_clobbered, (B3Reg)r);
    for (uint32_t i = first; i < v->nkids; i++) {
        if (sm->reps[i].kind == B3Rep_Register)
            b3_regset_add(&fixed_early, sm->reps[i].reg);
        else if (sm->reps[i].kind == B3Rep_LateRegister)
            b3_regset_add(&fixed_late, sm->reps[i].reg);
    }
    /* Registers the allocator may hand out, per bank (0 GP, 1 FP): the
     * description's allocation order (arm64's has no x16/x17 scratch, x18
     * or lr; the frame pointer, allocatable only at -O2, is left out, so the
     * check holds at every level), less the pinned registers. */
    const B3TargetDesc *desc = b3_target_desc(t);
    unsigned avail[2] = {0, 0}, early_clob[2] = {0, 0}, late_clob[2] = {0, 0};
    for (unsigned bank = 0; bank < 2; bank++) {
        const B3Reg *order = bank ? desc->fp_order : desc->gp_order;
        unsigned n = bank ? desc->nfp_order : desc->ngp_order;
        for (unsigned i = 0; i < n; i++) {
            B3Reg r = order[i];
            if (b3_target_is_reserved(t, r) || b3_regset_has(&c->pinned, r))
                continue;
            avail[bank]++;
            early_clob[bank] += b3_regset_has(&sm->early_clobbered, r) && !b3_regset_has(&fixed_early, r) &&
                                !b3_regset_has(&fixed_late, r);
            late_clob[bank] += b3_regset_has(&late_clobbered, r) && !b3_regset_has(&fixed_late, r);
        }
    }
    /* across: registers held from the start to the end that the allocator
     * chooses (late uses, an early result). */
    unsigned top[2] = {0, 0}, bottom[2] = {0, 0}, across[2] = {0, 0};
    for (uint32_t i = first; i < v->nkids; i++) {
        const B3ValueRep *rep = &sm->reps[i];
        const B3Value *k = v->kids[i];
        bool early = needs_early_register(rep->kind), late = needs_late_register(rep->kind);
        if (!early && !late)
            continue;
        unsigned bank = b3_type_is_float(k->type);
        bool fixed = rep->kind == B3Rep_Register || rep->kind == B3Rep_LateRegister;
        /* Does an earlier child already occupy this register or hold this value? */
        bool counted = false;
        for (uint32_t j = first; j < i && !counted; j++) {
            const B3ValueRep *rj = &sm->reps[j];
            const B3Value *kj = v->kids[j];
            bool fixed_j = rj->kind == B3Rep_Register || rj->kind == B3Rep_LateRegister;
            if (fixed && fixed_j && rj->reg == rep->reg) {
                if (!same_contents(k, kj)) {
                    b3_error(
                        c->d, kid_loc(v, i),
                        "children @%u and @%u of %s are both constrained to %%%s; a register holds one value",
                        kj->index, k->index, oname(v), rname(c, rep->reg));
                    return;
                }
                counted = true;
            } else if (!fixed && !fixed_j && rep->kind != B3Rep_SomeRegisterWithClobber &&
                       rj->kind != B3Rep_SomeRegisterWithClobber && same_contents(k, kj) &&
                       (needs_early_register(rj->kind) || needs_late_register(rj->kind))) {
                /* The value's own register serves both mentions (not a fixed
                 * one: the lowering hands a Some* mention the value's tmp). */
                counted = true;
            }
        }
        /* A value read early and (in another mention) late: its register is
         * held to the end, once. */
        bool late_before = false;
        for (uint32_t j = first; j < i && counted && late && !fixed; j++)
            late_before |= needs_late_register(sm->reps[j].kind) && sm->reps[j].kind != B3Rep_LateRegister &&
                           same_contents(k, v->kids[j]);
        if (counted && !(late && !fixed && !late_before))
            continue;
        if (!counted)
            top[bank]++;
        if (late)
            bottom[bank]++;
        if (late && !fixed)
            across[bank]++;
    }
    /* A Patchpoint's result is a def at its end (SomeEarlyRegister: from its
     * start, so it also takes a register beside the children): it needs a
     * register there beside the late uses and late clobbers (the docs: late
     * clobbers interfere with the output).  A fixed result register (a
     * Register constraint, or a call's C result register) is exempt from the
     * clobbers as the fixed children are, but a late use of another value in
     * it is a conflict. */
    unsigned res_top[2] = {0, 0}, res_bottom[2] = {0, 0};
    B3Reg fixed_result = B3_NO_REG;
    if (v->opcode == B3_Patchpoint && v->type != B3_Void) {
        B3ValueRep rr =
            sm->has_result_rep ? sm->result : (B3ValueRep){.kind = B3Rep_SomeRegister, .reg = B3_NO_REG};
        unsigned bank = b3_type_is_float(v->type);
        fixed_result = rr.kind == B3Rep_Register               ? rr.reg
                       : rr.kind == B3Rep_StackArgument        ? B3_NO_REG
                       : sm->gen.kind == B3Gen_Symbol && bank  ? desc->ret_fpr
                       : sm->gen.kind == B3Gen_Symbol && !bank ? desc->ret_gpr
                                                               : B3_NO_REG;
        if (rr.kind != B3Rep_StackArgument) {
            bottom[bank]++;
            res_bottom[bank] = 1;
            if (rr.kind == B3Rep_SomeEarlyRegister)
                top[bank]++, res_top[bank] = 1, across[bank]++;
        }
        if (fixed_result != B3_NO_REG && b3_regset_has(&fixed_late, fixed_result)) {
            for (uint32_t i = first; i < v->nkids; i++)
                if (sm->reps[i].kind == B3Rep_LateRegister && sm->reps[i].reg == fixed_result) {
                    b3_error(c->d, kid_loc(v, i),
                             "child @%u of %s is a late use of %%%s, where the result is written; they "
                             "cannot share it",
                             v->kids[i]->index, oname(v), rname(c, fixed_result));
                    return;
                }
        }
        if (fixed_result != B3_NO_REG && in_order(desc, fixed_result) &&
            !b3_target_is_reserved(t, fixed_result) && !b3_regset_has(&c->pinned, fixed_result) &&
            b3_regset_has(&late_clobbered, fixed_result) && !b3_regset_has(&fixed_late, fixed_result))
            late_clob[bank]--;
    }
    /* What is held across needs a register that nothing else takes at
     * either end: no clobber, no fixed child, not the fixed result. */
    unsigned free_across[2] = {0, 0};
    for (unsigned bank = 0; bank < 2; bank++) {
        const B3Reg *order = bank ? desc->fp_order : desc->gp_order;
        unsigned n = bank ? desc->nfp_order : desc->ngp_order;
        for (unsigned i = 0; i < n; i++) {
            B3Reg r = order[i];
            free_across[bank] += !b3_target_is_reserved(t, r) && !b3_regset_has(&c->pinned, r) &&
                                 !b3_regset_has(&sm->early_clobbered, r) &&
                                 !b3_regset_has(&late_clobbered, r) && !b3_regset_has(&fixed_early, r) &&
                                 !b3_regset_has(&fixed_late, r) && r != fixed_result;
        }
    }
    static const char *const bank_name[2] = {"general-purpose", "floating-point"};
    for (unsigned bank = 0; bank < 2; bank++) {
        const char *pinned = c->p->npinned && !bank ? " (pinned registers excluded)" : "";
        if (top[bank] + early_clob[bank] > avail[bank])
            b3_error(c->d, v->loc,
                     "%s needs %u %s registers at once (%u %s in registers%s, %u early-clobbered), but "
                     "only %u can be allocated%s",
                     oname(v), top[bank] + early_clob[bank], bank_name[bank], top[bank] - res_top[bank],
                     top[bank] - res_top[bank] == 1 ? "child" : "children",
                     res_top[bank] ? ", the early result" : "", early_clob[bank], avail[bank], pinned);
        else if (bottom[bank] + late_clob[bank] > avail[bank])
            b3_error(
                c->d, v->loc,
                "%s needs %u %s registers at its end (%u late %s%s, %u late-clobbered), but only %u can be "
                "allocated%s",
                oname(v), bottom[bank] + late_clob[bank], bank_name[bank], bottom[bank] - res_bottom[bank],
                bottom[bank] - res_bottom[bank] == 1 ? "use" : "uses", res_bottom[bank] ? ", the result" : "",
                late_clob[bank], avail[bank], pinned);
        else if (across[bank] > free_across[bank])
            b3_error(c->d, v->loc,
                     "%s needs %u %s registers held from its start to its end (late uses%s), but only %u are "
                     "neither clobbered nor fixed by a constraint%s",
                     oname(v), across[bank], bank_name[bank], res_top[bank] ? " and the early result" : "",
                     free_across[bank], pinned);
    }
}

static void check_stackmap(Ctx *c, const B3Value *v, bool kids_ok) {
    const B3StackmapMeta *sm = v->m.stackmap;
    if (!sm) {
        b3_error(c->d, v->loc, "%s has no stackmap data", oname(v));
        return;
    }
    B3Target t = c->m->target;
    unsigned errors_before = c->d->errors;
    bool is_patchpoint = v->opcode == B3_Patchpoint;
    uint32_t nwarm = v->opcode == B3_Check ? 1 : is_patchpoint ? 0 : 2;
    for (uint32_t i = 0; kids_ok && sm->reps && i < v->nkids; i++) {
        const B3ValueRep *rep = &sm->reps[i];
        const B3Value *k = v->kids[i];
        B3Loc loc = kid_loc(v, i);
        char what[48];
        snprintf(what, sizeof what, "child @%u", k->index);
        if (i < nwarm) {
            if (rep->kind != B3Rep_WarmAny) {
                if (v->opcode == B3_Check)
                    b3_error(c->d, loc, "the predicate of Check must use the WarmAny constraint, not %s",
                             rep_name(rep->kind));
                else
                    b3_error(c->d, loc, "operand @%u of %s must use the WarmAny constraint, not %s", k->index,
                             oname(v), rep_name(rep->kind));
            }
            continue;
        }
        switch (rep->kind) {
        case B3Rep_WarmAny:
        case B3Rep_ColdAny:
        case B3Rep_LateColdAny:
        case B3Rep_SomeRegister:
        case B3Rep_SomeLateRegister:
        case B3Rep_Stack:
            break;
        case B3Rep_SomeRegisterWithClobber:
            if (!is_patchpoint)
                b3_error(c->d, loc,
                         "SomeRegisterWithClobber is allowed only on Patchpoint children, not on %s",
                         oname(v));
            break;
        case B3Rep_SomeEarlyRegister:
            b3_error(c->d, loc, "SomeEarlyRegister is a result constraint and cannot constrain a child");
            break;
        case B3Rep_Register:
        case B3Rep_LateRegister:
            check_rep_register(c, loc, rep, k->type, what);
            break;
        case B3Rep_StackArgument:
            if (rep->value < 0)
                b3_error(c->d, loc, "StackArgument offset %lld is negative", (long long)rep->value);
            else if (rep->value % b3_type_bytes(k->type))
                b3_error(c->d, loc, "StackArgument offset %lld is not a multiple of %u, the size of %s @%u",
                         (long long)rep->value, b3_type_bytes(k->type), tname(k->type), k->index);
            break;
        case B3Rep_Constant:
            if (!(b3_op(k->opcode)->flags & B3OF_CONST))
                b3_error(c->d, loc, "a Constant constraint needs a constant child, but @%u is %s", k->index,
                         oname(k));
            else if (!const_matches(k, rep->value))
                b3_error(c->d, loc, "Constant(%lld) does not match the value %lld of @%u",
                         (long long)rep->value, (long long)k->m.c.i, k->index);
            break;
        default:
            b3_error(c->d, loc, "invalid constraint on child @%u", k->index);
            break;
        }
    }

    if (sm->has_result_rep) {
        const B3ValueRep *rep = &sm->result;
        if (!is_patchpoint) {
            b3_error(c->d, v->loc, "resultConstraints applies only to Patchpoint, not to %s", oname(v));
        } else if (v->type == B3_Void) {
            b3_error(c->d, v->loc, "a Void Patchpoint has no result, so it cannot have resultConstraints");
        } else {
            switch (rep->kind) {
            case B3Rep_WarmAny:
            case B3Rep_SomeRegister:
            case B3Rep_SomeEarlyRegister:
            case B3Rep_SomeLateRegister:
            case B3Rep_StackArgument:
                if (rep->kind == B3Rep_StackArgument &&
                    (rep->value < 0 || rep->value % b3_type_bytes(v->type)))
                    b3_error(c->d, v->loc,
                             "StackArgument offset %lld of the result must be a non-negative multiple of %u",
                             (long long)rep->value, b3_type_bytes(v->type));
                break;
            case B3Rep_Register:
                check_rep_register(c, v->loc, rep, v->type, "the result");
                break;
            default:
                b3_error(c->d, v->loc, "%s cannot constrain a Patchpoint result", rep_name(rep->kind));
                break;
            }
        }
    }

    const B3RegSet *sets[2] = {&sm->early_clobbered, &sm->late_clobbered};
    for (int s = 0; s < 2; s++)
        for (unsigned r = 0; r < 128; r++)
            if (b3_regset_has(sets[s], (B3Reg)r) && !b3_reg_valid(t, (B3Reg)r))
                b3_error(c->d, v->loc, "%s register number %u does not exist on %s",
                         s ? "late-clobbered" : "early-clobbered", r, b3_target_name(t));

    if (is_patchpoint)
        check_generator(c, v, &sm->gen);
    else
        check_exit(c, v, &sm->gen);
    if (kids_ok && (sm->reps || !v->nkids) && c->d->errors == errors_before)
        check_register_demand(c, v);
}

static void check_memory(Ctx *c, const B3Value *v, bool kids_ok) {
    const B3OpInfo *op = b3_op(v->opcode);
    if (op->flags & B3OF_ATOMIC) {
        if (v->m.mem.has_width || v->m.mem.width) {
            unsigned w = v->m.mem.width;
            if (w != 8 && w != 16 && w != 32 && w != 64)
                b3_error(c->d, v->loc, "atomic width must be 8, 16, 32 or 64, not %u", w);
            else if (kids_ok && v->nkids >= 1 && b3_type_is_int(v->kids[0]->type) &&
                     w > reg_bits(v->kids[0]->type))
                b3_error(c->d, v->loc, "width %u is wider than the %s operands of %s", w,
                         tname(v->kids[0]->type), oname(v));
        }
    } else if (v->m.mem.has_width || v->m.mem.width) {
        b3_error(c->d, v->loc, "width applies only to atomic operations, not to %s", oname(v));
    }
    /* A fence on a plain access is an acquire/release, which only GPR accesses have. */
    if (!(op->flags & B3OF_ATOMIC) && !b3_heap_is_bottom(v->m.mem.fence_range)) {
        unsigned access =
            op->flags & B3OF_STORE ? (kids_ok && v->nkids ? v->kids[0]->type : B3_NUM_TYPES) : v->type;
        if (access != B3_NUM_TYPES && b3_type_is_float(access))
            b3_error(c->d, v->loc, "a fenced %s must access an integer, but this one accesses %s", oname(v),
                     tname(access));
    }
    /* B3: an access through SlotBase may not reach below the slot. */
    if (kids_ok && v->nkids) {
        const B3Value *ptr = v->kids[v->nkids - 1];
        if (ptr->opcode == B3_SlotBase && v->m.mem.offset < 0)
            b3_error(c->d, v->loc, "offset %d reaches below stack slot %s (the pointer is SlotBase @%u)",
                     v->m.mem.offset, ptr->m.slot && ptr->m.slot->name ? ptr->m.slot->name : "?", ptr->index);
    }
}

/* Float128 pairs (docs/c-extensions.md) exist only where the target says. */
static bool float128_ok(Ctx *c, B3Loc loc, const char *what) {
    if (b3_target_desc(c->m->target)->float128_pairs)
        return true;
    b3_error(c->d, loc,
             "%s (a 128-bit floating-point register) is AAPCS64's long double, not available on %s", what,
             b3_target_name(c->m->target));
    return false;
}

/* Children i and i + 1 are the low and high halves of a pair: two Int64. */
static void check_float128_pair(Ctx *c, const B3Value *v, uint32_t i, bool kids_ok) {
    if (i + 1 >= v->nkids) {
        b3_error(c->d, kid_loc(v, i), "a Float128 pair needs its high half as the next child");
        return;
    }
    for (uint32_t k = i; kids_ok && k <= i + 1; k++)
        if (v->kids[k] && v->kids[k]->type != B3_Int64 && v->kids[k]->type != B3_Void)
            b3_error(c->d, kid_loc(v, k), "the halves of a Float128 pair are Int64, but @%u is %s",
                     v->kids[k]->index, tname(v->kids[k]->type));
}

/* sret and ByVal children (docs/c-extensions.md). */
static void check_ccall_extra(Ctx *c, const B3Value *v, bool kids_ok) {
    const B3CCallExtra *x = v->m.ccall.extra;
    if (x->sret) {
        if (v->nkids < 2)
            b3_error(c->d, v->loc, "sret = 1 needs an argument: child 1 is the address of the struct result");
        else if (kids_ok && v->kids[1]->type != B3_Int64)
            b3_error(c->d, kid_loc(v, 1), "the sret argument must be an Int64 address, but @%u is %s",
                     v->kids[1]->index, a_type(v->kids[1]->type));
        else if (b3_ccall_byval(v, 1).size)
            b3_error(c->d, kid_loc(v, 1), "the sret argument cannot be passed ByVal");
    }
    if (x->float128 && v->type != B3_Int64 && v->type != B3_Void)
        b3_error(c->d, type_loc(v),
                 "a CCall with float128 = 1 is the low half of its result, an Int64, not %s", tname(v->type));
    if (x->float128 && !float128_ok(c, v->loc, "float128 = 1"))
        return;
    if (!x->byval)
        return;
    for (uint32_t i = 1; i < v->nkids; i++) {
        B3ByVal b = x->byval[i];
        if (b.f128 == B3F128_Low) {
            if (!float128_ok(c, kid_loc(v, i), "a Float128 argument"))
                return;
            check_float128_pair(c, v, i, kids_ok);
            if (b3_ccall_sret(v) && i == 1)
                b3_error(c->d, kid_loc(v, 1), "the sret argument cannot be a Float128 half");
        }
        if (!b.size)
            continue;
        if (kids_ok && v->kids[i]->type != B3_Int64)
            b3_error(c->d, kid_loc(v, i),
                     "a ByVal argument is the address of its bytes, an Int64, but @%u is %s",
                     v->kids[i]->index, a_type(v->kids[i]->type));
        if (b.align == 0 || (b.align & (b.align - 1)) || b.align > 4096)
            b3_error(c->d, kid_loc(v, i), "ByVal alignment %u is not a power of two up to 4096", b.align);
        if (b.size > (1u << 20))
            b3_error(c->d, kid_loc(v, i), "ByVal size %u is larger than 1 MiB", b.size);
        /* System V places a variadic argument as a named one (a long double
         * in memory: ByVal(16, 16)); elsewhere the variadic rules differ. */
        if (v->m.ccall.variadic >= 0 && i - 1 >= (uint32_t)v->m.ccall.variadic &&
            b3_target_desc(c->m->target)->va_list_kind != B3VaList_SysV)
            b3_error(c->d, kid_loc(v, i), "a ByVal argument cannot be a variadic one on %s",
                     b3_target_name(c->m->target));
    }
}

/* SecondResult(@call) and Result(@call, index = N): a further result
 * register of a non-Void CCall; they stand right after it in its block, in
 * a run of its results (docs/c-extensions.md).  Result reads register N of
 * its bank, so the call's own result is of that bank too. */
static void check_second_result(Ctx *c, const B3Block *b, uint32_t idx, const B3Value *v) {
    const B3Value *k = v->nkids == 1 ? v->kids[0] : NULL;
    if (!k)
        return;
    if (k->opcode != B3_CCall || k->type == B3_Void) {
        b3_error(c->d, kid_loc(v, 0), "%s reads a further result of a non-Void CCall, but @%u is %s%s",
                 oname(v), k->index, k->opcode == B3_CCall ? "a Void " : "", oname(k));
        return;
    }
    uint32_t j = idx;
    while (j && b->values[j - 1] != k && b3_is_call_result(b->values[j - 1]) &&
           b->values[j - 1]->kids[0] == k)
        j--;
    if (!j || b->values[j - 1] != k)
        b3_error(c->d, kid_loc(v, 0),
                 "%s must stand right after its CCall @%u in the same block (after its other results only)",
                 oname(v), k->index);
    /* float128 = 1: SecondResult is q0's high half, Result index 2 and 3
     * q1's halves (a second pair: AAPCS64's _Complex long double). */
    if (b3_ccall_float128(k)) {
        if (k->type != B3_Int64 || v->type != B3_Int64 ||
            (v->opcode == B3_Result && v->m.result_index != 2 && v->m.result_index != 3))
            b3_error(
                c->d, type_loc(v),
                "a float128 = 1 CCall's further results are Int64 halves: SecondResult (q0's high half), "
                "Result index = 2 and 3 (q1's), not %s %s",
                tname(v->type), v->opcode == B3_SecondResult ? "SecondResult" : "Result");
        return;
    }
    if (v->opcode != B3_Result)
        return;
    const B3TargetDesc *d = b3_target_desc(c->m->target);
    unsigned nbank = b3_type_is_float((B3Type)v->type) ? d->nret_fprs : d->nret_gprs;
    if (nbank <= 2)
        b3_error(c->d, v->loc,
                 "%s returns at most two %s values: there is no Result (a third or fourth) to read", d->name,
                 b3_type_is_float((B3Type)v->type) ? "floating-point" : "integer");
    else if (v->m.result_index < 2 || v->m.result_index >= nbank)
        b3_error(c->d, v->loc,
                 "Result needs index = 2 to %u on %s (the second result is SecondResult), not %u", nbank - 1,
                 d->name, v->m.result_index);
    else if (b3_type_is_float((B3Type)v->type) != b3_type_is_float((B3Type)k->type))
        b3_error(
            c->d, kid_loc(v, 0),
            "Result reads a result register of its own bank, so its CCall @%u must return %s too, not %s",
            k->index, b3_type_is_float((B3Type)v->type) ? "Float or Double" : "Int32 or Int64",
            tname(k->type));
}

/* X87 (docs/c-extensions.md): the operation's children (addresses) and
 * type; a `ret` comes before a Return of no value, a `result` after a Void
 * CCall, with only pure values between them in the block (the x87 register
 * between them is no one else's). */
static void check_x87(Ctx *c, const B3Block *b, uint32_t idx, const B3Value *v) {
    const B3TargetDesc *d = b3_target_desc(c->m->target);
    if (!d->has_x87) {
        b3_error(c->d, v->loc, "X87 (long double) operations are not available on %s", b3_target_name(c->m->target));
        return;
    }
    if (v->m.x87 >= B3_NUM_X87_OPS) {
        b3_error(c->d, v->loc, "X87 has no operation");
        return;
    }
    const B3X87Info *x = &b3_x87_info[v->m.x87];
    if (v->nkids != x->nkids) {
        b3_error(c->d, v->loc, "X87 op = %s takes %u children (addresses), not %u", x->name, x->nkids, v->nkids);
        return;
    }
    for (uint32_t i = 0; i < v->nkids; i++)
        if (v->kids[i] && v->kids[i]->type != B3_Int64 && v->kids[i]->type != B3_Void)
            b3_error(c->d, kid_loc(v, i), "X87 children are addresses (Int64), but @%u is %s", v->kids[i]->index,
                     tname(v->kids[i]->type));
    if (v->type != x->result)
        b3_error(c->d, type_loc(v), "X87 op = %s produces %s, but its type annotation is %s", x->name,
                 tname(x->result), tname(v->type));
    if (x->form == B3X87Form_Ret) {
        const B3Value *n = b3_x87_partner(b, idx, 1);
        if (!n || n->opcode != B3_Return || n->nkids)
            b3_error(c->d, v->loc, "X87 op = ret must come right before a Return of no value");
    } else if (x->form == B3X87Form_Result) {
        const B3Value *p = b3_x87_partner(b, idx, -1);
        if (!p || p->opcode != B3_CCall || p->type != B3_Void)
            b3_error(c->d, v->loc, "X87 op = result must come right after a Void CCall in the same block");
    }
}

static void check_meta(Ctx *c, const B3Value *v, bool kids_ok) {
    B3Target t = c->m->target;
    switch ((B3Opcode)v->opcode) {
    case B3_Const32:
        if (v->m.c.i != (int32_t)v->m.c.i)
            b3_error(c->d, v->loc, "Const32 value %lld does not fit in Int32", (long long)v->m.c.i);
        break;
    case B3_Get:
    case B3_Set:
        if (!v->m.var)
            b3_error(c->d, v->loc, "%s names no variable", oname(v));
        break;
    case B3_SlotBase:
        if (!v->m.slot)
            b3_error(c->d, v->loc, "SlotBase names no stack slot");
        break;
    case B3_ArgumentReg:
        if (v->m.reg == B3_NO_REG || !b3_reg_valid(t, v->m.reg))
            b3_error(c->d, v->loc, "ArgumentReg names register number %u, which does not exist on %s",
                     v->m.reg, b3_target_name(t));
        break;
    case B3_ArgumentRegHigh:
        if (!float128_ok(c, v->loc, "ArgumentRegHigh"))
            break;
        if (v->m.reg == B3_NO_REG || !b3_reg_valid(t, v->m.reg) || !b3_reg_is_fpr(v->m.reg))
            b3_error(c->d, v->loc,
                     "ArgumentRegHigh reads the high half of a floating-point register, not %%%s",
                     v->m.reg != B3_NO_REG && b3_reg_valid(t, v->m.reg) ? b3_reg_name(t, v->m.reg) : "?");
        break;
    case B3_Return:
        if (v->m.float128 && float128_ok(c, v->loc, "a Float128 Return")) {
            if (v->nkids != 2 && v->nkids != 4)
                b3_error(c->d, v->loc, "a Float128 Return returns one pair (q0) or two (q0, q1), not %u children",
                         v->nkids);
            for (uint32_t i = 0; i + 1 < v->nkids; i += 2)
                check_float128_pair(c, v, i, kids_ok);
        }
        break;
    case B3_WasmAddress:
        if (v->m.reg == B3_NO_REG)
            b3_error(c->d, v->loc, "WasmAddress needs a pinned register");
        else if (!b3_reg_valid(t, v->m.reg) || !b3_regset_has(&c->pinned, v->m.reg))
            b3_error(c->d, v->loc, "WasmAddress register %%%s is not pinned in @%.*s; add it to pinned(...)",
                     rname(c, v->m.reg), (int)c->p->sym->name_len, c->p->sym->name);
        break;
    case B3_WasmBoundsCheck: {
        bool pinned = v->m.bounds->pinned != B3_NO_REG;
        if (pinned && v->m.bounds->has_maximum)
            b3_error(c->d, v->loc, "WasmBoundsCheck takes either pinnedSize or maximum, not both");
        else if (!pinned && !v->m.bounds->has_maximum)
            b3_error(c->d, v->loc, "WasmBoundsCheck needs a bound: pinnedSize = %%reg or maximum = N");
        if (pinned &&
            (!b3_reg_valid(t, v->m.bounds->pinned) || !b3_regset_has(&c->pinned, v->m.bounds->pinned)))
            b3_error(c->d, v->loc, "pinnedSize register %%%s is not pinned in @%.*s; add it to pinned(...)",
                     rname(c, v->m.bounds->pinned), (int)c->p->sym->name_len, c->p->sym->name);
        if (v->m.bounds->offset < 0 || v->m.bounds->offset > (int64_t)UINT32_MAX)
            b3_error(c->d, v->loc, "WasmBoundsCheck offset %lld is out of range [0, 4294967295]",
                     (long long)v->m.bounds->offset);
        check_exit(c, v, &v->m.bounds->exit);
        break;
    }
    case B3_CCall:
        if (v->m.ccall.variadic != -1) {
            int64_t nargs = v->nkids ? (int64_t)v->nkids - 1 : 0;
            if (v->m.ccall.variadic < 0)
                b3_error(c->d, v->loc, "variadic = %d must not be negative", v->m.ccall.variadic);
            else if (v->m.ccall.variadic > nargs)
                b3_error(c->d, v->loc, "variadic = %d exceeds the number of arguments of this CCall (%lld)",
                         v->m.ccall.variadic, (long long)nargs);
        }
        if (v->m.ccall.extra)
            check_ccall_extra(c, v, kids_ok);
        break;
    case B3_AllocaDynamic:
        if (v->m.align > 4096 || (v->m.align & (v->m.align - 1)))
            b3_error(c->d, v->loc, "align = %u is not a power of two up to 4096", v->m.align);
        break;
    case B3_Upsilon:
        if (!v->m.phi)
            b3_error(c->d, v->loc, "Upsilon names no Phi");
        else if (v->m.phi->opcode != B3_Phi)
            b3_error(c->d, v->loc, "Upsilon must name a Phi, but @%u is %s", v->m.phi->index,
                     oname(v->m.phi));
        break;
    case B3_SymbolAddress:
        if (!v->m.symbol.sym)
            b3_error(c->d, v->loc, "SymbolAddress names no symbol");
        else if (v->m.symbol.sym->tls)
            b3_error(
                c->d, v->loc,
                "@%.*s is thread-local: its address is this thread's, given by ThreadLocalAddress(@%.*s)",
                (int)v->m.symbol.sym->name_len, v->m.symbol.sym->name, (int)v->m.symbol.sym->name_len,
                v->m.symbol.sym->name);
        break;
    case B3_ThreadLocalAddress:
        if (!v->m.symbol.sym)
            b3_error(c->d, v->loc, "ThreadLocalAddress names no symbol");
        else if (!v->m.symbol.sym->tls)
            b3_error(c->d, v->loc, "ThreadLocalAddress needs a threadlocal symbol, and @%.*s is not one",
                     (int)v->m.symbol.sym->name_len, v->m.symbol.sym->name);
        break;
    default:
        break;
    }
    if (b3_op(v->opcode)->meta == B3M_MEMORY)
        check_memory(c, v, kids_ok);
    if (b3_op(v->opcode)->meta == B3M_STACKMAP)
        check_stackmap(c, v, kids_ok);
}

/* SSA: the definition of child i must dominate its use by v (at position idx of block b). */
static void check_dominance(Ctx *c, const B3Value *v, uint32_t i, const B3Block *b, uint32_t idx) {
    const B3Value *k = v->kids[i];
    if (!placed(c, k)) {
        if (k->owner && !block_in_proc(c->p, k->owner))
            b3_error(c->d, kid_loc(v, i),
                     "@%u is defined in block #%u, which is unreachable, so its definition does not dominate "
                     "this use",
                     k->index, k->owner->index);
        else
            b3_error(c->d, kid_loc(v, i), "@%u is not defined in any block of @%.*s", k->index,
                     (int)c->p->sym->name_len, c->p->sym->name);
        return;
    }
    if (k->owner == b) {
        if (k == v)
            b3_error(c->d, kid_loc(v, i), "@%u uses itself", k->index);
        else if ((k->scratch & POS_MASK) > idx)
            b3_error(c->d, kid_loc(v, i), "use of @%u before its definition later in block #%u", k->index,
                     b->index);
        return;
    }
    if (c->have_dom && !b3_dominates(&c->dom, k->owner, b))
        b3_error(c->d, kid_loc(v, i),
                 "definition of @%u in block #%u does not dominate this use in block #%u", k->index,
                 k->owner->index, b->index);
}

/* "nothing", "Int32", "(Int64, Double)": what a Return returns. */
static const char *return_shape(const B3Value *v, char *buf, size_t size) {
    if (!v->nkids)
        return "nothing";
    if (v->nkids == 1)
        return tname(v->kids[0]->type);
    if (v->m.float128)
        return v->nkids == 4 ? "two Float128 pairs" : "a Float128 pair";
    size_t k = 0;
    for (uint32_t i = 0; i < v->nkids && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%s%s", i ? ", " : "(", tname(v->kids[i]->type),
                              i + 1 == v->nkids ? ")" : "");
    return buf;
}

static void check_return(Ctx *c, const B3Value *v) {
    for (uint32_t i = 0; i < v->nkids; i++)
        if (!v->kids[i] || v->kids[i]->type == B3_Void)
            return; /* already reported */
    if (v->nkids > B3_MAX_RESULTS)
        return;
    uint8_t types[B3_MAX_RESULTS];
    B3Reg regs[B3_MAX_RESULTS];
    for (uint32_t i = 0; i < v->nkids; i++)
        types[i] = v->kids[i]->type;
    const B3TargetDesc *d = b3_target_desc(c->m->target);
    /* Float128 pairs are in q0 (and q1): check_meta checks them. */
    if (!v->m.float128 && !b3_target_result_regs(d, v->nkids, types, regs)) {
        char b1[80];
        b3_error(c->d, kid_loc(v, 0),
                 "this Return returns %s, but %s returns at most %u integer and %u floating-point values",
                 return_shape(v, b1, sizeof b1), d->name, d->nret_gprs, d->nret_fprs);
        return;
    }
    if (!c->first_return) {
        c->first_return = v;
        return;
    }
    const B3Value *f = c->first_return;
    bool same = f->nkids == v->nkids && f->m.float128 == v->m.float128;
    for (uint32_t i = 0; same && i < v->nkids; i++)
        same = f->kids[i]->type == v->kids[i]->type;
    if (same)
        return;
    const B3Symbol *s = c->p->sym;
    char b1[80], b2[80];
    b3_error(
        c->d, v->nkids ? kid_loc(v, 0) : v->loc,
        "this Return returns %s, but another Return of @%.*s returns %s; every Return of a procedure must "
        "return the same type%s",
        return_shape(v, b1, sizeof b1), (int)s->name_len, s->name, return_shape(f, b2, sizeof b2),
        v->nkids > 1 || f->nkids > 1 ? "s" : "");
    b3_note(c->d, f->nkids ? kid_loc(f, 0) : f->loc, "the other Return is here");
}

static void check_value(Ctx *c, const B3Block *b, uint32_t idx, const B3Value *v) {
    if (v->opcode >= B3_NUM_OPCODES) {
        b3_error(c->d, v->loc, "@%u has invalid opcode %u", v->index, v->opcode);
        return;
    }
    if (v->type >= B3_NUM_TYPES) {
        b3_error(c->d, type_loc(v), "@%u has invalid type %u", v->index, v->type);
        return;
    }
    const B3OpInfo *op = b3_op(v->opcode);
    bool kids_ok = true;
    if (v->nkids < (uint32_t)op->min_kids || (op->max_kids >= 0 && v->nkids > (uint32_t)op->max_kids)) {
        kids_ok = false;
        if (op->max_kids == 0)
            b3_error(c->d, v->loc, "%s takes no children, but has %u", op->name, v->nkids);
        else if (op->min_kids == op->max_kids)
            b3_error(c->d, v->loc, "%s expects %d child%s, but has %u", op->name, op->min_kids,
                     op->min_kids == 1 ? "" : "ren", v->nkids);
        else if (op->min_kids == 0)
            b3_error(c->d, v->loc, "%s expects at most %d child%s, but has %u", op->name, op->max_kids,
                     op->max_kids == 1 ? "" : "ren", v->nkids);
        else if (op->max_kids < 0)
            b3_error(c->d, v->loc, "%s expects at least %d child%s, but has %u", op->name, op->min_kids,
                     op->min_kids == 1 ? "" : "ren", v->nkids);
        else
            b3_error(c->d, v->loc, "%s expects %d to %d children, but has %u", op->name, op->min_kids,
                     op->max_kids, v->nkids);
    }
    for (uint32_t i = 0; i < v->nkids; i++) {
        const B3Value *k = v->kids[i];
        if (!k) {
            b3_error(c->d, kid_loc(v, i), "child %u of @%u is missing", i, v->index);
            kids_ok = false;
            continue;
        }
        if (k->type == B3_Void) {
            b3_error(c->d, kid_loc(v, i), "use of Void value @%u as a child of %s", k->index, op->name);
            kids_ok = false;
        }
        check_dominance(c, v, i, b, idx);
    }
    bool rule_ok = kids_ok && check_child_rule(c, v);
    unsigned want_t = expected_type(c, v, rule_ok);
    if (want_t != B3_NUM_TYPES && want_t != v->type)
        b3_error(c->d, type_loc(v), "type annotation %s does not match the result type %s of %s",
                 tname(v->type), tname(want_t), op->name);
    check_kind_flags(c, v);
    check_meta(c, v, kids_ok);
    if (v->opcode == B3_Return)
        check_return(c, v);
    if (v->opcode == B3_SecondResult || v->opcode == B3_Result)
        check_second_result(c, b, idx, v);
    if (v->opcode == B3_X87)
        check_x87(c, b, idx, v);
    if (v->opcode == B3_VaStart && !c->p->variadic)
        b3_error(c->d, v->loc,
                 "VaStart in @%.*s, which is not variadic; add variadic(G, F, S) to the procedure",
                 (int)c->p->sym->name_len, c->p->sym->name);
    if (v->opcode == B3_Upsilon && v->m.phi && v->m.phi->opcode == B3_Phi && placed(c, v->m.phi))
        v->m.phi->scratch |= PHI_WRITTEN;
    if (v->opcode == B3_Phi && (v->scratch & POS_MASK) == idx) {
        B3_VEC_RESERVE("validate", c->phis, c->cap_phis, c->nphis + 1);
        c->phis[c->nphis++] = v;
    }
}

/* ---- blocks --------------------------------------------------------------- */

static void check_successors(Ctx *c, const B3Block *b, const B3Value *term) {
    B3Loc loc = b->succ_loc.line ? b->succ_loc : term->loc;
    uint32_t n = b->nsuccs;
    for (uint32_t i = 0; i < n; i++)
        if (!block_in_proc(c->p, b->succs[i].block))
            b3_error(c->d, loc, "successor %u of block #%u is not a block of @%.*s", i, b->index,
                     (int)c->p->sym->name_len, c->p->sym->name);
    switch ((B3Opcode)term->opcode) {
    case B3_Jump:
        if (n != 1)
            b3_error(c->d, loc, "Jump must have exactly 1 successor, but block #%u has %u", b->index, n);
        break;
    case B3_Branch:
        if (n != 2)
            b3_error(c->d, loc,
                     "Branch must have exactly 2 successors (taken and not taken), but block #%u has %u",
                     b->index, n);
        break;
    case B3_Return:
    case B3_Oops:
        if (n != 0)
            b3_error(c->d, loc, "%s must have no successors, but block #%u has %u", oname(term), b->index, n);
        break;
    case B3_EntrySwitch: {
        uint32_t want = c->p->nentrypoints ? c->p->nentrypoints : 1;
        if (!c->p->nentrypoints && n > 1)
            b3_error(
                c->d, loc,
                "EntrySwitch has %u successors, but @%.*s has a single entrypoint; list its entrypoints with "
                "entrypoints(...)",
                n, (int)c->p->sym->name_len, c->p->sym->name);
        else if (n != want)
            b3_error(c->d, loc,
                     "EntrySwitch must have one successor per entrypoint (%u), but block #%u has %u", want,
                     b->index, n);
        break;
    }
    case B3_Switch: {
        const B3SwitchMeta *sw = &term->m.sw;
        if (n != sw->ncases + 1)
            b3_error(c->d, loc,
                     "Switch with %u case%s must have %u successors (one per case, then the default), but "
                     "block #%u "
                     "has %u",
                     sw->ncases, sw->ncases == 1 ? "" : "s", sw->ncases + 1, b->index, n);
        if (!sw->ncases || !sw->cases)
            break;
        bool i32 = term->nkids == 1 && term->kids[0] && term->kids[0]->type == B3_Int32;
        /* Int32 cases are compared as 32-bit values (literals may be written up to 2^32-1). */
        int64_t *vals = b3_xmalloc("validate", sw->ncases * sizeof *vals);
        for (uint32_t i = 0; i < sw->ncases; i++) {
            int64_t x = sw->cases[i];
            if (i32 && (x < INT32_MIN || x > (int64_t)UINT32_MAX))
                b3_error(c->d, loc, "case value %lld does not fit the Int32 switch value @%u", (long long)x,
                         term->kids[0]->index);
            vals[i] = i32 ? (int64_t)(int32_t)(uint32_t)x : x;
        }
        /* Sort to find duplicates (n log n on the case count). */
        for (uint32_t gap = sw->ncases / 2; gap; gap /= 2) /* shell sort: small, no recursion */
            for (uint32_t i = gap; i < sw->ncases; i++)
                for (uint32_t j = i; j >= gap && vals[j - gap] > vals[j]; j -= gap) {
                    int64_t tmp = vals[j];
                    vals[j] = vals[j - gap];
                    vals[j - gap] = tmp;
                }
        for (uint32_t i = 1; i < sw->ncases; i++)
            if (vals[i] == vals[i - 1] && (i < 2 || vals[i - 2] != vals[i]))
                b3_error(c->d, loc, "Switch has case %lld more than once", (long long)vals[i]);
        free(vals);
        break;
    }
    default:
        break;
    }
}

static void check_block(Ctx *c, const B3Block *b) {
    if (b->nvalues == 0) {
        b3_error(c->d, b->loc, "block #%u is empty; it must end with a terminal", b->index);
        return;
    }
    for (uint32_t i = 0; i < b->nvalues; i++) {
        const B3Value *v = b->values[i];
        if (!v)
            continue;
        if (v->opcode < B3_NUM_OPCODES && b3_is_terminal(v) && i + 1 < b->nvalues)
            b3_error(c->d, v->loc,
                     "terminal %s in the middle of block #%u; a block must end at its first terminal",
                     oname(v), b->index);
        check_value(c, b, i, v);
    }
    const B3Value *last = b->values[b->nvalues - 1];
    if (!last)
        return;
    if (last->opcode >= B3_NUM_OPCODES || !b3_is_terminal(last)) {
        b3_error(c->d, last->loc, "block #%u does not end with a terminal", b->index);
        return;
    }
    check_successors(c, b, last);
}

/* Predecessor lists must be exactly the distinct blocks that branch to each block. */
static void check_preds(Ctx *c) {
    B3Proc *p = c->p;
    uint32_t nb = p->nblocks;
    uint32_t *start = b3_xcalloc("validate", nb + 1, sizeof(uint32_t));
    uint32_t *mark = b3_xcalloc("validate", nb, sizeof(uint32_t));
    /* Count distinct incoming edges (mark[s] = 1 + source pos while scanning a source). */
    for (uint32_t i = 0; i < nb; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nsuccs; j++) {
            const B3Block *s = b->succs[j].block;
            if (block_in_proc(p, s) && mark[s->pos] != i + 1) {
                mark[s->pos] = i + 1;
                start[s->pos + 1]++;
            }
        }
    }
    for (uint32_t i = 0; i < nb; i++)
        start[i + 1] += start[i];
    uint32_t *src = b3_xmalloc("validate", (start[nb] ? start[nb] : 1) * sizeof(uint32_t));
    uint32_t *fill = b3_xcalloc("validate", nb, sizeof(uint32_t));
    memset(mark, 0, nb * sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nsuccs; j++) {
            const B3Block *s = b->succs[j].block;
            if (block_in_proc(p, s) && mark[s->pos] != i + 1) {
                mark[s->pos] = i + 1;
                src[start[s->pos] + fill[s->pos]++] = i;
            }
        }
    }
    /* Compare: mark[pred] = 1 + target pos for each listed predecessor. */
    memset(mark, 0, nb * sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++) {
        const B3Block *b = p->blocks[i];
        bool bad = b->npreds != start[i + 1] - start[i];
        for (uint32_t j = 0; j < b->npreds && !bad; j++) {
            const B3Block *q = b->preds[j];
            if (!block_in_proc(p, q) || mark[q->pos] == i + 1)
                bad = true;
            else
                mark[q->pos] = i + 1;
        }
        for (uint32_t k = start[i]; k < start[i + 1] && !bad; k++)
            bad = mark[src[k]] != i + 1;
        if (bad)
            b3_error(c->d, b->loc,
                     "the predecessor list of block #%u does not match the blocks that branch to it",
                     b->index);
    }
    free(src);
    free(fill);
    free(start);
    free(mark);
}

/* ---- driver ----------------------------------------------------------------- */

/* A value placement that place_values counts: not missing, and not a repeat
 * within its block (v->scratch names its first position there). */
static bool counted(const B3Value *v, uint32_t pos) { return v && (v->scratch & POS_MASK) == pos; }

/* Reports each counted value after the first that reuses a number, by
 * bitmaps over the numbers below top (the numbers are dense). */
static void report_reused_dense(Ctx *c, uint32_t top) {
    B3Proc *p = c->p;
    size_t words = (size_t)top / 64 + 1;
    uint64_t *once = b3_xcalloc("validate", words, sizeof *once);
    uint64_t *dup = NULL;
    for (uint32_t i = 0; i < p->nblocks; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nvalues; j++) {
            const B3Value *v = b->values[j];
            if (!counted(v, j))
                continue;
            uint64_t bit = 1ull << (v->index & 63), *w = &once[v->index >> 6];
            if (*w & bit) {
                if (!dup)
                    dup = b3_xcalloc("validate", words, sizeof *dup);
                dup[v->index >> 6] |= bit;
            }
            *w |= bit;
        }
    }
    if (!dup) {
        free(once);
        return;
    }
    memset(once, 0, words * sizeof *once);
    for (uint32_t i = 0; i < p->nblocks; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nvalues; j++) {
            const B3Value *v = b->values[j];
            uint64_t bit = counted(v, j) ? 1ull << (v->index & 63) : 0;
            if (!(bit & dup[v->index >> 6]))
                continue;
            if (once[v->index >> 6] & bit)
                b3_error(c->d, v->loc, "@%u is defined more than once", v->index);
            once[v->index >> 6] |= bit;
        }
    }
    free(dup);
    free(once);
}

static int cmp_u32(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* The same for sparse numbers (at most n counted values): the sorted
 * numbers give the reused ones. */
static void report_reused_sparse(Ctx *c, uint32_t n) {
    B3Proc *p = c->p;
    uint32_t *nums = b3_xmalloc("validate", (n ? n : 1) * sizeof(uint32_t));
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->nblocks; i++)
        for (uint32_t j = 0; j < p->blocks[i]->nvalues; j++)
            if (counted(p->blocks[i]->values[j], j))
                nums[k++] = p->blocks[i]->values[j]->index;
    qsort(nums, k, sizeof *nums, cmp_u32);
    uint32_t ndup = 0;
    for (uint32_t i = 1; i < k; i++)
        if (nums[i] == nums[i - 1] && (ndup == 0 || nums[ndup - 1] != nums[i]))
            nums[ndup++] = nums[i]; /* in place: ndup <= i - 1 */
    uint8_t *seen = ndup ? b3_xcalloc("validate", ndup, 1) : NULL;
    for (uint32_t i = 0; ndup && i < p->nblocks; i++) {
        const B3Block *b = p->blocks[i];
        for (uint32_t j = 0; j < b->nvalues; j++) {
            const B3Value *v = b->values[j];
            if (!counted(v, j))
                continue;
            uint32_t lo = 0, hi = ndup;
            while (lo < hi) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (nums[mid] < v->index)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < ndup && nums[lo] == v->index) {
                if (seen[lo])
                    b3_error(c->d, v->loc, "@%u is defined more than once", v->index);
                seen[lo] = 1;
            }
        }
    }
    free(seen);
    free(nums);
}

/* Records every value's position (v->scratch); reports values that stand
 * twice, disagree about their block, or share a number. */
static void place_values(Ctx *c) {
    B3Proc *p = c->p;
    uint32_t top = 0, n = 0; /* one past the highest number; the values counted */
    for (uint32_t i = 0; i < p->nblocks; i++) {
        B3Block *b = p->blocks[i];
        if (b->nvalues > POS_MASK)
            b3_internal_error("validate", "block #%u is too large", b->index);
        for (uint32_t j = 0; j < b->nvalues; j++) {
            B3Value *v = b->values[j];
            if (!v) {
                b3_error(c->d, b->loc, "block #%u has a missing value at position %u", b->index, j);
                continue;
            }
            /* Only an earlier occurrence in this very pass can satisfy this. */
            uint32_t prev = v->scratch & POS_MASK;
            if (v->owner == b && prev < j && b->values[prev] == v) {
                b3_error(c->d, v->loc, "@%u stands more than once in block #%u", v->index, b->index);
                continue;
            }
            if (v->owner != b)
                b3_error(c->d, v->loc, "@%u stands in block #%u but records block #%u as its owner", v->index,
                         b->index, v->owner ? v->owner->index : UINT32_MAX);
            v->scratch = j;
            if (v->index >= top)
                top = v->index + 1;
            n++;
        }
    }
    /* A value placed in two blocks is counted where v->scratch names its
     * position: in both only when the positions agree. */
    if (top <= 64 * (uint64_t)n + 65536) /* bitmaps of at most 8 bytes a value */
        report_reused_dense(c, top);
    else
        report_reused_sparse(c, n);
}

static void validate_proc(B3Module *m, B3Diag *d, B3Proc *p) {
    Ctx c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.d = d;
    c.p = p;
    if (p->nblocks == 0) {
        b3_error(d, p->loc, "procedure @%.*s has no blocks", (int)p->sym->name_len, p->sym->name);
        return;
    }
    /* Everything below finds blocks by position; a stale one is a phase bug. */
    for (uint32_t i = 0; i < p->nblocks; i++)
        if (!p->blocks[i] || p->blocks[i]->pos != i)
            b3_internal_error("validate", "block position %u of @%.*s is out of date", i,
                              (int)p->sym->name_len, p->sym->name);
    check_pinned(&c);
    check_variadic(&c);
    check_entrypoints(&c);
    check_vars_and_slots(&c);
    place_values(&c);
    b3_dominators_compute(&c.dom, p);
    c.have_dom = true;
    /* Past the error limit nothing more would be printed: stop early. */
    for (uint32_t i = 0; i < p->nblocks && !b3_diag_stopped(d); i++)
        check_block(&c, p->blocks[i]);
    check_preds(&c);
    /* A Phi that nothing writes reads an undefined value: legal, but likely a mistake. */
    for (uint32_t i = 0; i < c.nphis; i++)
        if (!(c.phis[i]->scratch & PHI_WRITTEN))
            b3_warning(d, c.phis[i]->loc, "no Upsilon writes Phi @%u, so it reads an undefined value",
                       c.phis[i]->index);
    free(c.phis);
    if (c.have_dom)
        b3_dominators_free(&c.dom);
}

static void validate_data(B3Module *m, B3Diag *d, B3Symbol *sym) {
    const B3Data *data = sym->def.data;
    if (!data)
        return;
    if (!b3_is_pow2(data->align))
        b3_error(d, sym->loc, "data @%.*s has alignment %u, which is not a power of two", (int)sym->name_len,
                 sym->name, data->align);
    /* A thread-local's address differs per thread: no link-time constant holds it. */
    for (uint32_t i = 0; i < data->nlines; i++)
        for (uint32_t j = 0; j < data->lines[i].nitems; j++) {
            const B3DataItem *it = &data->lines[i].items[j];
            bool addr = it->kind == B3Data_Addr || it->kind == B3Data_Rel32;
            if (addr && it->u.addr.sym && it->u.addr.sym->tls)
                b3_error(d, it->loc, "@%.*s is thread-local: its address is not a constant for %s data",
                         (int)it->u.addr.sym->name_len, it->u.addr.sym->name,
                         it->kind == B3Data_Addr ? "Addr" : "Rel32");
            /* Mach-O writes a difference of addresses in data as a SUBTRACTOR pair, not made yet. */
            if (it->kind == B3Data_Rel32 && b3_target_obj_format(m->target) == B3ObjFormat_MachO)
                b3_error(d, it->loc, "Rel32 data is not supported on %s yet", b3_target_name(m->target));
        }
}

/* The sections b3c itself writes, which a datum's own cannot be. */
static const char *const own_sections[] = {
    ".text",
    ".rodata",
    ".data",
    ".bss",
    ".data.rel.ro",
    ".tdata",
    ".tbss",
    ".eh_frame",
    ".llvm_stackmaps",
    ".init_array",
    ".fini_array",
    ".note.GNU-stack",
    ".symtab",
    ".strtab",
    ".shstrtab",
    "__TEXT,__text",
    "__TEXT,__const",
    "__DATA,__data",
    "__DATA,__const",
    "__DATA,__bss",
    "__DATA,__thread_data",
    "__DATA,__thread_vars",
    "__DATA,__thread_bss",
    "__DATA,__mod_init_func",
};

static bool section_char(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '$' || ch == '-';
}

/* section("name") on data or a procedure (docs/c-extensions.md): a name the assemblers
 * read back (letters, digits, _ . $ -), on Mach-O "SEG,sect" of at most
 * 16 characters each; not one of b3c's own; not on thread-local data. */
static void validate_section(B3Module *m, B3Diag *d, const B3Symbol *sym) {
    const char *n = sym->section;
    uint32_t len = sym->section_len;
    bool macho = b3_target_obj_format(m->target) == B3ObjFormat_MachO;
    const char *comma = memchr(n, ',', len);
    uint32_t seg = comma ? (uint32_t)(comma - n) : len;
    bool ok = true;
    for (uint32_t i = 0; i < len; i++)
        ok &= section_char(n[i]) || (macho && i == seg);
    if (macho)
        ok &= comma && seg >= 1 && seg <= 16 && len - seg - 1 >= 1 && len - seg - 1 <= 16;
    for (size_t i = 0; i < sizeof own_sections / sizeof own_sections[0]; i++)
        if (strlen(own_sections[i]) == len && !memcmp(own_sections[i], n, len))
            ok = false;
    if (!ok)
        b3_error(d, sym->loc,
                 macho ? "section \"%.*s\" of @%.*s is not SEG,sect (each 1 to 16 letters, digits, _ . $ -) "
                         "other than b3c's own"
                       : "section \"%.*s\" of @%.*s is not a name of letters, digits, _ . $ - other than "
                         "b3c's own",
                 (int)len, n, (int)sym->name_len, sym->name);
    if (sym->tls)
        b3_error(d, sym->loc, "thread-local @%.*s cannot have a section of its own", (int)sym->name_len,
                 sym->name);
}

/* alias @a = @t + off (docs/c-extensions.md): @t is data or a procedure this
 * module defines (not an alias, an entry or thread-local data), a
 * procedure at offset 0 (a datum at any offset, as LLVM allows); not on
 * Mach-O, where clang has no aliases either. */
static void validate_alias(B3Module *m, B3Diag *d, B3Symbol *sym) {
    const B3Alias *a = sym->def.alias;
    const B3Symbol *t = a->target;
    if (b3_target_obj_format(m->target) == B3ObjFormat_MachO) {
        b3_error(d, sym->loc, "aliases are not supported on %s (Mach-O; clang has none there either)",
                 b3_target_name(m->target));
        return;
    }
    if (!t->declared)
        return; /* the parser reports undeclared symbols */
    if (!t->defined || (t->kind != B3Sym_Data && t->kind != B3Sym_Proc)) {
        b3_error(d, a->target_loc, "alias @%.*s names @%.*s, which is not data or a procedure of this module",
                 (int)sym->name_len, sym->name, (int)t->name_len, t->name);
        return;
    }
    if (t->tls)
        b3_error(d, a->target_loc, "alias @%.*s names thread-local data, which is not supported",
                 (int)sym->name_len, sym->name);
    else if (t->kind == B3Sym_Proc && a->offset)
        b3_error(d, a->target_loc, "an alias of procedure @%.*s has offset %lld: only 0 is allowed",
                 (int)t->name_len, t->name, (long long)a->offset);
}

bool b3_validate(B3Module *m, B3Diag *d) {
    unsigned errors = d->errors;
    const B3Symbol *names[16]; /* the distinct section names so far */
    uint32_t nsections = 0;
    for (uint32_t i = 0; i < m->nitems && !b3_diag_stopped(d); i++) {
        const B3Item *it = &m->items[i];
        if (!it->sym)
            continue;
        if (it->kind == B3Item_Proc && it->sym->def.proc)
            validate_proc(m, d, it->sym->def.proc);
        else if (it->kind == B3Item_Data)
            validate_data(m, d, it->sym);
        else if (it->kind == B3Item_Alias)
            validate_alias(m, d, it->sym);
        if ((it->kind != B3Item_Data && it->kind != B3Item_Proc) || !it->sym->section)
            continue;
        validate_section(m, d, it->sym);
        /* At most B3_MAX_NAMED_SECTIONS names (objwriter/obj.h's 16), each
         * holding code or data, not both. */
        uint32_t k = 0;
        while (k < nsections && (names[k]->section_len != it->sym->section_len ||
                                 memcmp(names[k]->section, it->sym->section, it->sym->section_len)))
            k++;
        if (k == nsections && nsections == 16)
            b3_error(d, it->sym->loc, "more than 16 sections of their own in one module");
        else if (k == nsections)
            names[nsections++] = it->sym;
        else if ((names[k]->kind == B3Sym_Data) != (it->sym->kind == B3Sym_Data))
            b3_error(d, it->sym->loc, "section \"%.*s\" of @%.*s holds both code and data (@%.*s)",
                     (int)it->sym->section_len, it->sym->section, (int)it->sym->name_len, it->sym->name,
                     (int)names[k]->name_len, names[k]->name);
    }
    return d->errors == errors;
}

/* Objects (not functions) of the C library: an exported definition of one
 * of these names replaces the library's object in a linked program (a
 * procedure named stdin is code where stdio expects a FILE *). */
static const char *const libc_objects[] = {
    "stdin",
    "stdout",
    "stderr",
    "environ",
    "__environ",
    "errno",
    "optarg",
    "optind",
    "opterr",
    "optopt",
    "tzname",
    "timezone",
    "daylight",
    "signgam",
    "program_invocation_name",
    "program_invocation_short_name",
};

void b3_warn_module(const B3Module *m, B3Diag *d) {
    for (uint32_t i = 0; i < m->nitems && !b3_diag_stopped(d); i++) {
        const B3Symbol *s = m->items[i].sym;
        if (!s || !s->defined || s->internal || m->items[i].kind == B3Item_Extern)
            continue;
        for (size_t k = 0; k < sizeof libc_objects / sizeof libc_objects[0]; k++)
            if (strlen(libc_objects[k]) == s->name_len && !memcmp(libc_objects[k], s->name, s->name_len))
                b3_warning(d, s->loc,
                           "%s @%s is exported under the name of the C library's '%s' object, which it would "
                           "replace in a linked program; rename it or make it internal",
                           m->items[i].kind == B3Item_Proc ? "procedure" : "data", libc_objects[k],
                           libc_objects[k]);
    }
}
