// RUN: not tileopt %s -split-input-file --tritongpu-pipeline=num-stages=3 | FileCheck %s
// RUN: not tileopt %s -split-input-file --tritongpu-pipeline=num-stages=3 2>&1 | FileCheck %s --check-prefix=ERR

// The last case is bad input: the run fails there, after printing the other cases.

// Inputs are loops as tritongpu-schedule-loops leaves them (loop.stage/loop.cluster).

// Three stages (Triton's matmul loop on sm80): each load gets a 2-buffer allocation and
// its copies for iterations 0 and 1 in the prologue, guarded by n > 0 and n > 1. In the
// loop one wait on both loads' oldest groups lets the 2 newer groups stay in flight; the
// copies for iteration i + 2 are guarded by i < n - 2. After the loop: wait for all, free.

// CHECK-LABEL: tt.func @three_stages
// CHECK: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: %[[P0:.+]] = arith.cmpi sgt, %arg2, %c0_i32
// CHECK: ttg.async_copy_global_to_local %arg0, {{.*}} {contiguity = 8 : i32}
// CHECK: ttg.async_commit_group
// CHECK: ttg.async_copy_global_to_local %arg1
// CHECK: %[[P1:.+]] = arith.cmpi sgt, %arg2, %c1_i32
// CHECK-COUNT-2: ttg.async_copy_global_to_local
// CHECK: scf.for %[[IV:.+]] = %c0_i32 to %arg2 step %c1_i32 iter_args({{.*}}) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token)
// CHECK: %[[LAST:.+]] = arith.subi %arg2, %c2_i32
// CHECK: %[[GUARD:.+]] = arith.cmpi slt, %[[IV]], %[[LAST]]
// CHECK: %[[TOKEN:.+]] = ttg.async_wait %{{.+}}, %{{.+}} {num = 2 : i32}
// CHECK: ttg.local_load %{{.+}} token %[[TOKEN]]
// CHECK: ttg.local_load %{{.+}} token %[[TOKEN]]
// CHECK: tt.dot
// CHECK: tt.splat %[[GUARD]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: tt.splat %[[GUARD]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.yield
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc
// CHECK: ttg.local_dealloc
// CHECK-NOT: loop.stage
// CHECK-NOT: scheduled_max_stage
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @three_stages(%a0: tensor<32x32x!tt.ptr<f16>, #blocked> {tt.contiguity = 32 : i32, tt.divisibility = 16 : i32}, %b0: tensor<32x32x!tt.ptr<f16>, #blocked> {tt.contiguity = 32 : i32, tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %a0, %pb = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %a = tt.load %pa {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %ad = ttg.convert_layout %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bd = ttg.convert_layout %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %bd, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %na = tt.addptr %pa, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %nb = tt.addptr %pb, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// Two stages, a masked load whose `other` is not zero: one buffer; cp.async can only fill
// masked elements with zeros, so the loaded value is selected against `other` with the
// load's own mask; the copy's mask is the load's and-ed with the stage guard.

// CHECK-LABEL: tt.func @two_stages_masked_other
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x512xf32, #shared, #smem, mutable>
// CHECK: %[[P0:.+]] = arith.cmpi sgt, %arg2, %c0_i32
// CHECK: %[[S:.+]] = tt.splat %[[P0]]
// CHECK: %[[M:.+]] = arith.andi %[[S]], %arg1
// CHECK: ttg.async_copy_global_to_local %arg0, %{{.+}} mask %[[M]] other %cst_0 {contiguity = 4 : i32}
// CHECK: scf.for
// CHECK: %[[T:.+]] = ttg.async_wait %{{.+}} {num = 0 : i32}
// CHECK: %[[L:.+]] = ttg.local_load %{{.+}} token %[[T]]
// CHECK: %[[X:.+]] = arith.select %arg1, %[[L]], %cst_0
// CHECK: arith.addf %{{.+}}, %[[X]]
// CHECK: arith.andi %{{.+}}, %arg1
// CHECK: ttg.async_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_stages_masked_other(%p0: tensor<512x!tt.ptr<f32>, #blocked> {tt.contiguity = 512 : i32, tt.divisibility = 16 : i32}, %m: tensor<512xi1, #blocked> {tt.constancy = 512 : i32}, %n: i32) -> tensor<512xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<512> : tensor<512xi32, #blocked>
    %ones = arith.constant dense<1.000000e+00> : tensor<512xf32, #blocked>
    %s0 = arith.constant dense<0.000000e+00> : tensor<512xf32, #blocked>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %p = %p0) -> (tensor<512xf32, #blocked>, tensor<512x!tt.ptr<f32>, #blocked>)  : i32 {
      %x = tt.load %p, %m, %ones {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      %t = arith.addf %s, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<512xf32, #blocked>
      %np = tt.addptr %p, %step {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      scf.yield %t, %np : tensor<512xf32, #blocked>, tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r#0 : tensor<512xf32, #blocked>
  }
}

// -----

// A load whose copy would move 2 bytes per thread (cp.async needs 4) is not turned into an
// async copy: it is pipelined in registers, issued one iteration ahead with the stage
// guard as its mask, the value carried by the loop.

// CHECK-LABEL: tt.func @in_registers
// CHECK-NOT: ttg.local_alloc
// CHECK: %[[P0:.+]] = arith.cmpi sgt, %arg1, %c0_i32
// CHECK: %[[M0:.+]] = tt.splat %[[P0]]
// CHECK: %[[X0:.+]] = tt.load %arg0, %[[M0]]
// CHECK: scf.for {{.*}} iter_args(%{{.+}} = %cst_0, %{{.+}} = %arg0, %[[X:.+]] = %[[X0]])
// CHECK: arith.addf %{{.+}}, %[[X]]
// CHECK: tt.load
// CHECK-NOT: ttg.async_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @in_registers(%p0: tensor<128x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<128xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<128> : tensor<128xi32, #blocked>
    %s0 = arith.constant dense<0.000000e+00> : tensor<128xf16, #blocked>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %p = %p0) -> (tensor<128xf16, #blocked>, tensor<128x!tt.ptr<f16>, #blocked>)  : i32 {
      %x = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f16>, #blocked>
      %t = arith.addf %s, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128xf16, #blocked>
      %np = tt.addptr %p, %step {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xi32, #blocked>
      scf.yield %t, %np : tensor<128xf16, #blocked>, tensor<128x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r#0 : tensor<128xf16, #blocked>
  }
}

