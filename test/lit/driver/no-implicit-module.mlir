// --no-implicit-module: the input must be one builtin.module, as in mlir-opt (ops at the top
// level are not wrapped in one); without the flag they are.
// RUN: not tileopt --split-input-file --no-implicit-module %s 2>&1 | FileCheck %s
// RUN: tileopt --split-input-file %s | FileCheck %s --check-prefix=IMPLICIT

// CHECK: no-implicit-module.mlir:[[# @LINE + 2]]:1: error: top-level operation 'func.func' is not a 'builtin.module' (--no-implicit-module: tileopt runs its pipelines on a module)
// IMPLICIT: func.func @f()
func.func @f() {
  func.return
}

// -----

// CHECK: no-implicit-module.mlir:[[# @LINE + 1]]:1: error: source must contain a single top-level operation, found: 2
func.func @g() {
  func.return
}
func.func @h() {
  func.return
}

// -----

// CHECK-NOT: error
// An explicit module (with an alias before it) is the input itself.
#one = 1 : i32
module attributes {x.one = #one} {
}
