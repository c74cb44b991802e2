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

// -----

// Two selects on the condition of one scf.if both become results of a single new scf.if,
// in program order after its own results; a use inside a branch reads that branch's value.

// CHECK-LABEL: tt.func @two_selects_one_if
// CHECK-SAME: %[[C:[a-zA-Z0-9_]+]]: i1, %[[A:[a-zA-Z0-9_]+]]: tensor<128xf32, #{{.*}}>, %[[B:[a-zA-Z0-9_]+]]: tensor<128xf32, #{{.*}}>, %[[X:[a-zA-Z0-9_]+]]: tensor<128xi32, #{{.*}}>, %[[Y:[a-zA-Z0-9_]+]]: tensor<128xi32, #{{.*}}>
// CHECK-NOT: arith.select
// CHECK: %[[IF:.+]]:3 = scf.if %[[C]] -> (tensor<128xf32, #{{.*}}>, tensor<128xf32, #{{.*}}>, tensor<128xi32, #{{.*}}>) {
// CHECK: %[[T:.+]] = arith.addf %[[A]], %[[A]]
// CHECK: scf.yield %[[T]], %[[A]], %[[X]] :
// CHECK: } else {
// CHECK: scf.yield %[[B]], %[[B]], %[[Y]] :
// CHECK: }
// CHECK: tt.return %[[IF]]#1, %[[IF]]#2, %[[IF]]#0
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_selects_one_if(%c: i1, %a: tensor<128xf32, #b>, %b: tensor<128xf32, #b>, %x: tensor<128xi32, #b>, %y: tensor<128xi32, #b>) -> (tensor<128xf32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>) {
    %s = arith.select %c, %a, %b : tensor<128xf32, #b>
    %t = arith.select %c, %x, %y : tensor<128xi32, #b>
    %r = scf.if %c -> (tensor<128xf32, #b>) {
      %d = arith.addf %s, %s : tensor<128xf32, #b>
      scf.yield %d : tensor<128xf32, #b>
    } else {
      scf.yield %b : tensor<128xf32, #b>
    }
    tt.return %s, %t, %r : tensor<128xf32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>
  }
}
