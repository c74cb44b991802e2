// RUN: tileopt %s -split-input-file -allow-unregistered-dialect -canonicalize | FileCheck %s
// RUN: tileopt %s -split-input-file -allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(canonicalize), tt.func(canonicalize))' | FileCheck %s

// Constant operands fold; equal constants are merged and moved to the top of the function
// (also out of loops), as MLIR's folder does; dead ops disappear.
// CHECK-LABEL: func.func @fold_and_hoist
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NOT:     arith.constant
// CHECK:         scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]] iter_args(%[[ACC:.*]] = %[[C5]])
// CHECK-NEXT:      arith.addi %[[ACC]], %[[C1]]
// CHECK-NOT:     arith.muli
func.func @fold_and_hoist(%n: i32) -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %s = arith.addi %a, %b : i32
  %dead = arith.muli %s, %s : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (i32) : i32 {
    %one = arith.constant 1 : i32
    %next = arith.addi %acc, %one : i32
    scf.yield %next : i32
  }
  func.return %r : i32
}

// -----

// Blocks nothing branches to are erased (Triton's frontend leaves one after a return).
// CHECK-LABEL: tt.func @unreachable_block
// CHECK:         tt.return
// CHECK-NOT:     ^bb1
// CHECK-NOT:     ub.poison
tt.func @unreachable_block(%x: f32) -> f32 {
  tt.return %x : f32
^bb1:  // no predecessors
  %p = ub.poison : f32
  tt.return %p : f32
}

// -----

// Stores are kept even when nothing uses them; unused loads are removed (no effect but a read).
// CHECK-LABEL: tt.func @effects
// CHECK-NOT:     tt.load
// CHECK:         tt.store
tt.func @effects(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>) {
  %x = tt.load %p : tensor<128x!tt.ptr<f32>>
  tt.store %p, %v : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Unregistered ops are not constants: the two equal producers stay two, and the consumer
// stays in the loop beside the value it uses (neither merged nor hoisted).

// CHECK-LABEL: tt.func @unregistered_ops
// CHECK: %[[A:.+]] = "producer"() : () -> i32
// CHECK: %[[B:.+]] = "producer"() : () -> i32
// CHECK: scf.for
// CHECK: %[[V:.+]] = arith.addi
// CHECK: "consumer"(%[[V]]) : (i32) -> ()
// CHECK: tt.return %[[A]], %[[B]]
tt.func @unregistered_ops(%lb: index, %ub: index, %step: index, %p: i32) -> (i32, i32) {
  %a = "producer"() : () -> i32
  %b = "producer"() : () -> i32
  scf.for %iv = %lb to %ub step %step {
    %l = arith.addi %p, %p : i32
    "consumer"(%l) : (i32) -> ()
  }
  tt.return %a, %b : i32, i32
}
