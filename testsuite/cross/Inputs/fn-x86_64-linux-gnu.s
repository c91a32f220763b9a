# x86-64 (SysV): int64_t fn_mix(int64_t a, int64_t b, int64_t c) = a * b + c;
# double fn_fma(double x, double y) = x * y + 0.5 (rounded twice); void fn_trap(void) = ud2.
	.text
	.globl	fn_mix
	.type	fn_mix, @function
fn_mix:
	movq	%rdi, %rax
	imulq	%rsi, %rax
	addq	%rdx, %rax
	ret
	.size	fn_mix, .-fn_mix

	.globl	fn_fma
	.type	fn_fma, @function
fn_fma:
	mulsd	%xmm1, %xmm0
	movabsq	$0x3fe0000000000000, %rax
	movq	%rax, %xmm1
	addsd	%xmm1, %xmm0
	ret
	.size	fn_fma, .-fn_fma

	.globl	fn_trap
	.type	fn_trap, @function
fn_trap:
	ud2
	.size	fn_trap, .-fn_trap
	.section	.note.GNU-stack,"",@progbits
