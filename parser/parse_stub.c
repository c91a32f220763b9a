/* STUB: replaced by lexer/lexer.re + parser/parser.y. */
#include "parser/parser.h"
bool b3_parse(B3Module *m, B3Diag *d, const char *src, size_t len, const B3ParseOptions *opt) {
    (void)m; (void)d; (void)src; (void)len; (void)opt; return true; }
