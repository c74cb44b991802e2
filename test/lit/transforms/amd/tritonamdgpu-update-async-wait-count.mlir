// RUN: tileopt %s -split-input-file --tritonamdgpu-update-async-wait-count=arch-generation-name=gfx942 | FileCheck %s
// RUN: tileopt %s -split-input-file --tritonamdgpu-update-async-wait-count=arch-generation-name=gfx1100 | FileCheck %s --check-prefix=RDNA

// Expected counts are what Triton 3.6's pass gives for the same input.
// Two copies of a 64x64 f16 tile, 16 registers per thread in runs of 8 consecutive LDS
// offsets; but nothing is known of the pointers' contiguity, so each element is its own
// direct-to-LDS load: 16 each. Waiting on the first group leaves the second copy's 16
// loads in flight: num_inst = 16. Waiting on the last group: 0. RDNA keeps counting
// commit groups (ttg.async_wait, num unchanged).

// CHECK-LABEL: tt.func @straight_line
// CHECK: amdg.async_wait %{{.*}} {num_inst = 16 : i32}
// CHECK: amdg.async_wait %{{.*}} {num_inst = 0 : i32}
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
// (one in the prologue after the commit, none in the body before the wait) count 16;
// around the back edge, the body's copy after the wait counts 16 as well. The tokenless
// wait for no group in flight after the loop: 0.

// CHECK-LABEL: tt.func @loop_carried
// CHECK: scf.for
// CHECK: amdg.async_wait %{{.*}} {num_inst = 16 : i32}
// CHECK-NOT: ttg.async_wait
// CHECK: amdg.async_wait {num_inst = 0 : i32}
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

// -----

// Pointers known to be 16 contiguous f16 (32-byte aligned): a vector is 8 elements (128
// bits), so a 64x64 copy is 2 loads; a mask constant over 4 elements narrows it to 4 (4
// loads). Pointers of unknown contiguity: 16 loads, a `contiguity` hint of 8 or not.
// Tokenless waits walk back: num = 0 keeps only the uncommitted copies, num = 1 also the
// last group.

// CHECK-LABEL: tt.func @contiguity
// CHECK: amdg.async_wait {num_inst = 4 : i32}
// CHECK: amdg.async_wait {num_inst = 6 : i32}
// CHECK: amdg.async_wait {num_inst = 16 : i32}
// CHECK: amdg.async_wait {num_inst = 20 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @contiguity(%p: tensor<64x64x!tt.ptr<f16>, #bl> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<[16, 32]> : tensor<2xi32>},
                      %m: tensor<64x64xi1, #bl> {tt.constancy = dense<[1, 4]> : tensor<2xi32>},
                      %q: tensor<64x64x!tt.ptr<f16>, #bl>,
                      %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %t0 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %t1 = ttg.async_copy_global_to_local %p, %buf mask %m : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %w0 = ttg.async_wait {num = 0 : i32}
    %w1 = ttg.async_wait {num = 1 : i32}
    %g1 = ttg.async_commit_group tokens %t1
    %t2 = ttg.async_copy_global_to_local %q, %buf {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %w2 = ttg.async_wait {num = 0 : i32}
    %w3 = ttg.async_wait {num = 1 : i32}
    tt.return
  }
}

// -----

// Tokenless waits over control flow: each path back from the wait sums the copies (16
// loads each, nothing known of the pointers) until num + 1 commit groups are passed or
// the function starts, and the smallest sum wins. After an scf.if without else, the
// branch may be skipped: num = 1 and num = 2 see the group before the if alone (16; the
// function starts). In the loop body, the back edge passes the body's group (16). In the
// while's before block, num = 0: every path meets a commit first (0). After the while,
// num = 1: no iteration of either loop on the way leaves the for body's group (16).

// CHECK-LABEL: tt.func @control_flow
// CHECK: amdg.async_wait {num_inst = 16 : i32}
// CHECK: amdg.async_wait {num_inst = 16 : i32}
// CHECK: scf.for
// CHECK: amdg.async_wait {num_inst = 16 : i32}
// CHECK: scf.while
// CHECK: amdg.async_wait {num_inst = 0 : i32}
// CHECK: amdg.async_wait {num_inst = 16 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @control_flow(%p: tensor<64x64x!tt.ptr<f16>, #bl>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %c: i1, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %t0 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    scf.if %c {
      %t1 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
      %g1 = ttg.async_commit_group tokens %t1
    }
    %w0 = ttg.async_wait {num = 1 : i32}
    %w1 = ttg.async_wait {num = 2 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %w2 = ttg.async_wait {num = 1 : i32}
      %t2 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
      %g2 = ttg.async_commit_group tokens %t2
    }
    %r = scf.while (%a = %c) : (i1) -> i1 {
      %w3 = ttg.async_wait {num = 0 : i32}
      scf.condition(%a) %a : i1
    } do {
    ^bb0(%b: i1):
      %t3 = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #bl> -> <64x64xf16, #shared, #smem, mutable>
      %g3 = ttg.async_commit_group tokens %t3
      scf.yield %b : i1
    }
    %w4 = ttg.async_wait {num = 1 : i32}
    tt.return
  }
}
