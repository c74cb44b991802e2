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

// -----

// A 16-bit result of a transposed gfx950 (version 4) MFMA is stored through a linear
// layout in which each lane holds 8 consecutive elements: the third register basis
// ([0, 8] in a 32x32 MFMA) swaps with the lane basis that steps 4 columns. Pointer,
// value and mask go to #mma, then all three to it. (Triton 3.6's output.)
// CHECK{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], warp = [[32, 0], [64, 0]], block = []}>
// CHECK-LABEL: tt.func @store_128_bits
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<128x128x!tt.ptr<f16>, #mma>
// CHECK: %[[M:.*]] = ttg.convert_layout %{{.*}} -> tensor<128x128xi1, #mma>
// CHECK: %[[PL:.*]] = ttg.convert_layout %[[P]] : tensor<128x128x!tt.ptr<f16>, #mma> -> tensor<128x128x!tt.ptr<f16>, #linear>
// CHECK: %[[TL:.*]] = ttg.convert_layout %[[T]] : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #linear>
// CHECK: %[[ML:.*]] = ttg.convert_layout %[[M]] : tensor<128x128xi1, #mma> -> tensor<128x128xi1, #linear>
// CHECK: tt.store %[[PL]], %[[TL]], %[[ML]] : tensor<128x128x!tt.ptr<f16>, #linear>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @store_128_bits(%p: tensor<128x128x!tt.ptr<f16>, #blocked>, %acc: tensor<128x128xf32, #mma>, %m: tensor<128x128xi1, #blocked>) {
    %0 = ttg.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    %1 = arith.truncf %0 : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    tt.store %p, %1, %m : tensor<128x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A 16x16 MFMA with warps along N: swapping would not give consecutive columns to the
// lanes of a row, so the store stays in #mma (Triton 3.6's output).
// CHECK-LABEL: tt.func @no_store_layout
// CHECK-NOT: #linear
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<128x128x!tt.ptr<f16>, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [16, 16, 32], isTransposed = true}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @no_store_layout(%p: tensor<128x128x!tt.ptr<f16>, #blocked>, %acc: tensor<128x128xf32, #mma>) {
    %0 = ttg.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    %1 = arith.truncf %0 : tensor<128x128xf32, #blocked> to tensor<128x128xf16, #blocked>
    tt.store %p, %1 : tensor<128x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
