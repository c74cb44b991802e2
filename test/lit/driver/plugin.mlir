// The example plugin (examples/plugin/mul_to_shift.py) loaded from the command line.
// RUN: tileopt %s --load-pass-plugin=%examples/plugin/mul_to_shift.py --example-mul-to-shift | FileCheck %s
// RUN: tileopt %s --load-pass-plugin=%examples/plugin/mul_to_shift.py --example-mul-to-shift=emit-remarks=true --verify-diagnostics
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/missing.py 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tileopt %s --load-pass-plugin=%S/Inputs/broken_plugin.py 2>&1 | FileCheck %s --check-prefix=BROKEN

// CHECK-LABEL: func.func @scale
// CHECK:         %[[K:.*]] = arith.constant 3 : i32
// CHECK:         arith.shli %{{.*}}, %[[K]] : i32
// CHECK-NOT:     arith.muli
// MISSING: error: cannot load pass plugin '{{.*}}missing.py': no such file
// BROKEN: broken_plugin.py:4:{{[0-9]+}}: error: syntax error in pass plugin
func.func @scale(%a: i32) -> i32 {
  %c8 = arith.constant 8 : i32
  // expected-remark@+1 {{multiply by 8 rewritten as a shift by 3}}
  %m = arith.muli %a, %c8 : i32
  func.return %m : i32
}
