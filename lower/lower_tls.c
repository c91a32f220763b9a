/* ThreadLocalAddress (docs/c-extensions.md): this thread's address of a
 * threadlocal symbol.
 *
 * On ELF, local-exec and initial-exec are a few instructions from the
 * thread pointer: the Air opcode ThreadLocalAddress, whose Sym arg names
 * the variable (its model is the symbol's).  General- and local-dynamic,
 * and every access on Mach-O (thread-local variable descriptors), call
 * into the runtime: a Call whose callee is the thread-local symbol itself
 * stands for that call sequence, which the target's emitter writes
 * (__tls_get_addr, a TLS descriptor, or the descriptor's thunk).  It is
 * a call to the allocators and the frame (the C convention's clobbers,
 * an aligned stack, a saved link register), and the address comes back in
 * the C result register. */
#include "lower/lower_internal.h"

/* Is s accessed by the inline sequence (else by the runtime call)? */
static bool tls_inline(const Lower *L, const B3Symbol *s) {
    return b3_target_obj_format(L->c->target) == B3ObjFormat_ELF &&
           (s->tls == B3Tls_InitialExec || s->tls == B3Tls_LocalExec);
}

void lower_thread_local_address(Lower *L, B3Value *v) {
    AirTmp r = lower_vt(L, v);
    B3Symbol *s = v->m.symbol.sym;
    if (tls_inline(L, s)) {
        EMIT(L, ThreadLocalAddress, air_sym(s, 0, false), lower_tmp_arg(r));
    } else {
        B3Reg rr = lower_c_result_reg(L, B3_Int64);
        AirArg *args = b3_arena_alloc(L->c->arena, 2 * sizeof *args);
        AirSpecial *sp = lower_new_special(L, 2);
        uint32_t k = 0;
        lower_special_arg(sp, args, &k, air_sym(s, 0, false), AirRole_Use, B3_Int64);
        lower_special_arg(sp, args, &k, lower_tmp_arg(rr), AirRole_Def, B3_Int64);
        lower_add_call_clobbers(L, sp);
        AirCallInfo *info = b3_arena_alloc(L->c->arena, sizeof *info);
        info->nfprs = 0;
        sp->data = info;
        lower_emit_special(L, Air_Call, 2, args, sp);
        EMIT(L, Move, lower_tmp_arg(rr), lower_tmp_arg(r));
    }
    int64_t off = v->m.symbol.offset;
    if (off && b3_fits32(off)) {
        EMIT(L, Add64, air_imm(off), lower_tmp_arg(r));
    } else if (off) {
        AirTmp t = lower_newtmp(L, AirGP);
        EMIT(L, Move, air_bigimm(off), lower_tmp_arg(t));
        EMIT(L, Add64, lower_tmp_arg(t), lower_tmp_arg(r));
    }
}
