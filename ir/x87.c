/* The X87 opcode's operation table (ir/x87.h). */
#include "ir/x87.h"

#include <string.h>

#include "ir/ir.h"

const B3X87Info b3_x87_info[B3_NUM_X87_OPS] = {
#define B3_X87_ROW(name, text, kids, result, form) {text, kids, result, form},
    B3_X87_OPS(B3_X87_ROW)
#undef B3_X87_ROW
};

unsigned b3_x87_lookup(const char *s, size_t n) {
    for (unsigned i = 0; i < B3_NUM_X87_OPS; i++)
        if (strlen(b3_x87_info[i].name) == n && !memcmp(b3_x87_info[i].name, s, n))
            return i;
    return B3_NUM_X87_OPS;
}
