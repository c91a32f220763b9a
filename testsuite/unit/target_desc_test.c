/* The target descriptions (ir/target.h, codegen/<arch>/target_desc.c): the
 * facts the shared code relies on, checked for every target, so that a new
 * description (or a change to one) cannot break them silently. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "objwriter/obj.h"

static int failures;

#define CHECK(cond, ...)                                           \
    do {                                                           \
        if (!(cond)) {                                             \
            failures++;                                            \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            printf(__VA_ARGS__);                                   \
            printf("\n");                                          \
        }                                                          \
    } while (0)

static bool in(const B3RegSet *s, B3Reg r) { return b3_regset_has(s, r); }

static void check_order(B3Target t, const B3TargetDesc *d, const B3Reg *order, unsigned n, bool fpr) {
    B3RegSet seen = {{0, 0}};
    bool callee_seen = false;
    for (unsigned i = 0; i < n; i++) {
        B3Reg r = order[i];
        CHECK(b3_reg_valid(t, r) && b3_reg_is_fpr(r) == fpr, "%s: order[%u] = %u", d->name, i, r);
        CHECK(r != d->frame_pointer && r != d->stack_pointer, "%s: frame register %u allocatable", d->name,
              r);
        CHECK(!in(&seen, r), "%s: %s twice in the allocation order", d->name, b3_reg_name(t, r));
        b3_regset_add(&seen, r);
        CHECK(!in(&d->reserved, r), "%s: reserved %s is allocatable", d->name, b3_reg_name(t, r));
        CHECK(in(&d->caller_saved, r) != in(&d->callee_saved, r), "%s: %s is %s", d->name, b3_reg_name(t, r),
              in(&d->caller_saved, r) ? "caller- and callee-saved" : "neither caller- nor callee-saved");
        /* Caller-saved first: a callee-saved register costs a save. */
        if (in(&d->callee_saved, r))
            callee_seen = true;
        else
            CHECK(!callee_seen, "%s: caller-saved %s after a callee-saved one", d->name, b3_reg_name(t, r));
    }
}

