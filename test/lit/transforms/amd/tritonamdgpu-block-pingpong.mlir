// RUN: tileopt %s -split-input-file --tritonamdgpu-block-pingpong=num-stages=2 | FileCheck %s
// RUN: tileopt %s -split-input-file --tritonamdgpu-block-pingpong=num-stages=3 | FileCheck %s --check-prefix=THREE
// RUN: tileopt %s -split-input-file --triton-version=3.9 --tritonamdgpu-block-pingpong=num-stages=2 | FileCheck %s --check-prefix=V39

// A two-stage GEMM loop, 4 warps, a 64x64x32 f16 tile: the one-cluster ping-pong. The
// memory cluster starts at the A local_load: setprio 1, the A global load, a full
// scheduling fence, the B local_load, setprio 0, then the B global load with the mask ops
// it needs; a fence keeping memory ops out of the dot cluster; the dot at priority 1.
// With three stages (THREE) nothing changes. Triton 3.9 (V39) leaves it alone too: the B
// load's mask reads the induction variable, so it changes from one iteration to the next.

// CHECK-LABEL: tt.func @small_tile
// CHECK: scf.for
// CHECK-NEXT: %[[XL:.*]] = ttg.local_load %arg8
// CHECK-NEXT: rocdl.s.setprio 1
// CHECK-NEXT: %[[X:.*]] = tt.load %arg6
// CHECK-NEXT: rocdl.sched.barrier 0
// CHECK-NEXT: %[[YL:.*]] = ttg.local_load %arg9
// CHECK-NEXT: rocdl.s.setprio 0
// CHECK-NEXT: tt.splat
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: %[[Y:.*]] = tt.load
// CHECK-NEXT: rocdl.sched.barrier 1
// CHECK-NEXT: rocdl.s.setprio 1
// CHECK-NEXT: tt.dot %[[XL]], %[[YL]]
// CHECK-NEXT: rocdl.s.setprio 0
// CHECK-NEXT: tt.addptr
// THREE-LABEL: tt.func @small_tile
// THREE-NOT: rocdl
// THREE: tt.return
// V39-LABEL: tt.func @small_tile
// V39-NOT: rocdl
// V39: tt.return

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @small_tile(%pa0: tensor<64x32x!tt.ptr<f16>, #bl>, %pb0: tensor<32x64x!tt.ptr<f16>, #bl>, %k: tensor<32x64xi32, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<32> : tensor<64x32xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %ba = ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable>
    %bb = ttg.local_alloc : () -> !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable>
    %va0 = ttg.memdesc_index %ba[%c0] : !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
    %vb0 = ttg.memdesc_index %bb[%c0] : !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0, %pb = %pb0, %va = %va0, %vb = %vb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #bl>, tensor<32x64x!tt.ptr<f16>, #bl>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>)  : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #bl>
      %xl = ttg.local_load %va : !ttg.memdesc<64x32xf16, #sh, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %is = tt.splat %i : i32 -> tensor<32x64xi32, #bl>
      %m = arith.cmpi slt, %k, %is : tensor<32x64xi32, #bl>
      %y = tt.load %pb, %m : tensor<32x64x!tt.ptr<f16>, #bl>
      %yl = ttg.local_load %vb : !ttg.memdesc<32x64xf16, #sh, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xl, %yl, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %sa : tensor<64x32x!tt.ptr<f16>, #bl>, tensor<64x32xi32, #bl>
      %nb = tt.addptr %pb, %k : tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>
      %wa = ttg.memdesc_index %ba[%c0] : !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      ttg.local_store %x, %wa : tensor<64x32xf16, #bl> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      %wb = ttg.memdesc_index %bb[%c0] : !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      ttg.local_store %y, %wb : tensor<32x64xf16, #bl> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      scf.yield %d, %na, %nb, %wa, %wb : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #bl>, tensor<32x64x!tt.ptr<f16>, #bl>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// 8 warps (two waves of one block per SIMD): the sliced-dot schedules are not built, the
// loop is left alone.

// CHECK-LABEL: tt.func @eight_warps
// CHECK-NOT: rocdl
// CHECK: tt.return

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = true}>
#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @eight_warps(%pa0: tensor<64x32x!tt.ptr<f16>, #bl>, %pb0: tensor<32x64x!tt.ptr<f16>, #bl>, %k: tensor<32x64xi32, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<32> : tensor<64x32xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %ba = ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable>
    %bb = ttg.local_alloc : () -> !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable>
    %va0 = ttg.memdesc_index %ba[%c0] : !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
    %vb0 = ttg.memdesc_index %bb[%c0] : !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0, %pb = %pb0, %va = %va0, %vb = %vb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #bl>, tensor<32x64x!tt.ptr<f16>, #bl>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>)  : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #bl>
      %xl = ttg.local_load %va : !ttg.memdesc<64x32xf16, #sh, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %is = tt.splat %i : i32 -> tensor<32x64xi32, #bl>
      %m = arith.cmpi slt, %k, %is : tensor<32x64xi32, #bl>
      %y = tt.load %pb, %m : tensor<32x64x!tt.ptr<f16>, #bl>
      %yl = ttg.local_load %vb : !ttg.memdesc<32x64xf16, #sh, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xl, %yl, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %sa : tensor<64x32x!tt.ptr<f16>, #bl>, tensor<64x32xi32, #bl>
      %nb = tt.addptr %pb, %k : tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>
      %wa = ttg.memdesc_index %ba[%c0] : !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      ttg.local_store %x, %wa : tensor<64x32xf16, #bl> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      %wb = ttg.memdesc_index %bb[%c0] : !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      ttg.local_store %y, %wb : tensor<32x64xf16, #bl> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      scf.yield %d, %na, %nb, %wa, %wb : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #bl>, tensor<32x64x!tt.ptr<f16>, #bl>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same loop with a mask that does not change in the loop (it reads only the bound %n):
