// RUN: tileopt %s -split-input-file --triton-reorder-broadcast | FileCheck %s

// Adding two splats is one scalar add, splatted.
// CHECK-LABEL: tt.func @splat_add
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[T:.*]] = tt.splat %[[S]] : f32 -> tensor<128xf32>
// CHECK-NEXT: tt.return %[[T]]
tt.func @splat_add(%a: f32, %b: f32) -> tensor<128xf32> {
  %sa = tt.splat %a : f32 -> tensor<128xf32>
  %sb = tt.splat %b : f32 -> tensor<128xf32>
  %s = arith.addf %sa, %sb : tensor<128xf32>
  tt.return %s : tensor<128xf32>
}

// -----

// A splat constant counts as a splat of its scalar; a comparison gives an i1 splat.
// CHECK-LABEL: tt.func @splat_and_constant
// CHECK-SAME: (%[[A:.*]]: i32)
// CHECK-NEXT: %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[L:.*]] = arith.cmpi slt, %[[A]], %[[C]] : i32
// CHECK-NEXT: %[[T:.*]] = tt.splat %[[L]] : i1 -> tensor<64xi1>
// CHECK-NEXT: tt.return %[[T]]
tt.func @splat_and_constant(%a: i32) -> tensor<64xi1> {
  %sa = tt.splat %a : i32 -> tensor<64xi32>
  %c = arith.constant dense<7> : tensor<64xi32>
  %s = arith.cmpi slt, %sa, %c : tensor<64xi32>
  tt.return %s : tensor<64xi1>
}

// -----

// A broadcast operand: the arithmetic runs on 64x1 and the result is broadcast once.
// CHECK-LABEL: tt.func @broadcast_mul
// CHECK-SAME: (%[[X:.*]]: tensor<64x1xf32>, %[[B:.*]]: f32)
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<64x1xf32>
// CHECK-DAG: %[[SB:.*]] = tt.splat %[[B]] : f32 -> tensor<64x1xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[SB]] : tensor<64x1xf32>
// CHECK: %[[N:.*]] = arith.addf %[[M]], %[[TWO]] : tensor<64x1xf32>
// CHECK: %[[W:.*]] = tt.broadcast %[[N]] : tensor<64x1xf32> -> tensor<64x32xf32>
// CHECK: tt.return %[[W]]
tt.func @broadcast_mul(%x: tensor<64x1xf32>, %b: f32) -> tensor<64x32xf32> {
  %bx = tt.broadcast %x : tensor<64x1xf32> -> tensor<64x32xf32>
  %sb = tt.splat %b : f32 -> tensor<64x32xf32>
  %c = arith.constant dense<2.0> : tensor<64x32xf32>
  %m = arith.mulf %bx, %sb : tensor<64x32xf32>
  %n = arith.addf %m, %c : tensor<64x32xf32>
  tt.return %n : tensor<64x32xf32>
}

// -----

// Broadcasts from different shapes cannot move together.
// CHECK-LABEL: tt.func @broadcasts_of_different_shapes
// CHECK: tt.broadcast %arg0
// CHECK: tt.broadcast %arg1
// CHECK: arith.addi %0, %1 : tensor<64x32xi32>
tt.func @broadcasts_of_different_shapes(%x: tensor<64x1xi32>, %y: tensor<1x32xi32>) -> tensor<64x32xi32> {
  %bx = tt.broadcast %x : tensor<64x1xi32> -> tensor<64x32xi32>
  %by = tt.broadcast %y : tensor<1x32xi32> -> tensor<64x32xi32>
  %s = arith.addi %bx, %by : tensor<64x32xi32>
  tt.return %s : tensor<64x32xi32>
}

// -----

// Loads have memory effects: left alone.
// CHECK-LABEL: tt.func @load_not_moved
// CHECK: tt.load %0 : tensor<16x!tt.ptr<f32>>
tt.func @load_not_moved(%p: !tt.ptr<f32>) -> tensor<16xf32> {
  %sp = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %v = tt.load %sp : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// -----

// The expand_dims/broadcast canonicalization runs too.
// CHECK-LABEL: tt.func @expand_dims_of_broadcast
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<1x8xf32>
// CHECK-NEXT: tt.return %[[B]]
tt.func @expand_dims_of_broadcast(%x: tensor<1xf32>) -> tensor<1x8xf32> {
  %b = tt.broadcast %x : tensor<1xf32> -> tensor<8xf32>
  %e = tt.expand_dims %b {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  tt.return %e : tensor<1x8xf32>
}

// -----

// Every op the greedy driver visits is folded first, as MLIR's Operation::fold: a
// commutative op's constant operand moves to the right, both in the op this pass
// rewrites (the scalar addf) and in one it leaves alone (the muli). Output as Triton
// 3.6's wheel gives it.

// CHECK-LABEL: tt.func @constant_lhs
// CHECK-SAME: (%[[X:[a-zA-Z0-9_]+]]: f32, %[[N:[a-zA-Z0-9_]+]]: tensor<8xi32>)
// CHECK-DAG: %[[TWO:.+]] = arith.constant dense<2> : tensor<8xi32>
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SUM:.+]] = arith.addf %[[X]], %[[ONE]] : f32
// CHECK: tt.splat %[[SUM]] : f32 -> tensor<8xf32>
// CHECK: arith.muli %[[N]], %[[TWO]] : tensor<8xi32>
tt.func @constant_lhs(%x: f32, %n: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %one = arith.constant dense<1.000000e+00> : tensor<8xf32>
  %s = tt.splat %x : f32 -> tensor<8xf32>
  %r = arith.addf %one, %s : tensor<8xf32>
  %two = arith.constant dense<2> : tensor<8xi32>
  %m = arith.muli %two, %n : tensor<8xi32>
  tt.return %r, %m : tensor<8xf32>, tensor<8xi32>
}
