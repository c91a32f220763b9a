/* The pipeline: read, parse, validate, then print B3 (--emit=b3) or run the
 * backend (codegen/backend.c) and write an object (--emit=obj) or Air (--emit=air). */
#define _DEFAULT_SOURCE /* madvise's MADV_DONTNEED (posix_madvise's is advisory only) */
#include "cmd/driver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/pipeline.h"
#include "codegen/backend.h"
#include "import/import.h"
#include "ir/ice.h"
#include "ir/ir.h"
#include "objwriter/asm_writer.h"
#include "objwriter/dwarf.h"
#include "parser/parser.h"
#include "util/alloc.h"
#include "util/file.h"

/* A regular file mapped read-only, or NULL (then b3_read_file).  The lexer needs
 * a NUL after the text: the zero fill of the last page gives it, so a size
 * that is a multiple of the page size is read instead. */
static char *map_file(const char *path, size_t *len) {
    if (!strcmp(path, "-"))
        return NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *p = NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 && page > 0 && st.st_size % page) {
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            p = NULL;
        else
            *len = (size_t)st.st_size;
    }
    close(fd);
    return p;
}

/* After parsing, the text is only read to quote a line in a diagnostic:
 * drop its pages (they come back from the file if one is quoted), as the
 * source is a sixth of the peak memory of a large compile. */
static void drop_source_pages(char *src, size_t len, bool mapped) {
    if (mapped)
        madvise(src, len, MADV_DONTNEED);
}

/* The stem of a path: its last component without the extension. */
static char *stem(const char *path) {
    if (!strcmp(path, "-"))
        return strdup("stdin");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *s = b3_xmalloc("driver", n + 1);
    memcpy(s, base, n);
    s[n] = 0;
    return s;
}

/* A bare body's symbol: the stem with every character outside [A-Za-z0-9_] made '_'. */
static char *bare_symbol(const char *path) {
    /* Standard input's is b3c_stdin, not its stem: a symbol "stdin" would
     * define libc's FILE pointer of that name. */
    char *s = strcmp(path, "-") ? stem(path) : strdup("b3c_stdin");
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            *p = '_';
    return s;
}

/* Where an object or Air text goes before it is known to be complete: an
 * internal error (exit 3) or a failed write then leaves no file behind. */
static bool copy_to_output(const char *path, FILE *from, const char *buf, size_t len) {
    B3Output out;
    if (!b3_output_open(&out, path, true))
        return false;
    bool ok = true;
    if (from) {
        char chunk[1 << 14];
        size_t n;
        ok = fseek(from, 0, SEEK_SET) == 0;
        while (ok && (n = fread(chunk, 1, sizeof chunk, from)) > 0)
            ok = fwrite(chunk, 1, n, out.f) == n;
        ok = ok && !ferror(from);
    } else {
        ok = fwrite(buf, 1, len, out.f) == len;
    }
    if (!ok) {
        fprintf(stderr, "b3c: error: cannot write '%s': %s\n", path, strerror(errno));
        b3_output_abort(&out);
        return false;
    }
    return b3_output_commit(&out);
}

bool b3_compile_to_obj(B3Module *m, const B3PipelineOptions *bopt, const char *debug_file, int asm_text,
                       B3Obj *obj) {
    b3_obj_init(obj, m);
    obj->diag = bopt->diag; /* -S reports names the assembler cannot spell */
    obj->no_unwind_tables = bopt->no_unwind_tables;
    if (debug_file)
        b3_obj_enable_debug(obj, debug_file, bopt->debug_prefix_map, bopt->ndebug_prefix_map);
    if (asm_text >= 0)
        obj->asm_text = b3_asm_text_new(asm_text > 0, bopt->verbose_asm);
    if (!b3_pipeline_run(m, bopt, obj))
        return false;
    if (debug_file && asm_text < 0) { /* (-S writes .loc directives instead) */
        /* After every procedure.  Timed as part of writing the object, as it
         * always was. */
        double t0 = b3_now();
        b3_obj_emit_debug(obj);
        if (bopt->times)
            b3_pass_times_add(bopt->times, "write_object", b3_now() - t0);
    }
    return true;
}

