// RUN: tileopt %s -split-input-file --tritonamdgpu-schedule-loops=num_stages=3 | FileCheck %s

// A matmul loop on gfx942 whose loads read 8 contiguous f16 per thread: the loads go to
// stage 0 (cluster 0), the dot to the last stage (cluster 1); nothing else is scheduled.

// CHECK-LABEL: tt.func @contiguous_loads
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load %{{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: ttg.convert_layout %{{[0-9]+}} : tensor
// CHECK-NEXT: ttg.convert_layout %{{[0-9]+}} : tensor
// CHECK-NEXT: tt.dot %{{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.addptr %arg{{[0-9]+}}, %cst : tensor
// CHECK-NEXT: tt.addptr %arg{{[0-9]+}}, %cst : tensor
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @contiguous_loads(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %off = tt.broadcast %r2 : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %pa0 = tt.addptr %sa, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %sb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %pb0 = tt.addptr %sb, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %yd, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Pointers of unknown contiguity: one f16 (16 bits) per copy. gfx942 does not pipeline
// such loads (no schedule at all); gfx1100 (RDNA) does.

// CHECK-LABEL: tt.func @small_loads_gfx942
// CHECK-NOT: loop.stage
// CHECK-NOT: tt.scheduled_max_stage
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @small_loads_gfx942(%pa0: tensor<64x64x!tt.ptr<f16>, #bl>, %pb0: tensor<64x64x!tt.ptr<f16>, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %yd, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same loop on gfx1100, with an indirect load: the index load (level 1) feeds the
// A load (level 0). With 3 stages the index load gets stage 0, the A and B loads
// stage 1, the dot stage 2; the index load's final user is a load, which stays where the
// loads go, not in the compute cluster.

// CHECK-LABEL: tt.func @indirect_gfx1100
// CHECK: tt.load {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<i32>
// CHECK: tt.load {{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>
// CHECK: tt.load {{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>
// CHECK: tt.dot {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32}
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indirect_gfx1100(%a: tensor<64x64x!tt.ptr<f16>, #bl>, %pi0: tensor<64x64x!tt.ptr<i32>, #bl>, %pb0: tensor<64x64x!tt.ptr<f16>, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pi = %pi0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<i32>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>)  : i32 {
      %idx = tt.load %pi : tensor<64x64x!tt.ptr<i32>, #bl>
      %pa = tt.addptr %a, %idx : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
      %d = tt.dot %xd, %yd, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<64x64xf32, #mma>
      %ni = tt.addptr %pi, %step : tensor<64x64x!tt.ptr<i32>, #bl>, tensor<64x64xi32, #bl>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %ni, %nb : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<i32>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A loop asking for one stage (tt.num_stages = 1) is not pipelined.

// CHECK-LABEL: tt.func @one_stage
// CHECK-NOT: loop.stage
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @one_stage(%pa0: tensor<64x64x!tt.ptr<f16>, #bl>, %pb: tensor<64x64x!tt.ptr<f16>, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %yd, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %na : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>
    } {tt.num_stages = 1 : i32}
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}
