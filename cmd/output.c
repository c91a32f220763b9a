/* realpath is an X/Open extension. */
#define _XOPEN_SOURCE 700

#include "cmd/output.h"
#include "util/alloc.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool b3_output_open(B3Output *o, const char *path, bool binary) {
    (void)binary;
    o->path = path;
    o->tmp = NULL;
    o->real = NULL;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        return true;
    }
    /* Devices, FIFOs and the like are written in place: renaming a
     * temporary over /dev/null would replace the device with a file. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->f = fopen(path, binary ? "wb" : "w");
        if (!o->f)
            fprintf(stderr, "b3c: error: cannot write '%s': %s\n", path, strerror(errno));
        return o->f != NULL;
    }
    /* Write through a symlink, as other compilers do, by renaming onto its target. */
    char *real = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)) != NULL)
        path = o->path = real;
    o->real = real;
    size_t n = strlen(path);
    o->tmp = b3_xmalloc("output", n + 16);
    snprintf(o->tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fprintf(stderr, "b3c: error: cannot write '%s': %s\n", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        free(o->real);
        o->real = NULL;
        return false;
    }
    /* mkstemp makes 0600; give the file the usual permissions. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "wb");
    return o->f != NULL;
}

bool b3_output_commit(B3Output *o) {
    if (!o->tmp) {
        bool ok = fflush(o->f) == 0 && !ferror(o->f);
        if (o->f != stdout)
            ok = fclose(o->f) == 0 && ok;
        o->f = NULL;
        return ok;
    }
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    ok = fclose(o->f) == 0 && ok;
    o->f = NULL;
    if (ok && rename(o->tmp, o->path) != 0) {
        fprintf(stderr, "b3c: error: cannot write '%s': %s\n", o->path, strerror(errno));
        ok = false;
    } else if (!ok) {
        fprintf(stderr, "b3c: error: cannot write '%s': %s\n", o->path, strerror(errno));
    }
    if (!ok)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    free(o->real);
    o->real = NULL;
    return ok;
}

void b3_output_abort(B3Output *o) {
    if (!o->tmp && o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp) {
        if (o->f)
            fclose(o->f);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    free(o->real);
    o->real = NULL;
    o->f = NULL;
}
