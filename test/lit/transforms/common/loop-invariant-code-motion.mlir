// RUN: tileopt %s -split-input-file -loop-invariant-code-motion | FileCheck %s

// Pure invariant ops leave the loop; loads, stores and ops that may trap stay.
// CHECK-LABEL: tt.func @hoist_pure_only
// CHECK-SAME:  (%{{[a-z0-9_]+}}: tensor<128x!tt.ptr<f32>>, %{{[a-z0-9_]+}}: i32, %[[S:[a-z0-9_]+]]: f32
// CHECK:         %[[SPLAT:.*]] = tt.splat %[[S]]
// CHECK:         %[[MUL:.*]] = arith.mulf %[[SPLAT]], %[[SPLAT]]
// CHECK:         scf.for
// CHECK:           tt.load
// CHECK:           arith.divsi
// CHECK:           tt.store
// CHECK:           scf.yield
tt.func @hoist_pure_only(%p: tensor<128x!tt.ptr<f32>>, %n: i32, %s: f32, %d: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %splat = tt.splat %s : f32 -> tensor<128xf32>
    %mul = arith.mulf %splat, %splat : tensor<128xf32>
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %q = arith.divsi %n, %d : i32
    %y = arith.addf %x, %mul : tensor<128xf32>
    tt.store %p, %y : tensor<128x!tt.ptr<f32>>
    %next = arith.addi %acc, %q : i32
    scf.yield %next : i32
  }
  tt.return %r : i32
}

// -----

// scf.while: invariant pure ops leave both regions.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME:  (%{{[a-z0-9_]+}}: i32, %[[K:[a-z0-9_]+]]: i32)
// CHECK:         arith.muli %[[K]], %[[K]]
// CHECK:         arith.addi %[[K]], %[[K]]
// CHECK:         scf.while
func.func @while_loop(%n: i32, %k: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%x = %c0) : (i32) -> i32 {
    %lim = arith.muli %k, %k : i32
    %c = arith.cmpi slt, %x, %lim : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %step = arith.addi %k, %k : i32
    %y2 = arith.addi %y, %step : i32
    scf.yield %y2 : i32
  }
  func.return %r : i32
}
