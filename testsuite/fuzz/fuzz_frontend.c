/* Fuzz target for the front end: parse -> validate -> print, then the
 * canonical-form round trip.
 *
 * For any input:
 *   - b3_parse, b3_validate and b3_print_module must not crash, leak or hit
 *     undefined behaviour (ASan/UBSan/LSan report it);
 *   - when the input is accepted, its canonical text (docs/canonical-form.md)
 *     must be accepted too, and printing that again must give the same text
 *     (the printer's fixed point).  Set B3_FUZZ_NO_ROUNDTRIP=1 to skip this.
 *
 * An input that starts with "; target=aarch64" is read for aarch64-linux-gnu,
 * anything else for x86_64-linux-gnu.
 *
 * Built by scripts/fuzz.sh (libFuzzer) and scripts/fuzz-smoke.sh (replay of
 * the corpus through replay_main.c), with testsuite/fuzz/fuzz.mk. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
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

/* Parses and validates src; on success prints the module into a malloc'ed
 * string (*text, *text_len).  Returns false if the input was rejected. */
static bool front_end(const char *src, size_t len, B3Target target, char **text, size_t *text_len) {
    B3Diag diag;
    b3_diag_init(&diag, "fuzz.b3", src, len);
    diag.out = null_stream();
    B3Module m;
    b3_module_init(&m, target);
    B3ParseOptions opt = {.bare_name = "fuzz"};
    bool ok = b3_parse(&m, &diag, src, len, &opt) && b3_validate(&m, &diag) && !diag.errors;
    if (ok && text) {
        FILE *f = open_memstream(text, text_len);
        if (!f)
            abort();
        b3_print_module(&m, f);
        fclose(f);
    } else if (ok) {
        b3_print_module(&m, null_stream());
    }
    b3_module_free(&m);
    b3_diag_free(&diag);
    return ok;
}

/* Length of the common prefix, and the line it ends on, for the report. */
static void describe_mismatch(const char *a, size_t alen, const char *b, size_t blen, char *why,
                              size_t whylen) {
    size_t i = 0, line = 1;
    while (i < alen && i < blen && a[i] == b[i]) {
        if (a[i] == '\n')
            line++;
        i++;
    }
    snprintf(why, whylen,
             "printing the canonical text again changed it (first difference at line %zu):\n"
             "--- first print ---\n%.*s\n--- second print ---\n%.*s\n",
             line, (int)alen, a, (int)blen, b);
}

bool b3_fuzz_one(const uint8_t *data, size_t size, char *why, size_t whylen) {
    /* The parser wants a NUL-terminated buffer of exactly len bytes; a copy
     * of exactly size+1 bytes lets ASan see any read past the end. */
    char *src = malloc(size + 1);
    if (!src)
        abort();
    if (size)
        memcpy(src, data, size);
    src[size] = 0;

    B3Target target = {B3Arch_X86_64, B3OS_Linux, 0, 0};
    static const char arm[] = "; target=aarch64";
    if (size >= sizeof arm - 1 && !memcmp(src, arm, sizeof arm - 1))
        target.arch = B3Arch_ARM64;

    static int roundtrip = -1;
    if (roundtrip < 0) {
        const char *e = getenv("B3_FUZZ_NO_ROUNDTRIP");
        roundtrip = !(e && *e && strcmp(e, "0"));
    }

    bool result = true;
    char *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    if (!roundtrip) {
        front_end(src, size, target, NULL, NULL);
    } else if (front_end(src, size, target, &t1, &n1)) {
        if (!front_end(t1, n1, target, &t2, &n2)) {
            snprintf(why, whylen, "the canonical text of an accepted input was rejected:\n%.*s\n", (int)n1,
                     t1);
            result = false;
        } else if (n1 != n2 || memcmp(t1, t2, n1)) {
            describe_mismatch(t1, n1, t2, n2, why, whylen);
            result = false;
        }
    }
    free(t1);
    free(t2);
    free(src);
    return result;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char why[1 << 16];
    if (!b3_fuzz_one(data, size, why, sizeof why)) {
        fputs("fuzz_frontend: ", stderr);
        fputs(why, stderr);
        abort();
    }
    return 0;
}
