// RUN: tileopt %s -split-input-file --triton-loop-unroll | FileCheck %s

// Eight iterations by two: four iterations of two bodies; the second copy reads
// iv + 1 and continues from the first copy's sum. No epilogue is needed.
// CHECK-LABEL: tt.func @static_even
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[STEP2:.*]] = arith.constant 2 : i32
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %[[STEP2]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32)
// CHECK:   %[[Q0:.*]] = tt.addptr %{{.*}}, %[[IV]]
// CHECK:   %[[V0:.*]] = tt.load %[[Q0]]
// CHECK:   %[[S0:.*]] = arith.addf %[[ACC]], %[[V0]]
// CHECK:   %[[K:.*]] = arith.constant 1 : i32
// CHECK:   %[[OFF:.*]] = arith.muli %[[C1]], %[[K]] : i32
// CHECK:   %[[IV1:.*]] = arith.addi %[[IV]], %[[OFF]] : i32
// CHECK:   %[[Q1:.*]] = tt.addptr %{{.*}}, %[[IV1]]
// CHECK:   %[[V1:.*]] = tt.load %[[Q1]]
// CHECK:   %[[S1:.*]] = arith.addf %[[S0]], %[[V1]]
// CHECK:   scf.yield %[[S1]] : f32
// CHECK-NOT: scf.for
// CHECK-NOT: tt.loop_unroll_factor
tt.func @static_even(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// -----

// Five iterations by two: the main loop stops at 4, and the one remaining iteration
// (the epilogue) is inlined after it with iv = 4.
// CHECK-LABEL: tt.func @static_remainder
// CHECK-DAG: %[[UB:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[STEP2:.*]] = arith.constant 2 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[STEP2]]
// CHECK-COUNT-2: tt.store
// CHECK: }
// CHECK-NEXT: %[[LAST:.*]] = tt.addptr %{{.*}}, %[[UB]]
// CHECK-NEXT: tt.store %[[LAST]]
// CHECK-NEXT: tt.return
tt.func @static_remainder(%p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c5 step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %one : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return
}

// -----

// Unknown trip count: the bounds are computed in front of the loop, and an epilogue
// loop (not pipelined: tt.num_stages = 1) runs the rest.
// CHECK-LABEL: tt.func @dynamic
// CHECK-SAME: (%{{.*}}: !tt.ptr<f32>, %[[N:.*]]: i32)
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[DIFF:.*]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[SM1:.*]] = arith.subi %[[C1]], %[[ONE]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[DIFF]], %[[SM1]] : i32
// CHECK: %[[TRIP:.*]] = arith.divui %[[SUM]], %[[C1]] : i32
// CHECK: %[[F:.*]] = arith.constant 3 : i32
// CHECK: %[[REM:.*]] = arith.remsi %[[TRIP]], %[[F]] : i32
// CHECK: %[[EVEN:.*]] = arith.subi %[[TRIP]], %[[REM]] : i32
// CHECK: %[[SPAN:.*]] = arith.muli %[[EVEN]], %[[C1]] : i32
// CHECK: %[[UB:.*]] = arith.addi %[[C0]], %[[SPAN]] : i32
// CHECK: %[[STEP:.*]] = arith.muli %[[C1]], %[[F]] : i32
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[UB]] step %[[STEP]]
// CHECK-COUNT-3: tt.store
// CHECK: }
// CHECK-NEXT: scf.for %{{.*}} = %[[UB]] to %[[N]] step %[[C1]]
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
tt.func @dynamic(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %one : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 3 : i32}
  tt.return
}

// -----

// Without the attribute nothing happens.
// CHECK-LABEL: tt.func @no_factor
// CHECK: scf.for
// CHECK-COUNT-1: tt.store
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func @no_factor(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %one : !tt.ptr<f32>
  }
  tt.return
}
