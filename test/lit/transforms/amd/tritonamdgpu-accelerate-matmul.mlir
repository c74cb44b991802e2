// RUN: tileopt %s -split-input-file --tritonamdgpu-accelerate-matmul | FileCheck %s --check-prefixes=CHECK,KPACK1
// RUN: tileopt %s -split-input-file --tritonamdgpu-accelerate-matmul="kPack=2" | FileCheck %s --check-prefixes=CHECK,KPACK2
// RUN: tileopt %s -split-input-file --tritonamdgpu-accelerate-matmul="arch-generation-name=gfx90a matrix-instruction-size=16" | FileCheck %s --check-prefix=FORCED
// RUN: not tileopt %s -split-input-file --tritonamdgpu-accelerate-matmul="matrix-instruction-size=8" 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: tileopt %s -split-input-file --tritonamdgpu-accelerate-matmul 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// SIZE: error: tritonamdgpu-accelerate-matmul: matrix-instruction-size 8 is not supported (0, 16 or 32)

// gfx942, f16 128x128x64 on 8 warps: mfma 32x32x8 (K per lane 4, times kPack), warps
// doubled along N while N has more 32-wide tiles per warp than M has pairs of them: 2x4.
// The accumulator is converted first, then A and B; the result goes back to #blocked.
// CHECK: #[[MFMA:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK-LABEL: tt.func @mfma_f16
// CHECK: %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #[[MFMA]]>
// KPACK1: %[[A:.*]] = ttg.convert_layout %{{.*}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MFMA]], kWidth = 4}>>
// KPACK1: %[[B:.*]] = ttg.convert_layout %{{.*}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 4}>>
// KPACK2: %[[A:.*]] = ttg.convert_layout %{{.*}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MFMA]], kWidth = 8}>>
// KPACK2: %[[B:.*]] = ttg.convert_layout %{{.*}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 8}>>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[C]] : {{.*}} -> tensor<128x128xf32, #[[MFMA]]>
// CHECK: %[[R:.*]] = ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[MFMA]]> -> tensor<128x128xf32, #blocked>
// CHECK: tt.return %[[R]]
// The option's arch wins over the module's target (gfx90a: CDNA2, MFMA version 2), and
// matrix-instruction-size=16 forces the 16x16x16 instruction (4 K per lane).
// FORCED: #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 4], instrShape = [16, 16, 16], isTransposed = true}>
// FORCED-LABEL: tt.func @mfma_f16
// FORCED: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma_f16(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// A 32x16 result: the smaller side is under 32, so mfma 16x16x16 (4 K per lane); the
// f16 accumulator is widened to f32 for the instruction and narrowed back after it.
// CHECK: #[[MFMA16:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 1], instrShape = [16, 16, 16], isTransposed = true}>
// CHECK-LABEL: tt.func @mfma_16_f16_acc
// CHECK: %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<32x16xf16, #blocked> -> tensor<32x16xf16, #[[MFMA16]]>
// CHECK: %[[CF:.*]] = arith.extf %[[C]] : tensor<32x16xf16, #[[MFMA16]]> to tensor<32x16xf32, #[[MFMA16]]>
// KPACK1: ttg.convert_layout {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MFMA16]], kWidth = 4}>>
// KPACK2: ttg.convert_layout {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MFMA16]], kWidth = 8}>>
// CHECK: %[[D:.*]] = tt.dot {{.*}}, %[[CF]] : {{.*}} -> tensor<32x16xf32, #[[MFMA16]]>
// CHECK: %[[R:.*]] = ttg.convert_layout %[[D]] : tensor<32x16xf32, #[[MFMA16]]> -> tensor<32x16xf32, #blocked>
// CHECK: %[[T:.*]] = arith.truncf %[[R]] : tensor<32x16xf32, #blocked> to tensor<32x16xf16, #blocked>
// CHECK: tt.return %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma_16_f16_acc(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x16xf16, #blocked>) -> tensor<32x16xf16, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x16xf16, #blocked>
    tt.return %d : tensor<32x16xf16, #blocked>
  }
}

// -----

// f32 operands: plain f32 mfma (32x32x2, one K per lane) unless the dot allows tf32,
// which CDNA3 runs as xf32 (32x32x4, two K per lane). Two dots, two layouts.
// CHECK-DAG: #[[F32:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 2], isTransposed = true}>
// CHECK-DAG: #[[XF32:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 4], isTransposed = true}>
// CHECK-LABEL: tt.func @mfma_f32_and_xf32
// KPACK1-DAG: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #[[F32]], kWidth = 1}>>
// KPACK1-DAG: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #[[XF32]], kWidth = 2}>>
// KPACK2-DAG: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #[[F32]], kWidth = 2}>>
// KPACK2-DAG: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #[[XF32]], kWidth = 4}>>
// CHECK-DAG: tt.dot {{.*}} -> tensor<64x64xf32, #[[F32]]>
// CHECK-DAG: tt.dot {{.*}}, inputPrecision = tf32 : {{.*}} -> tensor<64x64xf32, #[[XF32]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma_f32_and_xf32(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %d = tt.dot %a, %b, %c : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %e = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d, %e : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>
  }
}

