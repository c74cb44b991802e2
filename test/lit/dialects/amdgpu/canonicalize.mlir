// RUN: tileopt %s -split-input-file -canonicalize | FileCheck %s
// amdg's folders. The CHECK lines also pass on Triton 3.6's canonicalizer's output.

// The sources tile the result row-major (a 2x2 grid of 32x64 tiles): the slice at
// [32, 64] is the fourth source, the one at [0, 64] the second. A slice of another
// shape (across two tiles) stays.

// CHECK-LABEL: tt.func @slice_of_concat
// CHECK-NEXT: %[[C:.*]] = amdg.concat %arg0, %arg1, %arg2, %arg3
// CHECK-NEXT: %[[T:.*]] = amdg.extract_slice %[[C]] [0, 0] : tensor<64x128xf32, #blocked> to tensor<32x128xf32, #blocked>
// CHECK-NEXT: tt.return %arg3, %arg1, %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @slice_of_concat(%a: tensor<32x64xf32, #blocked>, %b: tensor<32x64xf32, #blocked>,
                           %c: tensor<32x64xf32, #blocked>, %d: tensor<32x64xf32, #blocked>)
      -> (tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked>, tensor<32x128xf32, #blocked>) {
    %0 = amdg.concat %a, %b, %c, %d : tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked> -> tensor<64x128xf32, #blocked>
    %1 = amdg.extract_slice %0 [32, 64] : tensor<64x128xf32, #blocked> to tensor<32x64xf32, #blocked>
    %2 = amdg.extract_slice %0 [0, 64] : tensor<64x128xf32, #blocked> to tensor<32x64xf32, #blocked>
    %4 = amdg.extract_slice %0 [0, 0] : tensor<64x128xf32, #blocked> to tensor<32x128xf32, #blocked>
    tt.return %1, %2, %4 : tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked>, tensor<32x128xf32, #blocked>
  }
}

// -----

// A concat of one source is that source.

// CHECK-LABEL: tt.func @singleton_concat
// CHECK-NEXT: tt.return %arg0
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @singleton_concat(%a: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %0 = amdg.concat %a : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return %0 : tensor<64x64xf32, #blocked>
  }
}
