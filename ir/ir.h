/* B3 IR: types, kinds, values, blocks, procedures and modules.
 *
 * All IR memory comes from the module's arena and is freed at once with it.
 * Values and blocks keep the numbers the source gave them (@N, #N); lookups
 * by number are O(1) through per-procedure hash maps. */
#ifndef B3_IR_H
#define B3_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/arena.h"
#include "ir/diag.h"
#include "ir/target.h"
#include "util/strmap.h"

typedef enum { B3_Void, B3_Int32, B3_Int64, B3_Float, B3_Double, B3_NUM_TYPES } B3Type;

const char *b3_type_name(B3Type t);
static inline bool b3_type_is_int(B3Type t) { return t == B3_Int32 || t == B3_Int64; }
static inline bool b3_type_is_float(B3Type t) { return t == B3_Float || t == B3_Double; }
static inline unsigned b3_type_bytes(B3Type t) {
    return t == B3_Int32 || t == B3_Float ? 4 : t == B3_Void ? 0 : 8;
}

/* ---- opcodes -------------------------------------------------------- */

typedef enum {
#define B3_OP(name, res, kids, mn, mx, meta, eff, fl) B3_##name,
#include "ir/opcodes.def"
#undef B3_OP
    B3_NUM_OPCODES
} B3Opcode;

typedef enum {
    B3R_VOID,
    B3R_I32,
    B3R_I64,
    B3R_F32,
    B3R_F64,
    B3R_SAME0,   /* type of child 0 */
    B3R_SAME1,   /* type of child 1 (Select) */
    B3R_PTR,     /* pointer type: Int64 on every supported target */
    B3R_VAR,     /* the variable's type (Get) */
    B3R_ARGREG,  /* Int64 for a GPR, Double for an FPR */
    B3R_BITCAST, /* Int32<->Float, Int64<->Double */
    B3R_TRUNC,   /* Int64->Int32, Double->Float */
    B3R_DECL, /* whatever the value was declared with (any non-Void for Load/Phi; any for CCall/Patchpoint) */
    B3R_DECL_INT, /* declared, must be Int32 or Int64 (DToI, DToU) */
} B3ResultRule;

typedef enum {
    B3C_NONE,     /* no children */
    B3C_ANY,      /* any types (Patchpoint) */
    B3C_NONVOID,  /* any non-void */
    B3C_SAME_NUM, /* all children one type, Int32/Int64/Float/Double */
    B3C_SAME_INT, /* all children one integer type */
    B3C_SAME_FP,  /* all children one float type */
    B3C_SHIFT,    /* (Int, Int32) */
    B3C_I32,
    B3C_F32,
    B3C_F64,
    B3C_INT,        /* Int32 or Int64 */
    B3C_FP,         /* Float or Double */
    B3C_TRUNC,      /* Int64 or Double */
    B3C_CMP,        /* two of one non-void type */
    B3C_ICMP,       /* two of one integer type */
    B3C_FCMP,       /* two of one float type */
    B3C_SELECT,     /* (Int, T, T) */
    B3C_PTR,        /* (IntPtr) */
    B3C_STORE,      /* (T, IntPtr) */
    B3C_STORE_I32,  /* (Int32, IntPtr) */
    B3C_CAS,        /* (Int, Int, IntPtr), first two same */
    B3C_XCHG,       /* (Int, IntPtr) */
    B3C_VAR,        /* (the variable's type) */
    B3C_CCALL,      /* (IntPtr, any non-void...) */
    B3C_CHECKARITH, /* (Int, Int same, any...) */
    B3C_CHECK,      /* (Int, any...) */
    B3C_UPSILON,    /* (the phi's type) */
} B3ChildRule;

typedef enum {
    B3M_NONE,
    B3M_CONST,
    B3M_VARIABLE,
    B3M_SLOT,
    B3M_REG,
    B3M_MEMORY,
    B3M_FENCE,
    B3M_BOUNDS,
    B3M_CCALL,
    B3M_STACKMAP,
    B3M_UPSILON,
    B3M_SWITCH,
    B3M_SYMBOL,
    B3M_ALLOCA,
    B3M_RESULT,
    B3M_X87,
    B3M_RETURN,
} B3MetaClass;

