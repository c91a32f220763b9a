/* Recognizes LLVM input and runs the LLVM-IR front end, which lives in its
 * own shared object (b3c-llvm.so) so that b3c neither loads LLVM's library
 * nor pays for it at start-up unless the input is LLVM IR.  The object is
 * looked for next to the b3c executable, then in ../lib/b3c/ beside it (an
 * installed b3c), or where B3C_LLVM_IMPORT names it. */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"

bool b3_input_is_llvm(const char *path, const char *src, size_t len, bool *bitcode) {
    static const unsigned char raw[4] = {'B', 'C', 0xc0, 0xde}, wrapped[4] = {0xde, 0xc0, 0x17, 0x0b};
    if (len >= 4 && (!memcmp(src, raw, 4) || !memcmp(src, wrapped, 4))) {
        *bitcode = true;
        return true;
    }
    *bitcode = false;
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".ll");
}

static void *open_plugin(char *tried, size_t cap) {
    const char *env = getenv("B3C_LLVM_IMPORT");
    if (env && *env) {
        snprintf(tried, cap, "%s", env);
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = 0;
    static const char *const rel[] = {"/b3c-llvm.so", "/../lib/b3c/b3c-llvm.so"};
    for (unsigned i = 0; i < 2; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s%s", exe, rel[i]);
        if (access(path, R_OK))
            continue;
        snprintf(tried, cap, "%s", path);
        return dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    snprintf(tried, cap, "%s/b3c-llvm.so", exe);
    return NULL;
}

bool b3_run_llvm_import(B3Module *m, B3ImportOptions *o) {
    char tried[PATH_MAX + 64] = "";
    void *h = open_plugin(tried, sizeof tried);
    B3ImportLLVMFn *fn = h ? (B3ImportLLVMFn *)dlsym(h, B3_IMPORT_LLVM_SYMBOL) : NULL;
    if (!fn) {
        const char *why = dlerror();
        fprintf(stderr,
                "b3c: error: %s is LLVM IR, but the LLVM-IR front end (%s) cannot be loaded%s%s\n"
                "b3c: note: build it with 'make' (it needs llvm-16-dev)\n",
                o->input, tried, why ? ": " : "", why ? why : "");
        return false;
    }
    return fn(m, o);
}
