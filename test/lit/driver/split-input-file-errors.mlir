// RUN: not tileopt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not tileopt %s -split-input-file -o %t.mlir
// RUN: not ls %t.mlir
// As mlir-opt: every part runs even after one failed, each error is reported at its line
// in the whole file, the parts that succeed are printed, and the exit status is 1.
// An -o file is not written unless every part succeeded.

// CHECK-LABEL: func.func @ok
func.func @ok() {
  func.return
}

// -----

// CHECK: split-input-file-errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error:
func.func @bad(%a: i32) -> i64 {
  func.return %a : i32
}

// -----

// CHECK: split-input-file-errors.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: {{.*}}foo.bar
"foo.bar"() : () -> ()

// -----

// CHECK: func.func @also_ok
func.func @also_ok() {
  func.return
}