// -----

// fp8 (the FNUZ types on CDNA3): mfma 32x32x16 with 8 K per lane, transposed as every
// other MFMA layout (Triton 3.6's output for this input).
// CHECK: #[[FP8:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>
// CHECK-LABEL: tt.func @mfma_fp8
// KPACK1: tensor<64x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #[[FP8]], kWidth = 8}>>
// KPACK2: tensor<64x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #[[FP8]], kWidth = 16}>>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[FP8]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma_fp8(%a: tensor<64x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// Attention: the first dot's result (through a truncf) is the second dot's A. The first
// one puts all warps on M; the second covers M first (64 rows: two 32-row tiles, so 2
// warps) and N with the rest, and keeps kWidth at one instruction's K even with kPack=2.
// CHECK-DAG: #[[HEAD:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK-DAG: #[[TAIL:.*]] = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK-LABEL: tt.func @chained_dots
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[HEAD]]>
// CHECK: ttg.convert_layout {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[TAIL]], kWidth = 4}>>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[TAIL]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @chained_dots(%q: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %k: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %v: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %s = tt.dot %q, %k, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %p = arith.truncf %s : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    %pa = ttg.convert_layout %p : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %pa, %v, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %o : tensor<64x64xf32, #blocked>
  }
}

// -----

// Too small for any MFMA (M = 8): FMA. f16 x f16 -> f32 with even K is what v_dot2
// takes, so it stays; bf16 operands are cast to f32 (round to nearest even).
// CHECK-LABEL: tt.func @fma_dots
// CHECK-NOT: amd_mfma
// CHECK: %[[F:.*]] = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x32xf16, {{.*}} -> tensor<8x64xf32, #blocked>
// CHECK: %[[A:.*]] = tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<8x32xbf16, {{.*}} -> tensor<8x32xf32,
// CHECK: %[[B:.*]] = tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<32x64xbf16, {{.*}} -> tensor<32x64xf32,
// CHECK: %[[G:.*]] = tt.dot %[[A]], %[[B]], %{{.*}} : tensor<8x32xf32, {{.*}} -> tensor<8x64xf32, #blocked>
// CHECK: tt.return %[[F]], %[[G]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @fma_dots(%a: tensor<8x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %x: tensor<8x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %y: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<8x64xf32, #blocked>) -> (tensor<8x64xf32, #blocked>, tensor<8x64xf32, #blocked>) {
    %d = tt.dot %a, %b, %c : tensor<8x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<8x64xf32, #blocked>
    %e = tt.dot %x, %y, %c : tensor<8x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<8x64xf32, #blocked>
    tt.return %d, %e : tensor<8x64xf32, #blocked>, tensor<8x64xf32, #blocked>
  }
}

// -----

// gfx1100: WMMA v1, transposed, 16 K per lane (kPack is MFMA's only); 8 warps over a
// 128x128 result: 2x4 as for MFMA with 16x16 tiles.
// CHECK: #[[WMMA:.*]] = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 4]}>
// CHECK-LABEL: tt.func @wmma_f16
// CHECK: ttg.convert_layout {{.*}} -> tensor<128x128xf32, #[[WMMA]]>
// CHECK: ttg.convert_layout {{.*}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[WMMA]], kWidth = 16}>>
// CHECK: ttg.convert_layout {{.*}} -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #[[WMMA]], kWidth = 16}>>
// CHECK: tt.dot {{.*}} -> tensor<128x128xf32, #[[WMMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma_f16(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// gfx1100 has no fp8 WMMA, and Triton 3.6 offers WMMA forms with a 32-bit accumulator
// only: f16 x f16 -> f32, the f16 accumulator widened (extf) after its conversion and
// the result narrowed back (truncf), both operands widened after theirs. A dot whose K
// (8) is under one WMMA's 16 stays an FMA dot. (Triton 3.6's output for this input.)
// CHECK: #[[WMMA8:.*]] = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 2]}>
// CHECK-LABEL: tt.func @wmma_fp8_and_short_k
// CHECK: %[[C8:.*]] = ttg.convert_layout %arg4 : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #[[WMMA8]]>
// CHECK: %[[C32:.*]] = arith.extf %[[C8]] : tensor<32x32xf16, #[[WMMA8]]> to tensor<32x32xf32, #[[WMMA8]]>
// CHECK: %[[A8:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #[[WMMA8]], kWidth = 16}>>
// CHECK: tt.fp_to_fp %[[A8]] : tensor<32x64xf8E5M2, {{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[WMMA8]], kWidth = 16}>>
// CHECK: %[[D:.*]] = tt.dot {{.*}}, %[[C32]] : {{.*}} -> tensor<32x32xf32, #[[WMMA8]]>
// CHECK: %[[DB:.*]] = ttg.convert_layout %[[D]] : tensor<32x32xf32, #[[WMMA8]]> -> tensor<32x32xf32, #blocked>
// CHECK: arith.truncf %[[DB]] : tensor<32x32xf32, #blocked> to tensor<32x32xf16, #blocked>
// CHECK: tt.dot {{.*}} : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * {{.*}} -> tensor<32x32xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma_fp8_and_short_k(%a: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %x: tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %y: tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf16, #blocked>) -> (tensor<32x32xf16, #blocked>, tensor<32x32xf16, #blocked>) {
    %d = tt.dot %a, %b, %c : tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf16, #blocked>
    %e = tt.dot %x, %y, %c : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf16, #blocked>
    tt.return %d, %e : tensor<32x32xf16, #blocked>, tensor<32x32xf16, #blocked>
  }
}

