// RUN: tileopt %s -split-input-file --triton-combine | FileCheck %s

// An accumulator-free dot followed by an add takes the addend as accumulator.
// CHECK-LABEL: tt.func @dot_add_f
// CHECK-SAME: %[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x32xf16>, %[[D:.*]]: tensor<32x32xf32>
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]] : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_add_f(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %d, %dot : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// -----

// The same for integers, with the dot on the left of the add.
// CHECK-LABEL: tt.func @dot_add_i_lhs
// CHECK-SAME: %[[A:.*]]: tensor<32x16xi8>, %[[B:.*]]: tensor<16x32xi8>, %[[D:.*]]: tensor<32x32xi32>
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]]
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_add_i_lhs(%a: tensor<32x16xi8>, %b: tensor<16x32xi8>, %d: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %zero = arith.constant dense<0> : tensor<32x32xi32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xi8> * tensor<16x32xi8> -> tensor<32x32xi32>
  %sum = arith.addi %dot, %d : tensor<32x32xi32>
  tt.return %sum : tensor<32x32xi32>
}

// -----

// A dot that already accumulates into something else is left alone.
// CHECK-LABEL: tt.func @dot_add_nonzero_acc
// CHECK: tt.dot %{{.*}}, %{{.*}}, %arg2 :
// CHECK: arith.addf %arg3, %0
tt.func @dot_add_nonzero_acc(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %dot = tt.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %d, %dot : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// -----

// A dot whose result is used elsewhere too is left alone.
// CHECK-LABEL: tt.func @dot_add_two_uses
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00>
// CHECK: tt.dot %{{.*}}, %{{.*}}, %[[Z]]
// CHECK: arith.addf
tt.func @dot_add_two_uses(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %d, %dot : tensor<32x32xf32>
  tt.return %sum, %dot : tensor<32x32xf32>, tensor<32x32xf32>
}

// -----

// select(c, load(p, splat(c)), other) is the masked load with `other`.
// CHECK-LABEL: tt.func @select_of_masked_load
// CHECK-SAME: %[[P:.*]]: tensor<8x!tt.ptr<f32>>, %[[C:.*]]: i1, %[[O:.*]]: tensor<8xf32>
// CHECK: %[[M:.*]] = tt.splat %[[C]]
// CHECK-NEXT: %[[Y:.*]] = tt.load %[[P]], %[[M]], %[[O]]
// CHECK-NOT: arith.select
// CHECK: tt.return %[[Y]]
tt.func @select_of_masked_load(%p: tensor<8x!tt.ptr<f32>>, %c: i1, %other: tensor<8xf32>) -> tensor<8xf32> {
  %m = tt.splat %c : i1 -> tensor<8xi1>
  %x = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  %y = arith.select %c, %x, %other : tensor<8xf32>
  tt.return %y : tensor<8xf32>
}

// -----

// Nested addptr with 64-bit offsets: one addptr of the summed offsets, keeping the
// outer op's hints.
// CHECK-LABEL: tt.func @addptr_i64
// CHECK-SAME: %[[P:.*]]: tensor<8x!tt.ptr<f32>>, %[[X:.*]]: tensor<8xi64>, %[[Y:.*]]: tensor<8xi64>
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[Y]] : tensor<8xi64>
// CHECK-NEXT: %[[R:.*]] = tt.addptr %[[P]], %[[S]] {tt.divisibility = dense<16> : tensor<8xi32>}
// CHECK-NEXT: tt.return %[[R]]
tt.func @addptr_i64(%p: tensor<8x!tt.ptr<f32>>, %x: tensor<8xi64>, %y: tensor<8xi64>) -> tensor<8x!tt.ptr<f32>> {
  %q = tt.addptr %p, %x : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %r = tt.addptr %q, %y {tt.divisibility = dense<16> : tensor<8xi32>} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  tt.return %r : tensor<8x!tt.ptr<f32>>
}

// -----

// 32-bit constant offsets combine (and fold) when their sum fits; 1 + INT32_MAX does not.
// CHECK-LABEL: tt.func @addptr_i32_constants
// CHECK-SAME: %[[P:.*]]: !tt.ptr<f32>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[BIG:.*]] = arith.constant 2147483647 : i32
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[Q:.*]] = tt.addptr %[[P]], %[[C1]] : !tt.ptr<f32>, i32
// CHECK-DAG: %[[R:.*]] = tt.addptr %[[P]], %[[C3]] : !tt.ptr<f32>, i32
// CHECK-DAG: %[[S:.*]] = tt.addptr %[[Q]], %[[BIG]] : !tt.ptr<f32>, i32
// CHECK: tt.return %[[R]], %[[S]]
tt.func @addptr_i32_constants(%p: !tt.ptr<f32>) -> (!tt.ptr<f32>, !tt.ptr<f32>) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %big = arith.constant 2147483647 : i32
  %q = tt.addptr %p, %c1 : !tt.ptr<f32>, i32
  %r = tt.addptr %q, %c2 : !tt.ptr<f32>, i32
  %s = tt.addptr %q, %big : !tt.ptr<f32>, i32
  tt.return %r, %s : !tt.ptr<f32>, !tt.ptr<f32>
}

// -----

// 32-bit offsets of unknown value could overflow separately: not combined.
// CHECK-LABEL: tt.func @addptr_i32_unknown
// CHECK: %[[Q:.*]] = tt.addptr %arg0, %arg1
// CHECK-NEXT: tt.addptr %[[Q]], %arg2
tt.func @addptr_i32_unknown(%p: tensor<8x!tt.ptr<f32>>, %x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8x!tt.ptr<f32>> {
  %q = tt.addptr %p, %x : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %r = tt.addptr %q, %y : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.return %r : tensor<8x!tt.ptr<f32>>
}

// -----

// sum(x[:, :, None] * y[None, :, :], axis=1) is a matrix product.
// CHECK-LABEL: tt.func @broadcast_mul_sum
// CHECK-SAME: %[[X:.*]]: tensor<32x16x1xf32>, %[[Y:.*]]: tensor<1x16x64xf32>
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
// CHECK-DAG: %[[A:.*]] = tt.reshape %[[X]] : tensor<32x16x1xf32> -> tensor<32x16xf32>
// CHECK-DAG: %[[B:.*]] = tt.reshape %[[Y]] : tensor<1x16x64xf32> -> tensor<16x64xf32>
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[Z]] : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NOT: tt.reduce
// CHECK: tt.return %[[D]]
tt.func @broadcast_mul_sum(%x: tensor<32x16x1xf32>, %y: tensor<1x16x64xf32>) -> tensor<32x64xf32> {
  %bx = tt.broadcast %x : tensor<32x16x1xf32> -> tensor<32x16x64xf32>
  %by = tt.broadcast %y : tensor<1x16x64xf32> -> tensor<32x16x64xf32>
  %m = arith.mulf %bx, %by : tensor<32x16x64xf32>
  %s = "tt.reduce"(%m) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32x16x64xf32>) -> tensor<32x64xf32>
  tt.return %s : tensor<32x64xf32>
}

// -----

// A reshape to 1-D that only feeds a reduction may reorder elements.
// CHECK-LABEL: tt.func @reshape_for_reduce
// CHECK: tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
tt.func @reshape_for_reduce(%x: tensor<4x8xf32>) -> f32 {
  %r = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32xf32>) -> f32
  tt.return %s : f32
}