// both versions build the one-cluster schedule (the mask ops are defined in the loop, so
// they still move with the B load).

// CHECK-LABEL: tt.func @invariant_mask
// CHECK: %[[XL:.*]] = ttg.local_load
// CHECK-NEXT: rocdl.s.setprio 1
// CHECK: rocdl.sched.barrier 1
// CHECK-NEXT: rocdl.s.setprio 1
// CHECK-NEXT: tt.dot %[[XL]]
// V39-LABEL: tt.func @invariant_mask
// V39: %[[XL:.*]] = ttg.local_load
// V39-NEXT: rocdl.s.setprio 1
// V39-NEXT: tt.load
// V39-NEXT: rocdl.sched.barrier none
// V39-NEXT: %[[YL:.*]] = ttg.local_load
// V39-NEXT: rocdl.s.setprio 0
// V39-NEXT: tt.splat
// V39-NEXT: arith.cmpi
// V39-NEXT: tt.load
// V39-NEXT: rocdl.sched.barrier non_mem_non_sideeffect
// V39-NEXT: rocdl.s.setprio 1
// V39-NEXT: tt.dot %[[XL]], %[[YL]]
// V39-NEXT: rocdl.s.setprio 0

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @invariant_mask(%pa0: tensor<64x32x!tt.ptr<f16>, #bl>, %pb0: tensor<32x64x!tt.ptr<f16>, #bl>, %k: tensor<32x64xi32, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sa = arith.constant dense<32> : tensor<64x32xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %ba = ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable>
    %bb = ttg.local_alloc : () -> !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable>
    %va0 = ttg.memdesc_index %ba[%c0] : !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
    %vb0 = ttg.memdesc_index %bb[%c0] : !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0, %pb = %pb0, %va = %va0, %vb = %vb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #bl>, tensor<32x64x!tt.ptr<f16>, #bl>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>)  : i32 {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #bl>
      %xl = ttg.local_load %va : !ttg.memdesc<64x32xf16, #sh, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %ns = tt.splat %n : i32 -> tensor<32x64xi32, #bl>
      %m = arith.cmpi slt, %k, %ns : tensor<32x64xi32, #bl>
      %y = tt.load %pb, %m : tensor<32x64x!tt.ptr<f16>, #bl>
      %yl = ttg.local_load %vb : !ttg.memdesc<32x64xf16, #sh, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xl, %yl, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %sa : tensor<64x32x!tt.ptr<f16>, #bl>, tensor<64x32xi32, #bl>
      %nb = tt.addptr %pb, %k : tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>
      %wa = ttg.memdesc_index %ba[%c0] : !ttg.memdesc<1x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      ttg.local_store %x, %wa : tensor<64x32xf16, #bl> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      %wb = ttg.memdesc_index %bb[%c0] : !ttg.memdesc<1x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      ttg.local_store %y, %wb : tensor<32x64xf16, #bl> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      scf.yield %d, %na, %nb, %wa, %wb : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #bl>, tensor<32x64x!tt.ptr<f16>, #bl>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

