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

// -----

// #nvidia_mma v2, f16 -> f32: mma.sync m16n8k16, accumulator tied to D. Warps 2x2 on
// 64x64: each warp's 32x32 is 2x4 tiles, K = 32 is 2 steps: 16 instructions, the 8 f16
// of A packed pairwise into 4 b32 registers, the 4 of B into 2.
// CHECK-LABEL: llvm.func @mma_f16
// CHECK:         llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r" {{.*}} : (f32, f32, f32, f32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-15: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT:     mma.sync
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_f16(%pa: !tt.ptr<f16>, %pb: !tt.ptr<f16>, %pc: !tt.ptr<f32>) {
    %ra = tt.splat %pa : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %xa = tt.load %ra : tensor<64x32x!tt.ptr<f16>, #blocked>
    %rb = tt.splat %pb : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %xb = tt.load %rb : tensor<32x64x!tt.ptr<f16>, #blocked>
    %a = ttg.convert_layout %xa : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.convert_layout %xb : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %e = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %ps = tt.splat %pc : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.store %ps, %e : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// bf16 and tf32 (f32 operands with inputPrecision = tf32: m16n8k8, one f32 per register).
// CHECK-LABEL: llvm.func @mma_bf16_tf32
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK:         llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };"
// CHECK-COUNT-3: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT:     mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_bf16_tf32(%x: bf16, %y: f32, %p: !tt.ptr<f32>) {
    %a = tt.splat %x : bf16 -> tensor<32x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = tt.splat %x : bf16 -> tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<32x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    %a2 = tt.splat %y : f32 -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %b2 = tt.splat %y : f32 -> tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %e = tt.dot %a2, %b2, %d, inputPrecision = tf32 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #mma>
    tt.store %ps, %e : tensor<32x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// An f16 accumulator: m16n8k16 .f16.f16.f16.f16, C and D as two f16x2 registers each.
// CHECK-LABEL: llvm.func @mma_f16_acc
// CHECK:         "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 { $0, $1 }, { $4, $5, $6, $7 }, { $8, $9 }, { $2, $3 };", "=r,=r,0,1,r,r,r,r,r,r"
// CHECK:         llvm.bitcast %{{.*}} : i32 to vector<2xf16>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_f16_acc(%x: f16, %p: !tt.ptr<f16>) {
    %a = tt.splat %x : f16 -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = tt.splat %x : f16 -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<0.0> : tensor<32x16xf16, #mma>
    %d = tt.dot %a, %b, %c : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x16xf16, #mma>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>, #mma>
    tt.store %ps, %d : tensor<32x16x!tt.ptr<f16>, #mma>
    tt.return
  }
}
