// AArch64 (AAPCS64): int64_t fn_mix(int64_t a, int64_t b, int64_t c) = a * b + c;
// double fn_fma(double x, double y) = x * y + 0.5 (rounded twice); void fn_trap(void) = brk #0.
	.text
	.globl	fn_mix
	.type	fn_mix, %function
fn_mix:
	madd	x0, x0, x1, x2
	ret
	.size	fn_mix, .-fn_mix

	.globl	fn_fma
	.type	fn_fma, %function
fn_fma:
	fmul	d0, d0, d1
	fmov	d1, #0.5
	fadd	d0, d0, d1
	ret
	.size	fn_fma, .-fn_fma

	.globl	fn_trap
	.type	fn_trap, %function
fn_trap:
	brk	#0
	.size	fn_trap, .-fn_trap
	.section	.note.GNU-stack,"",%progbits