// -----

// A loop without loads, and without a schedule: left as it is.

// CHECK-LABEL: tt.func @no_loads
// CHECK: scf.for
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.yield
// CHECK-NOT: ttg.async_wait
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_loads(%x: tensor<512xf32, #bl>, %n: i32) -> tensor<512xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x) -> (tensor<512xf32, #bl>)  : i32 {
      %t = arith.addf %s, %x : tensor<512xf32, #bl>
      scf.yield %t : tensor<512xf32, #bl>
    }
    tt.return %r : tensor<512xf32, #bl>
  }
}

// -----

// sm90, operands read by wgmma straight from shared memory: one more buffer (wgmma still
// reads a buffer while the next copy is issued), the local_allocs become views of the
// buffers, and the dot runs asynchronously with one wgmma group left in flight; its wait
// keeps the two views alive; after the loop, wait for the last one.

// CHECK-LABEL: tt.func @wgmma
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_wait %{{.+}}, %{{.+}} {num = 2 : i32}
// CHECK: %[[VA:.+]] = ttg.memdesc_index
// CHECK: %[[VB:.+]] = ttg.memdesc_index
// CHECK: %[[D:.+]] = ttng.warp_group_dot %[[VA]], %[[VB]], %{{.+}} {inputPrecision = 0 : i32, isAsync = true}
// CHECK: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %[[VA]], %[[VB]] {pendings = 1 : i32}
// CHECK: scf.yield %[[W]]#0
// CHECK: %[[R:.+]] = ttng.warp_group_dot_wait %{{.+}}#0 {pendings = 0 : i32}
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma(%a0: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.contiguity = 64 : i32, tt.divisibility = 16 : i32}, %b0: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.contiguity = 64 : i32, tt.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %a0, %pb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %a = tt.load %pa {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %as = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.load %pb {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %bs = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %nb = tt.addptr %pb, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Two wgmma loops in one: the first dot's result is read in the loop (addf), so it is
// waited on at once ({pendings = 0}); the second stays in flight. That wait already
// leaves at most this iteration's dots pending at the loop's end, so no wait follows the
// last async dot (Triton 3.6's output for this input: one wait in the loop, one after it).

// CHECK-LABEL: tt.func @wgmma_after_sync_dot
// CHECK: scf.for
// CHECK: %[[D1:.+]] = ttng.warp_group_dot %[[VA:.+]], %[[VB:.+]], %arg4 {inputPrecision = 0 : i32, isAsync = true}
// CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[D1]], %[[VA]], %[[VB]] {pendings = 0 : i32}
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[W]]#0, %[[W]]#0
// CHECK-NEXT: %[[D2:.+]] = ttng.warp_group_dot %[[VA]], %[[VB]], %arg5 {inputPrecision = 0 : i32, isAsync = true}
// CHECK-NOT: ttng.warp_group_dot_wait
// CHECK: scf.yield %[[S]], %[[D2]],
// CHECK: %[[R:.+]] = ttng.warp_group_dot_wait %{{.+}}#1 {pendings = 0 : i32}
// CHECK: tt.return %{{.+}}#0, %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_after_sync_dot(%a0: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %b0: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %n: i32) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %acc2 = %acc0, %pa = %a0, %pb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %a = tt.load %pa {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %as = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.load %pb {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %bs = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %e = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %e2 = arith.addf %e, %e {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x64xf32, #mma>
      %d = ttng.warp_group_dot %as, %bs, %acc2 {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %na = tt.addptr %pa, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %nb = tt.addptr %pb, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %e2, %d, %na, %nb : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r#0, %r#1 : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
  }
}

