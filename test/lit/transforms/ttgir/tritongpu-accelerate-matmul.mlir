// RUN: tileopt %s -split-input-file -verify-diagnostics --tritongpu-accelerate-matmul | FileCheck %s
// RUN: tileopt %s -split-input-file --tritongpu-accelerate-matmul=compute-capability=90 2>/dev/null | FileCheck %s --check-prefix=CC90
// RUN: not tileopt %s -split-input-file --tritongpu-accelerate-matmul=compute-capability=100 2>&1 | FileCheck %s --check-prefix=V5
// V5: tritongpu-accelerate-matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tritongpu-accelerate-matmul: compute capability 100 (mma v5) is not supported

// The corpus matmul tile (128x128x64 f16, 8 warps) on Ampere: mma.sync, warps split to
// balance the 16x8 tile repetitions (8x16 -> [2, 4]), kWidth = 32 / 16 bits. The acc is
// converted to #mma first, then A and B to its operand layouts; the result goes back.
// The compute-capability option overrides the module's cuda:80 (second RUN): wgmma.

// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @matmul_sm80
// CHECK: %[[ACC:.+]] = ttg.convert_layout %arg2 : tensor<128x128xf32, #{{.+}}> -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[A:.+]] = ttg.convert_layout %{{.+}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #{{.+}}}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[B:.+]] = ttg.convert_layout %{{.+}} : tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #{{.+}}}>> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>>
// CHECK: %[[D:.+]] = tt.dot %[[A]], %[[B]], %[[ACC]], inputPrecision = tf32 : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[R:.+]] = ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{.+}}>
// CHECK: tt.return %[[R]]
// CC90: #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CC90-LABEL: tt.func @matmul_sm80
// CC90: ttng.warp_group_dot
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @matmul_sm80(%a: tensor<128x64xf16, #ld>, %b: tensor<64x128xf16, #ld>, %c: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #ld> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #ld> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x128xf32, #acc>
    tt.return %d : tensor<128x128xf32, #acc>
  }
}

// -----

// The same tile on Hopper: wgmma with one 64-row warp group per 4 warps along M ([8, 1])
// and n = 128 (each warp group gets all of N). A and B are copied to shared memory where
// they are defined (here: function arguments, so at the top of the body), skipping the
// convert to the old dot-operand layout, which dies. Rows of 64 (A) and 128 (B) f16 are
// 128 bytes or more: 128-byte swizzle, row-major (transposed = false).

// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SH:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @matmul_sm90
// CHECK-NEXT: %[[B:.+]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #{{.+}}>) -> !ttg.memdesc<64x128xf16, #[[SH]], #smem>
// CHECK-NEXT: %[[A:.+]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #{{.+}}>) -> !ttg.memdesc<128x64xf16, #[[SH]], #smem>
// CHECK-NEXT: %[[ACC:.+]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %[[A]], %[[B]], %[[ACC]] {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #[[SH]], #smem> * !ttg.memdesc<64x128xf16, #[[SH]], #smem> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NEXT: ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{.+}}>
// CHECK-NOT: ttg.convert_layout
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @matmul_sm90(%a: tensor<128x64xf16, #ld>, %b: tensor<64x128xf16, #ld>, %c: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #ld> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #ld> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x128xf32, #acc>
    tt.return %d : tensor<128x128xf32, #acc>
  }
}

// -----

// A 64x32x16 bf16 dot (M x N x K), 4 warps, on Ampere: 16x8 tile repetitions 4x4 -> M
// first, then 4x2 -> N: warps [2, 2]; kWidth 2.

// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @bf16_64x32x16_sm80
// CHECK: tt.dot {{.*}} : tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>> -> tensor<64x32xf32, #[[MMA]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16_64x32x16_sm80(%a: tensor<64x16xbf16, #b>, %b: tensor<16x32xbf16, #b>, %c: tensor<64x32xf32, #b>) -> tensor<64x32xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x16xbf16, #b> -> tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<16x32xbf16, #b> -> tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x32xf32, #b>
    tt.return %d : tensor<64x32xf32, #b>
  }
}

// -----

// The same on Hopper: K = 16 is one wgmma k-step for 16-bit types; one warp group along M
// (64 rows), n = N = 32. A's rows are 16 bf16 = 32 bytes: 32-byte swizzle; B's 32 bf16 =
// 64 bytes: 64-byte swizzle.

// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
// CHECK-DAG: #[[SA:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[SB:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @bf16_64x32x16_sm90
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x16xbf16, #[[SA]], #smem> * !ttg.memdesc<16x32xbf16, #[[SB]], #smem> -> tensor<64x32xf32, #[[MMA]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16_64x32x16_sm90(%a: tensor<64x16xbf16, #b>, %b: tensor<16x32xbf16, #b>, %c: tensor<64x32xf32, #b>) -> tensor<64x32xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x16xbf16, #b> -> tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<16x32xbf16, #b> -> tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<64x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<16x32xbf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x32xf32, #b>
    tt.return %d : tensor<64x32xf32, #b>
  }
}

// -----

// f32 with tf32 on Ampere: kWidth = 32 / 32 = 1.

// CHECK-LABEL: tt.func @tf32_sm80
// CHECK: tt.dot {{.*}} : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32_sm80(%a: tensor<64x32xf32, #b>, %b: tensor<32x64xf32, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x32xf32, #b> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf32, #b> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xf32, #b>
    tt.return %d : tensor<64x64xf32, #b>
  }
}

// -----

// f32 with tf32 on Hopper: wgmma k = 32 bytes / 4 = 8. wgmma reads tf32 only K-major, so
// B's buffer is column-major (order [0, 1], transposed) whatever its register order: 32
// rows x 4 bytes = 128 bytes contiguous.

// CHECK-DAG: #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK-DAG: #[[SA:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[SB:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func @tf32_sm90
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x32xf32, #[[SA]], #smem> * !ttg.memdesc<32x64xf32, #[[SB]], #smem>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32_sm90(%a: tensor<64x32xf32, #b>, %b: tensor<32x64xf32, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x32xf32, #b> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf32, #b> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xf32, #b>
    tt.return %d : tensor<64x64xf32, #b>
  }
}

// -----

// f32 with IEEE precision has no tensor-core instruction: the dot stays on the blocked
// layout (FMA), with a remark on Hopper that wgmma cannot take it. Its operands already
// have the result's type, so nothing is promoted.

// CHECK-LABEL: tt.func @ieee_sm90
// CHECK-NOT: mma
// CHECK: tt.dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ieee_sm90(%a: tensor<64x32xf32, #b>, %b: tensor<32x64xf32, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x32xf32, #b> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf32, #b> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    // expected-remark @below {{Warning: can't use MMA V3 for the dot op}}
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xf32, #b>
    tt.return %d : tensor<64x64xf32, #b>
  }
}

// -----

// Below sm80 the FMA path is taken (with a remark); an FMA dot computes in its result's
// type, so f16 operands of an f32 dot are promoted with tt.fp_to_fp.

// CHECK-LABEL: tt.func @fma_promotes_sm75
// CHECK: %[[A:.+]] = tt.fp_to_fp %{{.+}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %[[B:.+]] = tt.fp_to_fp %{{.+}} : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: tt.dot %[[A]], %[[B]], %{{.+}} : tensor<64x32xf32, {{.*}} -> tensor<64x64xf32, #blocked>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fma_promotes_sm75(%a: tensor<64x32xf16, #b>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x32xf16, #b> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf16, #b> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    // expected-remark @below {{Dot op using MMA for compute capability 75 has been deprecated. It falls back to the FMA path.}}
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xf32, #b>
    tt.return %d : tensor<64x64xf32, #b>
  }
}

// -----

// i8 x i8 -> i32 on Ampere: kWidth = 32 / 8 = 4.

// CHECK-LABEL: tt.func @int8_sm80
// CHECK: tt.dot {{.*}} : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xi32, #mma>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @int8_sm80(%a: tensor<64x64xi8, #b>, %b: tensor<64x64xi8, #b>, %c: tensor<64x64xi32, #b>) -> tensor<64x64xi32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x64xi8, #b> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<64x64xi8, #b> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xi32, #b>
    tt.return %d : tensor<64x64xi32, #b>
  }
}

// -----

// i8 on Hopper: k = 32; K-major buffers as for tf32 (B transposed), 64-byte rows.

// CHECK-DAG: #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-DAG: #[[SA:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func @int8_sm90
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x64xi8, #[[SA]], #smem> * !ttg.memdesc<64x64xi8, #[[SB]], #smem> -> tensor<64x64xi32, #mma>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @int8_sm90(%a: tensor<64x64xi8, #b>, %b: tensor<64x64xi8, #b>, %c: tensor<64x64xi32, #b>) -> tensor<64x64xi32, #b> {
    %ad = ttg.convert_layout %a : tensor<64x64xi8, #b> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<64x64xi8, #b> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xi32, #b>
    tt.return %d : tensor<64x64xi32, #b>
  }
}

// -----

