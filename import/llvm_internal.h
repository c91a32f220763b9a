/* Internal to the LLVM-IR front end (import/llvm_*.c): the import state and
 * the helpers its files share.
 *
 * An LLVM value becomes one or more B3 values, its "parts": a scalar one
 * (i1..i64 in Int32 or Int64, pointers in Int64, float, double), an i128
 * two Int64 (low, high), a first-class aggregate its leaves in order.  A
 * narrow integer (iN, N < 32, or 32 < N < 64) lives in the low N bits of its
 * Int32 or Int64: the bits above are unspecified, and an operation that
 * reads them (compare, divide, right shift, widen, convert, branch) extends
 * its operands first (imp_zext_bits, imp_sext_bits). */
#ifndef B3_IMPORT_LLVM_INTERNAL_H
#define B3_IMPORT_LLVM_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <setjmp.h>
#include <stdint.h>

#include "import/import.h"
#include "ir/ir.h"

/* A map from an LLVM pointer (value, block, type) to an index. */
typedef struct {
    const void **keys;
    uint32_t *vals;
    uint32_t cap, count;
} ImpPtrMap;
void imp_map_init(ImpPtrMap *m, uint32_t expected);
void imp_map_free(ImpPtrMap *m);
/* UINT32_MAX if absent. */
uint32_t imp_map_get(const ImpPtrMap *m, const void *key);
void imp_map_put(ImpPtrMap *m, const void *key, uint32_t val);

/* The parts of an LLVM value. */
typedef struct {
    B3Value **v;
    uint32_t n;
} ImpVals;

/* What a leaf of an LLVM type is in B3 and in memory. */
/* LK_Int: an integer of `bits` bits in Int32 (bits <= 32) or Int64;
 * LK_Top: the top word of an integer wider than 64 bits (bits: what is
 * left of it, 1..64), always in an Int64. */
/* LK_F32x2: a <2 x float> (how C structs of two floats travel in one SSE
 * register), packed in a Double: element 0 in the low 32 bits. */
typedef enum { LK_Int, LK_Top, LK_Ptr, LK_Float, LK_Double, LK_F32x2 } ImpLeafKind;
typedef struct {
    uint8_t kind; /* ImpLeafKind */
    uint8_t bits; /* LK_Int: 1..64 */
    uint64_t off; /* byte offset in the type's memory layout */
} ImpLeaf;
typedef struct {
    ImpLeaf *leaf;
    uint32_t n;
} ImpLeaves;

typedef struct Imp {
    B3Module *m;
    B3ImportOptions *o;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    const B3TargetDesc *desc;
    jmp_buf fail; /* longjmp'd to after an error that stops the import */
    unsigned errors;
    /* Types' leaves, by LLVMTypeRef. */
    ImpPtrMap type_map;
    ImpLeaves *types;
    uint32_t ntypes, cap_types;
    /* Globals' symbols, by LLVMValueRef. */
    ImpPtrMap sym_map;
    B3Symbol **syms;
    uint32_t nsyms, cap_syms;
    /* Enum attribute kinds. */
    unsigned attr_signext, attr_zeroext, attr_byval, attr_sret, attr_noreturn, attr_returns_twice;

    /* ---- the function being imported ---- */
    LLVMValueRef fn;
    B3Proc *p;
    B3Block *cur; /* where values are appended */
    B3Loc loc;    /* of the instruction being imported */
    LLVMValueRef inst;
    ImpPtrMap val_map; /* LLVM value -> index in vals */
    ImpVals *vals;
    uint32_t nvals, cap_vals;
    ImpPtrMap block_map; /* LLVM block -> index in blocks */
    B3Block **blocks;
    uint32_t nblocks;
    B3Value *sret_ptr; /* x86-64: what a function with an sret parameter returns */
    /* The last !dbg file name seen (LLVM's string) and its B3Loc.file. */
    const char *loc_file_key;
    uint32_t loc_file;
    /* The last !dbg scope seen (imp_inst_debug_loc) and its B3Loc.file. */
    LLVMMetadataRef loc_scope_key;
    uint32_t loc_scope_file;
    /* long double (llvm_ldouble.c): the function's scratch slots for X87
     * results, operands and a pair result's second part (NULL until first
     * used). */
    B3StackSlot *ld_scratch[4];
} Imp;

