// RUN: tileopt %s | FileCheck %s
// Layout attributes print as triton-opt prints them: aliased ones hoisted under Triton's
// names, keys in Triton's order, default CTA layouts and kWidth = 0 left out.

// CHECK-DAG: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>
// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 4], [0, 8]], block = []}>
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
#b1d = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [1], CTASplitNum = [1], CTAOrder = [0]}>
#b2d = #ttg.blocked<{order = [1, 0], sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>
#cga = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>
#m = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#lin = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 4], [0, 8]], block = []}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sm = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @layouts
  // CHECK-SAME: %{{.*}}: tensor<1024xf32, #blocked>
  // CHECK-SAME: %{{.*}}: tensor<32x64xf16, #blocked1>
  // CHECK-SAME: %{{.*}}: tensor<64x64xf32, #blocked2>
  // CHECK-SAME: %{{.*}}: tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked1}>>
  // CHECK-SAME: %{{.*}}: tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  // CHECK-SAME: %{{.*}}: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
  // CHECK-SAME: %{{.*}}: tensor<16x16xf16, #linear>
  // CHECK-SAME: %{{.*}}: !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
  // CHECK-SAME: %{{.*}}: !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 32x64>
  tt.func @layouts(%a: tensor<1024xf32, #b1d>, %b: tensor<32x64xf16, #b2d>, %c: tensor<64x64xf32, #cga>,
                   %d: tensor<32xf16, #ttg.slice<{parent = #b2d, dim = 1}>>,
                   %e: tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #m, kWidth = 2}>>,
                   %f: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #b2d, kWidth = 0}>>,
                   %g: tensor<16x16xf16, #lin>,
                   %h: !ttg.memdesc<2x32x64xf16, #sh, #sm, mutable>,
                   %i: !ttg.memdesc<32x32xf16, #sh, #sm, mutable, 32x64>) {
    tt.return
  }
}
