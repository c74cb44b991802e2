// RUN: not tileopt %s -split-input-file 2>&1 | FileCheck %s
// An error in a later part is reported at its line in the whole file.

func.func @ok() {
  func.return
}

// -----

// CHECK: split-input-file-errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error:
func.func @bad(%a: i32) -> i64 {
  func.return %a : i32
}
