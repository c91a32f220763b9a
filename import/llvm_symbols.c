/* Symbols beyond plain globals (docs/llvm-import.md): the thread-local
 * access model of a thread_local global, constructors and destructors
 * (docs/c-extensions.md). */
#include <string.h>

#include "import/llvm_internal.h"

static bool module_flag(Imp *I, const char *key) {
    return LLVMGetModuleFlag(I->mod, key, strlen(key)) != NULL;
}

/* The model LLVM's code generator would pick (TargetMachine::getTLSModel):
 * the weakest one the output allows, or the one the IR asks for
 * (-ftls-model, __attribute__((tls_model))) when that is stronger.  A
 * shared library (PIC, not PIE) needs the dynamic models, local-dynamic
 * for a variable that cannot be preempted; an executable (PIE or not)
 * reaches its own variables by local-exec and others by initial-exec. */
void imp_tls_symbol(Imp *I, LLVMValueRef g, B3Symbol *s) {
    LLVMThreadLocalMode mode = LLVMGetThreadLocalMode(g);
    if (mode == LLVMNotThreadLocal)
        return;
    bool shared = module_flag(I, "PIC Level") && !module_flag(I, "PIE Level");
    LLVMLinkage l = LLVMGetLinkage(g);
    bool local =
        l == LLVMInternalLinkage || l == LLVMPrivateLinkage || LLVMGetVisibility(g) != LLVMDefaultVisibility;
    if (!shared)
        local |= !LLVMIsDeclaration(g) && l != LLVMExternalWeakLinkage;
    B3TlsModel model = shared ? (local ? B3Tls_LocalDynamic : B3Tls_GeneralDynamic)
                              : (local ? B3Tls_LocalExec : B3Tls_InitialExec);
    B3TlsModel asked = mode == LLVMLocalExecTLSModel      ? B3Tls_LocalExec
                       : mode == LLVMInitialExecTLSModel  ? B3Tls_InitialExec
                       : mode == LLVMLocalDynamicTLSModel ? B3Tls_LocalDynamic
                                                          : B3Tls_GeneralDynamic;
    s->tls = (uint8_t)(asked > model ? asked : model);
}

/* llvm.global_ctors / llvm.global_dtors: { i32 priority, ptr fn, ptr data }
 * entries, each fn a procedure of this module marked constructor(N) or
 * destructor(N).  The data field names a comdat the entry goes with (C++
 * inline variables); a module that is not split by comdats ignores it. */
static void structors(Imp *I, const char *name, bool dtor) {
    LLVMValueRef g = LLVMGetNamedGlobal(I->mod, name);
    LLVMValueRef init = g ? LLVMGetInitializer(g) : NULL;
    if (!init || LLVMIsAConstantAggregateZero(init))
        return;
    unsigned n = (unsigned)LLVMGetNumOperands(init);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef e = LLVMGetOperand(init, i);
        LLVMValueRef prio = LLVMGetOperand(e, 0), fn = LLVMGetOperand(e, 1);
        if (!LLVMIsAFunction(fn) || LLVMIsDeclaration(fn)) {
            imp_error(I, "%s: '%s' is not a function defined in this module", name, imp_value_name(I, fn));
            continue;
        }
        unsigned long long p = LLVMConstIntGetZExtValue(prio);
        B3Symbol *s = imp_symbol(I, fn);
        int32_t *slot = dtor ? &s->def.proc->dtor_priority : &s->def.proc->ctor_priority;
        if (p > 65535)
            imp_error(I, "%s: the priority %llu of '%s' is above 65535", name, p, imp_value_name(I, fn));
        else if (*slot >= 0)
            imp_error(I, "%s: '%s' is listed twice", name, imp_value_name(I, fn));
        else
            *slot = (int32_t)p;
    }
}

bool imp_is_structors(const char *name, size_t len) {
    return (len == 17 && !memcmp(name, "llvm.global_ctors", 17)) ||
           (len == 17 && !memcmp(name, "llvm.global_dtors", 17));
}

void imp_structors(Imp *I) {
    structors(I, "llvm.global_ctors", false);
    structors(I, "llvm.global_dtors", true);
}

/* llvm.used (__attribute__((used)) on Apple targets, retain on ELF): the
 * linker keeps the symbol, so it is `used` (docs/c-extensions.md).
 * llvm.compiler.used (used on ELF) asks only the compiler to keep it, which
 * b3c always does: it never drops a procedure or datum. */