static void check_target(const char *triple) {
    B3Target t;
    CHECK(b3_target_parse(triple, &t), "%s", triple);
    const B3TargetDesc *d = b3_target_desc(t);
    /* Names read back. */
    for (unsigned r = 0; r < 64; r++) {
        if (!b3_reg_valid(t, (B3Reg)r))
            continue;
        const char *name = b3_reg_name(t, (B3Reg)r);
        CHECK(b3_reg_parse(t, name, strlen(name), NULL) == r, "%s: %s", d->name, name);
    }
    CHECK(b3_reg_parse(t, "argumentGPR0", 12, NULL) == d->arg_gprs[0], "%s", d->name);
    CHECK(b3_reg_parse(t, "returnValueFPR", 14, NULL) == d->ret_fpr, "%s", d->name);
    check_order(t, d, d->gp_order, d->ngp_order, false);
    check_order(t, d, d->fp_order, d->nfp_order, true);
    /* The convention's registers. */
    for (unsigned i = 0; i < d->narg_gprs; i++)
        CHECK(!b3_reg_is_fpr(d->arg_gprs[i]) && in(&d->caller_saved, d->arg_gprs[i]), "%s: arg gpr %u",
              d->name, i);
    for (unsigned i = 0; i < d->narg_fprs; i++)
        CHECK(b3_reg_is_fpr(d->arg_fprs[i]) && in(&d->caller_saved, d->arg_fprs[i]), "%s: arg fpr %u",
              d->name, i);
    CHECK(in(&d->caller_saved, d->ret_gpr) && in(&d->caller_saved, d->ret_fpr), "%s: result registers",
          d->name);
    /* The result registers of each bank: the first is ret_gpr / ret_fpr, all
     * caller-saved, of their bank, room for a two-value result of one bank. */
    CHECK(d->nret_gprs >= 2 && d->nret_fprs >= 2 && d->nret_fprs <= B3_MAX_RESULTS &&
              d->ret_gprs[0] == d->ret_gpr && d->ret_fprs[0] == d->ret_fpr,
          "%s: result register lists", d->name);
    for (unsigned i = 0; i < d->nret_gprs; i++)
        CHECK(!b3_reg_is_fpr(d->ret_gprs[i]) && in(&d->caller_saved, d->ret_gprs[i]), "%s: result gpr %u",
              d->name, i);
    for (unsigned i = 0; i < d->nret_fprs; i++)
        CHECK(b3_reg_is_fpr(d->ret_fprs[i]) && in(&d->caller_saved, d->ret_fprs[i]), "%s: result fpr %u",
              d->name, i);
    CHECK(in(&d->caller_saved, d->indirect_call_reg), "%s: indirect call register", d->name);
    for (unsigned i = 0; i < d->narg_gprs; i++)
        CHECK(d->arg_gprs[i] != d->indirect_call_reg, "%s: the indirect call register is an argument",
              d->name);
    CHECK(!in(&d->caller_saved, d->frame_pointer) && !in(&d->caller_saved, d->stack_pointer), "%s", d->name);
    CHECK(d->insn_align >= 1, "%s", d->name);
    /* DWARF numbers (stackmap locations): one per register, no two alike. */
    CHECK(d->dwarf_gprs != NULL, "%s: no DWARF register numbers", d->name);
    for (unsigned i = 0; i < d->ngprs; i++) {
        for (unsigned j = 0; j < i; j++)
            CHECK(d->dwarf_gprs[i] != d->dwarf_gprs[j], "%s: DWARF number of GPRs %u and %u", d->name, j, i);
        CHECK(d->dwarf_gprs[i] < d->dwarf_fpr_base || d->dwarf_gprs[i] >= d->dwarf_fpr_base + d->nfprs,
              "%s: DWARF number of GPR %u is an FPR's", d->name, i);
    }
    /* A reserved register is in no clobber set and no convention role. */
    for (unsigned r = 0; r < 128; r++)
        if (in(&d->reserved, (B3Reg)r))
            CHECK(!in(&d->caller_saved, (B3Reg)r) && !in(&d->callee_saved, (B3Reg)r) &&
                      !in(&d->call_early_clobber, (B3Reg)r) && r != d->indirect_call_reg,
                  "%s: reserved register %u has a role", d->name, r);
    /* The classifier: each bank's registers in order, then the stack in
     * 8-byte slots (as every 8-byte type takes on every convention). */
    uint8_t types[20];
    B3Reg where[20];
    uint32_t off[20];
    for (unsigned i = 0; i < 20; i++)
        types[i] = i % 2 ? B3_Double : B3_Int64;
    uint32_t area = d->classify_args(d, 20, types, NULL, -1, where, off), nstack = 0;
    for (unsigned i = 0; i < 20; i++) {
        unsigned k = i / 2;
        B3Reg want = i % 2 ? (k < d->narg_fprs ? d->arg_fprs[k] : B3_NO_REG)
                           : (k < d->narg_gprs ? d->arg_gprs[k] : B3_NO_REG);
        CHECK(where[i] == want, "%s: argument %u in %u, not %u", d->name, i, where[i], want);
        if (where[i] == B3_NO_REG) {
            CHECK(off[i] == 8 * nstack, "%s: argument %u at %u, not %u", d->name, i, off[i], 8 * nstack);
            nstack++;
        }
    }
    CHECK(area == 8 * nstack, "%s: area %u", d->name, area);
    /* Int32/Float stack arguments and variadic ones: print where they go
     * (FileCheck checks each convention's rule). */
    static const uint8_t mix[] = {B3_Int64, B3_Int64, B3_Int64, B3_Int64, B3_Int64, B3_Int64, B3_Int64,
                                  B3_Int64, B3_Int32, B3_Int64, B3_Int32, B3_Float, B3_Int32, B3_Double};
    enum { NMIX = sizeof mix / sizeof mix[0] };
    for (int nfixed = -1; nfixed <= 1; nfixed += 2) {
        area = d->classify_args(d, NMIX, mix, NULL, nfixed, where, off);
        printf("%s variadic=%d:", triple, nfixed);
        for (unsigned i = 0; i < NMIX; i++)
            if (where[i] == B3_NO_REG)
                printf(" %u@%u", i, off[i]);
            else
                printf(" %u:%s", i, b3_reg_name(t, where[i]));
        printf(" area %u\n", area);
    }
    printf("%s: %s, %u+%u allocatable, %u+%u argument registers\n", triple, d->name, d->ngp_order,
           d->nfp_order, d->narg_gprs, d->narg_fprs);
}

