/* Replays fuzz inputs without libFuzzer:
 *
 *   replay [-v] [--cover OUT] FILE|DIR...
 *
 * Every file named (and every regular file in a directory named, in name
 * order) runs through b3_fuzz_one once.  Exit status 0 if all passed, 1 if a
 * property failed for any; a sanitizer report ends the run at once, after
 * naming the input.
 *
 * In the coverage build (fuzz.mk MODE=cover: -fsanitize-coverage=trace-pc-guard,
 * B3_FUZZ_COVER defined), --cover OUT writes one line per input to OUT:
 * the path, a tab, and the numbers of the coverage edges it hit.
 * testsuite/fuzz/cover.py picks a small corpus from that. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testsuite/fuzz/fuzz.h"

/* From the sanitizer runtime, when linked in (weak: absent without it). */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

#ifdef B3_FUZZ_COVER
/* SanitizerCoverage callbacks (this file is compiled without coverage). */
static uint8_t *cov_hit;
static uint32_t cov_n;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start)
        return;
    uint32_t first = cov_n + 1;
    for (uint32_t *g = start; g < stop; g++)
        *g = ++cov_n;
    cov_hit = realloc(cov_hit, cov_n + 1);
    memset(cov_hit + first, 0, cov_n + 1 - first);
    if (first == 1)
        cov_hit[0] = 0;
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    if (*guard)
        cov_hit[*guard] = 1;
}
#endif

static FILE *cover_out;
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
#ifdef B3_FUZZ_COVER
    if (cover_out) {
        fputs(path, cover_out);
        fputc('\t', cover_out);
        for (uint32_t i = 1; i <= cov_n; i++) {
            if (cov_hit[i]) {
                fprintf(cover_out, " %u", i);
                cov_hit[i] = 0;
            }
        }
        fputc('\n', cover_out);
    }
#endif
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
    for (; first < argc; first++) {
        if (!strcmp(argv[first], "-v")) {
            verbose = true;
        } else if (!strcmp(argv[first], "--cover") && first + 1 < argc) {
#ifndef B3_FUZZ_COVER
            fprintf(stderr, "%s: --cover needs the coverage build (fuzz.mk MODE=cover)\n", argv[0]);
            return 2;
#endif
            cover_out = fopen(argv[++first], "w");
            if (!cover_out) {
                perror(argv[first]);
                return 2;
            }
        } else {
            break;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] [--cover OUT] FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++)
        run_path(argv[i]);
    if (cover_out)
        fclose(cover_out);
    printf("replay: %u inputs, %u failed\n", ran, failed);
    return failed ? 1 : 0;
}