/* What an opcode does besides computing its result (see opcodes.def). */
typedef enum {
    B3E_NONE,
    B3E_DIV,
    B3E_LOAD,
    B3E_STORE,
    B3E_ATOMIC,
    B3E_FENCE,
    B3E_CALL,
    B3E_CHECK,
    B3E_BOUNDS,
    B3E_PINNED,
    B3E_LOCAL_WRITE,
    B3E_LOCAL_READ,
    B3E_VA_START,
    B3E_X87,
} B3EffectsClass;

/* Static opcode facts; each is documented at the top of opcodes.def. */
enum {
    B3OF_TERMINAL = 1 << 0,
    B3OF_COMMUTATIVE = 1 << 1,
    B3OF_PURE = 1 << 2,
    B3OF_CONST = 1 << 3,
    B3OF_COMPARE = 1 << 4,
    B3OF_LOAD = 1 << 5,
    B3OF_STORE = 1 << 6,
    B3OF_ATOMIC = 1 << 7,
    B3OF_STACKMAP = 1 << 8,
    B3OF_CHECK = 1 << 9,
    B3OF_CHILL_OK = 1 << 10,
    B3OF_TRAPS_OK = 1 << 11,
    B3OF_ASSOCIATIVE = 1 << 12,
    B3OF_FOLDABLE = 1 << 13,
    B3OF_MEM8 = 1 << 14,
    B3OF_MEM16 = 1 << 15,
    B3OF_SEXT = 1 << 16,
    B3OF_NO_CLONE = 1 << 17,
};

typedef struct {
    const char *name;
    uint8_t result;   /* B3ResultRule */
    uint8_t children; /* B3ChildRule */
    int8_t min_kids, max_kids;
    uint8_t meta;    /* B3MetaClass */
    uint8_t effects; /* B3EffectsClass */
    uint32_t flags;
} B3OpInfo;

extern const B3OpInfo b3_op_info[B3_NUM_OPCODES];
static inline const B3OpInfo *b3_op(B3Opcode op) { return &b3_op_info[op]; }
/* Returns B3_NUM_OPCODES if the name is not an opcode. */
B3Opcode b3_opcode_from_name(const char *s, size_t len);
/* Comparison facts (opcodes.def, B3_COMPARE); B3_Nop where there is none.
 * Swapped: op with its operands exchanged.  Inverted: the negation of op
 * for operands of that type (Nop when no opcode is exactly the negation). */
B3Opcode b3_compare_swapped(B3Opcode op);
B3Opcode b3_compare_inverted(B3Opcode op, B3Type operand_type);

/* Kind flags (B3 Kind = opcode + flags). */
enum { B3K_CHILL = 1 << 0, B3K_TRAPS = 1 << 1 };

/* ---- meta data ------------------------------------------------------ */

/* A range of abstract heaps [begin, end). Top is [0, UINT32_MAX), Bottom is empty. */
typedef struct {
    uint32_t begin, end;
} B3HeapRange;
#define B3_HEAP_TOP ((B3HeapRange){0, UINT32_MAX})
#define B3_HEAP_BOTTOM ((B3HeapRange){0, 0})
static inline bool b3_heap_is_top(B3HeapRange r) { return r.begin == 0 && r.end == UINT32_MAX; }
static inline bool b3_heap_is_bottom(B3HeapRange r) { return r.begin >= r.end; }

typedef enum {
    B3Rep_WarmAny,
    B3Rep_ColdAny,
    B3Rep_LateColdAny,
    B3Rep_SomeRegister,
    B3Rep_SomeRegisterWithClobber,
    B3Rep_SomeEarlyRegister,
    B3Rep_SomeLateRegister,
    B3Rep_Register,
    B3Rep_LateRegister,
    B3Rep_Stack,
    B3Rep_StackArgument,
    B3Rep_Constant,
} B3RepKind;

/* A constraint's name as the dump form spells it ("?" if k is out of range). */
const char *b3_rep_name(B3RepKind k);

/* A B3 ValueRep: a constraint on where a stackmap child or result lives. */
typedef struct {
    uint8_t kind;  /* B3RepKind */
    B3Reg reg;     /* Register, LateRegister */
    int64_t value; /* Stack / StackArgument offset, Constant value */
} B3ValueRep;

typedef struct B3Symbol B3Symbol;
typedef struct B3Value B3Value;
typedef struct B3Block B3Block;
typedef struct B3Proc B3Proc;