/* ---- diagnostics (llvm_module.c) ---------------------------------------- */

/* An error at the current instruction's C line (its !dbg), else naming the
 * function; the import goes on with the next function. */
void imp_error(Imp *I, const char *fmt, ...) B3_PRINTF(2, 3);
/* The same, then stops importing the function (longjmp). */
_Noreturn void imp_fail(Imp *I, const char *fmt, ...) B3_PRINTF(2, 3);
/* The name of an LLVM value (NULL-terminated copy in the arena). */
const char *imp_value_name(Imp *I, LLVMValueRef v);

/* ---- types (llvm_module.c) ---------------------------------------------- */

const ImpLeaves *imp_leaves(Imp *I, LLVMTypeRef t);
static inline B3Type imp_leaf_type(const ImpLeaf *l) {
    switch (l->kind) {
    case LK_Int:
        return l->bits <= 32 ? B3_Int32 : B3_Int64;
    case LK_Top:
    case LK_Ptr:
        return B3_Int64;
    case LK_Float:
        return B3_Float;
    default:
        return B3_Double;
    }
}
/* The integer width of a scalar integer type (0 if not one). */
unsigned imp_int_bits(LLVMTypeRef t);

/* ---- symbols (llvm_module.c) -------------------------------------------- */

B3Symbol *imp_symbol(Imp *I, LLVMValueRef global);

/* ---- symbols beyond plain globals (llvm_symbols.c) ------------------------ */

/* A thread_local global's access model on its symbol (nothing for others). */
void imp_tls_symbol(Imp *I, LLVMValueRef g, B3Symbol *s);
/* llvm.global_ctors / llvm.global_dtors: the name test, and marking their
 * procedures constructor(N) / destructor(N) once every function is declared. */
bool imp_is_structors(const char *name, size_t len);
void imp_structors(Imp *I);
/* llvm.used: its definitions become `used` (kept by the linker). */
void imp_used(Imp *I);
/* The module's aliases become B3 aliases (docs/c-extensions.md). */
void imp_aliases(Imp *I);
/* A constant address: a symbol (NULL: a plain integer) plus an offset;
 * false if c is none (llvm_module.c). */
bool imp_const_addr(Imp *I, LLVMValueRef c, B3Symbol **sym, int64_t *off);
/* A definition's linkage words from g's LLVM linkage and visibility. */
void imp_definition_linkage(LLVMValueRef g, B3Symbol *s);
/* A global's own section (`section("name")`); an error for a function's. */
void imp_check_section(Imp *I, LLVMValueRef g);

/* ---- relative lookup tables (llvm_reltable.c) ---------------------------- */

/* Whether g is a relative lookup table (an i32 array of offsets from itself,
 * read by llvm.load.relative), which the import keeps as pointers. */
bool imp_reltable(LLVMValueRef g);
/* The constant address element i of such a table points to. */
LLVMValueRef imp_reltable_target(LLVMValueRef g, unsigned i);

/* ---- function bodies (llvm_func.c) -------------------------------------- */

void imp_function(Imp *I, LLVMValueRef fn, B3Symbol *sym);

/* Emission helpers for the current block. */
B3Value *imp_emit(Imp *I, B3Opcode op, B3Type t, uint32_t n, B3Value *a, B3Value *b, B3Value *c);
B3Value *imp_const(Imp *I, B3Type t, int64_t x);
B3Value *imp_fconst(Imp *I, B3Type t, double d);
static inline B3Value *imp_op2(Imp *I, B3Opcode op, B3Value *a, B3Value *b) {
    return imp_emit(I, op, (B3Type)a->type, 2, a, b, NULL);
}
static inline B3Value *imp_op1(Imp *I, B3Opcode op, B3Type t, B3Value *a) {
    return imp_emit(I, op, t, 1, a, NULL, NULL);
}
/* v's low `bits` bits, zero- or sign-extended to its type. */
B3Value *imp_zext_bits(Imp *I, B3Value *v, unsigned bits);
B3Value *imp_sext_bits(Imp *I, B3Value *v, unsigned bits);
/* v (an Int32 or Int64) as an Int64 / Int32. */
B3Value *imp_to64(Imp *I, B3Value *v, bool sign);
B3Value *imp_to32(Imp *I, B3Value *v);
/* The parts of an operand. */
ImpVals imp_operand(Imp *I, LLVMValueRef v);
B3Value *imp_scalar(Imp *I, LLVMValueRef v);
/* A call to a C function by name with B3 arguments; result type rt. */
B3Value *imp_call_named(Imp *I, const char *name, B3Type rt, uint32_t n, B3Value **args);
/* Makes nb the current block (a new one when nb is NULL); returns it. */
B3Block *imp_new_block(Imp *I);
void imp_jump(Imp *I, B3Block *to);
void imp_branch(Imp *I, B3Value *cond, B3Block *yes, B3Block *no);
ImpVals imp_vals_new(Imp *I, uint32_t n);
/* The B3 block of an LLVM block of the current function (NULL: unreachable). */
B3Block *imp_block_of(Imp *I, LLVMBasicBlockRef b);

