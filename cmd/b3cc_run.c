/* b3cc: command lines, running them, and the temporary directory. */
#include "cmd/b3cc_run.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/vec.h"

/* b3cc's out-of-memory policy for util/alloc.h: a driver has no phases or
 * procedures to name, so it says what ran out and stops, as cc does. */
void b3_out_of_memory(const char *phase) {
    (void)phase;
    fputs("b3cc: error: out of memory\n", stderr);
    exit(1);
}

char *b3cc_xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    return memcpy(b3_xmalloc("b3cc", n), s, n);
}

void b3cc_push(B3ccArgs *a, const char *arg) {
    B3_VEC_RESERVE("b3cc", a->v, a->cap, (size_t)a->n + 2); /* and the NULL after the last */
    a->v[a->n++] = b3cc_xstrdup(arg);
    a->v[a->n] = NULL;
}

void b3cc_push_all(B3ccArgs *a, const B3ccArgs *from) {
    for (int i = 0; i < from->n; i++)
        b3cc_push(a, from->v[i]);
}

void b3cc_pushf(B3ccArgs *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = b3_xmalloc("b3cc", (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b3cc_push(a, s);
    free(s);
}

/* Characters a POSIX shell takes literally in an unquoted word. */
static bool shell_plain(const char *s) {
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%", *s))
            return false;
    return true;
}

void b3cc_print_command(FILE *f, const B3ccArgs *cmd) {
    for (int i = 0; i < cmd->n; i++) {
        const char *s = cmd->v[i];
        if (i)
            fputc(' ', f);
        if (shell_plain(s)) {
            fputs(s, f);
            continue;
        }
        fputc('\'', f);
        for (; *s; s++) {
            if (*s == '\'')
                fputs("'\\''", f);
            else
                fputc(*s, f);
        }
        fputc('\'', f);
    }
    fputc('\n', f);
    fflush(f);
}

bool b3cc_run(const B3ccArgs *cmd) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "b3cc: error: cannot start '%s': %s\n", cmd->v[0], strerror(errno));
        return false;
    }
    if (pid == 0) {
        execvp(cmd->v[0], cmd->v);
        fprintf(stderr, "b3cc: error: cannot run '%s': %s\n", cmd->v[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "b3cc: error: waiting for '%s': %s\n", cmd->v[0], strerror(errno));
            return false;
        }
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "b3cc: error: '%s' was killed by signal %d (%s)\n", cmd->v[0], WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        return false;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the temporary directory ---------------------------------------------- */

static char *tmp_dir;       /* NULL until made */
static bool tmp_dir_exists; /* false under -### */
/* Every path handed out, so that cleanup (also from a signal handler, where
 * only unlink and rmdir may be called) removes exactly those. */
static char **tmp_files;
static volatile int tmp_count;
static int tmp_cap;

/* Async-signal-safe: only the paths handed out. */
static void remove_tmp_files(void) {
    for (int i = 0; i < tmp_count; i++)
        unlink(tmp_files[i]);
    if (tmp_dir_exists)
        rmdir(tmp_dir);
}

void b3cc_cleanup(void) {
    remove_tmp_files();
    if (!tmp_dir_exists)
        return;
    /* Anything else a tool left there (a crashed tool's own temporary). */
    DIR *dir = opendir(tmp_dir);
    if (dir) {
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            size_t n = strlen(tmp_dir) + strlen(e->d_name) + 2;
            char *path = b3_xmalloc("b3cc", n);
            snprintf(path, n, "%s/%s", tmp_dir, e->d_name);
            unlink(path);
            free(path);
        }
        closedir(dir);
    }
    rmdir(tmp_dir);
    tmp_dir_exists = false;
}

static void on_signal(int sig) {
    remove_tmp_files();
    signal(sig, SIG_DFL);
    raise(sig);
}

const char *b3cc_tmpdir(bool dry_run) {
    if (tmp_dir)
        return tmp_dir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    size_t n = strlen(base) + sizeof "/b3cc-XXXXXX";
    tmp_dir = b3_xmalloc("b3cc", n);
    snprintf(tmp_dir, n, "%s/b3cc-XXXXXX", base);
    if (!mkdtemp(tmp_dir)) {
        fprintf(stderr, "b3cc: error: cannot create a temporary directory in %s: %s\n", base,
                strerror(errno));
        exit(1);
    }
    if (dry_run) {
        /* A real, fresh name; the printed commands start by making it. */
        rmdir(tmp_dir);
        return tmp_dir;
    }
    tmp_dir_exists = true;
    atexit(b3cc_cleanup);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    return tmp_dir;
}

char *b3cc_tmpfile(const char *stem, const char *ext, bool dry_run) {
    const char *dir = b3cc_tmpdir(dry_run);
    size_t n = strlen(dir) + strlen(stem) + strlen(ext) + 32;
    char *path = b3_xmalloc("b3cc", n);
    for (int k = 0;; k++) {
        if (k == 0)
            snprintf(path, n, "%s/%s%s", dir, stem, ext);
        else
            snprintf(path, n, "%s/%s.%d%s", dir, stem, k, ext);
        bool used = false;
        for (int i = 0; i < tmp_count && !used; i++)
            used = strcmp(tmp_files[i], path) == 0;
        if (!used)
            break;
    }
    if (tmp_count == tmp_cap) {
        size_t cap = b3_vec_capacity(tmp_cap, tmp_count + 1);
        char **v = b3_xmalloc("b3cc", sizeof *v * cap);
        if (tmp_count)
            memcpy(v, tmp_files, sizeof *v * (size_t)tmp_count);
        char **old = tmp_files;
        tmp_files = v; /* the handler never sees a half-copied array */
        free(old);
        tmp_cap = cap;
    }
    tmp_files[tmp_count] = path;
    tmp_count = tmp_count + 1;
    return path;
}
