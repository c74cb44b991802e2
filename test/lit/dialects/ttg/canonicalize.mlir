// RUN: tileopt %s -canonicalize -split-input-file | FileCheck %s
// Triton's folders and patterns for ttg ops that need no layout arithmetic
// (tileopt/dialects/ttg_canonicalize.py; convert_layout's are tested under transforms/,
// except split(convert_layout), here).

// local_alloc(local_load(m)) -> m when the alloc is immutable and of m's type; a mutable
// alloc, or one of another type, stays.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @local_alloc_of_local_load
// CHECK-NEXT:    %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
// CHECK-NEXT:    %[[L:.*]] = ttg.local_load %[[A]]
// CHECK-NEXT:    %[[M:.*]] = ttg.local_alloc %[[L]] : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
// CHECK-NEXT:    %[[O:.*]] = ttg.local_alloc %[[L]] : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared1, #smem>
// CHECK-NEXT:    tt.return %[[A]], %[[M]], %[[O]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  tt.func @local_alloc_of_local_load(%arg0: tensor<16x16xf16, #blocked>) -> (!ttg.memdesc<16x16xf16, #shared, #smem>, !ttg.memdesc<16x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x16xf16, #shared1, #smem>) {
    %0 = ttg.local_alloc %arg0 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<16x16xf16, #shared, #smem> -> tensor<16x16xf16, #blocked>
    %2 = ttg.local_alloc %1 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
    %3 = ttg.local_alloc %1 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %4 = ttg.local_alloc %1 : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared1, #smem>
    tt.return %2, %3, %4 : !ttg.memdesc<16x16xf16, #shared, #smem>, !ttg.memdesc<16x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x16xf16, #shared1, #smem>
  }
}

// -----

// memdesc_trans with the identity order is its source; two in a row are one with the
// composed order (here the identity again, so none is left).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @memdesc_trans_folds
// CHECK-NEXT:    tt.return %arg0, %arg0
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  tt.func @memdesc_trans_folds(%arg0: !ttg.memdesc<16x32xf16, #shared, #smem>) -> (!ttg.memdesc<16x32xf16, #shared, #smem>, !ttg.memdesc<16x32xf16, #shared, #smem>) {
    %0 = ttg.memdesc_trans %arg0 {order = array<i32: 0, 1>} : !ttg.memdesc<16x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem>
    %1 = ttg.memdesc_trans %arg0 {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared1, #smem>
    %2 = ttg.memdesc_trans %1 {order = array<i32: 1, 0>} : !ttg.memdesc<32x16xf16, #shared1, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem>
    tt.return %0, %2 : !ttg.memdesc<16x32xf16, #shared, #smem>, !ttg.memdesc<16x32xf16, #shared, #smem>
  }
}

// -----

// Two that do not cancel compose to one (the alias of the intermediate layout goes with
// it, so the result layout prints as #shared1, as MLIR numbers aliases of what is left).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 0, 1]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 2, 1]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @memdesc_trans_of_trans
// CHECK-NEXT:    %[[T:.*]] = ttg.memdesc_trans %arg0 {order = array<i32: 2, 0, 1>} : !ttg.memdesc<2x4x8xf16, #shared, #smem> -> !ttg.memdesc<8x2x4xf16, #shared1, #smem>
// CHECK-NEXT:    tt.return %[[T]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  tt.func @memdesc_trans_of_trans(%arg0: !ttg.memdesc<2x4x8xf16, #shared, #smem>) -> !ttg.memdesc<8x2x4xf16, #shared2, #smem> {
    %0 = ttg.memdesc_trans %arg0 {order = array<i32: 1, 0, 2>} : !ttg.memdesc<2x4x8xf16, #shared, #smem> -> !ttg.memdesc<4x2x8xf16, #shared1, #smem>
    %1 = ttg.memdesc_trans %0 {order = array<i32: 2, 1, 0>} : !ttg.memdesc<4x2x8xf16, #shared1, #smem> -> !ttg.memdesc<8x2x4xf16, #shared2, #smem>
    tt.return %1 : !ttg.memdesc<8x2x4xf16, #shared2, #smem>
  }
}

// -----

// split(convert_layout x) splits x when x's layout splits to the results' layout: the two
// linear layouts differ only in which register holds the split pair. The blocked pair
// split to different orders, so that conversion stays.
// CHECK-LABEL: tt.func @split_of_convert
// CHECK-NEXT:    %[[L:.*]], %[[H:.*]] = tt.split %arg0 : tensor<4x8x2xf32, #linear> -> tensor<4x8xf32, #linear1>
// CHECK-NEXT:    %[[C:.*]] = ttg.convert_layout %arg1 : tensor<4x8x2xf32, #blocked> -> tensor<4x8x2xf32, #blocked2>
// CHECK-NEXT:    %[[L2:.*]], %{{.*}} = tt.split %[[C]] : tensor<4x8x2xf32, #blocked2> -> tensor<4x8xf32, #blocked1>
// CHECK-NEXT:    tt.return %[[L]], %[[H]], %[[L2]]
#la = #ttg.linear<{register = [[0, 0, 1], [0, 1, 0]], lane = [[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [0, 0, 0]], warp = [[0, 0, 0], [0, 0, 0]], block = []}>
#lb = #ttg.linear<{register = [[0, 1, 0], [0, 0, 1]], lane = [[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [0, 0, 0]], warp = [[0, 0, 0], [0, 0, 0]], block = []}>
#r = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [0, 0]], warp = [[0, 0], [0, 0]], block = []}>
#a = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 0, 1]}>
#rb = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_of_convert(%x: tensor<4x8x2xf32, #la>, %y: tensor<4x8x2xf32, #a>) -> (tensor<4x8xf32, #r>, tensor<4x8xf32, #r>, tensor<4x8xf32, #rb>) {
    %0 = ttg.convert_layout %x : tensor<4x8x2xf32, #la> -> tensor<4x8x2xf32, #lb>
    %l, %h = tt.split %0 : tensor<4x8x2xf32, #lb> -> tensor<4x8xf32, #r>
    %1 = ttg.convert_layout %y : tensor<4x8x2xf32, #a> -> tensor<4x8x2xf32, #b>
    %l2, %h2 = tt.split %1 : tensor<4x8x2xf32, #b> -> tensor<4x8xf32, #rb>
    tt.return %l, %h, %l2 : tensor<4x8xf32, #r>, tensor<4x8xf32, #r>, tensor<4x8xf32, #rb>
  }
}
