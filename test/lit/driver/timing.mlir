// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse), canonicalize)' --mlir-timing 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %s -cse -canonicalize --mlir-timing -o %t 2>&1 | FileCheck %s --check-prefix=FLAT
// A per-pass wall-time table on stderr, as MLIR's "Execution time report".

// CHECK: ... Execution time report ...
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// CHECK: 'builtin.module' Pipeline
// CHECK-NEXT: 'func.func' Pipeline
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)      cse
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    canonicalize
// CHECK: Output
// CHECK: {{[0-9.]+}} (100.0%)  Total

// FLAT: 'builtin.module' Pipeline
// FLAT-NEXT: cse
// FLAT-NEXT: canonicalize
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