void imp_used(Imp *I) {
    LLVMValueRef g = LLVMGetNamedGlobal(I->mod, "llvm.used");
    LLVMValueRef init = g ? LLVMGetInitializer(g) : NULL;
    if (!init || LLVMIsAConstantAggregateZero(init))
        return;
    unsigned n = (unsigned)LLVMGetNumOperands(init);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef v = LLVMGetOperand(init, i);
        while (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast)
            v = LLVMGetOperand(v, 0);
        if (LLVMIsAGlobalAlias(v))
            continue; /* aliases are refused where they are declared */
        if (!LLVMIsAGlobalValue(v) || LLVMIsDeclaration(v)) {
            imp_error(I, "llvm.used: '%s' is not a definition of this module", imp_value_name(I, v));
            continue;
        }
        imp_symbol(I, v)->used = true;
    }
}

/* @a = [linkage] alias T, ptr @g (or a constant GEP into @g): the alias
 * @a = @g + offset, through other aliases to the definition.  C's
 * __attribute__((alias("g"))), weak aliases (#pragma weak, weak linkage)
 * and hidden ones. */
void imp_aliases(Imp *I) {
    for (LLVMValueRef a = LLVMGetFirstGlobalAlias(I->mod); a; a = LLVMGetNextGlobalAlias(a)) {
        B3Symbol *s = imp_symbol(I, a);
        if (s->declared)
            continue;
        B3Symbol *t = NULL;
        int64_t off = 0;
        LLVMValueRef v = LLVMAliasGetAliasee(a);
        for (unsigned depth = 0; depth < 64; depth++) {
            int64_t o = 0;
            if (!imp_const_addr(I, v, &t, &o) || !t)
                break;
            off += o;
            LLVMValueRef g = NULL;
            for (LLVMValueRef b = LLVMGetFirstGlobalAlias(I->mod); b && !g; b = LLVMGetNextGlobalAlias(b))
                if (b != a && imp_symbol(I, b) == t)
                    g = b;
            if (!g)
                break;
            v = LLVMAliasGetAliasee(g); /* an alias of an alias: its target */
            t = NULL;
        }
        if (!t || t->kind == B3Sym_Alias || !t->defined) {
            imp_error(I, "the alias '%s' does not name a definition of this module (plus an offset)",
                      imp_value_name(I, a));
            continue;
        }
        s->declared = s->defined = true;
        s->kind = B3Sym_Alias;
        imp_definition_linkage(a, s);
        B3Alias *al = b3_arena_alloc(&I->m->arena, sizeof *al);
        al->target = t;
        al->offset = off;
        s->def.alias = al;
        b3_module_add_item(I->m, B3Item_Alias, s);
    }
}

/* __attribute__((section("name"))): a global's or a function's own section
 * is its data's or procedure's `section("name")` (docs/c-extensions.md),
 * which the validator checks.  On Mach-O a function's "SEG,sect" may end
 * in the attributes clang writes for code, ",regular,pure_instructions":
 * b3c gives a procedure's section those. */
void imp_check_section(Imp *I, LLVMValueRef g) {
    const char *sec = LLVMGetSection(g);
    if (!sec || !*sec || LLVMIsDeclaration(g))
        return;
    /* clang's Darwin static initializers (__GLOBAL_init_N, which register
     * destructors with __cxa_atexit): their own code section only groups
     * start-up code together; in __text they run the same. */
    if (!strncmp(sec, "__TEXT,__StaticInit,", 20) && LLVMIsAFunction(g))
        return;
    size_t n = strlen(sec);
    static const char code_attrs[] = ",regular,pure_instructions";
    size_t na = sizeof code_attrs - 1;
    if (LLVMIsAFunction(g) && b3_target_obj_format(I->m->target) == B3ObjFormat_MachO && n > na &&
        !strcmp(sec + n - na, code_attrs))
        n -= na; /* Mach-O: what b3c writes for a procedure's own section anyway */
    if (LLVMIsAGlobalVariable(g) || LLVMIsAFunction(g)) {
        B3Symbol *s = imp_symbol(I, g);
        char *copy = b3_arena_alloc(&I->m->arena, n + 1);
        memcpy(copy, sec, n);
        copy[n] = 0;
        s->section = copy;
        s->section_len = (uint32_t)n;
        return;
    }
    imp_error(I, "the section \"%s\" of '%s' is not supported yet", sec, imp_value_name(I, g));
}
