// RUN: tileopt %s -split-input-file --tritonamdgpu-hoist-layout-conversions | FileCheck %s

// Q is loaded before the loop and converted to A's layout inside it: the conversion moves
// right after the load. K is loaded in the loop: its conversion stays; the conversion of
// a loop-carried value (a block argument) stays too, and so does one to a non-dot layout.
// CHECK-LABEL: tt.func @attention_like
// CHECK: %[[Q:.*]] = tt.load
// CHECK-NEXT: %[[QA:.*]] = ttg.convert_layout %[[Q]] : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[K:.*]] = tt.load
// CHECK-NEXT: ttg.convert_layout %[[K]]
// CHECK-NEXT: ttg.convert_layout %arg6 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK-NEXT: ttg.convert_layout %[[Q]] : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT: tt.dot %[[QA]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @attention_like(%qp: tensor<64x64x!tt.ptr<f16>, #blocked>, %kp: tensor<64x64x!tt.ptr<f16>, #blocked>, %c: tensor<64x64xf32, #mma>, %n: i32) -> (tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked1>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %q = tt.load %qp : tensor<64x64x!tt.ptr<f16>, #blocked>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c, %prev = %q, %qt = %q) -> (tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>) : i32 {
      %k = tt.load %kp : tensor<64x64x!tt.ptr<f16>, #blocked>
      %kb = ttg.convert_layout %k : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %pb = ttg.convert_layout %prev : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %qa = ttg.convert_layout %q : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %qb = ttg.convert_layout %q : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
      %s = tt.dot %qa, %kb, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %o = tt.dot %qa, %pb, %s : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      %qbb = ttg.convert_layout %qb : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
      scf.yield %o, %k, %qbb : tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>
    }
    %last = ttg.convert_layout %r#2 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return %r#0, %last : tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked1>
  }
}

// -----

// Outside any loop nothing moves.
// CHECK-LABEL: tt.func @no_loop
// CHECK: tt.load
// CHECK-NEXT: arith.constant
// CHECK-NEXT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @no_loop(%qp: tensor<64x64x!tt.ptr<f16>, #blocked>) -> (tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, i32) {
    %q = tt.load %qp : tensor<64x64x!tt.ptr<f16>, #blocked>
    %c0 = arith.constant 0 : i32
    %qa = ttg.convert_layout %q : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    tt.return %qa, %c0 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, i32
  }
}
