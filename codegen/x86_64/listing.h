/* -S (--emit=asm): a procedure's x86-64 instruction text, collected from the
 * assembler's listing while the emission driver (codegen/emit.h) encodes it
 * and hands it to the assembly writer (objwriter/asm_writer.h) with the
 * offsets of its lines.  Nothing unless the object has asm_text. */
#ifndef B3_X86_LISTING_H
#define B3_X86_LISTING_H

#include "codegen/emit.h"
#include "codegen/x86_64/asm.h"
#include "objwriter/obj.h"

typedef B3EmitListing X86Listing;

/* Before the first instruction of the procedure: a.listing set up. */
void x86_listing_begin(X86Listing *l, X86Asm *a, B3Obj *o);

#endif
