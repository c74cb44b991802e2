// RUN: not tileopt %s 2>&1 | FileCheck %s
// An instruction-scheduling hint names one of the AMD back end's variants.

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @f() {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected `none`, or `attention`
    amdg.instruction_sched_hint {variant = #amdg.SchedHintVariant<pingpong>}
    tt.return
  }
}
// CHECK-NOT: Traceback
