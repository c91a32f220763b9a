/* Replays fuzz inputs without libFuzzer: `replay [-v] FILE|DIR...`.
 *
 * Every file named (and every regular file in a directory named, in name
 * order) runs through b3_fuzz_one once.  Exit status 0 if all passed, 1 if a
 * property failed for any; a sanitizer report ends the run at once, after
 * naming the input. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testsuite/fuzz/fuzz.h"

/* From the sanitizer runtime, when linked in (weak: absent without it). */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static const char *current;
static unsigned ran, failed;
static bool verbose;

static void on_death(void) {
    fprintf(stderr, "replay: the report above is for input '%s'\n", current ? current : "?");
}

static void run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        failed++;
        return;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    current = path;
    if (verbose)
        fprintf(stderr, "replay: %s\n", path);
    static char why[1 << 16];
    if (!b3_fuzz_one(buf, n, why, sizeof why)) {
        fprintf(stderr, "replay: FAILED %s: %s\n", path, why);
        failed++;
    }
    ran++;
    current = NULL;
    free(buf);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        failed++;
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        failed++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap)
            names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_death);
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "-v")) {
        verbose = true;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++)
        run_path(argv[i]);
    printf("replay: %u inputs, %u failed\n", ran, failed);
    return failed ? 1 : 0;
}
