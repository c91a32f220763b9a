/* Debug locations: each instruction's !dbg line, column and file.
 *
 * A C translation unit's code comes from several files: the .c file and the
 * headers whose static inline functions it calls (at -O2 inlined into the
 * .c file's functions).  A location names the file of its scope (LLVM's
 * DILocation: the inlined callee's own file and line, not the call site's),
 * which is what clang's and gcc's line tables say and what gdb shows when it
 * stops or steps there.  The module's source file (B3ImportOptions'
 * source_file) is B3Loc.file 0; every other file is an entry of the
 * module's file table (B3Module.files), which -g's .debug_line lists. */
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "import/llvm_internal.h"

/* The file's name as the line table gives it: with its directory when
 * relative, as the module's source file is named (llvm_module.c), less a
 * leading "./" (clang names a header of the current directory so). */
static char *file_name(Imp *I, const char *file, unsigned flen, const char *dir, unsigned dlen) {
    bool rel = file[0] != '/' && dir && dlen;
    while (rel && flen > 2 && file[0] == '.' && file[1] == '/') {
        file += 2;
        flen -= 2;
    }
    size_t n = (rel ? dlen + 1 : 0) + flen;
    char *c = b3_arena_alloc(&I->m->arena, n + 1);
    snprintf(c, n + 1, "%.*s%s%.*s", rel ? (int)dlen : 0, rel ? dir : "", rel ? "/" : "", (int)flen, file);
    return c;
}

/* loc with the file named name (file_name's): the module's source file
 * is 0, others their place in the module's file table (added when new);
 * no location at all when there are too many files to tell apart. */
static B3Loc in_file(Imp *I, B3Loc loc, char *name) {
    uint32_t k = 0;
    B3Module *m = I->m;
    if (!I->o->source_file || strcmp(name, I->o->source_file)) {
        for (k = 1; k <= m->nfiles && strcmp(m->files[k - 1], name); k++)
            ;
        if (k > m->nfiles) {
            if (k > B3_LOC_MAX_FILE) /* too many files to tell apart: no location */
                return (B3Loc){0, 0, 0};
            if (m->nfiles == m->cap_files)
                m->files = b3_arena_grow(&m->arena, m->files, sizeof *m->files, &m->cap_files, 0);
            m->files[m->nfiles++] = name;
        }
    }
    loc.file = k;
    return loc;
}

B3Loc imp_debug_loc(Imp *I, LLVMValueRef v, unsigned line, unsigned col) {
    B3Loc loc = {line, col > B3_LOC_MAX_COL ? B3_LOC_MAX_COL : col, 0};
    if (!line)
        return loc;
    unsigned flen = 0, dlen = 0;
    const char *file = LLVMGetDebugLocFilename(v, &flen);
    if (!file || !flen)
        return loc;
    if (file == I->loc_file_key) {
        loc.file = I->loc_file;
        return loc;
    }
    const char *dir = LLVMGetDebugLocDirectory(v, &dlen);
    loc = in_file(I, loc, file_name(I, file, flen, dir, dlen));
    if (loc.line) {
        I->loc_file_key = file;
        I->loc_file = loc.file;
    }
    return loc;
}

B3Loc imp_inst_debug_loc(Imp *I, LLVMValueRef inst, B3Loc prev) {
    LLVMMetadataRef dl = LLVMInstructionGetDebugLoc(inst);
    unsigned line = dl ? LLVMDILocationGetLine(dl) : 0;
    if (!line)
        return prev;
    unsigned col = LLVMDILocationGetColumn(dl);
    B3Loc loc = {line, col > B3_LOC_MAX_COL ? B3_LOC_MAX_COL : col, 0};
    LLVMMetadataRef scope = LLVMDILocationGetScope(dl);
    if (scope && scope == I->loc_scope_key) {
        loc.file = I->loc_scope_file;
        return loc;
    }
    /* The scope's file, as LLVMGetDebugLocFilename and
     * LLVMGetDebugLocDirectory name it. */
    LLVMMetadataRef f = scope ? LLVMDIScopeGetFile(scope) : NULL;
    unsigned flen = 0, dlen = 0;
    const char *file = f ? LLVMDIFileGetFilename(f, &flen) : NULL;
    if (!file || !flen)
        return loc;
    if (file == I->loc_file_key) {
        loc.file = I->loc_file;
    } else {
        const char *dir = LLVMDIFileGetDirectory(f, &dlen);
        loc = in_file(I, loc, file_name(I, file, flen, dir, dlen));
        if (!loc.line)
            return loc;
        I->loc_file_key = file;
        I->loc_file = loc.file;
    }
    I->loc_scope_key = scope;
    I->loc_scope_file = loc.file;
    return loc;
}
