/* STUB: replaced by the validator. */
#include "ir/ir.h"
bool b3_validate(B3Module *m, B3Diag *d) { (void)m; (void)d; return true; }