/* The target table (ir/target.c): each row's triple and other spellings
 * parse to that row, its name reads back, --help's order is the table's,
 * and no two rows are one target. */
static void check_table(void) {
    B3Target t;
    for (unsigned i = 0; i < B3_NUM_TARGETS; i++) {
        const B3TargetRow *r = &b3_targets[i];
        CHECK(r->desc != NULL, "%s: no description", r->triple);
        CHECK(b3_target_parse(r->triple, &t) && b3_target_id(t) == i, "%s: parses to another row", r->triple);
        CHECK(!strcmp(b3_target_name(t), r->triple), "%s: named %s", r->triple, b3_target_name(t));
        for (const char *const *s = r->spellings; s && *s; s++)
            CHECK(b3_target_parse(*s, &t) && b3_target_id(t) == i, "%s: spelling %s parses elsewhere",
                  r->triple, *s);
        CHECK(b3_target_nth(i, &t) && b3_target_id(t) == i, "%s: not --help's %u-th", r->triple, i);
    }
    CHECK(!b3_target_nth(B3_NUM_TARGETS, &t), "a target past the table");
}

int main(void) {
    check_table();
    check_target("x86_64-linux-gnu");
    check_target("aarch64-linux-gnu");
    check_target("arm64-apple-macos");
    /* Every relocation kind of each target has an ELF type, the other
     * target's kinds have none, and a kind's use (reloc_use) is given only
     * for kinds the target has, with a GOT kind among them. */
    B3Target x86, a64;
    b3_target_parse("x86_64-linux-gnu", &x86);
    b3_target_parse("aarch64-linux-gnu", &a64);
    const B3TargetDesc *descs[2] = {b3_target_desc(x86), b3_target_desc(a64)};
    for (int t = 0; t < 2; t++) {
        const B3TargetDesc *d = descs[t];
        bool got = false;
        for (unsigned k = 0; k <= B3Reloc_A64_TlvpPageoff12; k++) {
            bool shared = k <= B3Reloc_Abs32;
            /* The Mach-O-only kinds (TLV) have no ELF type. */
            bool own = t == 0 ? k >= B3Reloc_X86_PLT32 && k <= B3Reloc_X86_TLSGD
                              : k >= B3Reloc_A64_Call26 && k <= B3Reloc_A64_TlsdescCall;
            bool has = k < d->nelf_relocs && d->elf_relocs[k];
            CHECK(has == (shared || own), "%s: relocation kind %u", d->name, k);
            B3RelocUse use = b3_reloc_use(d, (B3RelocKind)k);
            CHECK(use == B3RelocUse_Plain || has, "%s: a use for kind %u it lacks", d->name, k);
            got |= use == B3RelocUse_GOT;
        }
        CHECK(got, "%s: no GOT relocation", d->name);
        CHECK(b3_reloc_use(d, B3Reloc_PC32) == B3RelocUse_PCAddress, "%s: PC32 is a PC-relative address",
              d->name);
    }
    printf("%d failures\n", failures);
    return failures != 0;
}
