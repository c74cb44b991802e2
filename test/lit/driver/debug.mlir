// Failures inside a pass are "internal errors": exit 1, one line, no traceback unless
// --debug or TILEOPT_DEBUG=1 asks for it. Failures a pass reports are located errors.
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-crash 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-crash --debug 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: env TILEOPT_DEBUG=1 not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-crash 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-fail 2>&1 | FileCheck %s --check-prefix=FAIL

// PLAIN: error: internal error in pass 'test-crash': RuntimeError: deliberate crash (run with --debug for the traceback)
// PLAIN-NOT: Traceback
// TRACE: Traceback (most recent call last):
// TRACE: RuntimeError: deliberate crash
// With the traceback shown, the error line no longer asks for it (issue 16, 10b).
// TRACE: error: internal error in pass 'test-crash': RuntimeError: deliberate crash{{$}}
// FAIL: debug.mlir:[[# @LINE + 1]]:1: error: cannot handle function @f
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
