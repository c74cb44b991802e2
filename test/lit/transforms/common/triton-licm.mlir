// RUN: tileopt %s -split-input-file -triton-licm | FileCheck %s

// A loop that only reads memory: the invariant load leaves it, guarded by lb < ub (the
// guard first, as Triton's getPredMask builds the and).
// CHECK-LABEL: tt.func @hoist_load
// CHECK-SAME:  (%[[P:[a-z0-9_]+]]: tensor<128x!tt.ptr<f32>>, %[[M:[a-z0-9_]+]]: tensor<128xi1>, %[[LB:[a-z0-9_]+]]: i32, %[[UB:[a-z0-9_]+]]: i32)
// CHECK:         %[[ENTER:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK:         %[[GUARD:.*]] = tt.splat %[[ENTER]] : i1 -> tensor<128xi1>
// CHECK:         %[[MASK:.*]] = arith.andi %[[GUARD]], %[[M]] : tensor<128xi1>
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

// -----

// Each load is guarded as it leaves the loop, so each guard sits right before its load
// (Triton's order); a scalar load takes the condition itself as its mask. (Expected
// order: Triton 3.6's own output.)
// CHECK-LABEL: tt.func @two_loads_and_scalar
// CHECK-SAME:  (%[[P:[a-z0-9_]+]]: tensor<128x!tt.ptr<f32>>, %[[Q:[a-z0-9_]+]]: tensor<128x!tt.ptr<f32>>, %[[S:[a-z0-9_]+]]: !tt.ptr<f32>, %[[LB:[a-z0-9_]+]]: i32, %[[UB:[a-z0-9_]+]]: i32)
// CHECK:         %[[E1:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT:    %[[G1:.*]] = tt.splat %[[E1]] : i1 -> tensor<128xi1>
// CHECK-NEXT:    %[[X:.*]] = tt.load %[[P]], %[[G1]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    %[[E2:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT:    %[[G2:.*]] = tt.splat %[[E2]] : i1 -> tensor<128xi1>
// CHECK-NEXT:    %[[Y:.*]] = tt.load %[[Q]], %[[G2]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    %[[E3:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT:    %[[Z:.*]] = tt.load %[[S]], %[[E3]] : !tt.ptr<f32>
// CHECK-NEXT:    tt.splat %[[Z]] : f32 -> tensor<128xf32>
// CHECK-NEXT:    arith.addf %[[X]], %[[Y]]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    scf.for
// CHECK-NOT:       tt.load
// CHECK:           scf.yield
tt.func @two_loads_and_scalar(%p: tensor<128x!tt.ptr<f32>>, %q: tensor<128x!tt.ptr<f32>>, %s: !tt.ptr<f32>, %lb: i32, %ub: i32) -> tensor<128xf32> {
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %init) -> (tensor<128xf32>) : i32 {
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %y = tt.load %q : tensor<128x!tt.ptr<f32>>
    %z = tt.load %s : !tt.ptr<f32>
    %zs = tt.splat %z : f32 -> tensor<128xf32>
    %xy = arith.addf %x, %y : tensor<128xf32>
    %xyz = arith.addf %xy, %zs : tensor<128xf32>
    %a = arith.addf %acc, %xyz : tensor<128xf32>
    scf.yield %a : tensor<128xf32>
  }
  tt.return %r : tensor<128xf32>
}
