; A threaded interpreter (clang -O2's IR of `goto *tab[*pc++ & 7]` after
; each handler): after allocation, duplicate_dispatch copies the dispatch
; block (fetch, mask, table jump) into each handler that jumped to it, so
; every handler ends in its own indirect jump; the copies share one table.
; REQUIRES: x86_64
; RUN: %b3c -O2 --print-after=duplicate_dispatch %s -o %t.o 2>&1 | FileCheck %s --check-prefix=AIR
; RUN: llvm-objdump -d --no-show-raw-insn %t.o | FileCheck %s
; RUN: %b3c -O1 %s -o %t1.o
; RUN: llvm-objdump -d --no-show-raw-insn %t1.o | FileCheck %s --check-prefix=O1
; RUN: %cc -O0 -o %t.exe %S/Inputs/duplicate-dispatch.c %t.o
; RUN: %t.exe | FileCheck %s --check-prefix=OUT

; After: each handler (and the entry) ends in its own copy.
; AIR-LABEL: Air after duplicate_dispatch: @run
; AIR: Move %rsi, %rax
; AIR-NEXT: Load8
; AIR-NEXT: And32 $7,
; AIR-NEXT: Add64 $1,
; AIR-NEXT: JumpTable
; AIR: Neg64
; AIR-NEXT: Load8
; AIR-NEXT: And32 $7,
; AIR-NEXT: Add64 $1,
; AIR-NEXT: JumpTable
; AIR-NOT: Jump{{$}}
; AIR: Ret64
; AIR-NOT: Jump{{$}}

; CHECK-LABEL: <run>:
; CHECK: leaq [[T:[0-9]+]](%rip), %[[R:[a-z0-9]+]] # 0x[[TAB:[0-9a-f]+]]
; CHECK: jmpq *
; CHECK: retq
; CHECK: jmpq *
; CHECK: # 0x[[TAB]]
; CHECK: jmpq *
; CHECK: # 0x[[TAB]]
; CHECK: jmpq *
; CHECK: # 0x[[TAB]]
; CHECK: jmpq *
; CHECK-NOT: jmp {{[0-9a-f]+}} <run

; Without the phase (-O1), the handlers jump to one dispatch.
; O1-LABEL: <run>:
; O1: jmpq *
; O1-NOT: jmpq *
; O1: retq

; OUT: 17 -2

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@run.tab = internal unnamed_addr constant [5 x ptr] [ptr blockaddress(@run, %halt), ptr blockaddress(@run, %inc), ptr blockaddress(@run, %dbl), ptr blockaddress(@run, %dec), ptr blockaddress(@run, %neg)], align 16

define i64 @run(ptr %code, i64 %acc0) {
entry:
  br label %next
inc:
  %a1 = add nsw i64 %acc, 1
  br label %join
join:
  %acc2 = phi i64 [ %a1, %inc ], [ %a2, %dbl ], [ %a3, %dec ], [ %a4, %neg ]
  br label %next
dbl:
  %a2 = shl nsw i64 %acc, 1
  br label %join
dec:
  %a3 = add nsw i64 %acc, -1
  br label %join
neg:
  %a4 = sub nsw i64 0, %acc
  br label %join
halt:
  ret i64 %acc
next:
  %pc = phi ptr [ %code, %entry ], [ %pc1, %join ]
  %acc = phi i64 [ %acc0, %entry ], [ %acc2, %join ]
  %op = load i8, ptr %pc, align 1
  %m = and i8 %op, 7
  %i = zext i8 %m to i64
  %slot = getelementptr inbounds [5 x ptr], ptr @run.tab, i64 0, i64 %i
  %pc1 = getelementptr inbounds i8, ptr %pc, i64 1
  %to = load ptr, ptr %slot, align 8
  indirectbr ptr %to, [label %halt, label %inc, label %dbl, label %dec, label %neg]
}