void b3_compiled_obj_free(B3Obj *obj) {
    b3_asm_text_free(obj->asm_text);
    obj->asm_text = NULL;
    b3_obj_free(obj);
}

/* --emit=obj: the backend, then the target's object file, rendered into an anonymous
 * temporary before the output file is created.  debug_file: with -g, the
 * input's name for the DWARF line tables; NULL without. */
static int emit_obj(B3Module *m, const B3PipelineOptions *bopt, const char *path, const char *debug_file) {
    B3Obj obj;
    int status = 0;
    if (!b3_compile_to_obj(m, bopt, debug_file, -1, &obj)) {
        status = 1;
        goto done;
    }
    double t0 = b3_now();
    FILE *img = tmpfile();
    bool ok;
    if (img) {
        ok = b3_write_object(&obj, img) && fflush(img) == 0 && !ferror(img);
        if (ok && bopt->times)
            b3_pass_times_add(bopt->times, "write_object", b3_now() - t0);
        ok = ok && copy_to_output(path, img, NULL, 0);
        fclose(img);
    } else {
        /* No temporary directory: write straight to the output's temporary. */
        B3Output out;
        ok = b3_output_open(&out, path, true);
        if (ok && !b3_write_object(&obj, out.f)) {
            b3_output_abort(&out);
            ok = false;
        } else if (ok) {
            ok = b3_output_commit(&out);
        }
        if (ok && bopt->times)
            b3_pass_times_add(bopt->times, "write_object", b3_now() - t0);
    }
    status = ok ? 0 : 1;
done:
    b3_compiled_obj_free(&obj);
    return status;
}

/* --emit=asm: the backend as for an object, with each procedure's
 * instruction text collected (objwriter/asm_writer.h); the assembly is
 * rendered in memory before the output file is created.  exact: keep every
 * jump's size ({disp32}), so the assembled object equals --emit=obj's. */
static int emit_asm(B3Module *m, const B3PipelineOptions *bopt, const char *path, bool exact,
                    const char *debug_file) {
    B3Obj obj;
    char *buf = NULL;
    size_t len = 0;
    int status = 1;
    if (!b3_backend(m->target)->write_asm) {
        fprintf(stderr, "b3c: error: -S is not supported for %s yet; write an object file\n",
                b3_target_name(m->target));
        return 2; /* a usage error, as an unsupported target is */
    }
    if (b3_compile_to_obj(m, bopt, debug_file, exact, &obj)) {
        double t0 = b3_now();
        FILE *mem = open_memstream(&buf, &len);
        if (!mem)
            b3_out_of_memory("write_assembly");
        bool ok = b3_backend(m->target)->write_asm(&obj, mem);
        ok = fclose(mem) == 0 && ok;
        if (ok && bopt->times)
            b3_pass_times_add(bopt->times, "write_assembly", b3_now() - t0);
        status = ok && copy_to_output(path, NULL, buf, len) ? 0 : 1;
    }
    free(buf);
    b3_compiled_obj_free(&obj);
    return status;
}

/* --emit=air: Air after register allocation, collected in memory first. */
static int emit_air(B3Module *m, B3PipelineOptions *bopt, const char *path) {
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        b3_out_of_memory("emit_air");
    bopt->emit_air = mem;
    bool ok = b3_pipeline_run(m, bopt, NULL);
    bopt->emit_air = NULL;
    if (fclose(mem) != 0)
        ok = false;
    ok = ok && copy_to_output(path, NULL, buf, len);
    free(buf);
    return ok ? 0 : 1;
}

/* -o naming the input itself (the same file, by device and inode, however
 * spelled) would replace the source with the object: refused, as gcc does. */
