; Aliases (docs/c-extensions.md): of a global, at an offset into it (a
; constant GEP), of a function, through another alias, with weak, hidden
; and internal linkage.  The object: each symbol at its target's offset.
; RUN: %b3c -O0 --emit=b3 %s -o - | FileCheck %s
; RUN: %b3c -O0 %s -o %t.o
; RUN: llvm-readelf-16 -s %t.o | FileCheck --check-prefix=SYM %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = global [4 x i64] [i64 1, i64 2, i64 3, i64 4], align 16
@third = alias i64, getelementptr (i8, ptr @table, i64 16)
@third_again = hidden alias i64, ptr @third
@second = weak alias i64, getelementptr ([4 x i64], ptr @table, i64 0, i64 1)
@local = internal alias [4 x i64], ptr @table
@fn = alias i64 (), ptr @get

define i64 @get() {
  %a = load i64, ptr @third
  %b = load i64, ptr @local
  %c = add i64 %a, %b
  ret i64 %c
}

; CHECK: proc @get {
; CHECK: SymbolAddress(@third)
; CHECK: SymbolAddress(@local)
; CHECK-DAG: alias @third = @table + 16
; CHECK-DAG: alias @third_again hidden = @table + 16
; CHECK-DAG: alias @second weak = @table + 8
; CHECK-DAG: alias @local internal = @table
; CHECK-DAG: alias @fn = @get

; SYM-DAG: {{ 0000000000000010 +16 OBJECT +GLOBAL +DEFAULT +[0-9]+ third$}}
; SYM-DAG: {{ 0000000000000010 +16 OBJECT +GLOBAL +HIDDEN +[0-9]+ third_again$}}
; SYM-DAG: {{ 0000000000000008 +24 OBJECT +WEAK +DEFAULT +[0-9]+ second$}}
; SYM-DAG: {{ 0000000000000000 +32 OBJECT +LOCAL +DEFAULT +[0-9]+ local$}}
; SYM-DAG: {{ 0000000000000000 +[0-9]+ FUNC +GLOBAL +DEFAULT +[0-9]+ fn$}}