// -----

// Ops whose stages run past the loop's tt.scheduled_max_stage (2 > 1) add stages, as
// Triton's CoarseSchedule::insert does: the same three-stage pipeline as @three_stages
// (Triton 3.6's output for this input).

// CHECK-LABEL: tt.func @stages_past_max_stage
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_wait %{{.+}}, %{{.+}} {num = 2 : i32}
// CHECK: tt.dot
// CHECK: scf.yield
// CHECK: ttg.async_wait {num = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @stages_past_max_stage(%a0: tensor<32x32x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %b0: tensor<32x32x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pa = %a0, %pb = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %a = tt.load %pa {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %ad = ttg.convert_layout %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bd = ttg.convert_layout %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %bd, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %na = tt.addptr %pa, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %nb = tt.addptr %pb, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// The prologue computes each iteration's induction variable (lb + i * step) once, for the
// ops that read it and for the predicate (Triton 3.6's expander; Triton 3.6's output for
// this input).

// CHECK-LABEL: tt.func @induction_variable_in_prologue
// CHECK: %[[IV1:.+]] = arith.addi %arg2, %c1_i32 : i32
// CHECK-NEXT: arith.cmpi slt, %[[IV1]], %arg3 : i32
// CHECK-NOT: arith.addi %arg2, %c1_i32
// CHECK: tt.splat %[[IV1]] : i32 -> tensor<32x32xi32, #blocked>
// CHECK: scf.for
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @induction_variable_in_prologue(%a0: tensor<32x32x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %b0: tensor<32x32x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %lb: i32, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %r:3 = scf.for %i = %lb to %n step %c1 iter_args(%acc = %acc0, %pa = %a0, %pb = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %si = tt.splat %i {loop.cluster = 3 : i32, loop.stage = 0 : i32} : i32 -> tensor<32x32xi32, #blocked>
      %pi = tt.addptr %pa, %si {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %a = tt.load %pi {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>
      %ad = ttg.convert_layout %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bd = ttg.convert_layout %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %ad, %bd, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %na = tt.addptr %pa, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      %nb = tt.addptr %pb, %step {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #blocked>, tensor<32x32x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A scheduled loop whose op has no stage is bad input.

#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unscheduled_op(%x: tensor<512xf32, #bl>, %n: i32) -> tensor<512xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x) -> (tensor<512xf32, #bl>)  : i32 {
      // ERR: tritongpu-pipeline.mlir:[[# @LINE + 1]]:7: error: a scheduled loop's op needs integer 'loop.stage' and 'loop.cluster' attributes
      %t = arith.addf %s, %x : tensor<512xf32, #bl>
      scf.yield %t : tensor<512xf32, #bl>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r : tensor<512xf32, #bl>
  }
}

// -----

// B is read through a transposed view of its buffer: the view is rebuilt on the mutable
// slot of the multi-buffer that the async copy fills (same IR as Triton 3.6's wheel). The
// input is the loop after tritongpu-assign-latencies and tritongpu-schedule-loops.

// CHECK-LABEL: tt.func @transposed_b
// CHECK: scf.for
// CHECK: %[[VIEW:.+]] = ttg.memdesc_trans %{{.+}} {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #{{.+}}, #smem, mutable> -> !ttg.memdesc<64x128xf16, #{{.+}}, #smem, mutable>
// CHECK: ttg.local_load %[[VIEW]] : {{.+}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32) -> tensor<128x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %cst_0 = arith.constant dense<64> : tensor<128x64xi32, #blocked>
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %5 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %6 = tt.addptr %5, %2 : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %7:3 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst, %arg5 = %4, %arg6 = %6) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>)  : i32 {
      %8 = tt.load %arg5 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %9 = tt.load %arg6 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %10 = ttg.convert_layout %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %11 = ttg.local_alloc %9 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %12 = ttg.memdesc_trans %11 {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %13 = ttg.local_load %12 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %14 = tt.dot %10, %13, %arg4 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
      %15 = tt.addptr %arg5, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      %16 = tt.addptr %arg6, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
      scf.yield %14, %15, %16 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %7#0 : tensor<128x128xf32, #mma>
  }
}

// -----

// Waits are merged only when nothing but non-commit ops lies between them: control flow
// ends the run, as in Triton's combineRedundantWaitOps (both waits stay; Triton 3.6's
// own output for this input).
// CHECK-LABEL: tt.func @waits_around_if
// CHECK: %[[G:.*]] = ttg.async_commit_group tokens
// CHECK-NEXT: ttg.async_wait %[[G]] {num = 0 : i32}
// CHECK-NEXT: scf.if
// CHECK: }
// CHECK-NEXT: ttg.async_wait %[[G]] {num = 0 : i32}
// CHECK-NEXT: tt.return
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @waits_around_if(%p: tensor<128x!tt.ptr<f32>, #A>, %c: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #S, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<128x!tt.ptr<f32>, #A> -> <128xf32, #S, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w1 = ttg.async_wait %g {num = 0 : i32}
    scf.if %c {
      %x = tt.load %p : tensor<128x!tt.ptr<f32>, #A>
      tt.store %p, %x : tensor<128x!tt.ptr<f32>, #A>
    }
    %w2 = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %buf token %w2 : !ttg.memdesc<128xf32, #S, #smem, mutable> -> tensor<128xf32, #A>
    tt.return
  }
}

