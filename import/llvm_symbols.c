/* Symbols beyond plain globals (docs/llvm-import.md): the thread-local
 * access model of a thread_local global (docs/c-extensions.md). */
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