/* ---- computed goto (llvm_control.c) -------------------------------------- */

/* The number a blockaddress constant stands for: its block's position (from
 * 1) in its function. */
int64_t imp_block_address(Imp *I, LLVMValueRef ba);
/* Ends the current block with an indirectbr's Switch. */
void imp_indirectbr(Imp *I, LLVMValueRef t);

/* ---- the stack pointer (llvm_control.c) ---------------------------------- */

/* An alloca of a run-time size or outside the entry block: AllocaDynamic. */
/* A new stack slot of the function named PREFIX<number>, at the current
 * source location. */
B3StackSlot *imp_new_slot(Imp *I, const char *prefix, uint64_t size, uint32_t align);
B3Value *imp_alloca_dynamic(Imp *I, LLVMValueRef alloca);
/* llvm.stacksave / llvm.stackrestore: StackSave / StackRestore (true: it
 * was one of them, *out its result). */
bool imp_stack_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out);

/* ---- setjmp (llvm_control.c) -------------------------------------------- */

/* Whether a call may return twice (the call or its callee says
 * returns_twice): its CCall says returnsTwice = 1. */
bool imp_call_returns_twice(Imp *I, LLVMValueRef call);

/* ---- integers wider than 64 bits (llvm_wide.c) --------------------------
 *
 * An iN with 64 < N <= IMP_MAX_WORDS * 64 is ceil(N / 64) Int64 words, the
 * lowest first; the top word's bits above N are unspecified, as for narrow
 * integers. */
enum { IMP_MAX_WORDS = 8 };
/* A constant's words (from its printed decimal value); returns how many. */
unsigned imp_const_words(LLVMValueRef c, uint64_t *w);
/* a with the top word's unused bits made zero (sign: copies of bit N-1). */
ImpVals imp_wide_ext(Imp *I, ImpVals a, unsigned bits, bool sign);
/* add, sub, mul (two words), and, or, xor, shl/lshr/ashr (by a constant, or
 * any amount for two words); rhs: the LLVM right operand. */
ImpVals imp_wide_binary(Imp *I, unsigned bits, LLVMOpcode op, ImpVals a, ImpVals b, LLVMValueRef rhs);
/* A comparison (B3 opcode, signed or not) of two wide integers: Int32 0/1. */
B3Value *imp_wide_compare(Imp *I, unsigned bits, B3Opcode cmp, bool sign, ImpVals a, ImpVals b);
/* a (from bits) as an integer of to bits: truncated, or extended. */
ImpVals imp_wide_resize(Imp *I, ImpVals a, unsigned from, unsigned to, bool sign, bool trunc);

/* ---- variadic functions (llvm_varargs.c) -------------------------------- */

/* A variadic definition: its named parameters took the n places where[]
 * (registers or B3_NO_REG) and stack_bytes of the argument area. */
void imp_varargs_params(Imp *I, uint32_t n, const B3Reg *where, uint32_t stack_bytes);
/* llvm.va_start(ap), llvm.va_copy(dst, src), and the va_arg instruction. */
void imp_va_start(Imp *I, B3Value *ap);
void imp_va_copy(Imp *I, B3Value *dst, B3Value *src);
ImpVals imp_va_arg(Imp *I, LLVMValueRef inst);

