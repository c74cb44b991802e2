// RUN: tileopt %s -split-input-file -verify-diagnostics
// RUN: not tileopt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=PLAIN
// Errors (parse and verifier) are expected diagnostics too; each part that fails is
// left out of the output, and the run succeeds when every expectation is met.

func.func @bad_return(%a: i32) -> i64 {
  // expected-error@+1 {{Expected arguments to have the same types as the function output types}}
  func.return %a : i32
}

// -----

func.func @parse_error() {
  // expected-error@+1 {{foo.bar}}
  "foo.bar"() : () -> ()
  func.return
}

// PLAIN: verify-diagnostics-errors.mlir:8:{{[0-9]+}}: error: {{.*}}output types
