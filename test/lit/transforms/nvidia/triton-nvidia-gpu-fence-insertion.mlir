// RUN: tileopt %s -split-input-file --triton-nvidia-gpu-fence-insertion | FileCheck %s
// RUN: tileopt %s -split-input-file --triton-nvidia-gpu-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=SM80
// RUN: tileopt %s -split-input-file --triton-nvidia-gpu-fence-insertion --triton-version=3.9 | FileCheck %s --check-prefix=V39

// wgmma operands copied from registers in the loop (the block-pointer matmul on sm90):
// the fence stays in the loop, right before the dot. Below sm90 nothing changes.

// CHECK-LABEL: tt.func @allocs_in_loop
// V39-LABEL: tt.func @allocs_in_loop
// V39: ttng.fence_async_shared {bCluster = false}
// V39-NEXT: ttng.warp_group_dot
// CHECK: scf.for
// CHECK: ttg.local_alloc
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot
// SM80-LABEL: tt.func @allocs_in_loop
// SM80-NOT: fence_async_shared
// SM80: tt.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @allocs_in_loop(%a: tensor<64x32xf16, #b>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>)  : i32 {
      %am = ttg.local_alloc %a : (tensor<64x32xf16, #b>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
      %bm = ttg.local_alloc %b : (tensor<32x64xf16, #b>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
      %d = ttng.warp_group_dot %am, %bm, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// The buffers are written before the loop: the fence goes before the loop. A second dot
// of the loop on the same buffers needs no fence of its own: its hoisted fence would
// follow the first one directly.

// CHECK-LABEL: tt.func @hoisted
// V39-LABEL: tt.func @hoisted
// V39: ttng.fence_async_shared {bCluster = false}
// V39-NEXT: scf.for
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: scf.for
// CHECK-NOT: fence_async_shared
// CHECK: tt.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoisted(%a: tensor<64x32xf16, #b>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %am = ttg.local_alloc %a : (tensor<64x32xf16, #b>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
    %bm = ttg.local_alloc %b : (tensor<32x64xf16, #b>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %am, %bm, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      %e = ttng.warp_group_dot %am, %bm, %d {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %e : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Buffers filled by cp.async (the pipelined matmul) need no fence in Triton 3.6; a buffer
// that a local_store writes (through a memdesc_index view) does, inside the loop that
// writes it. (As in Triton 3.6, the store is found from the allocation through single-use
// views.) Triton 3.9 counts the cp.async copy as a write too (its sm90 matmul's fence sits
// in the loop, before the dot): the first loop gets a fence as well.

// CHECK-LABEL: tt.func @async_copy_and_local_store
// CHECK: scf.for
// CHECK-NOT: fence_async_shared
// CHECK: ttng.warp_group_dot
// CHECK: scf.yield
// CHECK: scf.for
// CHECK: ttg.local_store
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot
// V39-LABEL: tt.func @async_copy_and_local_store
// V39: scf.for
// V39: ttg.async_copy_global_to_local
// V39-NEXT: ttng.fence_async_shared {bCluster = false}
// V39-NEXT: ttng.warp_group_dot
// V39: scf.for
// V39: ttg.local_store
// V39: ttng.fence_async_shared {bCluster = false}
// V39-NEXT: ttng.warp_group_dot
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @async_copy_and_local_store(%p: tensor<64x64x!tt.ptr<f16>, #b>, %v: tensor<64x64xf16, #b>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #s, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>)  : i32 {
      %view = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %t = ttg.async_copy_global_to_local %p, %view : tensor<64x64x!tt.ptr<f16>, #b> -> <64x64xf16, #s, #smem, mutable>
      %d = ttng.warp_group_dot %view, %view, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %buf2 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #s, #smem, mutable>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #mma>)  : i32 {
      %w = ttg.memdesc_index %buf2[%c1] : !ttg.memdesc<2x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      ttg.local_store %v, %w : tensor<64x64xf16, #b> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %view = ttg.memdesc_index %buf2[%c1] : !ttg.memdesc<2x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %d = ttng.warp_group_dot %view, %view, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %s : tensor<64x64xf32, #mma>
  }
}

// -----

// A TMA copy writes through the async proxy, as wgmma reads: no fence in either version
// (Triton 3.9's sm90 desc_matmul has none in its loop).

// CHECK-LABEL: tt.func @tma_copy
// CHECK-NOT: fence_async_shared
// CHECK: tt.return
// V39-LABEL: tt.func @tma_copy
// V39-NOT: fence_async_shared
// V39: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tma_copy(%desc: !tt.tensordesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>)  : i32 {
      ttng.async_tma_copy_global_to_local %desc[%c0, %i] %buf, %bar, %true : !tt.tensordesc<64x64xf16, #s>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %d = ttng.warp_group_dot %buf, %buf, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}
