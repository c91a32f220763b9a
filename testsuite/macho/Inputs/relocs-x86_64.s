# Every x86-64 relocation type b3c emits, for the loader's own test
# (../loader-x86_64.test): assembled by clang for x86_64-apple-macos11.
        .section __TEXT,__text,regular,pure_instructions
        .globl _call_ext
_call_ext:                        # int call_ext(int): abs() of the host (BRANCH, to a stub)
        jmp _abs
        .globl _call_local
_call_local:                      # long call_local(void): b64 + 1 (BRANCH to a local symbol)
        pushq %rax
        callq _helper
        popq %rcx
        incq %rax
        retq
_helper:
        movq _b64(%rip), %rax     # SIGNED
        retq
        .globl _signed_n
_signed_n:                        # long signed_n(void): stores with an immediate after the displacement
        movb $1, _b8(%rip)        # SIGNED_1
        movw $2, _b16(%rip)       # SIGNED_2
        movl $3, _b32(%rip)       # SIGNED_4
        movsbq _b8(%rip), %rax
        movswq _b16(%rip), %rcx
        addq %rcx, %rax
        movslq _b32(%rip), %rcx
        addq %rcx, %rax           # 6
        retq
        .globl _got_load
_got_load:                        # long got_load(void): host_data[1] (GOT_LOAD)
        movq _host_data@GOTPCREL(%rip), %rax
        movq 8(%rax), %rax
        retq
        .globl _got_data
_got_data:                        # long got_data(void): host_data[2] through a GOT slot named in data (GOT)
        leaq _gotrel(%rip), %rcx
        movslq (%rcx), %rax
        movq (%rcx,%rax), %rax
        movq 16(%rax), %rax
        retq
        .globl _diff
_diff:                            # long diff(void): _b64 - _b8 stored in data (SUBTRACTOR + UNSIGNED)
        movq _d(%rip), %rax
        retq
        .globl _ptr_call
_ptr_call:                        # int ptr_call(int): call_ext through a pointer in data (UNSIGNED)
        jmpq *_fptr(%rip)
        .globl _local_str
_local_str:                       # const char *local_str(void): a temporary label (non-extern SIGNED)
        leaq L_str(%rip), %rax
        retq
        .globl _local_ptr
_local_ptr:                       # const char *local_ptr(void): non-extern UNSIGNED in data
        movq _strp(%rip), %rax
        retq
        .globl _zero
_zero:                            # long zero(void): a zerofill word, then set it
        movq _zbuf+8(%rip), %rax
        movq $5, _zbuf+8(%rip)
        retq

        .section __TEXT,__cstring,cstring_literals
L_str:  .asciz "from the cstring section"

        .section __DATA,__data
_b8:    .byte 0
_b16:   .short 0
        .p2align 2
_b32:   .long 0
        .p2align 3
_b64:   .quad 40
_gotrel: .long _host_data@GOTPCREL+4   # GOT - here (the +4 as in __eh_frame personalities)
        .p2align 3
_d:     .quad _b64 - _b8
_fptr:  .quad _call_ext
_strp:  .quad L_str
        .globl _answer
        .p2align 4
_answer: .quad 42, 43

.zerofill __DATA,__bss,_zbuf,64,6
.subsections_via_symbols
