; Atomics: load/store orderings (fenceRange, a Fence after a seq_cst store),
; fences, cmpxchg as AtomicStrongCAS (the expected value sign-extended like
; the old value B3 returns), atomicrmw add/sub/and/or/xor/xchg as AtomicXchg*,
; nand/min/max/umin/umax as a CAS loop.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @loads(ptr %p) {
  %a = load atomic i32, ptr %p monotonic, align 4
  %b = load atomic i32, ptr %p acquire, align 4
  %c = load atomic i32, ptr %p seq_cst, align 4
  %d = load atomic i8, ptr %p unordered, align 1
  %e = zext i8 %d to i32
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %e
  ret i32 %s3
}

define void @stores(ptr %p, i64 %v) {
  store atomic i64 %v, ptr %p monotonic, align 8
  store atomic i64 %v, ptr %p release, align 8
  store atomic i64 %v, ptr %p seq_cst, align 8
  ret void
}

define void @fences() {
  fence acquire
  fence release
  fence acq_rel
  fence seq_cst
  fence syncscope("singlethread") seq_cst
  ret void
}

define i1 @cas(ptr %p, i32 %old, i32 %new) {
  %r = cmpxchg ptr %p, i32 %old, i32 %new seq_cst seq_cst, align 4
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok
}

define i16 @cas16(ptr %p, i16 %old, i16 %new) {
  %r = cmpxchg weak ptr %p, i16 %old, i16 %new acq_rel monotonic, align 2
  %v = extractvalue { i16, i1 } %r, 0
  ret i16 %v
}

define i64 @rmw(ptr %p, i64 %v) {
  %1 = atomicrmw xchg ptr %p, i64 %v seq_cst
  %2 = atomicrmw add ptr %p, i64 %1 seq_cst
  %3 = atomicrmw sub ptr %p, i64 %2 acquire
  %4 = atomicrmw and ptr %p, i64 %3 release
  %5 = atomicrmw or ptr %p, i64 %4 monotonic
  %6 = atomicrmw xor ptr %p, i64 %5 seq_cst
  ret i64 %6
}

define i32 @rmw_nand(ptr %p, i32 %v) {
  %r = atomicrmw nand ptr %p, i32 %v seq_cst
  ret i32 %r
}

define i32 @rmw_minmax(ptr %p, i32 %v) {
  %1 = atomicrmw min ptr %p, i32 %v seq_cst
  %2 = atomicrmw max ptr %p, i32 %1 seq_cst
  %3 = atomicrmw umin ptr %p, i32 %2 seq_cst
  %4 = atomicrmw umax ptr %p, i32 %3 seq_cst
  ret i32 %4
}

define i8 @rmw8(ptr %p, i8 %v) {
  %r = atomicrmw min ptr %p, i8 %v seq_cst
  ret i8 %r
}

; CHECK-LABEL: proc @loads 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int32 @1 = Load(@0)
; CHECK-NEXT: Int32 @2 = Load(@0, fenceRange = Top)
; CHECK-NEXT: Int32 @3 = Load(@0, fenceRange = Top)
; CHECK-NEXT: Int32 @4 = Load8Z(@0)
; CHECK-NEXT: Int32 @5 = Add(@1, @2)
; CHECK-NEXT: Int32 @6 = Add(@5, @3)
; CHECK-NEXT: Int32 @7 = Add(@6, @4)
; CHECK-NEXT: Void @8 = Return(@7)

; CHECK-LABEL: proc @stores 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Void @2 = Store(@1, @0)
; CHECK-NEXT: Void @3 = Store(@1, @0, fenceRange = Top)
; CHECK-NEXT: Void @4 = Store(@1, @0, fenceRange = Top)
; CHECK-NEXT: Void @5 = Fence()
; CHECK-NEXT: Void @6 = Return()

; CHECK-LABEL: proc @fences 
; CHECK: BB#0:
; CHECK-NEXT: Void @0 = Fence()
; CHECK-NEXT: Void @1 = Fence()
; CHECK-NEXT: Void @2 = Fence()
; CHECK-NEXT: Void @3 = Fence()
; CHECK-NEXT: Void @4 = Fence()
; CHECK-NEXT: Void @5 = Return()

