// RUN: not tileopt %s -verify-diagnostics --load-pass-plugin=%S/Inputs/test_passes.py --test-option-probe 2>&1 | FileCheck %s
// A missing expected diagnostic and an unexpected one both fail the run, each named.

// CHECK-DAG: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: unexpected remark: count=1
// CHECK-DAG: verify-diagnostics-mismatch.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: expected warning "never emitted" was not produced
// CHECK-NOT: Traceback
func.func @f() {
  // expected-warning@-1 {{never emitted}}
  func.return
}
