// Bad input to the TMA lowering, reported at the op.
// RUN: not tileopt %s -split-input-file --allocate-shared-memory-nv="compute-capability=90" --convert-triton-gpu-to-llvm="compute-capability=90" 2>&1 | FileCheck %s

// Global scratch without its offsets (tritongpu-global-scratch-memory-allocation not run).
// CHECK: tma-errors.mlir:[[# @LINE + 3]]:5: error: run tritongpu-global-scratch-memory-allocation before the lowering (no scratch offset)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unallocated_scratch() {
    %scratch = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

// A TMA copy into part of a buffer (a subslice) is refused.
// CHECK: tma-errors.mlir:[[# @LINE + 11]]:5: error: a TMA copy must move a whole buffer of the block's shape
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @partial_buffer(%raw: !tt.ptr<i8>, %i: i32) {
    %desc = ttng.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    %true = arith.constant true
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %part = ttg.memdesc_subslice %buf [64, 0] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 128x64>
    ttng.async_tma_copy_global_to_local %desc[%i, %i] %part, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 128x64>
    tt.return
  }
}
