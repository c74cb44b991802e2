// RUN: tileopt %s -split-input-file | FileCheck %s
// RUN: tileopt %s -split-input-file --triton-version=3.9 | FileCheck %s
// Triton 3.9 lets tt.broadcast change its layout where no element changes thread: the
// corpus matmul on gfx1100 broadcasts a 1x128 row in #blocked2 (one register row) to
// 64x128 in #blocked (four rows per thread), both with the same lanes along dim 1.

#blocked = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @row
  tt.func @row(%x: tensor<1x128xi32, #blocked2>) -> tensor<64x128xi32, #blocked> {
    // CHECK: tt.broadcast %{{.+}} : tensor<1x128xi32, #blocked{{[0-9]*}}> -> tensor<64x128xi32, #blocked{{[0-9]*}}>
    %y = tt.broadcast %x : tensor<1x128xi32, #blocked2> -> tensor<64x128xi32, #blocked>
    tt.return %y : tensor<64x128xi32, #blocked>
  }
}
