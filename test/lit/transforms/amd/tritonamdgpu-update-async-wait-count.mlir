// RUN: tileopt %s -split-input-file --tritonamdgpu-update-async-wait-count=arch-generation-name=gfx942 | FileCheck %s
// RUN: tileopt %s -split-input-file --tritonamdgpu-update-async-wait-count=arch-generation-name=gfx1100 | FileCheck %s --check-prefix=RDNA

// Two copies of a 64x64 f16 tile, 16 registers per thread in runs of 8 consecutive LDS
// offsets: 2 direct-to-LDS loads each. Waiting on the first group leaves the second
// copy's 2 loads in flight: num becomes 2. Waiting on the last group: 0. RDNA keeps
// counting commit groups (num unchanged).

// CHECK-LABEL: tt.func @straight_line
// CHECK: ttg.async_wait %{{.*}} {num = 2 : i32}
// CHECK: ttg.async_wait %{{.*}} {num = 0 : i32}
// RDNA-LABEL: tt.func @straight_line
// RDNA: ttg.async_wait %{{.*}} {num = 1 : i32}
// RDNA: ttg.async_wait %{{.*}} {num = 1 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @straight_line(%p: tensor<64x64x!tt.ptr<f16>, #bl>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %v0 = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %p, %v0 : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %v1 = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %p, %v1 : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %g1 = ttg.async_commit_group tokens %t1
    %w0 = ttg.async_wait %g0 {num = 1 : i32}
    %w1 = ttg.async_wait %g1 {num = 1 : i32}
    tt.return
  }
}

// -----

// A token carried by the loop: from the init, the copies before the loop's first wait
// (one in the prologue after the commit, none in the body before the wait) count 2; around
// the back edge, the body's copy after the wait counts 2 as well: num = 2. A tokenless
// wait is left as it is.

// CHECK-LABEL: tt.func @loop_carried
// CHECK: scf.for
// CHECK: ttg.async_wait %{{.*}} {num = 2 : i32}
// CHECK: ttg.async_wait {num = 0 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @loop_carried(%p: tensor<64x64x!tt.ptr<f16>, #bl>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %v0 = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %p, %v0 : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %v1 = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %p, %v1 : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %g1 = ttg.async_commit_group tokens %t1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %g0, %b = %g1) -> (!ttg.async.token, !ttg.async.token)  : i32 {
      %w = ttg.async_wait %a {num = 1 : i32}
      %t = ttg.async_copy_global_to_local %p, %v0 : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
      scf.yield %b, %g : !ttg.async.token, !ttg.async.token
    }
    %done = ttg.async_wait {num = 0 : i32}
    tt.return
  }
}
