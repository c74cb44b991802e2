// RUN: tileopt %s --pass-pipeline=%S/Inputs/cse-triton39.yaml | FileCheck %s --check-prefix=V39
// RUN: tileopt %s --pass-pipeline=%S/Inputs/cse-triton39.yaml --triton-version=3.6 | FileCheck %s --check-prefix=V36
// RUN: tileopt %s --cse | FileCheck %s --check-prefix=V36
// A pipeline's triton-version sets how its result prints (and which behaviour passes
// that changed in 3.9 take); --triton-version wins over it.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @f(%p: !tt.ptr<f32>, %o: tensor<64xi32, #blocked>) -> tensor<64xf32, #blocked> {
    // V39: amdg.buffer_load %{{.+}}[%{{.+}}] : !tt.ptr<f32> -> tensor<64xf32, #blocked>
    // V36: amdg.buffer_load %{{.+}}[%{{.+}}] : tensor<64xf32, #blocked>
    %x = amdg.buffer_load %p[%o] : tensor<64xf32, #blocked>
    tt.return %x : tensor<64xf32, #blocked>
  }
}
