// Diagnostics as mlir-opt prints them: file:line:col, then the source line and a caret
// under the column (tabs expanded); MLIR's wording where xDSL's differs.
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --strict-whitespace
// RUN: not tileopt --split-input-file --allow-unregistered-dialect %s 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ALLOW

// An unknown element type: MLIR's words (xDSL said "Expected shape type."), at the type.
// CHECK:      error-excerpts.mlir:[[# @LINE + 3]]:28: error: expected non-function type
// CHECK-NEXT: {{^}}func.func @g(%a: tensor<16xf33>) {{{$}}
// CHECK-NEXT: {{^}}                           ^{{$}}
func.func @g(%a: tensor<16xf33>) {
  func.return
}

// -----

// A tab before the op: the caret line expands it as the source line does.
// CHECK:      error-excerpts.mlir:[[# @LINE + 4]]:24: error: expected ':'
// CHECK-NEXT: {{^}}        %0 = arith.addi %a, %a{{$}}
// CHECK-NEXT: {{^}}                              ^{{$}}
func.func @t(%a: i32) {
	%0 = arith.addi %a, %a
  func.return
}

// -----

// An op of an unknown dialect in the generic form: the flag that accepts it is named.
// CHECK:      error-excerpts.mlir:[[# @LINE + 4]]:3: error: unregistered operation 'foo.bar' (dialect 'foo' is not registered; --allow-unregistered-dialect accepts it)
// CHECK-NEXT: {{^}}  "foo.bar"() : () -> (){{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
func.func @u() {
  "foo.bar"() : () -> ()
  func.return
}

// -----

// In the custom form: with the flag, the op is still unknown (only the generic form can
// be read), reported at its name; without, the hint says so.
// CHECK:      error-excerpts.mlir:[[# @LINE + 6]]:8: error: custom op 'foo.baz' is unknown (dialect 'foo' is not registered; with --allow-unregistered-dialect, its ops are read in the generic form, "foo.baz"(...) : (...) -> (...))
// CHECK-NEXT: {{^}}  %0 = foo.baz %a : i32{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
// ALLOW:      error-excerpts.mlir:[[# @LINE + 3]]:8: error: custom op 'foo.baz' is unknown: an unregistered op is read only in the generic form, "foo.baz"(...) : (...) -> (...)
// ALLOW-NEXT: {{^}}  %0 = foo.baz %a : i32{{$}}
func.func @c(%a: i32) {
  %0 = foo.baz %a : i32
  func.return
}

// -----

// A verifier error: at the op, with its line.
// CHECK:      error-excerpts.mlir:[[# @LINE + 3]]:3: error: 'func.return'
// CHECK-NEXT: {{^}}  func.return{{$}}
func.func @v(%a: i32) -> i32 {
  func.return
}
