// RUN: tileopt %s -split-input-file -triton-licm | FileCheck %s

// A loop that only reads memory: the invariant load leaves it, guarded by lb < ub.
// CHECK-LABEL: tt.func @hoist_load
// CHECK-SAME:  (%[[P:[a-z0-9_]+]]: tensor<128x!tt.ptr<f32>>, %[[M:[a-z0-9_]+]]: tensor<128xi1>, %[[LB:[a-z0-9_]+]]: i32, %[[UB:[a-z0-9_]+]]: i32)
// CHECK:         %[[ENTER:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK:         %[[GUARD:.*]] = tt.splat %[[ENTER]] : i1 -> tensor<128xi1>
// CHECK:         %[[MASK:.*]] = arith.andi %[[M]], %[[GUARD]] : tensor<128xi1>
// CHECK:         %[[X:.*]] = tt.load %[[P]], %[[MASK]] : tensor<128x!tt.ptr<f32>>
// CHECK:         arith.mulf %[[X]]
// CHECK:         scf.for
// CHECK-NOT:       tt.load
// CHECK:           scf.yield
tt.func @hoist_load(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %lb: i32, %ub: i32) -> tensor<128xf32> {
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %init) -> (tensor<128xf32>) : i32 {
    %x = tt.load %p, %m : tensor<128x!tt.ptr<f32>>
    %y = arith.mulf %x, %x : tensor<128xf32>
    %a = arith.addf %acc, %y : tensor<128xf32>
    scf.yield %a : tensor<128xf32>
  }
  tt.return %r : tensor<128xf32>
}

// -----

// A store anywhere in the loop (even to other pointers) keeps the load inside.
// CHECK-LABEL: tt.func @store_in_loop
// CHECK:         scf.for
// CHECK-NEXT:      tt.load
// CHECK:           tt.store
tt.func @store_in_loop(%p: tensor<128x!tt.ptr<f32>>, %q: tensor<128x!tt.ptr<f32>>, %lb: i32, %ub: i32) {
  %c1 = arith.constant 1 : i32
  scf.for %i = %lb to %ub step %c1 : i32 {
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tt.store %q, %x : tensor<128x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// An atomic in the loop writes memory: the load stays. A volatile load stays too.
// CHECK-LABEL: tt.func @atomic_and_volatile
// CHECK:         scf.for
// CHECK-NEXT:      tt.load
// CHECK-NEXT:      tt.atomic_rmw
// CHECK:         scf.for
// CHECK-NEXT:      tt.load {{.*}}isVolatile = true
tt.func @atomic_and_volatile(%p: tensor<128x!tt.ptr<i32>>, %v: tensor<128xi32>, %lb: i32, %ub: i32) {
  %c1 = arith.constant 1 : i32
  scf.for %i = %lb to %ub step %c1 : i32 {
    %x = tt.load %p : tensor<128x!tt.ptr<i32>>
    %old = tt.atomic_rmw add, acq_rel, gpu, %p, %x : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  }
  %init = arith.constant dense<0> : tensor<128xi32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %init) -> (tensor<128xi32>) : i32 {
    %x = tt.load %p {isVolatile = true} : tensor<128x!tt.ptr<i32>>
    %a = arith.addi %acc, %x : tensor<128xi32>
    scf.yield %a : tensor<128xi32>
  }
  tt.return
}