; CHECK-LABEL: proc @cas 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Int32 @2 = Trunc(@1)
; CHECK-NEXT: Int64 @3 = ArgumentReg(%rdx)
; CHECK-NEXT: Int32 @4 = Trunc(@3)
; CHECK-NEXT: Int32 @5 = AtomicStrongCAS(@2, @4, @0)
; CHECK-NEXT: Int32 @6 = Equal(@5, @2)
; CHECK-NEXT: Void @7 = Return(@6)

; CHECK-LABEL: proc @cas16 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Int32 @2 = Trunc(@1)
; CHECK-NEXT: Int64 @3 = ArgumentReg(%rdx)
; CHECK-NEXT: Int32 @4 = Trunc(@3)
; CHECK-NEXT: Int32 @5 = SExt16(@2)
; CHECK-NEXT: Int32 @6 = AtomicStrongCAS(@5, @4, @0, width = 16)
; CHECK-NEXT: Int32 @7 = Equal(@6, @5)
; CHECK-NEXT: Void @8 = Return(@6)

; CHECK-LABEL: proc @rmw 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Int64 @2 = AtomicXchg(@1, @0)
; CHECK-NEXT: Int64 @3 = AtomicXchgAdd(@2, @0)
; CHECK-NEXT: Int64 @4 = AtomicXchgSub(@3, @0)
; CHECK-NEXT: Int64 @5 = AtomicXchgAnd(@4, @0)
; CHECK-NEXT: Int64 @6 = AtomicXchgOr(@5, @0)
; CHECK-NEXT: Int64 @7 = AtomicXchgXor(@6, @0)
; CHECK-NEXT: Void @8 = Return(@7)

; CHECK-LABEL: proc @rmw_nand 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Int32 @2 = Trunc(@1)
; CHECK-NEXT: Int32 @3 = Load(@0)
; CHECK-NEXT: Void @5 = Upsilon(@3, ^@4)
; CHECK-NEXT: Void @6 = Jump()
; CHECK-NEXT: Successors: #1
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0, #1
; CHECK-NEXT: Int32 @4 = Phi()
; CHECK-NEXT: Int32 @7 = Const32(-1)
; CHECK-NEXT: Int32 @8 = BitAnd(@4, @2)
; CHECK-NEXT: Int32 @9 = BitXor(@8, @7)
; CHECK-NEXT: Int32 @10 = AtomicStrongCAS(@4, @9, @0)
; CHECK-NEXT: Void @11 = Upsilon(@10, ^@4)
; CHECK-NEXT: Int32 @12 = Equal(@10, @4)
; CHECK-NEXT: Void @13 = Branch(@12)
; CHECK-NEXT: Successors: Then:#2, Else:#1
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #1
; CHECK-NEXT: Void @14 = Return(@4)

