// Layout aliases are named as MLIR's printer names them (issue 12, item 6): by the order the
// printer first meets each layout (the function signature, then the body; a slice's or
// dot_op's parent where the slice is met), not by the input's alias names or definition
// order. The expected text is what Triton 3.6's MLIR prints for this input.
// RUN: tileopt %s | FileCheck %s

// CHECK:      #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-NEXT: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK:      tt.func public @first_use(%arg0: tensor<1024xi32, #blocked>, %arg1: tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>, %arg2: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) -> tensor<1024xi32, #blocked2> {
// CHECK-NEXT:   ttg.convert_layout %arg0 : tensor<1024xi32, #blocked> -> tensor<1024xi32, #blocked2>
// CHECK-NEXT:   ttg.local_alloc %{{.*}} : (tensor<1024xi32, #blocked2>) -> !ttg.memdesc<1024xi32, #shared, #smem>
#z1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#z0 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#zb = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#zm = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#zs = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @first_use(%arg0: tensor<1024xi32, #zb>, %arg1: tensor<32xf32, #ttg.slice<{dim = 1, parent = #z1}>>, %arg2: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #zm, kWidth = 2}>>) -> tensor<1024xi32, #z0> {
    %0 = ttg.convert_layout %arg0 : tensor<1024xi32, #zb> -> tensor<1024xi32, #z0>
    %1 = ttg.local_alloc %0 : (tensor<1024xi32, #z0>) -> !ttg.memdesc<1024xi32, #zs, #smem>
    tt.return %0 : tensor<1024xi32, #z0>
  }
}
