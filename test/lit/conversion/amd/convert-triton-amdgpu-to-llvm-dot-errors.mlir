// RUN: not tileopt %s -split-input-file --allocate-amdgpu-shared-memory --convert-triton-amdgpu-to-llvm 2>&1 | FileCheck %s

// Dots and register permutations the AMD lowering refuses, each with a located error (and
// the next case still lowered).

#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [4, 64, 4], isTransposed = false}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_4x64(%x: f16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<4x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %b = tt.splat %x : f16 -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %c = tt.splat %z : f32 -> tensor<4x64xf32, #mma>
    // The 4x64 MFMA (sixteen 4x4 blocks, broadcasts) is not lowered.
    // CHECK: dot-errors.mlir:[[# @LINE + 1]]:5: error: cannot lower tt.dot: MFMA instrShape [4, 64, 4] is not lowered (32x32 and 16x16 are)
    %d = tt.dot %a, %b, %c : tensor<4x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<4x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<4x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<4x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [1, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_f32(%x: f32, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f32 -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    %b = tt.splat %x : f32 -> tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    // RDNA3 has no f32 WMMA (accelerate-matmul keeps such dots on the FMA path).
    // CHECK: dot-errors.mlir:[[# @LINE + 1]]:5: error: cannot lower tt.dot: no WMMA for f32 -> f32 on RDNA3 (f16 and bf16 into f32 or themselves, i8 into i32)
    %d = tt.dot %a, %b, %c : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [2, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @not_in_thread(%x: f16, %out: !tt.ptr<f16>) {
    %a = tt.splat %x : f16 -> tensor<32x8xf16, #blocked>
    // Row-major to column-major moves elements between lanes: not an in-thread permutation.
    // CHECK: dot-errors.mlir:[[# @LINE + 1]]:5: error: amdg.in_thread_transpose between layouts that move elements between threads (only registers may be permuted)
    %t = amdg.in_thread_transpose %a : tensor<32x8xf16, #blocked> -> tensor<32x8xf16, #blocked1>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<32x8x!tt.ptr<f16>, #blocked1>
    tt.store %p, %t : tensor<32x8x!tt.ptr<f16>, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @no_async_copy(%p: tensor<32x64x!tt.ptr<f32>, #blocked>, %m: !ttg.memdesc<32x64xf32, #shared, #smem, mutable>) {
    // A hook the target lacks (direct-to-LDS copies are not written for AMD) is an error
    // at the op, not an internal error.
    // CHECK: dot-errors.mlir:[[# @LINE + 1]]:5: error: cannot lower 'ttg.async_copy_global_to_local' on this target: asynchronous copies to shared memory
    %t = ttg.async_copy_global_to_local %p, %m : tensor<32x64x!tt.ptr<f32>, #blocked> -> <32x64xf32, #shared, #smem, mutable>
    tt.return
  }
}
