// RUN: tileopt %s -split-input-file --tritongpu-schedule-loops | FileCheck %s

// Two loads of latency 2 feeding a dot (Triton's matmul loop on sm80): the loads and their
// mask math get stage 0 in the last cluster, the pointer increments (read by the loads one
// iteration later) stage 1 in the cluster before, the conversions and the dot stage 2 in
// cluster 0. The latencies are consumed.

// CHECK-LABEL: tt.func @two_loads
// CHECK: scf.for
// CHECK: arith.muli {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK: tt.broadcast {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK: tt.load {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK: tt.load {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK: ttg.convert_layout {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: ttg.convert_layout {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: tt.dot {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
// CHECK-NOT: tt.latency
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_loads(%a0: tensor<32x32x!tt.ptr<f16>, #bl>, %b0: tensor<32x32x!tt.ptr<f16>, #bl>, %k: i32, %n: i32, %cols: tensor<1x32xi32, #bl>) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #bl>
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %a0, %pb = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %off = arith.muli %i, %c32 : i32
      %left = arith.subi %k, %off : i32
      %lefts = tt.splat %left : i32 -> tensor<1x32xi32, #bl>
      %m1 = arith.cmpi slt, %cols, %lefts : tensor<1x32xi32, #bl>
      %m = tt.broadcast %m1 : tensor<1x32xi1, #bl> -> tensor<32x32xi1, #bl>
      %a = tt.load %pa, %m, %zero {tt.latency = 2 : i32} : tensor<32x32x!tt.ptr<f16>, #bl>
      %b = tt.load %pb {tt.latency = 2 : i32} : tensor<32x32x!tt.ptr<f16>, #bl>
      %ad = ttg.convert_layout %a : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bd = ttg.convert_layout %b : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %bd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %na = tt.addptr %pa, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %nb = tt.addptr %pb, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %r#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// Latency 1 (matmul_small): two stages. An op no latency op reaches and that is not a
// producer (the counter) goes to the last stage, in the first cluster.

// CHECK-LABEL: tt.func @one_stage_apart
// CHECK: tt.load {{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK: math.exp {{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: arith.addi {{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK: tt.addptr {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK: } {tt.scheduled_max_stage = 1 : i32}
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_stage_apart(%p0: tensor<512x!tt.ptr<f32>, #bl>, %n: i32, %out: tensor<512x!tt.ptr<f32>, #bl>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<512> : tensor<512xi32, #bl>
    %s0 = arith.constant dense<0.000000e+00> : tensor<512xf32, #bl>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %p = %p0, %count = %c0) -> (tensor<512xf32, #bl>, tensor<512x!tt.ptr<f32>, #bl>, i32)  : i32 {
      %x = tt.load %p {tt.latency = 1 : i32} : tensor<512x!tt.ptr<f32>, #bl>
      %e = math.exp %x : tensor<512xf32, #bl>
      %t = arith.addf %s, %e : tensor<512xf32, #bl>
      %c = arith.addi %count, %c1 : i32
      %np = tt.addptr %p, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      scf.yield %t, %np, %c : tensor<512xf32, #bl>, tensor<512x!tt.ptr<f32>, #bl>, i32
    }
    tt.store %out, %r#0 : tensor<512x!tt.ptr<f32>, #bl>
    tt.return
  }
}

// -----

// Not scheduled: a loop without latencies, and an outer loop (whose latencies are still
// consumed).

// CHECK-LABEL: tt.func @not_scheduled
// CHECK-NOT: loop.stage
// CHECK-NOT: tt.scheduled_max_stage
// CHECK-NOT: tt.latency
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_scheduled(%p: tensor<512x!tt.ptr<f32>, #bl>, %n: i32) -> tensor<512xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s0 = arith.constant dense<0.000000e+00> : tensor<512xf32, #bl>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (tensor<512xf32, #bl>)  : i32 {
      %x = tt.load %p : tensor<512x!tt.ptr<f32>, #bl>
      %t = arith.addf %s, %x : tensor<512xf32, #bl>
      scf.yield %t : tensor<512xf32, #bl>
    }
    %q = scf.for %j = %c0 to %n step %c1 iter_args(%s = %r) -> (tensor<512xf32, #bl>)  : i32 {
      %x = tt.load %p {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #bl>
      %in = scf.for %i = %c0 to %n step %c1 iter_args(%u = %s) -> (tensor<512xf32, #bl>)  : i32 {
        %t = arith.addf %u, %x : tensor<512xf32, #bl>
        scf.yield %t : tensor<512xf32, #bl>
      }
      scf.yield %in : tensor<512xf32, #bl>
    }
    tt.return %q : tensor<512xf32, #bl>
  }
}
