// --mlir-print-ir-module-scope is accepted: tileopt's IR dumps always print the whole module,
// even for a pass nested under a function.
// RUN: tileopt %s --mlir-print-ir-module-scope --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s

// CHECK: // -----// IR Dump After CSE (cse)
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f
func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  func.return %x : i32
}
