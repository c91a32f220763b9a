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









