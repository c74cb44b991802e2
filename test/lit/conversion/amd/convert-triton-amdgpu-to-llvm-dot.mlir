// RUN: tileopt %s -split-input-file --allocate-amdgpu-shared-memory --convert-triton-amdgpu-to-llvm | FileCheck %s

// tt.dot on AMD matrix cores (tileopt/conversion/amd/matrix.py) and dot operands from LDS.
// Fragments (CDNA3 ISA, MFMA; RDNA3 ISA, WMMA): MFMA DxDxK on a wave of 64: lane l holds
// kpl consecutive K of row l % D of A and of column l % D of B; WMMA 16x16x16 on a wave of
// 32: lane l holds all 16 K of row (column) l % 16, lanes 16-31 the same as lanes 0-15.

// MFMA 32x32x8 f16 (4 K per lane), not transposed: A (%x) is the first operand, B (%y) the
// second, then the 16 accumulators and cbsz = abid = blgp = 0. A 64x16 x 16x32 dot on one
// warp is 2 M tiles x 2 K steps: four instructions, K outermost.
// CHECK-LABEL: llvm.func @mfma_f16
// CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         %[[A1:.*]] = llvm.insertelement %x, %{{.*}} : vector<4xf16>
// CHECK-NEXT:    %[[A2:.*]] = llvm.insertelement %x, %[[A1]]
// CHECK-NEXT:    %[[A3:.*]] = llvm.insertelement %x, %[[A2]]
// CHECK-NEXT:    %[[A:.*]] = llvm.insertelement %x, %[[A3]]
// CHECK:         %[[B1:.*]] = llvm.insertelement %y, %{{.*}} : vector<4xf16>
// CHECK-NEXT:    %[[B2:.*]] = llvm.insertelement %y, %[[B1]]
// CHECK-NEXT:    %[[B3:.*]] = llvm.insertelement %y, %[[B2]]
// CHECK-NEXT:    %[[B:.*]] = llvm.insertelement %y, %[[B3]]
// CHECK-NEXT:    rocdl.mfma.f32.32x32x8f16 %[[A]], %[[B]], %{{.*}}, %[[ZERO]], %[[ZERO]], %[[ZERO]] : (vector<4xf16>, vector<4xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-COUNT-3: rocdl.mfma.f32.32x32x8f16
// CHECK-NOT:     rocdl.mfma
// CHECK:         llvm.return
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_f16(%x: f16, %y: f16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %b = tt.splat %y : f16 -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %c = tt.splat %z : f32 -> tensor<64x32xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x32xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// MFMA 16x16x16 bf16 (the 1k form: operands as i16 vectors), transposed (D^T = B^T A^T:
// B first) and kWidth 8 = two instructions per 16x32x16 tile, the second taking the lane's
// other 4 K and the first's result as its accumulator.
// CHECK-LABEL: llvm.func @mfma_bf16_kpack
// CHECK:         llvm.insertelement %y, %{{.*}} : vector<4xbf16>
// CHECK:         %[[B0:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK:         llvm.insertelement %x, %{{.*}} : vector<4xbf16>
// CHECK:         %[[A0:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK-NEXT:    %[[D0:.*]] = rocdl.mfma.f32.16x16x16bf16.1k %[[B0]], %[[A0]], %{{.*}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK:         %[[B1:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK:         %[[A1:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK-NEXT:    rocdl.mfma.f32.16x16x16bf16.1k %[[B1]], %[[A1]], %[[D0]],
// CHECK-NOT:     rocdl.mfma
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_bf16_kpack(%x: bf16, %y: bf16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : bf16 -> tensor<16x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    %b = tt.splat %y : bf16 -> tensor<32x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<32x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// f32 with inputPrecision = tf32 on CDNA3: the xf32 MFMA, 2 K per lane (32x32x4: 2 lane
// groups of 32).
// CHECK-LABEL: llvm.func @mfma_xf32
// CHECK:         rocdl.mfma.f32.32x32x4.xf32 %{{.*}} : (vector<2xf32>, vector<2xf32>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-NOT:     rocdl.mfma
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 4], isTransposed = false}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_xf32(%x: f32, %y: f32, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f32 -> tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = tt.splat %y : f32 -> tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = tt.splat %z : f32 -> tensor<32x32xf32, #mma>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<32x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// fp8 (e4m3 fnuz) x bf8 (e5m2 fnuz), transposed: B goes first, so the intrinsic is named
// bf8 then fp8; 8 K per lane travel as one i64.
// CHECK-LABEL: llvm.func @mfma_fp8
// CHECK:         %[[B:.*]] = llvm.bitcast %{{.*}} : vector<8xi8> to i64
// CHECK:         %[[A:.*]] = llvm.bitcast %{{.*}} : vector<8xi8> to i64
// CHECK-NEXT:    rocdl.mfma.f32.16x16x32.bf8.fp8 %[[B]], %[[A]], %{{.*}} : (i64, i64, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 32], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_fp8(%x: f8E4M3FNUZ, %y: f8E5M2FNUZ, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f8E4M3FNUZ -> tensor<16x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    %b = tt.splat %y : f8E5M2FNUZ -> tensor<32x16xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<32x16xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// WMMA 16x16x16 f16 into f32 (gfx1100, wave 32), transposed: B first; 16 K per lane, 8
// accumulators. 16x32 x 32x16 = two K steps, the second accumulating the first's result.
// CHECK-LABEL: llvm.func @wmma_f16
// CHECK-SAME:    nvvm.reqntid = array<i32: 32>
// CHECK:         llvm.insertelement %y, %{{.*}} : vector<16xf16>
// CHECK:         %[[U:.*]] = llvm.mlir.undef : vector<16xf16>
// CHECK-NEXT:    llvm.insertelement %x, %[[U]]
// CHECK-COUNT-14: llvm.insertelement %x,
// CHECK-NEXT:    %[[A:.*]] = llvm.insertelement %x,
// CHECK-NEXT:    %[[D0:.*]] = rocdl.wmma.f32.16x16x16.f16 %{{.*}}, %[[A]], %{{.*}} : (vector<16xf16>, vector<16xf16>, vector<8xf32>) -> vector<8xf32>
// CHECK:         llvm.extractelement %[[D0]]
// CHECK:         rocdl.wmma.f32.16x16x16.f16
// CHECK-NOT:     rocdl.wmma
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [1, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_f16(%x: f16, %y: f16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    %b = tt.splat %y : f16 -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}
