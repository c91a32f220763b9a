/* The LLVM-IR front end's interface: what b3c's driver calls to turn
 * clang's LLVM IR (text or bitcode) into a B3 module.
 *
 * The front end lives in its own shared object (b3c-llvm.so, built from
 * import/), loaded only for LLVM input (cmd/import_loader.c), so that b3c
 * starts as fast as ever on .b3 files and does not need LLVM's libraries to
 * run on them.  Nothing in this header names an LLVM type. */
#ifndef B3_IMPORT_H
#define B3_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/diag.h"
#include "ir/ir.h"

typedef struct {
    const char *input; /* the input's name as messages show it */
    const char *src;   /* the whole input */
    size_t len;
    bool bitcode; /* LLVM bitcode, else LLVM assembly text */
    B3Diag *diag; /* messages about the .ll text (bitcode: no line to quote) */
    /* The caller exits soon after the import: LLVM's module and context are
     * left to the process's exit instead of being torn down value by value
     * (a twentieth of a -O0 compile; clang's -disable-free).  Builds with
     * AddressSanitizer free them all the same, for LeakSanitizer. */
    bool leave_llvm;
    /* Set by the import: the C source file that the module's debug
     * locations name (NULL without !dbg), for messages and -g; owned by
     * the module's arena. */
    const char *source_file;
} B3ImportOptions;

/* Fills m (initialized, with its target) from the LLVM module.  Returns
 * false after reporting every error (FILE:LINE:COL at the C line of the
 * instruction's !dbg location when there is one, else naming the function). */
typedef bool B3ImportLLVMFn(B3Module *m, B3ImportOptions *o);
#define B3_IMPORT_LLVM_SYMBOL "b3_import_llvm"
B3ImportLLVMFn b3_import_llvm;

/* Is this input LLVM IR?  Bitcode by its magic (raw or wrapped), LLVM text
 * by the name's .ll extension.  *bitcode says which. */
bool b3_input_is_llvm(const char *path, const char *src, size_t len, bool *bitcode);

/* Loads the front end (dlopen) and runs it; false with a message on stderr
 * when it cannot be loaded. */
bool b3_run_llvm_import(B3Module *m, B3ImportOptions *o);

#endif