/* What a Check*, WasmBoundsCheck or Patchpoint does when it exits or runs. */
typedef enum {
    B3Gen_Default, /* not written: trap for exits, nop(0) for Patchpoint generators */
    B3Gen_Trap,
    B3Gen_Symbol,  /* @fn */
    B3Gen_Nop,     /* nop(N) (generators only) */
    B3Gen_Address, /* a dump's 0x... address: compiled as trap, printed back as written */
} B3GenKind;

typedef struct {
    uint8_t kind; /* B3GenKind */
    B3Symbol *sym;
    uint64_t n; /* nop byte count, or the address */
    B3Loc loc;
} B3Generator;

typedef struct {
    B3ValueRep *reps;  /* one per child */
    B3ValueRep result; /* Patchpoint resultConstraints */
    bool has_result_rep;
    bool has_id;
    int64_t id;
    B3RegSet early_clobbered, late_clobbered, used_registers;
    B3Generator gen; /* Patchpoint generator, or Check* exit */
} B3StackmapMeta;

typedef struct {
    int64_t offset;
    B3Reg pinned; /* pinnedSize register, or B3_NO_REG */
    bool has_maximum;
    uint64_t maximum;
    B3Generator exit;
} B3BoundsMeta;

/* A CCall's C-convention facts beyond its children (docs/c-extensions.md),
 * out of line: most calls have none (B3Value.m.ccall.extra is then NULL). */
typedef struct {
    bool sret;          /* `sret = 1`: child 1 is the struct result's address */
    bool returns_twice; /* `returnsTwice = 1`: the callee may return again
                         * later, through longjmp (setjmp, vfork) */
    B3ByVal *byval;     /* one per child (index 0, the callee, unused), or NULL */
    bool float128;      /* `float128 = 1`: the result is a Float128 pair in the
                         * first FP result register: the Int64 CCall its low
                         * half, an Int64 SecondResult its high half */
} B3CCallExtra;

typedef struct {
    int64_t *cases; /* successor i is case i; the last successor is the default */
    uint32_t ncases;
} B3SwitchMeta;

typedef struct B3Variable {
    const char *name;
    B3Type type;
    uint32_t index;
    B3Loc loc;
} B3Variable;

typedef struct B3StackSlot {
    const char *name;
    uint64_t size;
    uint32_t align; /* effective alignment */
    bool has_align; /* written with ", align = A" */
    uint32_t index;
    int64_t offset; /* frame offset, filled by stack allocation */
    B3Loc loc;
} B3StackSlot;

struct B3Value {
    uint32_t index; /* the number in @N */
    uint16_t opcode;
    uint8_t type;   /* B3Type */
    uint8_t kflags; /* B3K_* */
    uint32_t nkids;
    uint32_t scratch; /* free for the running analysis; meaningless between phases */
    B3Value **kids;
    B3Loc *kid_locs; /* where each child was written; may be NULL */
    B3Block *owner;
    B3Loc loc;      /* where the opcode was written */
    B3Loc type_loc; /* where the type annotation was written (or loc) */
    union {
        union {
            int64_t i;
            double d;
            float f;
            uint64_t bits;
        } c;               /* Const32/64 (i), ConstFloat (f), ConstDouble (d) */
        B3Variable *var;   /* Get, Set */
        B3StackSlot *slot; /* SlotBase */
        B3Reg reg;         /* ArgumentReg, WasmAddress */
        struct {
            int32_t offset;
            uint8_t width; /* atomics: 8/16/32/64; 0 = the type's width */
            bool has_width;
            B3HeapRange range, fence_range;
        } mem; /* loads, stores, atomics */
        struct {
            B3HeapRange read, write;
        } fence;
        B3BoundsMeta *bounds; /* WasmBoundsCheck (out of line: rare, and large) */
        struct {
            int32_t variadic;    /* -1: not written */
            B3CCallExtra *extra; /* sret, byval children; NULL: none */
        } ccall;
        B3StackmapMeta *stackmap;
        B3Value *phi; /* Upsilon: the Phi it writes */
        B3SwitchMeta sw;
        struct {
            B3Symbol *sym;
            int64_t offset;
        } symbol;
        uint32_t align;        /* AllocaDynamic: as written (0: not written); b3_alloca_align */
        uint32_t result_index; /* Result: which result of its CCall (0: not written) */
        uint8_t x87;           /* X87: the operation (B3X87Op, ir/x87.h) */
        bool float128;         /* Return: `@lo:Float128, @hi`, its two Int64 children
                                * are the halves of a Float128 pair (docs/c-extensions.md) */
    } m;
};

