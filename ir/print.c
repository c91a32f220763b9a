/* STUB: replaced by the printer. */
#include "ir/ir.h"
void b3_print_module(const B3Module *m, FILE *out) { (void)m; (void)out; }