/* ---- debug locations (llvm_debug.c) -------------------------------------- */

/* The location of an instruction or function's !dbg (line, col): its file
 * is the location's scope's (a header's inline function, also when inlined
 * into another file's function: the line table names the code's own file
 * and line, as clang's does), 0 when it is the module's source file. */
B3Loc imp_debug_loc(Imp *I, LLVMValueRef v, unsigned line, unsigned col);
/* An instruction's location, or prev if its !dbg has none (line 0): the
 * same as imp_debug_loc's, read from the DILocation itself (each
 * LLVMGetDebugLoc* call looks the !dbg up again) and its file found once
 * per scope. */
B3Loc imp_inst_debug_loc(Imp *I, LLVMValueRef inst, B3Loc prev);

/* ---- the C convention beyond word-by-word placement (llvm_abi.c) -------- */

/* How an argument of type t goes when nint integer and nfp floating-point
 * argument registers are taken before it: pads to pass first (integer
 * zeros, Double zeros) for registers the convention leaves unused, and
 * whether it goes whole in memory, a ByVal copy of memory.size bytes. */
typedef struct {
    uint8_t pad_int, pad_fp;
    B3ByVal memory; /* size 0: in its parts, as usual */
} ImpArgPlace;
ImpArgPlace imp_arg_place(Imp *I, LLVMTypeRef t, uint32_t nint, uint32_t nfp);
/* At a call: the pads, then the parts p, or the address of a new stack slot
 * holding them (its ByVal child, placed after the pads). */
ImpVals imp_arg_placed(Imp *I, LLVMTypeRef t, ImpVals p, const ImpArgPlace *pl);
/* In a callee: the parts of an argument of type t passed in memory at addr. */
ImpVals imp_arg_from_memory(Imp *I, LLVMTypeRef t, B3Value *addr);
/* An error (stops the function) when a result of n values (vals, else the
 * leaves L) is not one the target returns in registers. */
void imp_check_results(Imp *I, uint32_t n, const B3Value *const *vals, const ImpLeaves *L);
/* A call's results: the call, its SecondResult and Results. */
ImpVals imp_call_results(Imp *I, B3Value *call, const ImpLeaves *RL);

/* ---- long double (llvm_ldouble.c) ----------------------------------------
 *
 * An x86_fp80 (C's long double on x86-64) is two parts: an Int64, its bytes
 * 0-7 (the significand), and an Int32 whose low 16 bits are bytes 8-9 (sign
 * and exponent), so loads, stores, phis and selects are those of integers.
 * Arithmetic, comparisons and conversions are X87 values on 16-byte stack
 * slots (docs/c-extensions.md, "Long double on x86-64"); an argument is
 * passed ByVal(16, 16), a parameter read from the caller's argument area, a
 * result taken from st(0) after the call and put there before the return. */
bool imp_is_x87(LLVMTypeRef t);
/* An instruction on long double values (arithmetic, fcmp, casts to or
 * from it): imported into *out, true; false if it is not one.  Its
 * opcodes, and imp_fp128_inst's, are llvm_func.c's may_be_wide_float. */
bool imp_ldouble_inst(Imp *I, LLVMValueRef v, LLVMOpcode op, ImpVals *out);
/* llvm.*.f80 intrinsics (fabs, copysign in line, libm's *l functions). */
bool imp_ldouble_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out);
/* The libm function of long double arguments (NAMEl) that computes the
 * intrinsic llvm.NAME.<long double type> of NARGS arguments (NAME, the BLEN
 * bytes at BASE), or NULL.  One table for x86_fp80 and fp128. */
const char *imp_long_double_libm(const char *base, size_t blen, unsigned nargs);
/* A long double constant's bytes: 0-7 in *lo, 8-15 in *hi. */
void imp_ldouble_const(Imp *I, LLVMValueRef c, uint64_t *lo, uint64_t *hi);
ImpVals imp_ldouble_const_parts(Imp *I, LLVMValueRef c);
/* The value's parts in a new 16-byte slot; its address. */
B3Value *imp_ldouble_arg(Imp *I, ImpVals v);
/* The parts at an address. */
ImpVals imp_ldouble_load(Imp *I, B3Value *addr, int64_t off);
/* A call returning a long double: the slot for its result, made before the
 * (Void) CCall, and the value from st(0) stored there right after it. */