// -----

// TMA loads (Triton's wgmma loop over tensor descriptors, as desc_matmul on sm90): the two
// descriptor_loads of one stage share one mbarrier slot of a 3-slot ring (2 stages + 1
// for the wgmma still reading), with one barrier_expect of both blocks' bytes
// (128*64*2 + 64*128*2 = 32768) before them and one wait_barrier on the phase, which
// flips as the extract index wraps. The prologue's copies are guarded by n > 0 and n > 1,
// the loop's by i < n - 2; the copies' views replace the local_allocs; no async_wait
// (that is for cp.async). After the loop the barriers are invalidated and freed, then the
// buffers (same structure as Triton 3.9's sm90 desc_matmul).

// CHECK-LABEL: tt.func @tma_loads
// CHECK: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
// CHECK: %[[BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BARL:[a-z0-9]+]], #smem, mutable>
// CHECK-COUNT-3: ttng.init_barrier %{{.+}}, 1
// CHECK: %[[P0:.+]] = arith.cmpi sgt, %[[N:.+]], %c0_i32
// CHECK: %[[S0:.+]] = ttg.memdesc_index %[[BARS]][%c0_i32]
// CHECK-NEXT: ttng.barrier_expect %[[S0]], 32768, %[[P0]]
// CHECK-NEXT: %[[A0:.+]] = ttg.memdesc_index %[[A]][%c0_i32]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg2, %c0_i32] %[[A0]], %[[S0]], %[[P0]]
// CHECK-NEXT: %[[B0:.+]] = ttg.memdesc_index %[[B]][%c0_i32]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg1[%c0_i32, %arg3] %[[B0]], %[[S0]], %[[P0]]
// CHECK: %[[P1:.+]] = arith.cmpi sgt, %[[N]], %c1_i32
// CHECK: ttng.barrier_expect %{{.+}}, 32768, %[[P1]]
// CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
// CHECK: scf.for %[[IV:.+]] = %c0_i32 to %[[N]] step %c1_i32 iter_args(%{{.+}} = %cst, %[[INS:.+]] = %c1_i32, %[[EXT:.+]] = %c-1_i32, %[[PHASE:.+]] = %c0_i32, {{.*}}) -> (tensor<128x128xf32, #mma>, i32, i32, i32, i32, i32)
// CHECK: %[[LAST:.+]] = arith.subi %[[N]], %c2_i32
// CHECK-NEXT: %[[GUARD:.+]] = arith.cmpi slt, %[[IV]], %[[LAST]]
// CHECK-NEXT: %[[E1:.+]] = arith.addi %[[EXT]], %c1_i32
// CHECK-NEXT: %[[WRAP:.+]] = arith.cmpi sge, %[[E1]]
// CHECK-NEXT: %[[E:.+]] = arith.select %[[WRAP]], %c0_i32, %[[E1]]
// CHECK-NEXT: %[[FLIP:.+]] = arith.xori %[[PHASE]], %c1_i32
// CHECK-NEXT: %[[PH:.+]] = arith.select %[[WRAP]], %[[FLIP]], %[[PHASE]]
// CHECK-NEXT: %[[WS:.+]] = ttg.memdesc_index %[[BARS]][%[[E]]]
// CHECK-NEXT: ttng.wait_barrier %[[WS]], %[[PH]]
// CHECK-NEXT: %[[RB:.+]] = ttg.memdesc_index %[[B]][%[[E]]]
// CHECK-NEXT: %[[RA:.+]] = ttg.memdesc_index %[[A]][%[[E]]]
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %[[RA]], %[[RB]], {{.+}} {inputPrecision = 0 : i32, isAsync = true}
// CHECK-NEXT: %[[DW:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %[[RA]], %[[RB]] {pendings = 1 : i32}
// CHECK-NEXT: %[[I1:.+]] = arith.addi %[[INS]], %c1_i32
// CHECK-NEXT: %[[IW:.+]] = arith.cmpi sge, %[[I1]], %c3_i32
// CHECK-NEXT: %[[I:.+]] = arith.select %[[IW]], %c0_i32, %[[I1]]
// CHECK: %[[SI:.+]] = ttg.memdesc_index %[[BARS]][%[[I]]]
// CHECK-NEXT: ttng.barrier_expect %[[SI]], 32768, %[[GUARD]]
// CHECK-NEXT: %[[WA:.+]] = ttg.memdesc_index %[[A]][%[[I]]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg2, %{{.+}}] %[[WA]], %[[SI]], %[[GUARD]]
// CHECK-NEXT: %[[WB:.+]] = ttg.memdesc_index %[[B]][%[[I]]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg1[%{{.+}}, %arg3] %[[WB]], %[[SI]], %[[GUARD]]
// CHECK-NEXT: scf.yield %[[DW]]#0, %[[I]], %[[E]], %[[PH]],
// CHECK: ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32}
// CHECK-NOT: ttg.async_wait
// CHECK-COUNT-3: ttng.inval_barrier
// CHECK-NEXT: ttg.local_dealloc %[[BARS]]
// CHECK-NEXT: ttg.local_dealloc %[[B]]
// CHECK-NEXT: ttg.local_dealloc %[[A]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tma_loads(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<64x128xf16, #shared>>, %m: i32, %n: i32, %k_tiles: i32) -> tensor<128x128xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %acc = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%sum = %zero) -> (tensor<128x128xf32, #mma>)  : i32 {
      %koff = arith.muli %k, %c64_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %la = tt.descriptor_load %a[%m, %koff] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %sa = ttg.local_alloc %la {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %lb = tt.descriptor_load %b[%koff, %n] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked1>
      %sb = ttg.local_alloc %lb {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %sum {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %acc : tensor<128x128xf32, #mma>
  }
}