static bool output_is_input(const char *in, const char *out) {
    struct stat si, so;
    if (!strcmp(in, "-") || !strcmp(out, "-") || stat(in, &si) || stat(out, &so))
        return false;
    return si.st_dev == so.st_dev && si.st_ino == so.st_ino;
}

/* -v: what runs, as cc -v prints the commands it runs. */
static void print_plan(const B3Options *o, const char *out_path) {
    static const char *const kinds[] = {"object", "assembly", "B3 IR", "Air"};
    B3Target t = o->target;
    fprintf(stderr, "b3c %s\nTarget: %s (%s)\n", o->version, b3_target_name(t),
            b3_target_obj_format(t) == B3ObjFormat_MachO ? "Mach-O" : "ELF");
    fprintf(stderr, " read %s\n parse, validate\n", o->input);
    unsigned level = 1u << o->opt_level;
    for (int ir = B3PhaseIR_B3; ir <= B3PhaseIR_Air; ir++) {
        if (o->emit == B3Emit_B3 && (ir == B3PhaseIR_Air || o->opt_level == 0))
            break; /* --emit=b3 -O0 prints the input unchanged */
        fprintf(stderr, " %s phases (-O%d):", ir == B3PhaseIR_B3 ? "B3" : "Air", o->opt_level);
        bool any = false;
        for (unsigned i = 0; i < b3_pipeline_n; i++) {
            const B3Phase *ph = &b3_pipeline[i];
            if (ph->ir != ir || !(ph->levels & level))
                continue;
            fprintf(stderr, "%s %s", any ? "," : "", ph->name);
            any = true;
            if (o->emit == B3Emit_Air && (ph->flags & B3PhaseF_EmitAirAfter))
                break;
        }
        fprintf(stderr, "%s\n", any ? "" : " none");
    }
    fprintf(stderr, " write %s (%s)\n", strcmp(out_path, "-") ? out_path : "<stdout>", kinds[o->emit]);
}

static void print_b3(const void *m, const struct B3Proc *p, FILE *out) { b3_print_proc(m, p, out); }

