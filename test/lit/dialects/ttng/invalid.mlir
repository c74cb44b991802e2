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
