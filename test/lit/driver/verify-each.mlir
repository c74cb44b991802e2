// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py -cse --test-break-ir 2>&1 | FileCheck %s
// RUN: tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-break-ir --verify-each=false | FileCheck %s --check-prefix=OFF
// After each pass the IR is verified; the pass that broke it is named.

// CHECK: error: invalid IR after pass 'test-break-ir': {{.*}}
// CHECK-NOT: Traceback
// OFF: {{^ *}}return{{$}}
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
