// Every arm64 relocation type b3c emits, for the loader's own test
// (../loader-arm64.test): assembled by clang for arm64-apple-macos11.
        .section __TEXT,__text,regular,pure_instructions
        .globl _call_ext
        .p2align 2
_call_ext:                        // int call_ext(int): abs() of the host (BRANCH26, to a stub)
        b _abs
        .globl _call_local
_call_local:                      // long call_local(void): b64 + 1 (BRANCH26 to a local symbol)
        stp x29, x30, [sp, #-16]!
        bl _helper
        add x0, x0, #1
        ldp x29, x30, [sp], #16
        ret
_helper:
        adrp x8, _b64@PAGE        // PAGE21
        ldr x0, [x8, _b64@PAGEOFF] // PAGEOFF12, scaled by 8
        ret
        .globl _signed_n
_signed_n:                        // long signed_n(void): byte, half and word accesses (PAGEOFF12 scaled 1, 2, 4)
        mov w9, #1
        adrp x8, _b8@PAGE
        strb w9, [x8, _b8@PAGEOFF]
        mov w9, #2
        adrp x8, _b16@PAGE
        strh w9, [x8, _b16@PAGEOFF]
        mov w9, #3
        adrp x8, _b32@PAGE
        str w9, [x8, _b32@PAGEOFF]
        adrp x8, _b8@PAGE
        add x8, x8, _b8@PAGEOFF   // PAGEOFF12 of an add
        ldrsb x0, [x8]
        ldrsh x9, [x8, #2]
        add x0, x0, x9
        ldrsw x9, [x8, #4]
        add x0, x0, x9            // 6
        ret
        .globl _got_load
_got_load:                        // long got_load(void): host_data[1] (GOT_LOAD_PAGE21, GOT_LOAD_PAGEOFF12)
        adrp x8, _host_data@GOTPAGE
        ldr x8, [x8, _host_data@GOTPAGEOFF]
        ldr x0, [x8, #8]
        ret
        .globl _got_data
_got_data:                        // long got_data(void): host_data[2] through GOT - here in data (POINTER_TO_GOT)
        adrp x8, _gotrel@PAGE
        add x8, x8, _gotrel@PAGEOFF
        ldrsw x9, [x8]
        ldr x8, [x8, x9]
        ldr x0, [x8, #16]
        ret
        .globl _ptr_got
_ptr_got:                         // long ptr_got(void): host_data[3], the same way
        adrp x8, _gotrel@PAGE
        add x8, x8, _gotrel@PAGEOFF
        ldrsw x9, [x8]
        ldr x8, [x8, x9]
        ldr x0, [x8, #24]
        ret
        .globl _diff
_diff:                            // long diff(void): _b64 - _b8 stored in data (SUBTRACTOR + UNSIGNED)
        adrp x8, _d@PAGE
        ldr x0, [x8, _d@PAGEOFF]
        ret
        .globl _ptr_call
_ptr_call:                        // int ptr_call(int): call_ext through a pointer in data (UNSIGNED)
        adrp x8, _fptr@PAGE
        ldr x8, [x8, _fptr@PAGEOFF]
        br x8
        .globl _local_str
_local_str:                       // const char *local_str(void): a string in __cstring
        adrp x0, l_str@PAGE
        add x0, x0, l_str@PAGEOFF
        ret
        .globl _local_ptr
_local_ptr:                       // const char *local_ptr(void): a pointer to it in data
        adrp x8, _strp@PAGE
        ldr x0, [x8, _strp@PAGEOFF]
        ret
        .globl _zero
_zero:                            // long zero(void): a zerofill word, then set it
        adrp x8, _zbuf@PAGE
        add x8, x8, _zbuf@PAGEOFF
        ldr x0, [x8, #8]
        mov x9, #5
        str x9, [x8, #8]
        ret
        .globl _addend
_addend:                          // long addend(void): answer[1] as answer+8 (ADDEND before PAGE21, PAGEOFF12)
        adrp x8, _answer@PAGE+8
        ldr x0, [x8, _answer@PAGEOFF+8]
        ret
        .globl _wide
_wide:                            // long wide(void): the high half of a 16-byte load (PAGEOFF12 scaled by 16)
        adrp x8, _answer@PAGE
        ldr q0, [x8, _answer@PAGEOFF]
        mov x0, v0.d[1]
        ret

        .section __TEXT,__cstring,cstring_literals
l_str:  .asciz "from the cstring section"

        .section __DATA,__data
_b8:    .byte 0
        .p2align 1
_b16:   .short 0
        .p2align 2
_b32:   .long 0
        .p2align 3
_b64:   .quad 40
_gotrel: .long _host_data@GOT - .
        .p2align 3
_d:     .quad _b64 - _b8
_fptr:  .quad _call_ext
_strp:  .quad l_str
        .globl _answer
        .p2align 4
_answer: .quad 42, 43

.zerofill __DATA,__bss,_zbuf,64,6
.subsections_via_symbols
