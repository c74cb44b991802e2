// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// The FMA dot of a blocked accumulator: each thread holds a 2x2 block of C, all 4 K of
// its 2 rows of A and of its 2 columns of B; one fmuladd per element of C and per k,
// k outermost, each on the previous k's result.
// CHECK-LABEL: llvm.func @fma_f32
// CHECK-COUNT-4: llvm.intr.fmuladd(%{{.*}}) : (f32, f32, f32) -> f32
// CHECK:         %[[K1:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-COUNT-10: llvm.intr.fmuladd
// CHECK:         %[[K3:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NOT:     llvm.intr.fmuladd
// CHECK:         llvm.return
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_f32(%x: f32, %y: f32, %p: !tt.ptr<f32>) {
    %a = tt.splat %x : f32 -> tensor<16x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = tt.splat %y : f32 -> tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %c = arith.constant dense<1.0> : tensor<16x32xf32, #blocked>
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x32xf32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.store %ps, %d : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Integers: a multiply and an add per step (no fused form).
// CHECK-LABEL: llvm.func @fma_i32
// CHECK-COUNT-8: llvm.mul
// CHECK-NOT:     llvm.intr.fmuladd
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_i32(%x: i32, %y: i32, %p: !tt.ptr<i32>) {
    %a = tt.splat %x : i32 -> tensor<16x2xi32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = tt.splat %y : i32 -> tensor<2x32xi32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %c = arith.constant dense<1> : tensor<16x32xi32, #blocked>
    %d = tt.dot %a, %b, %c : tensor<16x2xi32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x32xi32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x32x!tt.ptr<i32>, #blocked>
    tt.store %ps, %d : tensor<16x32x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