B3Value *imp_ldouble_result_slot(Imp *I);
ImpVals imp_ldouble_call_result(Imp *I, B3Value *slot);
/* Returns the value (in st(0)). */
void imp_ldouble_return(Imp *I, ImpVals v);
/* C's _Complex long double as a result: { x86_fp80, x86_fp80 }, in st(0)
 * (real) and st(1) (imaginary), the X87 ret2/result2 operations.  The call
 * result takes the slot of imp_ldouble_result_slot for its real part. */
bool imp_is_x87_pair(LLVMTypeRef t);
ImpVals imp_ldouble_pair_call_result(Imp *I, B3Value *slot);
void imp_ldouble_pair_return(Imp *I, ImpVals v);

/* ---- 128-bit atomics (llvm_atomic128.c) ------------------------------------
 * load atomic / store atomic / cmpxchg / atomicrmw of an i128 as calls of
 * libatomic's __atomic_*_16: false (nothing emitted) for other types. */
bool imp_atomic128_load(Imp *I, LLVMValueRef v, ImpVals *out);
bool imp_atomic128_store(Imp *I, LLVMValueRef v);
bool imp_atomic128_cmpxchg(Imp *I, LLVMValueRef v, ImpVals *out);
bool imp_atomic128_rmw(Imp *I, LLVMValueRef v, ImpVals *out);

/* ---- fp128 (llvm_fp128.c) ------------------------------------------------
 *
 * An fp128 (C's long double on arm64 Linux, __float128) is two Int64 parts,
 * its low and high 64 bits, so loads, stores, phis and selects are those of
 * integers.  Arithmetic, comparisons and conversions are calls of libgcc's
 * soft-float routines; an fp128 argument, parameter or result travels whole
 * in a q register as a Float128 pair (docs/c-extensions.md). */
bool imp_is_fp128(LLVMTypeRef t);
bool imp_fp128_inst(Imp *I, LLVMValueRef v, LLVMOpcode op, ImpVals *out);
bool imp_fp128_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out);
/* A constant's bits: 0-63 in *lo, 64-127 in *hi. */
void imp_fp128_const(Imp *I, LLVMValueRef c, uint64_t *lo, uint64_t *hi);
ImpVals imp_fp128_const_parts(Imp *I, LLVMValueRef c);
/* The (Int64) CCall's fp128 result: float128 = 1 and its SecondResult;
 * with npairs 2 (a _Complex long double, q0 and q1) also Result index = 2
 * and 3. */
ImpVals imp_fp128_call_result(Imp *I, B3Value *call, unsigned npairs);
/* How many Float128 pairs an argument of type t is (0: none; an fp128 1, an
 * aggregate of up to four alone one per member); an error for other
 * aggregates with an fp128.  0 too for one of several members that does
 * not fit in the FP argument registers left after nfp: AAPCS64 passes that
 * on the stack whole (imp_arg_place, imp_fp128_hfa). */
unsigned imp_fp128_arg_members(Imp *I, LLVMTypeRef t, unsigned nfp);
/* The members of an AAPCS64 homogeneous aggregate of 2 to 4 fp128s; 0 for
 * any other type. */
unsigned imp_fp128_hfa(LLVMTypeRef t);
/* How many fp128s a result of type t is (0: none): one (alone, or the one
 * member of an aggregate), a Float128 pair in q0, or two (_Complex long
 * double, a struct of two), pairs in q0 and q1; an error for other types
 * with one. */
unsigned imp_fp128_result(Imp *I, LLVMTypeRef t);
/* A parameter in the FP register `where` or the caller's argument area. */
ImpVals imp_fp128_param(Imp *I, B3Reg where, uint32_t stack_off);
void imp_fp128_return(Imp *I, ImpVals v);

/* ---- intrinsics (llvm_intrinsics.c) ------------------------------------- */

/* Imports a call to an llvm.* intrinsic; its result in *out.  Returns false
 * if the name is not an intrinsic it knows (an error was reported). */
bool imp_intrinsic(Imp *I, LLVMValueRef call, const char *name, size_t len, ImpVals *out);

#endif
