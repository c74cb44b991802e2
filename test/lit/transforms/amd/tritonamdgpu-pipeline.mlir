// RUN: tileopt %s -split-input-file --tritonamdgpu-pipeline | FileCheck %s

// Three stages (loads at 0, dot at 2) on gfx942: two buffers per operand in the layout
// its dot reads (A swizzled for MFMA, B with K not contiguous unswizzled); a prologue of
// two iterations (each load also left as a dead copy, tagged like the live one, as Triton
// leaves it for canonicalize); a loop that stops two iterations early, loads to registers,
// reads the buffer written two iterations before and stores the new tile last; an epilogue
// of two dots, each under `total >= i`, the accumulator passing through otherwise.

// CHECK-LABEL: tt.func @three_stages
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>
// CHECK: %[[P0:.*]] = arith.cmpi sgt, %arg2, %c0_i32 : i32
// CHECK: %[[M0:.*]] = tt.splat %[[P0]]
// CHECK: %[[X0:.*]] = tt.load %4, %[[M0]] {amd.pipeliner_part = "prologue"}
// CHECK: tt.load %4, %{{.*}} {amd.pipeliner_part = "prologue"}
// CHECK: ttg.local_store %[[X0]]
// CHECK: %[[P1:.*]] = arith.cmpi sgt, %arg2, %c1_i32 : i32
// CHECK: %[[UB:.*]] = arith.subi %arg2, %c2_i32 : i32
// CHECK: %[[R:.*]]:8 = scf.for %{{.*}} = %c0_i32 to %[[UB]] step %c1_i32
// CHECK-NOT: amd.pipeliner_part
// CHECK: tt.load
// CHECK: ttg.local_load %arg8
// CHECK: tt.dot
// CHECK: ttg.memdesc_index %[[A]]
// CHECK: ttg.local_store
// CHECK: scf.yield
// CHECK: %[[T:.*]] = arith.addi %{{.*}}, %c-1_i32 : i32
// CHECK: %[[E1:.*]] = arith.cmpi sge, %[[T]], %c1_i32 : i32
// CHECK: %[[E2:.*]] = arith.cmpi sge, %[[T]], %c2_i32 : i32
// CHECK: ttg.local_load %[[R]]#4
// CHECK: %[[IF1:.*]] = scf.if %[[E1]]
// CHECK-NEXT: tt.dot {{.*}}, %[[R]]#0
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[R]]#0
// CHECK: %[[S1:.*]] = arith.select %[[E1]], %[[IF1]], %[[R]]#0
// CHECK: ttg.local_load %[[R]]#5
// CHECK: %[[IF2:.*]] = scf.if %[[E2]]
// CHECK-NEXT: tt.dot {{.*}}, %[[S1]]
// CHECK: %[[S2:.*]] = arith.select %[[E2]], %[[IF2]], %[[S1]]
// CHECK: ttg.local_dealloc %[[B]]
// CHECK: ttg.local_dealloc %[[A]]
// CHECK: tt.return %[[S2]]
// CHECK-NOT: loop.stage
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @three_stages(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
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
      %x = tt.load %pa {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %pb {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %yd, %acc {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Two stages: one buffer (stored at stage 0 after the buffer's read at stage 1 in the same
// iteration), a one-iteration prologue and a one-dot epilogue.

// CHECK-LABEL: tt.func @two_stages
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16
// CHECK: arith.subi %arg2, %c1_i32 : i32
// CHECK: scf.for
// CHECK: ttg.local_load
// CHECK: tt.dot
// CHECK: ttg.local_store
// CHECK: scf.yield
// CHECK: scf.if
// CHECK-NOT: scf.if
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @two_stages(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %off = tt.broadcast %r2 : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %pa0 = tt.addptr %sa, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %pa {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %y, %acc {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %d, %na : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A loop without a schedule is left alone.

// CHECK-LABEL: tt.func @unscheduled
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for %{{.*}} = %c0_i32 to %arg1
// CHECK-NOT: scf.if
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @unscheduled(%p: tensor<64x64x!tt.ptr<f32>, #bl>, %n: i32) -> tensor<64x64xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #bl>
    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #bl>)  : i32 {
      %x = tt.load %p : tensor<64x64x!tt.ptr<f32>, #bl>
      %s = arith.addf %acc, %x : tensor<64x64xf32, #bl>
      scf.yield %s : tensor<64x64xf32, #bl>
    }
    tt.return %res : tensor<64x64xf32, #bl>
  }
}

// -----

// The accumulator's loop-carried value is yielded from outside the loop (a constant): the
// peeled epilogue's dots read that value, where they would read the loop's block argument
// out of its loop (the IR Triton 3.6's wheel gives for this input).

// CHECK-LABEL: tt.func @yields_outside_value
// CHECK: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #mma>
// CHECK: scf.for
// CHECK: scf.yield %[[ONE]],
// CHECK: scf.if
// CHECK-NEXT: tt.dot %{{.+}}, %{{.+}}, %[[ONE]] :
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ONE]] :
// CHECK: scf.if
// CHECK-NEXT: tt.dot %{{.+}}, %{{.+}}, %[[ONE]] :
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @yields_outside_value(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #bl>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %one = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #mma>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %off = tt.broadcast %r2 : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %pa0 = tt.addptr %sa, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %sb = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>
    %pb0 = tt.addptr %sb, %off : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
    %po = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>)  : i32 {
      %x = tt.load %pa {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #bl>
      %y = tt.load %pb {loop.cluster = 0 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %yd = ttg.convert_layout %y : tensor<64x64xf16, #bl> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %yd, %acc {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      tt.store %po, %d {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<64x64x!tt.ptr<f32>, #mma>
      %na = tt.addptr %pa, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      %nb = tt.addptr %pb, %step : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>
      scf.yield %one, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res#0 : tensor<64x64xf32, #mma>
  }
}