typedef enum { B3Freq_Normal, B3Freq_Rare } B3FrequencyClass;

typedef struct {
    B3Block *block;
    uint8_t freq; /* B3FrequencyClass */
} B3Succ;

struct B3Block {
    uint32_t index; /* the number in #N */
    uint32_t pos;   /* position in proc->blocks */
    B3Value **values;
    uint32_t nvalues, cap_values;
    B3Succ *succs;
    uint32_t nsuccs;
    B3Block **preds;
    uint32_t npreds;
    double frequency;
    B3Loc loc;
    B3Loc succ_loc; /* where the successors were written */
};

/* Map from a 32-bit number to a pointer.  While the numbers stay dense
 * (keys == NULL) it is an array indexed by the number; once one is far past
 * the others it becomes an open-addressing table. */
typedef struct {
    uint32_t *keys; /* NULL: vals[key] directly */
    void **vals;
    uint32_t cap, count;
} B3NumMap;
void b3_nummap_init(B3NumMap *m, B3Arena *a, uint32_t expected);
/* Empties m for about `expected` entries, in its own storage when that is
 * big enough (a rebuild after removing entries then costs no memory). */
void b3_nummap_clear(B3NumMap *m, B3Arena *a, uint32_t expected);
void *b3_nummap_get(const B3NumMap *m, uint32_t key);
/* Returns the previous value for key (NULL if none) and stores val. */
void *b3_nummap_put(B3NumMap *m, B3Arena *a, uint32_t key, void *val);
/* Removes key's entry if it maps to val, in an array-indexed map only:
 * false when m is a table (the caller rebuilds it instead). */
bool b3_nummap_remove_dense(B3NumMap *m, uint32_t key, const void *val);

struct B3Proc {
    B3Symbol *sym;
    bool bare;              /* read from a bare body; printed back the same way */
    B3Symbol **entrypoints; /* entrypoints(...) list, or NULL */
    uint32_t nentrypoints;  /* 0 if not written; the procedure then has one entry */
    B3Loc *entry_locs;
    B3Reg *pinned;
    uint32_t npinned;
    /* constructor(N) / destructor(N) (docs/c-extensions.md): run before main
     * or at exit, lower priorities first (destructors: last); -1: neither. */
    int32_t ctor_priority, dtor_priority;
    /* `variadic(G, F, S)` (docs/c-extensions.md): a C variadic function whose
     * named parameters take va_gprs integer and va_fprs floating-point
     * argument registers; its variadic stack arguments start va_stack bytes
     * into the caller's argument area. */
    bool variadic;
    uint32_t va_gprs, va_fprs, va_stack;
    B3Block **blocks; /* blocks[0] is the root */
    uint32_t nblocks, cap_blocks;
    B3Value **values; /* every value, in creation order */
    uint32_t nvalues, cap_values;
    B3Variable **vars;
    uint32_t nvars, cap_vars;
    B3StackSlot **slots;
    uint32_t nslots, cap_slots;
    B3NumMap value_map;        /* @N -> B3Value* */
    B3NumMap block_map;        /* #N -> B3Block* */
    uint32_t next_value_index; /* for values made by phases */
    uint32_t next_block_index;
    B3Loc loc;
    /* The procedure's own IR memory: its values (with their children), its
     * blocks, the values and blocks arrays, the number maps and the
     * predecessor lists.  Freed once the procedure is emitted
     * (b3_proc_free_ir); everything else stays in the module's arena. */
    B3Arena arena;
};

typedef enum { B3Sym_Extern, B3Sym_Data, B3Sym_Proc, B3Sym_Entry, B3Sym_Alias } B3SymKind;

/* `alias @a = @target + offset` (docs/c-extensions.md): another name of a
 * definition of this module, at an offset into it. */
typedef struct {
    B3Symbol *target;
    int64_t offset;
    B3Loc target_loc;
} B3Alias;

/* The priority of a constructor or destructor written without one (C's,
 * after every prioritized one). */
#define B3_DEFAULT_INIT_PRIORITY 65535

/* A thread-local symbol's access model (docs/c-extensions.md), weakest
 * assumption first: general-dynamic works anywhere, local-exec only for a
 * variable of the executable itself.  B3Tls_None: not thread-local. */
