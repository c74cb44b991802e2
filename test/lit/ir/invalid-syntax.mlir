// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// Text that is not MLIR syntax.
// CLEAN-NOT: {{Traceback|internal error}}

// A missing type after the operands: reported where the ':' should be, the end of the
// line (as MLIR does), with the line and a caret under the column.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 4]]:25: error: expected ':'
// CHECK-NEXT: {{^}}  %0 = arith.addi %a, %a{{$}}
// CHECK-NEXT: {{^}}                        ^{{$}}
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a
  func.return %0 : i32
}

// -----

// A region closed with the wrong bracket.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 3]]:1: error: expected an operation, a block label or '}' to close the region, got ')'
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
)

// -----

// An unclosed argument list.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 1]]:21: error: expected ')'
func.func @f(%a: i32 -> i32 {
  func.return %a : i32
}

// -----

// A key given twice in an attribute dictionary.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 1]]:41: error: duplicate key 'a' in dictionary attribute
func.func @f() attributes {a = 1 : i32, a = 2 : i32} {
  func.return
}

// -----

// A string that never ends.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 1]]:32: error: expected '"' in string literal
func.func @f() attributes {s = "unterminated} {
  func.return
}

// -----

// An unclosed type.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 1]]:31: error: expected '>' after builtin parameter list
func.func @f() -> tensor<4xi32 {
  func.return
}

// -----

// A character MLIR has no token for.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 2]]:31: error: unexpected character: $
func.func @f() {
  %0 = arith.constant 1 : i32 $
  func.return
}

// -----

// An attribute where an operation must be.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 2]]:3: error: expected an operation, a block label or '}' to close the region, got '42'
func.func @f() {
  42 : i32
}

// -----

// A block label inside a region whose entry block has named arguments.
// CHECK: {{.*}}invalid-syntax.mlir:[[# @LINE + 2]]:1: error: invalid block name in region with named arguments
func.func @f(%a: i32) {
^bb0:
  func.return
}
