// RUN: tileopt %s -split-input-file -triton-loop-aware-cse | FileCheck %s

// Two iter args with the same init, updated the same way, are one value.
// CHECK-LABEL: func.func @merge_iter_args
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i32)
// CHECK-COUNT-1:   arith.addi
// CHECK:         return %[[R]], %[[R]] : i32, i32
func.func @merge_iter_args(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    %a2 = arith.addi %a, %c1 : i32
    %b2 = arith.addi %b, %c1 : i32
    scf.yield %a2, %b2 : i32, i32
  }
  func.return %r#0, %r#1 : i32, i32
}

// -----

// Different inits, or different updates, keep the iter args apart.
// CHECK-LABEL: func.func @keep_different
// CHECK:         scf.for {{.*}} -> (i32, i32, i32)
func.func @keep_different(%n: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c1, %c = %c0) -> (i32, i32, i32) : i32 {
    %a2 = arith.addi %a, %c1 : i32
    %b2 = arith.addi %b, %c1 : i32
    %c3 = arith.addi %c, %c2 : i32
    scf.yield %a2, %b2, %c3 : i32, i32, i32
  }
  func.return %r#0, %r#1, %r#2 : i32, i32, i32
}

// -----

// Loads are not values CSE may assume equal across iterations.
// CHECK-LABEL: tt.func @loads_not_merged
// CHECK:         scf.for {{.*}} -> (i32, i32)
tt.func @loads_not_merged(%n: i32, %p: !tt.ptr<i32>) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    %x = tt.load %p : !tt.ptr<i32>
    tt.store %p, %a : !tt.ptr<i32>
    %y = tt.load %p : !tt.ptr<i32>
    scf.yield %x, %y : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}
