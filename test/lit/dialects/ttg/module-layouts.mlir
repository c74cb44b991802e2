// RUN: not tileopt %s 2>&1 | FileCheck %s
// A layout that does not use the module's lanes and warps is an error at the op using it.
// The error points at the first op whose types use the layout: here the function,
// whose argument has it.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: module-layouts.mlir:[[# @LINE + 1]]:3: error: 'tt.func' op blocked layout threadsPerWarp [8, 8] has 64 threads but the module has ttg.threads-per-warp = 32
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    %y = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}
