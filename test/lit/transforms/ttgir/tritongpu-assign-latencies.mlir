// RUN: tileopt %s -split-input-file --tritongpu-assign-latencies=num-stages=3 | FileCheck %s

// The matmul loop: A's pointers run along dim 1 (8 f16 per thread, 16-byte aligned) and
// feed the dot directly: level 0, latency (3 - 1) / 1 = 2. B's column stride is a
// runtime value: one f16 (16 bits) per copy, too small for cp.async: no latency.

// CHECK-LABEL: tt.func @wide_and_narrow
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<128x64x!tt.ptr<f16>
// CHECK-NOT: tt.latency
// CHECK: tt.dot
#la = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wide_and_narrow(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #la>
    %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>>
    %k2 = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>> -> tensor<1x64xi32, #la>
    %ka = tt.broadcast %k2 : tensor<1x64xi32, #la> -> tensor<128x64xi32, #la>
    %pa0 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #la>
    %pa = tt.addptr %pa0, %ka : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
    %n1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #la}>>
    %n2 = tt.expand_dims %n1 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #la}>> -> tensor<1x128xi32, #la>
    %s = tt.splat %stride : i32 -> tensor<1x128xi32, #la>
    %ns = arith.muli %n2, %s : tensor<1x128xi32, #la>
    %nb = tt.broadcast %ns : tensor<1x128xi32, #la> -> tensor<64x128xi32, #la>
    %pb0 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #la>
    %pb = tt.addptr %pb0, %nb : tensor<64x128x!tt.ptr<f16>, #la>, tensor<64x128xi32, #la>
    %step_b = arith.constant dense<1> : tensor<64x128xi32, #la>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %pa, %q = %pb) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #la>, tensor<64x128x!tt.ptr<f16>, #la>)  : i32 {
      %a = tt.load %p : tensor<128x64x!tt.ptr<f16>, #la>
      %b = tt.load %q : tensor<64x128x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bd = ttg.convert_layout %b : tensor<64x128xf16, #la> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %bd, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
      %p2 = tt.addptr %p, %step_a : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
      %q2 = tt.addptr %q, %step_b : tensor<64x128x!tt.ptr<f16>, #la>, tensor<64x128xi32, #la>
      scf.yield %d, %p2, %q2 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #la>, tensor<64x128x!tt.ptr<f16>, #la>
    }
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}

// -----

// An indirect load: row indices are loaded (level 1), then the rows (level 0). With 3
// stages each gets (3 - 1) / (1 + 1) = 1. A loop whose tt.num_stages is 2 has no stage for
// level 1: the index load is dropped and the row load gets (2 - 1) / 1 = 1.

