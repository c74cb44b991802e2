// RUN: tileopt %s -split-input-file --tritonamdgpu-optimize-dot-operands="arch-generation-name=gfx942" | FileCheck %s

// One loaded tile is B of one dot and, transposed, B of another: it is stored once in
// LDS (in the buffer layout of the direct operand: K is not contiguous, so unswizzled),
// the direct dot reads it with a local_load, and the transposed path starts from a
// local_load of the same buffer (the conversion before the transpose folded into it).
// CHECK: #[[SHARED:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @direct_and_transposed
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[BUF:.*]] = ttg.local_alloc %[[X]] : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #[[SHARED]], #smem>
// CHECK-DAG: %[[B1:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[SHARED]], #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK-DAG: %[[XT:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[SHARED]], #smem> -> tensor<64x64xf16, #blocked1>
// CHECK: tt.dot %{{.*}}, %[[B1]], %{{.*}}
// CHECK: %[[T:.*]] = tt.trans %[[XT]]
// CHECK: %[[B2:.*]] = ttg.convert_layout %[[T]]
// CHECK: tt.dot %{{.*}}, %[[B2]], %{{.*}}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @direct_and_transposed(%ptr: tensor<64x64x!tt.ptr<f16>, #blocked>, %a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) {
    %x = tt.load %ptr : tensor<64x64x!tt.ptr<f16>, #blocked>
    %b1 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %d1 = tt.dot %a, %b1, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
    %xc = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %xt = tt.trans %xc {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    %b2 = ttg.convert_layout %xt : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %d2 = tt.dot %a, %b2, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
    tt.return %d1, %d2 : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
  }
}

// -----

// The two dots read the tile with different kWidths: two buffers would be needed, the
// pass leaves it.
// CHECK-LABEL: tt.func @kwidth_mismatch
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.trans
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @kwidth_mismatch(%ptr: tensor<64x64x!tt.ptr<f16>, #blocked>, %a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %a8: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>, %c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) {
    %x = tt.load %ptr : tensor<64x64x!tt.ptr<f16>, #blocked>
    %b1 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %d1 = tt.dot %a, %b1, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
    %xc = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %xt = tt.trans %xc {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    %b2 = ttg.convert_layout %xt : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    %d2 = tt.dot %a8, %b2, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<64x64xf32, #mma>
    tt.return %d1, %d2 : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
  }
}
