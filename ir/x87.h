/* The operations of the X87 opcode (docs/c-extensions.md, "Long double on
 * x86-64"): x87 extended-precision arithmetic on 16-byte memory slots whose
 * first 10 bytes hold an 80-bit value (C's long double on x86-64).  Every
 * operand is an address (an Int64); a result is written to memory at the
 * first child, except a comparison's, which is the value (Int32 0 or 1).
 *
 *   B3_X87_OP(Name, "text", Kids, Result, Form)
 *
 * Kids: the child count; Result: the value's type; Form (B3X87Form): what
 * the children are. */
#ifndef B3_IR_X87_H
#define B3_IR_X87_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    B3X87Form_Binary,  /* (dst, a, b): *dst = *a op *b */
    B3X87Form_Unary,   /* (dst, a): *dst = op *a (conversions: a holds or gets the other type) */
    B3X87Form_Compare, /* (a, b): Int32, the predicate of *a and *b */
    B3X87Form_Ret,     /* (a[, b]): *a into st(0) (and *b into st(1)), for the Return right after it */
    B3X87Form_Result,  /* (dst[, dst2]): st(0) (and st(1)) of the CCall right before it, to *dst (*dst2) */
} B3X87Form;

/* clang-format off */
#define B3_X87_OPS(X)                                                        \
    X(Add,        "add",        3, B3_Void,  B3X87Form_Binary)                  \
    X(Sub,        "sub",        3, B3_Void,  B3X87Form_Binary)                  \
    X(Mul,        "mul",        3, B3_Void,  B3X87Form_Binary)                  \
    X(Div,        "div",        3, B3_Void,  B3X87Form_Binary)                  \
    X(Neg,        "neg",        2, B3_Void,  B3X87Form_Unary)                   \
    X(Abs,        "abs",        2, B3_Void,  B3X87Form_Unary)                   \
    /* conversions: from an Int32/Int64/Float/Double at a, to one at dst */ \
    X(FromI32,    "fromi32",    2, B3_Void,  B3X87Form_Unary)                   \
    X(FromI64,    "fromi64",    2, B3_Void,  B3X87Form_Unary)                   \
    X(FromFloat,  "fromfloat",  2, B3_Void,  B3X87Form_Unary)                   \
    X(FromDouble, "fromdouble", 2, B3_Void,  B3X87Form_Unary)                   \
    /* toi64 truncates toward zero (C's conversion); an out-of-range value   \
     * gives INT64_MIN.  It uses bytes 8-11 of dst for the control word. */  \
    X(ToI64,      "toi64",      2, B3_Void,  B3X87Form_Unary)                   \
    X(ToFloat,    "tofloat",    2, B3_Void,  B3X87Form_Unary)                   \
    X(ToDouble,   "todouble",   2, B3_Void,  B3X87Form_Unary)                   \
    /* comparisons; unordered (a NaN operand) is true for the u* ones */    \
    X(Gt,         "gt",         2, B3_Int32, B3X87Form_Compare)                 \
    X(Ge,         "ge",         2, B3_Int32, B3X87Form_Compare)                 \
    X(ULt,        "ult",        2, B3_Int32, B3X87Form_Compare)                 \
    X(ULe,        "ule",        2, B3_Int32, B3X87Form_Compare)                 \
    X(UEq,        "ueq",        2, B3_Int32, B3X87Form_Compare)                 \
    X(One,        "one",        2, B3_Int32, B3X87Form_Compare)                 \
    X(Uno,        "uno",        2, B3_Int32, B3X87Form_Compare)                 \
    X(Ord,        "ord",        2, B3_Int32, B3X87Form_Compare)                 \
    X(Ret,        "ret",        1, B3_Void,  B3X87Form_Ret)                     \
    X(Result,     "result",     1, B3_Void,  B3X87Form_Result)                  \
    /* a pair in st(0), st(1): C's _Complex long double result (real, imag) */ \
    X(Ret2,       "ret2",       2, B3_Void,  B3X87Form_Ret)                     \
    X(Result2,    "result2",    2, B3_Void,  B3X87Form_Result)
/* clang-format on */

typedef enum {
#define B3_X87_ENUM(name, text, kids, result, form) B3X87_##name,
    B3_X87_OPS(B3_X87_ENUM)
#undef B3_X87_ENUM
        B3_NUM_X87_OPS
} B3X87Op;

typedef struct {
    const char *name;
    uint8_t nkids, result, form; /* result: a B3Type; form: B3X87Form */
} B3X87Info;

extern const B3X87Info b3_x87_info[B3_NUM_X87_OPS];
/* The operation named s (n bytes), or B3_NUM_X87_OPS. */
unsigned b3_x87_lookup(const char *s, size_t n);

#endif
