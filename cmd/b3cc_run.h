/* b3cc: command lines, running them, and the temporary directory.
 *
 * A command is an argument vector built up with b3cc_push; the driver plans
 * every command first, then either prints them (-###) or runs them in order,
 * stopping at the first that fails.  Temporary files live in one directory
 * under $TMPDIR, removed at exit and on SIGINT, SIGTERM and SIGHUP. */
#ifndef B3CC_RUN_H
#define B3CC_RUN_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    char **v; /* NULL-terminated once b3cc_push has been called */
    int n, cap;
} B3ccArgs;

/* Appends a copy of `arg`. */
void b3cc_push(B3ccArgs *a, const char *arg);
/* Appends every argument of `from`. */
void b3cc_push_all(B3ccArgs *a, const B3ccArgs *from);
/* Appends a formatted argument. */
void b3cc_pushf(B3ccArgs *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints the command on one line, each argument quoted for a POSIX shell
 * when it needs to be, so the line can be pasted into one. */
void b3cc_print_command(FILE *f, const B3ccArgs *cmd);

/* Runs the command and waits for it.  True when it exits with status 0;
 * otherwise the tool has said why (or, when it could not be started or was
 * killed by a signal, b3cc says so on stderr). */
bool b3cc_run(const B3ccArgs *cmd);

/* The temporary directory (created on the first call unless `dry_run`, when
 * only a fresh name is made), and a path in it for `stem` + `ext` that no
 * other call has returned. */
const char *b3cc_tmpdir(bool dry_run);
char *b3cc_tmpfile(const char *stem, const char *ext, bool dry_run);
/* Removes the temporary files and the directory (registered with atexit and
 * the signal handlers by the first b3cc_tmpdir). */
void b3cc_cleanup(void);

/* Allocation that exits on failure. */
char *b3cc_xstrdup(const char *s);

#endif