int b3_drive(const B3Options *o) {
    /* Usage problems first, before any input is read. */
    if (o->emit != B3Emit_B3 && !b3_backend_supports(o->target)) {
        fprintf(stderr, "b3c: error: code generation for %s is not supported yet (only --emit=b3 is)\n",
                b3_target_name(o->target));
        return 2;
    }

    char *default_path = NULL;
    const char *out_path = o->output;
    if (!out_path) {
        if (o->emit == B3Emit_B3 || o->emit == B3Emit_Air) {
            out_path = "-";
        } else {
            char *s = stem(o->input);
            default_path = b3_xmalloc("driver", strlen(s) + 3);
            sprintf(default_path, "%s.%s", s, o->emit == B3Emit_Asm ? "s" : "o");
            free(s);
            out_path = default_path;
        }
    }
    if (output_is_input(o->input, out_path)) {
        fprintf(stderr, "b3c: error: input file '%s' is the same as output file\n", o->input);
        free(default_path);
        return 1;
    }
    if (o->verbose)
        print_plan(o, out_path);

    B3PassTimes times = {0};
    B3PassTimes *tp = o->time_passes ? &times : NULL;
    double t0 = b3_now();
    size_t len = 0;
    char *src = map_file(o->input, &len);
    bool mapped = src != NULL;
    if (!mapped)
        src = strcmp(o->input, "-") ? b3_read_file(o->input, &len) : b3_read_stream(stdin, &len);
    if (!src) {
        fprintf(stderr, "b3c: error: cannot read '%s': %s\n", o->input, strerror(errno));
        free(default_path);
        return 1;
    }
    const char *shown = strcmp(o->input, "-") ? o->input : "<stdin>";
    B3Diag diag;
    b3_diag_init(&diag, shown, src, len);
    diag.color = b3_diag_want_color(o->color);
    diag.warn_mode = o->warnings;
    /* The front end's messages in file order (the validator checks in passes). */
    b3_diag_hold(&diag);
    B3Module m;
    b3_module_init(&m, o->target);
    m.target_features = o->target_features;
    B3Ice ice = {.diag = &diag, .module = &m, .print_b3 = print_b3, .dump_ir = o->debug_internal};
    b3_ice_install(&ice);
    b3_ice_enter("parse", NULL);
    char *bare = o->name ? NULL : bare_symbol(o->input);
    B3ParseOptions popt = {o->name ? o->name : bare, o->no_fast_parse};

    int status = 0;
    bool bitcode = false;
    const char *debug_file = shown;
    bool ok;
    if (b3_input_is_llvm(o->input, src, len, &bitcode)) {
        /* LLVM IR: the front end in b3c-llvm.so; messages name the C source
         * (its !dbg lines) or the .ll text. */
        b3_ice_enter("import", NULL);
        B3ImportOptions iopt = {
            .input = shown, .src = src, .len = len, .bitcode = bitcode, .diag = &diag, .leave_llvm = true};
        ok = b3_run_llvm_import(&m, &iopt);
        if (iopt.source_file)
            debug_file = iopt.source_file;
        if (tp)
            b3_pass_times_add(tp, "import", b3_now() - t0);
    } else {
        ok = b3_parse(&m, &diag, src, len, &popt);
        if (tp)
            b3_pass_times_add(tp, "parse", b3_now() - t0);
    }
    if (ok) {
        t0 = b3_now();
        b3_ice_enter("validate", NULL);
        ok = b3_validate(&m, &diag);
        if (ok)
            b3_warn_module(&m, &diag);
        if (tp)
            b3_pass_times_add(tp, "validate", b3_now() - t0);
    }
    b3_diag_release(&diag);
    if (!ok || b3_diag_failed(&diag)) {
        status = 1;
        goto done;
    }
    drop_source_pages(src, len, mapped);

    B3PipelineOptions bopt = {
        .opt_level = o->opt_level,
        .verify_each = o->verify_each,
        .print_after = o->print_after,
        .times = tp,
        .diag = &diag,
        .inject_internal_error = o->inject_internal_error,
        /* Default: omitted at -O2 (as gcc); -g changes no code, so it keeps
         * the default too: -fno-omit-frame-pointer for rbp-chain unwinding. */
        .omit_frame_pointer = o->opt_level >= 2 && o->frame_pointer >= 0,
        .no_unwind_tables = o->no_unwind_tables,
        .verbose_asm = o->verbose_asm,
        .debug_prefix_map = o->debug_prefix_map,
        .ndebug_prefix_map = o->ndebug_prefix_map,
    };
    switch (o->emit) {
    case B3Emit_B3: {
        b3_pipeline_run_b3(&m, &bopt);
        b3_ice_enter("print", NULL);
        B3Output out;
        if (!b3_output_open(&out, out_path, false)) {
            status = 1;
            break;
        }
        b3_print_module(&m, out.f);
        if (!b3_output_commit(&out))
            status = 1;
        break;
    }
    case B3Emit_Obj:
        status = emit_obj(&m, &bopt, out_path, o->debug_info ? debug_file : NULL);
        break;
    case B3Emit_Air:
        status = emit_air(&m, &bopt, out_path);
        break;
    case B3Emit_Asm:
        status = emit_asm(&m, &bopt, out_path, o->asm_exact, o->debug_info ? debug_file : NULL);
        break;
    }
done:
    b3_ice_install(NULL);
    if (tp)
        b3_pass_times_print(tp, stderr);
    free(default_path);
    free(bare);
    b3_module_free(&m);
    b3_diag_free(&diag);
    if (mapped)
        munmap(src, len);
    else
        free(src);
    return status;
}