typedef enum {
    B3Tls_None,
    B3Tls_GeneralDynamic,
    B3Tls_LocalDynamic,
    B3Tls_InitialExec,
    B3Tls_LocalExec,
    B3_NUM_TLS_MODELS
} B3TlsModel;
/* The names of threadlocal(MODEL), indexed by B3TlsModel (ir/print.c). */
extern const char *const b3_tls_model_names[B3_NUM_TLS_MODELS];

typedef enum {
    B3Data_Int8,
    B3Data_Int16,
    B3Data_Int32,
    B3Data_Int64,
    B3Data_Float,
    B3Data_Double,
    B3Data_Bytes,
    B3Data_Zero,
    B3Data_Addr,
    B3Data_Rel32, /* 32 bits: sym + addend - the item's own address (ELF only) */
} B3DataKind;

typedef struct {
    uint8_t kind; /* B3DataKind */
    union {
        uint64_t bits; /* integer (truncated to width) or float/double bit pattern */
        struct {
            uint8_t *bytes;
            uint32_t len;
        } str;         /* Bytes */
        uint64_t zero; /* Zero N */
        struct {
            B3Symbol *sym;
            int64_t addend;
        } addr; /* Addr, Rel32 */
    } u;
    B3Loc loc;
} B3DataItem;

typedef struct {
    uint8_t kind; /* B3DataKind: items of one written line share it */
    B3DataItem *items;
    uint32_t nitems;
} B3DataLine;

typedef struct {
    bool readonly;
    bool has_align;
    uint32_t align; /* effective alignment */
    B3DataLine *lines;
    uint32_t nlines;
    uint64_t size; /* laid out size in bytes */
} B3Data;

struct B3Symbol {
    const char *name;
    uint32_t name_len; /* names written @"..." may hold any bytes */
    uint8_t kind;      /* B3SymKind */
    bool internal;
    /* Linkage and visibility (docs/c-extensions.md): a weak definition, or
     * on an extern a weak reference (NULL when nothing defines it); hidden:
     * not exported from the linked module. */
    bool weak, hidden;
    /* `used` (docs/c-extensions.md): kept by the linker even when nothing
     * refers to it (Mach-O N_NO_DEAD_STRIP, ELF SHF_GNU_RETAIN). */
    bool used;
    /* `section("name")` on data (docs/c-extensions.md): its own section,
     * "SEG,sect" on Mach-O; NULL: the usual one. */
    const char *section;
    uint32_t section_len;
    bool weak_ref; /* `extern @f weak` */
    uint8_t tls;   /* B3TlsModel: thread-local data or extern (docs/c-extensions.md) */
    bool defined;  /* data, proc or entry */
    bool declared; /* `extern` written, or defined */
    B3Loc loc;     /* where it was declared or defined */
    B3Loc ref_loc; /* first reference (for "undefined symbol") */
    union {
        B3Data *data;
        B3Proc *proc;   /* Proc and Entry */
        B3Alias *alias; /* Alias */
    } def;
    uint32_t entry_index; /* Entry: which entrypoint */
    uint32_t id;          /* for object writers */
};

typedef enum { B3Item_Extern, B3Item_Data, B3Item_Proc, B3Item_Alias } B3ItemKind;

typedef struct {
    uint8_t kind; /* B3ItemKind */
    B3Symbol *sym;
} B3Item;

typedef struct {
    B3Arena arena;
    B3Target target;
    uint8_t target_features; /* B3Feature_* bits (-mattr); 0: the architecture's baseline */
    B3Item *items;           /* in source order */
    uint32_t nitems, cap_items;
    B3Symbol **symbols; /* every symbol, by first appearance */
    uint32_t nsymbols, cap_symbols;
    B3StrMap symtab; /* name -> B3Symbol */
    /* The source files locations name besides the input (B3Loc.file k:
     * files[k - 1]), in the module's arena; none for a .b3 input. */
    const char **files;
    uint32_t nfiles, cap_files;
    B3Proc **procs; /* every procedure made (b3_proc_new), whose arenas b3_module_free frees */
    uint32_t nprocs, cap_procs;
} B3Module;

