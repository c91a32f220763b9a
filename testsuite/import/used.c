// __attribute__((used)) and retain through the import (docs/c-extensions.md,
// "used"): clang lists retain (ELF) and used (Apple) in llvm.used, which
// makes the definition `used`; used on ELF is llvm.compiler.used, which
// needs nothing (b3c keeps every definition).
// RUN: %clang -O2 -S -emit-llvm %s -o %t.ll
// RUN: %b3c --emit=b3 %t.ll | FileCheck --check-prefix=ELF %s
// RUN: clang-16 --target=arm64-apple-macos11 -O2 -S -emit-llvm %s -o %t-apple.ll
// RUN: %b3c-bin --target=arm64-apple-macos --emit=b3 %t-apple.ll | FileCheck --check-prefix=APPLE %s
// REQUIRES: clang-16
// ELF-DAG: data @retained internal used {
// ELF-DAG: proc @compiler_used internal {
// ELF-DAG: proc @both used {
// APPLE-DAG: data @retained internal used {
// APPLE-DAG: proc @compiler_used internal used {
// APPLE-DAG: proc @both used {
__attribute__((retain, used)) static int retained = 5;
__attribute__((used)) static void compiler_used(void) {}
__attribute__((retain, used)) void both(void) {}
