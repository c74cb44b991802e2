// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse), canonicalize)' --mlir-timing 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %s -cse -canonicalize --mlir-timing -o %t 2>&1 | FileCheck %s --check-prefix=FLAT
// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse), canonicalize)' --mlir-timing --mlir-timing-display=tree 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse), cse)' --mlir-timing --mlir-timing-display=list 2>&1 >/dev/null | FileCheck %s --check-prefix=LIST
// RUN: not tileopt %s --mlir-timing --mlir-timing-display=flat 2>&1 | FileCheck %s --check-prefix=BAD
// A per-pass wall-time table on stderr, as MLIR's "Execution time report"; --mlir-timing-display
// is tree (the default: passes under their pipelines) or list (each pass once, its runs
// summed, longest first).

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

// LIST: ----Wall Time----  ----Name----
// LIST-NOT: Pipeline
// LIST: {{[0-9.]+}} ({{ *[0-9.]+}}%)  cse
// LIST-NOT: cse
// LIST: {{[0-9.]+}} (100.0%)  Total
// BAD: error: --mlir-timing-display must be tree or list, not 'flat'

// FLAT: 'builtin.module' Pipeline
// FLAT-NEXT: cse
// FLAT-NEXT: canonicalize
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
