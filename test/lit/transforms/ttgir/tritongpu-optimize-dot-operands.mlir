// RUN: tileopt %s -split-input-file --tritongpu-optimize-dot-operands | FileCheck %s

// mma.sync: B is the transpose of a row-major 64x32 tile. It is stored untransposed in the
// swizzle for reading B through a transposed view (need_trans: vec = n = 8, perPhase =
// 128 / (32 * 4 / 2) = 2, maxPhase = k / 2 = 4), viewed transposed and loaded as the
// operand; the transpose and the conversion go.

// CHECK-DAG: #[[S:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[ST:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
// CHECK-LABEL: tt.func @transposed_b_sm80
// CHECK-NOT: tt.trans
// CHECK: %[[A:.+]] = ttg.local_alloc %arg1 : (tensor<64x32xf16, #{{.+}}>) -> !ttg.memdesc<64x32xf16, #[[S]], #smem>
// CHECK: %[[T:.+]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #[[S]], #smem> -> !ttg.memdesc<32x64xf16, #[[ST]], #smem>
// CHECK: %[[L:.+]] = ttg.local_load %[[T]] : !ttg.memdesc<32x64xf16, #[[ST]], #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot %{{.+}}, %[[L]], %{{.+}}
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b_sm80(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %bt: tensor<64x32xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %bt {order = array<i32: 1, 0>} : tensor<64x32xf16, #b> -> tensor<32x64xf16, #bt>
    %bd = ttg.convert_layout %t : tensor<32x64xf16, #bt> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %bd, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// wgmma: B's buffer is filled from a transpose. The untransposed tile is stored
// row-major (64-byte rows: 64-byte swizzle) and read through a transposed view, whose
// layout is the one the buffer had (64-byte swizzle, transposed).

// CHECK-DAG: #[[N:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[NT:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @transposed_b_sm90
// CHECK-NOT: tt.trans
// CHECK: %[[A:.+]] = ttg.local_alloc %arg1 : (tensor<64x32xf16, #{{.+}}>) -> !ttg.memdesc<64x32xf16, #[[N]], #smem>
// CHECK: %[[T:.+]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #[[N]], #smem> -> !ttg.memdesc<32x64xf16, #[[NT]], #smem>
// CHECK: ttng.warp_group_dot %{{.+}}, %[[T]], %{{.+}}
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b_sm90(%a: !ttg.memdesc<64x32xf16, #sa, #smem>, %bt: tensor<64x32xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %t = tt.trans %bt {order = array<i32: 1, 0>} : tensor<64x32xf16, #b> -> tensor<32x64xf16, #bt>
    %bm = ttg.local_alloc %t : (tensor<32x64xf16, #bt>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
    %d = ttng.warp_group_dot %a, %bm, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #sa, #smem> * !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
