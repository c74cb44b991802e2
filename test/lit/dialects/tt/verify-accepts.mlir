// RUN: tileopt %s -split-input-file | FileCheck %s
// Inputs the tt verifiers must accept, next to what they reject (test/lit/ir/invalid-tt.mlir):
// Triton 3.6.0 reads each of them.

// tt.split and tt.join accept an equivalent layout spelled otherwise (a linear layout for
// the blocked one the rule gives).
#b7 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#l7 = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @split_join_linear
  tt.func @split_join_linear(%x: tensor<128x2xf32, #b7>) -> tensor<128x2xf32, #b7> {
    %0, %1 = tt.split %x : tensor<128x2xf32, #b7> -> tensor<128xf32, #l7>
    %2 = tt.join %0, %1 : tensor<128xf32, #l7> -> tensor<128x2xf32, #b7>
    tt.return %2 : tensor<128x2xf32, #b7>
  }
}

// -----

// tt.dot_scaled: e2m1 A packed along M (lhs_k_pack = false): 16 bytes of rows are M = 32.
// CHECK-LABEL: @dot_scaled_m_packed
tt.func @dot_scaled_m_packed(%a: tensor<16x128xi8>, %s: tensor<32x4xi8>, %b: tensor<128x32xbf16>) -> tensor<32x32xf32> {
  %c = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false, lhs_k_pack = false} : tensor<16x128xi8>, tensor<32x4xi8> * tensor<128x32xbf16> -> tensor<32x32xf32>
  tt.return %d : tensor<32x32xf32>
}

// -----

// A scalar operand of an elementwise op broadcasts.
// CHECK-LABEL: @inline_asm_scalar
tt.func @inline_asm_scalar(%x: tensor<64xi32>, %y: i32) -> tensor<64xi32> {
  %0 = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %x, %y : tensor<64xi32>, i32 -> tensor<64xi32>
  tt.return %0 : tensor<64xi32>
}

// -----

// The same dot as tf32 is valid.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  // CHECK-LABEL: @dot_tf32_mma
  tt.func @dot_tf32_mma(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>) -> tensor<64x64xf32, #mma> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