; CHECK-LABEL: proc @rmw_minmax 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Int32 @2 = Trunc(@1)
; CHECK-NEXT: Int32 @3 = Load(@0)
; CHECK-NEXT: Void @5 = Upsilon(@3, ^@4)
; CHECK-NEXT: Void @6 = Jump()
; CHECK-NEXT: Successors: #1
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0, #1
; CHECK-NEXT: Int32 @4 = Phi()
; CHECK-NEXT: Int32 @7 = LessThan(@4, @2)
; CHECK-NEXT: Int32 @8 = Select(@7, @4, @2)
; CHECK-NEXT: Int32 @9 = AtomicStrongCAS(@4, @8, @0)
; CHECK-NEXT: Void @10 = Upsilon(@9, ^@4)
; CHECK-NEXT: Int32 @11 = Equal(@9, @4)
; CHECK-NEXT: Void @12 = Branch(@11)
; CHECK-NEXT: Successors: Then:#2, Else:#1
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #1
; CHECK-NEXT: Int32 @13 = Load(@0)
; CHECK-NEXT: Void @15 = Upsilon(@13, ^@14)
; CHECK-NEXT: Void @16 = Jump()
; CHECK-NEXT: Successors: #3
; CHECK: BB#3:
; CHECK-NEXT: Predecessors: #2, #3
; CHECK-NEXT: Int32 @14 = Phi()
; CHECK-NEXT: Int32 @17 = GreaterThan(@14, @4)
; CHECK-NEXT: Int32 @18 = Select(@17, @14, @4)
; CHECK-NEXT: Int32 @19 = AtomicStrongCAS(@14, @18, @0)
; CHECK-NEXT: Void @20 = Upsilon(@19, ^@14)
; CHECK-NEXT: Int32 @21 = Equal(@19, @14)
; CHECK-NEXT: Void @22 = Branch(@21)
; CHECK-NEXT: Successors: Then:#4, Else:#3
; CHECK: BB#4:
; CHECK-NEXT: Predecessors: #3
; CHECK-NEXT: Int32 @23 = Load(@0)
; CHECK-NEXT: Void @25 = Upsilon(@23, ^@24)
; CHECK-NEXT: Void @26 = Jump()
; CHECK-NEXT: Successors: #5
; CHECK: BB#5:
; CHECK-NEXT: Predecessors: #4, #5
; CHECK-NEXT: Int32 @24 = Phi()
; CHECK-NEXT: Int32 @27 = Below(@24, @14)
; CHECK-NEXT: Int32 @28 = Select(@27, @24, @14)
; CHECK-NEXT: Int32 @29 = AtomicStrongCAS(@24, @28, @0)
; CHECK-NEXT: Void @30 = Upsilon(@29, ^@24)
; CHECK-NEXT: Int32 @31 = Equal(@29, @24)
; CHECK-NEXT: Void @32 = Branch(@31)
; CHECK-NEXT: Successors: Then:#6, Else:#5
; CHECK: BB#6:
; CHECK-NEXT: Predecessors: #5
; CHECK-NEXT: Int32 @33 = Load(@0)
; CHECK-NEXT: Void @35 = Upsilon(@33, ^@34)
; CHECK-NEXT: Void @36 = Jump()
; CHECK-NEXT: Successors: #7
; CHECK: BB#7:
; CHECK-NEXT: Predecessors: #6, #7
; CHECK-NEXT: Int32 @34 = Phi()
; CHECK-NEXT: Int32 @37 = Above(@34, @24)
; CHECK-NEXT: Int32 @38 = Select(@37, @34, @24)
; CHECK-NEXT: Int32 @39 = AtomicStrongCAS(@34, @38, @0)
; CHECK-NEXT: Void @40 = Upsilon(@39, ^@34)
; CHECK-NEXT: Int32 @41 = Equal(@39, @34)
; CHECK-NEXT: Void @42 = Branch(@41)
; CHECK-NEXT: Successors: Then:#8, Else:#7
; CHECK: BB#8:
; CHECK-NEXT: Predecessors: #7
; CHECK-NEXT: Void @43 = Return(@34)

; CHECK-LABEL: proc @rmw8 
; CHECK: BB#0:
; CHECK-NEXT: Int64 @0 = ArgumentReg(%rdi)
; CHECK-NEXT: Int64 @1 = ArgumentReg(%rsi)
; CHECK-NEXT: Int32 @2 = Trunc(@1)
; CHECK-NEXT: Int32 @3 = Load8S(@0)
; CHECK-NEXT: Void @5 = Upsilon(@3, ^@4)
; CHECK-NEXT: Void @6 = Jump()
; CHECK-NEXT: Successors: #1
; CHECK: BB#1:
; CHECK-NEXT: Predecessors: #0, #1
; CHECK-NEXT: Int32 @4 = Phi()
; CHECK-NEXT: Int32 @7 = SExt8(@4)
; CHECK-NEXT: Int32 @8 = SExt8(@2)
; CHECK-NEXT: Int32 @9 = LessThan(@7, @8)
; CHECK-NEXT: Int32 @10 = Select(@9, @4, @2)
; CHECK-NEXT: Int32 @11 = AtomicStrongCAS(@4, @10, @0, width = 8)
; CHECK-NEXT: Void @12 = Upsilon(@11, ^@4)
; CHECK-NEXT: Int32 @13 = Equal(@11, @4)
; CHECK-NEXT: Void @14 = Branch(@13)
; CHECK-NEXT: Successors: Then:#2, Else:#1
; CHECK: BB#2:
; CHECK-NEXT: Predecessors: #1
; CHECK-NEXT: Void @15 = Return(@4)