// A chained dot (attention: S = Q K^T, then O = P V) on Ampere. The later dot is rewritten
// first and sees the earlier one still blocked: all warps along M ([4, 1], M >= N); the
// earlier one then takes the later one's warps. Without the chain, 128x64 would get
// [2, 2]. P's operand comes through truncf from f32: kWidth follows its f16 type.

// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @chained_sm80
// CHECK: tt.dot {{.*}} -> tensor<128x64xf32, #[[MMA]]>
// CHECK: tt.dot {{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * {{.*}} -> tensor<128x64xf32, #[[MMA]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained_sm80(%q: tensor<128x64xf16, #b>, %k: tensor<64x64xf16, #b>, %v: tensor<64x64xf16, #b>, %z: tensor<128x64xf32, #b>) -> tensor<128x64xf32, #b> {
    %qd = ttg.convert_layout %q : tensor<128x64xf16, #b> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %kd = ttg.convert_layout %k : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %s = tt.dot %qd, %kd, %z, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<128x64xf32, #b>
    %p = arith.truncf %s : tensor<128x64xf32, #b> to tensor<128x64xf16, #b>
    %pd = ttg.convert_layout %p : tensor<128x64xf16, #b> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %vd = ttg.convert_layout %v : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %o = tt.dot %pd, %vd, %z, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<128x64xf32, #b>
    tt.return %o : tensor<128x64xf32, #b>
  }
}

// -----

// The chain on Hopper, 8 warps, M = 64: the first dot feeds a dot, so all warps go along M
// ([8, 1]); the second one feeds none: one warp group fills M, the next goes along N
// ([4, 2]). P goes to shared memory from the truncf that defines it.

// CHECK-DAG: #[[MMA1:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 32, 16]}>
// CHECK-DAG: #[[MMA2:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
// CHECK-LABEL: tt.func @chained_sm90
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[MMA1]]>
// CHECK: %[[P:.+]] = arith.truncf
// CHECK-NEXT: ttg.local_alloc %[[P]]
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[MMA2]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained_sm90(%q: tensor<64x64xf16, #b>, %k: tensor<64x64xf16, #b>, %v: tensor<64x64xf16, #b>, %z: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> {
    %qd = ttg.convert_layout %q : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %kd = ttg.convert_layout %k : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %s = tt.dot %qd, %kd, %z, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xf32, #b>
    %p = arith.truncf %s : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
    %pd = ttg.convert_layout %p : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %vd = ttg.convert_layout %v : tensor<64x64xf16, #b> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %o = tt.dot %pd, %vd, %z, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<64x64xf32, #b>
    tt.return %o : tensor<64x64xf32, #b>
  }
}

// -----

// 16x64 with 4 warps on Ampere: one 16-row tile, 8 tiles along N: all warps along N.
// fp8 (e5m2) has no mma.sync below sm89: the operands (kWidth 32 / 8 = 4) are promoted to
// f16 after the layouts are chosen.

// CHECK: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @fp8_16x64_sm80
// CHECK: %[[A:.+]] = tt.fp_to_fp %{{.+}} : tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>> -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>
// CHECK: %[[B:.+]] = tt.fp_to_fp %{{.+}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>
// CHECK: tt.dot %[[A]], %[[B]]
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8_16x64_sm80(%a: tensor<16x32xf8E5M2, #b>, %b: tensor<32x64xf8E5M2, #b>, %c: tensor<16x64xf32, #b>) -> tensor<16x64xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<16x32xf8E5M2, #b> -> tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf8E5M2, #b> -> tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<16x64xf32, #b>
    tt.return %d : tensor<16x64xf32, #b>
  }
}

// -----

// A batched (rank-3) dot: wgmma takes none (remark), mma.sync puts every warp on the
// batch dimension with the [1, 16, 8] tile.

// CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
// CHECK-LABEL: tt.func @batched_sm90
#b = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 8, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @batched_sm90(%a: tensor<4x64x32xf16, #b>, %b: tensor<4x32x64xf16, #b>, %c: tensor<4x64x64xf32, #b>) -> tensor<4x64x64xf32, #b> {
    %ad = ttg.convert_layout %a : tensor<4x64x32xf16, #b> -> tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>
    %bd = ttg.convert_layout %b : tensor<4x32x64xf16, #b> -> tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>
    // expected-remark @below {{Warning: can't use MMA V3 for the dot op}}
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<4x64x64xf32, #b>
    tt.return %d : tensor<4x64x64xf32, #b>
  }
}

// -----

// A dot already on #mma is left alone.

// CHECK-LABEL: tt.func @already_mma
// CHECK-NEXT: tt.dot
// CHECK-NEXT: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @already_mma(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
