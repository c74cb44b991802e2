// RUN: tileopt %s -split-input-file --tritonamdgpu-optimize-epilogue | FileCheck %s

// The accumulator goes through exp2 and truncf before the store: both now run on #mma,
// the pointers and the mask are converted instead, and the dead conversion is gone.
// CHECK-LABEL: tt.func @elementwise_chain
// CHECK-NOT: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: %[[E:.*]] = math.exp2 %{{.*}} : tensor<64x64xf32, #mma>
// CHECK: %[[T:.*]] = arith.truncf %[[E]] : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #mma>
// CHECK: %[[M:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xi1, #blocked> -> tensor<64x64xi1, #mma>
// CHECK: tt.store %[[P]], %[[T]], %[[M]] : tensor<64x64x!tt.ptr<f16>, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @elementwise_chain(%acc: tensor<64x64xf32, #mma>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>) {
    %c = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %e = math.exp2 %c : tensor<64x64xf32, #blocked>
    %t = arith.truncf %e : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.store %p, %t, %m : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// WMMA too; no mask: only the pointers are converted.
// CHECK-LABEL: tt.func @wmma_no_mask
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<32x32x!tt.ptr<f32>, #blocked> -> tensor<32x32x!tt.ptr<f32>, #mma>
// CHECK: tt.store %[[P]], %{{.*}} : tensor<32x32x!tt.ptr<f32>, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma_no_mask(%acc: tensor<32x32xf32, #mma>, %p: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %c = ttg.convert_layout %acc : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
    tt.store %p, %c : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Left alone: a value also used elsewhere (its chain op has two uses), an op with two
// operands in the chain (addf), and a conversion from a blocked layout.
// CHECK-LABEL: tt.func @not_bypassed
// CHECK: tt.store %arg2, %2 : tensor<64x64x!tt.ptr<f16>, #[[B:.*]]>
// CHECK: tt.store %arg2, %1 : tensor<64x64x!tt.ptr<f16>, #[[B]]>
// CHECK: tt.store %arg2, %3 : tensor<64x64x!tt.ptr<f16>, #[[B]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @not_bypassed(%acc: tensor<64x64xf32, #mma>, %x: tensor<64x64xf16, #blocked1>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>) {
    %c = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %t = arith.truncf %c : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    %s = arith.addf %t, %t : tensor<64x64xf16, #blocked>
    tt.store %p, %s : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.store %p, %t : tensor<64x64x!tt.ptr<f16>, #blocked>
    %y = ttg.convert_layout %x : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    tt.store %p, %y : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
