// RUN: tileopt %s --mlir-print-debuginfo | FileCheck %s
// RUN: tileopt %s | FileCheck %s --check-prefix=NOLOC
// Locations are printed only when asked for.

// CHECK: arith.addi {{.*}} loc(#[[LOC:loc[0-9]*]])
// CHECK: #[[LOC]] = loc("kernel.py":3:7)
// NOLOC-NOT: loc(
func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32 loc("kernel.py":3:7)
  func.return %x : i32
}