/* The byval facts of a CCall's child i (size 0: an ordinary argument). */
static inline B3ByVal b3_ccall_byval(const B3Value *v, uint32_t i) {
    const B3CCallExtra *x = v->m.ccall.extra;
    return x && x->byval ? x->byval[i] : (B3ByVal){0, 0, 0};
}
static inline bool b3_ccall_sret(const B3Value *v) { return v->m.ccall.extra && v->m.ccall.extra->sret; }
/* An AllocaDynamic's alignment: at least 16, the stack pointer's at calls. */
static inline uint32_t b3_alloca_align(const B3Value *v) { return v->m.align > 16 ? v->m.align : 16; }
static inline bool b3_ccall_float128(const B3Value *v) {
    return v->m.ccall.extra && v->m.ccall.extra->float128;
}
static inline bool b3_ccall_returns_twice(const B3Value *v) {
    return v->m.ccall.extra && v->m.ccall.extra->returns_twice;
}

/* ---- construction API (ir/ir.c) ---------------------------------------- */

void b3_module_init(B3Module *m, B3Target target);
void b3_module_free(B3Module *m);
/* Finds or creates a symbol by name; created symbols are undeclared externs
 * (kind Extern, defined false) that the caller then fills in. */
B3Symbol *b3_symbol_get(B3Module *m, const char *name, uint32_t len, bool *created);
B3Symbol *b3_symbol_find(const B3Module *m, const char *name, uint32_t len);
void b3_module_add_item(B3Module *m, B3ItemKind kind, B3Symbol *sym);

B3Proc *b3_proc_new(B3Module *m, B3Symbol *sym);
/* Frees the procedure's own IR (B3Proc.arena: its blocks and values) once
 * nothing reads it any more (after its emission); the B3Proc itself stays,
 * with no blocks and no values. */
void b3_proc_free_ir(B3Proc *p);
B3Block *b3_block_new(B3Module *m, B3Proc *p, uint32_t index); /* index UINT32_MAX: next free */
B3Block *b3_block_find(const B3Proc *p, uint32_t index);
/* Creates a value with room for nkids children (at least one, so that any
 * value can become an Identity in place); it is not placed in a block. */
B3Value *b3_value_new(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids, uint32_t index);
/* The same with room for the children's locations (kid_locs is set, zeroed),
 * for the parser, which also maps the number itself (b3_value_find does not
 * find the value until then): it maps each procedure's values at once, when
 * all are read. */
B3Value *b3_value_new_located(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids,
                              uint32_t index);
/* b3_value_new_located for a value the parser writes whole: index (below
 * UINT32_MAX), its locations given, and every one of its nkids children and
 * their locations written by the caller (they are not zeroed). */
B3Value *b3_value_new_parsed(B3Module *m, B3Proc *p, B3Opcode op, B3Type type, uint32_t nkids, uint32_t index,
                             B3Loc loc, B3Loc type_loc);
/* Room for `extra` more values made by a phase (b3_value_new with
 * UINT32_MAX), in the procedure's value list and number map, with a
 * sixteenth to spare: the doubling a few additions would cause when either
 * is just full was most of what a lowering added to a large procedure.  The
 * next growth doubles. */
void b3_proc_reserve_values(B3Module *m, B3Proc *p, uint32_t extra);
/* A constant's bits as the machine holds them: a Const32's low 32 bits, a
 * ConstFloat's float bits (not the union's), a Const64's or ConstDouble's 64. */
uint64_t b3_const_bits(const B3Value *v);
/* Const32, Const64, ConstFloat or ConstDouble. */
static inline bool b3_value_is_const(const B3Value *v) {
    return (b3_op((B3Opcode)v->opcode)->flags & B3OF_CONST) != 0;
}
/* An integer constant's value (a Const32's sign-extended); false if v is none. */
bool b3_value_int_const(const B3Value *v, int64_t *out);
B3Value *b3_value_find(const B3Proc *p, uint32_t index);
/* A copy of v with a fresh number, its meta data and the same children, not
 * placed in a block. */
B3Value *b3_value_clone(B3Module *m, B3Proc *p, const B3Value *v);
/* Appends v to b's values (and makes b its owner); the array's growth is
 * out of line. */
