// RUN: tileopt %s -split-input-file -verify-diagnostics
// ttng op verifiers reject what Triton rejects, with messages that say why.

// wgmma reads an in-register A as 32-bit words: bf16 needs kWidth 2.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_a_kwidth(%a: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: !ttg.memdesc<64x64xbf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{ttng.warp_group_dot: in-register LHS operand must have a kWidth of 2 but got 4 (32 bits of bf16 per register)}}
    %d = ttng.warp_group_dot %a, %b, %c : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<64x64xbf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// The same dot with kWidth 2 is valid.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_a_kwidth_ok(%a: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: !ttg.memdesc<64x64xbf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    %d = ttng.warp_group_dot %a, %b, %c : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xbf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// TMA writes shared memory in the NVMMA layout only.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @tma_load_layout(%desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %i: i32, %pred: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #swizzled, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{ttng.async_tma_copy_global_to_local: TMA result must have NVMMA shared layout (the layout TMA writes), got #ttg.swizzled_shared}}
    ttng.async_tma_copy_global_to_local %desc[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #swizzled, #smem, mutable>
    tt.return
  }
}

// -----

// As MLIR does, the last op of a body without a terminator reports its own error first.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @tma_load_layout_last(%desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %i: i32, %pred: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #swizzled, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{TMA result must have NVMMA shared layout}}
    ttng.async_tma_copy_global_to_local %desc[%i, %i] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #swizzled, #smem, mutable>
  }
}