// CHECK-LABEL: tt.func @indirect
// CHECK: scf.for
// CHECK: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x!tt.ptr<i32>
// CHECK: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x64x!tt.ptr<f16>
// CHECK: scf.for
// CHECK: tt.load %arg6 : tensor<128x!tt.ptr<i32>
// CHECK: tt.load %14 {tt.latency = 1 : i32} : tensor<128x64x!tt.ptr<f16>
// CHECK: tt.dot
#la = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indirect(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %i_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %c64 = arith.constant dense<64> : tensor<128x1xi32, #la>
    %step = arith.constant dense<128> : tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>>
    %m = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>>
    %pi0 = tt.splat %i_ptr : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>
    %pi = tt.addptr %pi0, %m : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>, tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>>
    %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>>
    %k2 = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>> -> tensor<1x64xi32, #la>
    %kb = tt.broadcast %k2 : tensor<1x64xi32, #la> -> tensor<128x64xi32, #la>
    %pa0 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #la>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ip = %pi) -> (tensor<128x64xf32, #mma>, tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>)  : i32 {
      %rows = tt.load %ip : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>
      %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>> -> tensor<128x1xi32, #la>
      %r3 = arith.muli %r2, %c64 : tensor<128x1xi32, #la>
      %r4 = tt.broadcast %r3 : tensor<128x1xi32, #la> -> tensor<128x64xi32, #la>
      %off = arith.addi %r4, %kb : tensor<128x64xi32, #la>
      %pa = tt.addptr %pa0, %off : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      %ip2 = tt.addptr %ip, %step : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>, tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>>
      scf.yield %d, %ip2 : tensor<128x64xf32, #mma>, tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>
    }
    %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r#0, %ip = %pi) -> (tensor<128x64xf32, #mma>, tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>)  : i32 {
      %rows = tt.load %ip : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>
      %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>> -> tensor<128x1xi32, #la>
      %r3 = arith.muli %r2, %c64 : tensor<128x1xi32, #la>
      %r4 = tt.broadcast %r3 : tensor<128x1xi32, #la> -> tensor<128x64xi32, #la>
      %off = arith.addi %r4, %kb : tensor<128x64xi32, #la>
      %pa = tt.addptr %pa0, %off : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      %ip2 = tt.addptr %ip, %step : tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>, tensor<128xi32, #ttg.slice<{dim = 1, parent = #la}>>
      scf.yield %d, %ip2 : tensor<128x64xf32, #mma>, tensor<128x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #la}>>
    } {tt.num_stages = 2 : i32}
    tt.return %s#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// Loops that are not pipelined: one stage (tt.num_stages = 1), an outer loop (the dot's
// loop holds another loop), and a loop that yields an iter arg straight back (a value
// carried two iterations).

// CHECK-LABEL: tt.func @not_pipelined
// CHECK-NOT: tt.latency
// CHECK: tt.return
#la = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_pipelined(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>>
    %k2 = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>> -> tensor<1x64xi32, #la>
    %kb = tt.broadcast %k2 : tensor<1x64xi32, #la> -> tensor<128x64xi32, #la>
    %pa0 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #la>
    %pa = tt.addptr %pa0, %kb : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>)  : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    } {tt.num_stages = 1 : i32}
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<128x64xf32, #mma>)  : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      scf.for %j = %c0 to %n step %c1  : i32 {
      }
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    %t:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s, %prev = %s) -> (tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>)  : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %b, %prev : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      scf.yield %d, %acc : tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>
    }
    tt.return %t#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// B is read through a transposed view of its buffer (local_alloc -> memdesc_trans ->
// local_load as the dot's B operand): the buffer chain is followed through the memdesc,
// and both loads get latency 2, as A's does through its convert_layout.

// CHECK-LABEL: tt.func @transposed_b
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<128x64x!tt.ptr<f16>
// CHECK: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<128x64x!tt.ptr<f16>
#la = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sht = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %step = arith.constant dense<64> : tensor<128x64xi32, #la>
    %k = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>>
    %k2 = tt.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #la}>> -> tensor<1x64xi32, #la>
    %kk = tt.broadcast %k2 : tensor<1x64xi32, #la> -> tensor<128x64xi32, #la>
    %pa0 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #la>
    %pa = tt.addptr %pa0, %kk : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
    %pb0 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #la>
    %pb = tt.addptr %pb0, %kk : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %pa, %q = %pb) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64x!tt.ptr<f16>, #la>)  : i32 {
      %a = tt.load %p : tensor<128x64x!tt.ptr<f16>, #la>
      %b = tt.load %q : tensor<128x64x!tt.ptr<f16>, #la>
      %ad = ttg.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bs = ttg.local_alloc %b : (tensor<128x64xf16, #la>) -> !ttg.memdesc<128x64xf16, #sh, #smem>
      %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #sh, #smem> -> !ttg.memdesc<64x128xf16, #sht, #smem>
      %bd = ttg.local_load %bt : !ttg.memdesc<64x128xf16, #sht, #smem> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %bd, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
      %p2 = tt.addptr %p, %step : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
      %q2 = tt.addptr %q, %step : tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64xi32, #la>
      scf.yield %d, %p2, %q2 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #la>, tensor<128x64x!tt.ptr<f16>, #la>
    }
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}
