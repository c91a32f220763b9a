# Two functions, g without unwind information (../unwind-check.test).
        .text
        .globl _f
_f:
        .cfi_startproc
        pushq %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq %rsp, %rbp
        .cfi_def_cfa_register %rbp
        leal 2(%rdi), %eax
        popq %rbp
        retq
        .cfi_endproc
        .globl _g
_g:
        pushq %rbp
        movq %rsp, %rbp
        leal 2(%rdi), %eax
        popq %rbp
        retq
