/* Fuzz target for the LLVM-IR front end (import/): each input is LLVM
 * assembly text, or bitcode when it starts with bitcode's magic, and goes
 * through what `b3c x.ll` does:
 *
 *   import (b3_import_llvm) -> validate -> print the B3 and read it back
 *   -> the backend at -O0 --verify-each and at -O2 -> an ELF object
 *
 * LLVM's parser rejecting the input, or the import refusing a construct, is
 * a user error (ignored); a crash, a sanitizer report or an internal error
 * (aborts under -DB3_ICE_ABORT) is a finding, and so is an import whose
 * printed B3 does not read back (a property failure: b3_fuzz_one returns
 * false).  A text input naming an aarch64 triple is compiled for arm64.
 * The front end is linked in (no dlopen), with LLVM's library. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/driver.h"
#include "import/import.h"
#include "ir/ice.h"
#include "ir/ir.h"
#include "objwriter/obj.h"
#include "parser/parser.h"
#include "testsuite/fuzz/fuzz.h"

static FILE *null_stream(void) {
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    if (!null) {
        perror("fuzz: /dev/null");
        abort();
    }
    return null;
}

/* Imports src into m; false if the front end refused it. */
static bool import(B3Module *m, B3Diag *diag, const char *src, size_t len, bool bitcode) {
    b3_ice_enter("import", NULL);
    B3ImportOptions iopt = {.input = "fuzz.ll", .src = src, .len = len, .bitcode = bitcode, .diag = diag};
    if (!b3_import_llvm(m, &iopt))
        return false;
    b3_ice_enter("validate", NULL);
    return b3_validate(m, diag) && !diag->errors;
}

static void compile(B3Module *m, B3Diag *diag, int level) {
    B3PipelineOptions bopt = {.opt_level = level, .verify_each = level == 0, .diag = diag};
    B3Obj obj;
    if (b3_compile_to_obj(m, &bopt, NULL, -1, &obj)) {
        char *buf = NULL;
        size_t n = 0;
        FILE *mem = open_memstream(&buf, &n);
        if (!mem)
            abort();
        b3_write_object(&obj, mem);
        fclose(mem);
        free(buf);
    }
    b3_compiled_obj_free(&obj);
}

bool b3_fuzz_one(const uint8_t *data, size_t size, char *why, size_t whylen) {
    char *src = malloc(size + 1);
    if (!src)
        abort();
    if (size)
        memcpy(src, data, size);
    src[size] = 0;
    static const unsigned char raw[4] = {'B', 'C', 0xc0, 0xde}, wrapped[4] = {0xde, 0xc0, 0x17, 0x0b};
    bool bitcode = size >= 4 && (!memcmp(src, raw, 4) || !memcmp(src, wrapped, 4));
    B3Target target = {B3Arch_X86_64, B3OS_Linux, 0, 0};
    if (!bitcode && strstr(src, "triple = \"aarch64"))
        target.arch = B3Arch_ARM64;
    bool ok = true;

    for (int level = 0; level <= 2; level += 2) {
        B3Diag diag;
        b3_diag_init(&diag, "fuzz.ll", src, size);
        diag.out = null_stream();
        B3Module m;
        b3_module_init(&m, target);
        B3Ice ice = {.diag = &diag, .module = &m};
        b3_ice_install(&ice);
        bool imported = import(&m, &diag, src, size, bitcode);
        if (imported && level == 0) {
            /* The printed B3 reads back and validates. */
            char *text = NULL;
            size_t tn = 0;
            FILE *mem = open_memstream(&text, &tn);
            if (!mem)
                abort();
            b3_print_module(&m, mem);
            fclose(mem);
            B3Diag d2;
            b3_diag_init(&d2, "printed.b3", text, tn);
            d2.out = null_stream();
            B3Module m2;
            b3_module_init(&m2, target);
            B3ParseOptions popt = {.bare_name = "fuzz"};
            ice.diag = &d2;
            ice.module = &m2;
            b3_ice_enter("parse", NULL);
            if (!b3_parse(&m2, &d2, text, tn, &popt) || !b3_validate(&m2, &d2) || d2.errors) {
                snprintf(why, whylen, "the imported module's printed B3 does not read back");
                ok = false;
            }
            ice.diag = &diag;
            ice.module = &m;
            b3_module_free(&m2);
            b3_diag_free(&d2);
            free(text);
        }
        if (imported)
            compile(&m, &diag, level);
        b3_ice_install(NULL);
        b3_module_free(&m);
        b3_diag_free(&diag);
        if (!imported || !ok)
            break; /* refused: the same at every level */
    }
    free(src);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char why[256];
    if (!b3_fuzz_one(data, size, why, sizeof why)) {
        fprintf(stderr, "fuzz_import: %s\n", why);
        abort();
    }
    return 0;
}
