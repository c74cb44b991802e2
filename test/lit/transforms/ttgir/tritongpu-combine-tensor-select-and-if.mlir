// RUN: tileopt %s -split-input-file --tritongpu-combine-tensor-select-and-if | FileCheck %s

// The select on %c becomes a second result of the scf.if on %c: the then branch yields the
// true value, the (new) else branch the false value.

// CHECK-LABEL: tt.func @fold_select
// CHECK-NOT: arith.select
// CHECK: %[[IF:.+]] = scf.if %{{.*}} -> (tensor<128xf32, #{{.*}}>) {
// CHECK: tt.store
// CHECK: scf.yield %[[A:.+]] : tensor<128xf32
// CHECK: } else {
// CHECK: scf.yield %[[B:.+]] : tensor<128xf32
// CHECK: }
// CHECK: tt.store %{{.*}}, %[[IF]]
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fold_select(%c: i1, %a: tensor<128xf32, #b>, %b: tensor<128xf32, #b>, %p: tensor<128x!tt.ptr<f32>, #b>) {
    %s = arith.select %c, %a, %b : tensor<128xf32, #b>
    scf.if %c {
      tt.store %p, %a : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.store %p, %s : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// The select's result is used before the scf.if: folding would break that use.

// CHECK-LABEL: tt.func @used_before_if
// CHECK: arith.select
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @used_before_if(%c: i1, %a: tensor<128xf32, #b>, %b: tensor<128xf32, #b>, %p: tensor<128x!tt.ptr<f32>, #b>) {
    %s = arith.select %c, %a, %b : tensor<128xf32, #b>
    tt.store %p, %s : tensor<128x!tt.ptr<f32>, #b>
    scf.if %c {
      tt.store %p, %a : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }
}

// -----

// Scalar selects are cheap and stay.

// CHECK-LABEL: tt.func @scalar_select
// CHECK: arith.select
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scalar_select(%c: i1, %a: i32, %b: i32, %p: !tt.ptr<i32>) {
    %s = arith.select %c, %a, %b : i32
    scf.if %c {
      tt.store %p, %a : !tt.ptr<i32>
    }
    tt.store %p, %s : !tt.ptr<i32>
    tt.return
  }
}
