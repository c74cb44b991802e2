// A pass that leaves invalid IR has failed: --mlir-print-ir-after-failure prints the IR it
// left (under MLIR's "After ... Failed" header), then the verifier's error (issue 16, item 3).
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py -cse --test-break-ir --mlir-print-ir-after-failure 2>&1 | FileCheck %s
// The dump also comes without -o to stdout, and nothing for the passes that succeeded.
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py -cse --test-break-ir --mlir-print-ir-after-failure -o %t 2>&1 | FileCheck %s --check-prefix=ONLY
// With --mlir-print-ir-after-all too, the failed pass's IR is printed once, as failed.
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py -cse --test-break-ir --mlir-print-ir-after-all --mlir-print-ir-after-failure -o %t 2>&1 | FileCheck %s --check-prefix=ALL

// CHECK: // -----// IR Dump After BreakIR Failed (test-break-ir) ('builtin.module' operation) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT: {{^ *}}return{{$}}
// CHECK: error: invalid IR after pass 'test-break-ir':

// ONLY-NOT: IR Dump After CSE
// ONLY: IR Dump After BreakIR Failed
// ONLY-NOT: IR Dump

// ALL: IR Dump After CSE (cse)
// ALL-NOT: IR Dump After BreakIR (test-break-ir)
// ALL: IR Dump After BreakIR Failed (test-break-ir)
// ALL-NOT: IR Dump
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
