// RUN: tileopt %s -split-input-file | FileCheck %s
// RUN: tileopt %s --split-input-file -cse | FileCheck %s --check-prefix=CSE
// RUN: not tileopt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// Each part is parsed and run on its own; outputs are joined with '// -----'.

// CHECK-LABEL: func.func @first
// CHECK:       // -----
// CHECK-LABEL: func.func @second
// CSE-LABEL:   func.func @first
// CSE-COUNT-1: arith.addi
// CSE-LABEL:   func.func @second
// Without splitting, the two @dup definitions clash.
// WHOLE: error:
func.func @first(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.addi %a, %a : i32
  %r = arith.muli %x, %y : i32
  func.return %r : i32
}
func.func @dup() {
  func.return
}

// -----

func.func @second() {
  func.return
}
func.func @dup() {
  func.return
}