// -----

// RDNA4 (gfx1200) has fp8 WMMA: the operands stay f8E5M2, the f16 accumulator is
// widened to f32. An i16 FMA dot is legalised to f32, and the cast of its constant
// accumulator folds into an f32 constant (the greedy driver folds every op).
// (Triton 3.6's output for this input.)
// CHECK-LABEL: tt.func @wmma_fp8_rdna4
// CHECK-NOT: tt.fp_to_fp
// CHECK: tt.dot {{.*}} : tensor<32x128xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #{{.*}}, kWidth = 8}>> * tensor<128x64xf8E5M2, {{.*}} -> tensor<32x64xf32,
// CHECK-LABEL: tt.func @fma_i16
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
// CHECK-NOT: arith.constant
// CHECK: tt.dot %{{.*}}, %{{.*}}, %[[C]] : {{.*}} -> tensor<32x32xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma_fp8_rdna4(%a: tensor<32x128xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x64xf16, #blocked>) -> tensor<32x64xf16, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<32x128xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf16, #blocked>
    tt.return %d : tensor<32x64xf16, #blocked>
  }
  tt.func @fma_i16(%a: tensor<32x64xi16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x32xi16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<32x32xi16, #blocked> {
    %c = arith.constant dense<0> : tensor<32x32xi16, #blocked>
    %d = tt.dot %a, %b, %c : tensor<32x64xi16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xi16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xi16, #blocked>
    tt.return %d : tensor<32x32xi16, #blocked>
  }
}

// -----

// A dot chain on gfx950: the second dot's operands read 4 elements per lane (the 4
// consecutive ones a lane holds of the first dot's MFMA accumulator), though its
// 32x32x16 instruction reads 8; the first dot keeps 8 (16 with kPack=2). (Triton 3.6's
// output.)
// CHECK-LABEL: tt.func @chain_gfx950
// KPACK1: tt.dot {{.*}} : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
// KPACK2: tt.dot {{.*}} : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
// CHECK: tt.dot {{.*}} : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @chain_gfx950(%q: tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %k: tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %v: tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %qk = tt.dot %q, %k, %cst : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    %h = arith.truncf %qk : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    %p = ttg.convert_layout %h : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %o = tt.dot %p, %v, %cst : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %o : tensor<128x128xf32, #blocked>
  }
}

// -----

// The OCP fp8 types before CDNA4 take the f16 instruction, each operand converted, then
// widened (Triton 3.6's output for this input, with its two remarks); a K under one
// instruction's K stays on FMA, with Triton's remarks (the first words of the first).
// REMARK:      remark: Unable to select MFMA intrinsic
// REMARK-NEXT:   %e = tt.dot %x, %y
// REMARK:      remark: Attempting to map dot operation to FMA intrinsic.
// REMARK-NEXT:   %e = tt.dot %x, %y
// REMARK:      remark: missing native support for fp8 variant on current architecture; emulated with fp16 so low performance
// REMARK-NEXT:   %d = tt.dot %a, %b
// REMARK:      remark: for gfx942 please use native supported fp8 variants
// REMARK-NEXT:   %d = tt.dot %a, %b
// KPACK1-LABEL: tt.func @ocp_fp8_and_short_k
// KPACK1:         %[[A:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// KPACK1-NEXT:    %[[A16:.*]] = tt.fp_to_fp %[[A]] : {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// KPACK1-NEXT:    %[[B:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// KPACK1-NEXT:    %[[B16:.*]] = tt.fp_to_fp %[[B]] : {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// KPACK1-NEXT:    tt.dot %[[A16]], %[[B16]], %{{.*}} : {{.*}} -> tensor<64x64xf32, #mma>
// KPACK1:         tt.dot %arg2, %arg3, %{{.*}} : tensor<64x4xf16, {{.*}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @ocp_fp8_and_short_k(%a: tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %x: tensor<64x4xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %y: tensor<4x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %d = tt.dot %a, %b, %c : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %e = tt.dot %x, %y, %c : tensor<64x4xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d, %e : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>
  }
}
