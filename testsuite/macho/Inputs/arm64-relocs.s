// llvm-mc -triple=arm64-apple-macos11 assembles this into the object b3c
// compiles Inputs/arm64-relocs.b3 to (macho/arm64-relocs.test): the same
// code, written by hand in the Apple syntax.
	.section	__TEXT,__text,regular,pure_instructions
	.p2align	4
	.globl	_call_ext
_call_ext:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	_ext_func
	ldp	x29, x30, [sp], #16
	ret
	udf	#0
	udf	#0
	udf	#0
	.p2align	4
	.globl	_addr_local
_addr_local:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x0, _local_data@PAGE
	add	x0, x0, _local_data@PAGEOFF
	ldp	x29, x30, [sp], #16
	ret
	udf	#0
	udf	#0
	.p2align	4
	.globl	_addr_local_plus
_addr_local_plus:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x0, _local_data@PAGE+16
	add	x0, x0, _local_data@PAGEOFF+16
	ldp	x29, x30, [sp], #16
	ret
	udf	#0
	udf	#0
	.p2align	4
	.globl	_load_local
_load_local:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x17, _local_data@PAGE+24
	ldr	x0, [x17, _local_data@PAGEOFF+24]
	ldp	x29, x30, [sp], #16
	ret
	udf	#0
	udf	#0
	.p2align	4
	.globl	_addr_ext
_addr_ext:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x17, _ext_data@GOTPAGE
	ldr	x0, [x17, _ext_data@GOTPAGEOFF]
	ldp	x29, x30, [sp], #16
	ret
	udf	#0
	udf	#0
	.p2align	4
	.globl	_addr_ext_plus
_addr_ext_plus:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x17, _ext_data@GOTPAGE
	ldr	x0, [x17, _ext_data@GOTPAGEOFF]
	add	x0, x0, #8
	ldp	x29, x30, [sp], #16
	ret
	udf	#0
	.p2align	4
	.globl	_addr_global
_addr_global:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x17, _global_data@GOTPAGE
	ldr	x0, [x17, _global_data@GOTPAGEOFF]
	ldp	x29, x30, [sp], #16
	ret
	.section	__DATA,__data
	.p2align	3
_local_data:
	.quad	1, 2, 3, 4
	.p2align	3
	.globl	_global_data
_global_data:
	.quad	5
	.section	__DATA,__const
	.p2align	3
_table:
	.quad	_local_data
	.quad	_local_data+16
	.quad	_ext_func
	.quad	_ext_data+8
	.subsections_via_symbols