void b3_block_append_grow(B3Module *m, B3Block *b, B3Value *v);
static inline void b3_block_append(B3Module *m, B3Block *b, B3Value *v) {
    if (b->nvalues == b->cap_values) {
        b3_block_append_grow(m, b, v);
        return;
    }
    b->values[b->nvalues++] = v;
    v->owner = b;
}
B3Variable *b3_variable_new(B3Module *m, B3Proc *p, const char *name, B3Type type);
B3StackSlot *b3_slot_new(B3Module *m, B3Proc *p, const char *name, uint64_t size);
/* Recomputes every block's predecessor list from the successors. */
void b3_proc_compute_preds(B3Module *m, B3Proc *p);
/* Drops blocks not reachable from the root (and their values); recomputes preds. */
void b3_proc_remove_unreachable(B3Module *m, B3Proc *p);

/* ---- rewriting values in place (B3's replaceWith*) ----------------------
 *
 * Phases replace lazily: a value that should become another turns into
 * Identity(other) where it stands, keeping its number, block and location,
 * so every use still works; b3_proc_remove_identities later forwards all
 * uses and drops the Identities and Nops in one linear pass. */

/* v becomes Identity(w) (w must have v's type), or Nop if v is Void.
 * Meta data and kind flags are dropped. */
void b3_value_replace_with_identity(B3Value *v, B3Value *w);
/* v becomes Nop, whatever its type: a non-Void v must have no uses left.
 * Replacing a Phi leaves its Upsilons to the caller. */
void b3_value_replace_with_nop(B3Value *v);
/* Points every child of v that is an Identity at the end of its Identity
 * chain (B3's performSubstitution).  Returns true if a child changed. */
bool b3_value_perform_substitution(B3Value *v);
/* Substitutes every use of an Identity in p by the Identity's (transitive)
 * child, then removes every Identity and Nop from the blocks and from
 * p->values.  Linear in the size of p.  Returns true if anything changed. */
bool b3_proc_remove_identities(B3Module *m, B3Proc *p);
/* Removes the Nops from the blocks and from p->values. */
void b3_proc_remove_nops(B3Module *m, B3Proc *p);

/* Numbers p's values 0..n-1 in p->values order into v->scratch, so analyses
 * can keep per-value data in arrays of n entries although @N numbers are
 * sparse.  Valid until a value is created or scratch is reused; returns n. */
uint32_t b3_proc_number_values(B3Proc *p);

static inline B3Value *b3_block_last(const B3Block *b) {
    return b->nvalues ? b->values[b->nvalues - 1] : NULL;
}
/* SecondResult or Result: a further result register of the CCall it follows
 * (docs/c-extensions.md). */
static inline bool b3_is_call_result(const B3Value *v) {
    return v->opcode == B3_SecondResult || v->opcode == B3_Result;
}
/* The index just past the run of call results after b->values[i]. */
static inline uint32_t b3_call_results_end(const B3Block *b, uint32_t i) {
    uint32_t j = i + 1;
    while (j < b->nvalues && b3_is_call_result(b->values[j]) && b->values[j]->kids[0] == b->values[i])
        j++;
    return j;
}
static inline bool b3_is_terminal(const B3Value *v) {
    return (b3_op_info[v->opcode].flags & B3OF_TERMINAL) != 0;
}

/* The bytes a Load* or Store* accesses at its address (B3's accessWidth):
 * 1 or 2 for the narrow ones (opcodes.def MEM8/MEM16), else the loaded
 * type's or the stored value's width.  Atomics carry their width in meta. */
static inline unsigned b3_mem_access_bytes(const B3Value *v) {
    uint32_t fl = b3_op_info[v->opcode].flags;
    if (fl & B3OF_MEM8)
        return 1;
    if (fl & B3OF_MEM16)
        return 2;
    return b3_type_bytes((B3Type)((fl & B3OF_STORE) ? v->kids[0]->type : v->type));
}

/* ---- phases over the IR ------------------------------------------------ */

/* Validates the module; reports every problem through diag.  Returns true if valid. */
bool b3_validate(B3Module *m, B3Diag *d);
/* Warnings about a valid module that do not belong in every --verify-each
 * run (the driver calls it once, after b3_validate): an exported symbol
 * named like a C library object (stdin, errno, ...). */
void b3_warn_module(const B3Module *m, B3Diag *d);

/* Prints the module in canonical text form (section 3 of the spec). */
#include <stdio.h>
void b3_print_module(const B3Module *m, FILE *out);
void b3_print_proc(const B3Module *m, const B3Proc *p, FILE *out);
void b3_print_value(const B3Module *m, const B3Value *v, FILE *out);

#endif
