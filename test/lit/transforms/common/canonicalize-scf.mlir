// RUN: tileopt %s -split-input-file -canonicalize | FileCheck %s
// RUN: tileopt %s -split-input-file -canonicalize --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMES

// MLIR's scf.for and scf.if canonicalization patterns.

// Iteration values yielded unchanged, whose init is yielded, or used nowhere are dropped
// and read as their init; a value with the same init and yielded value as an earlier one
// is merged into it. Only the accumulator stays.
// CHECK-LABEL: func.func @for_iter_args
// CHECK-SAME:    (%[[N:.*]]: i32, %[[P:.*]]: i64, %[[Q:.*]]: i64)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[Q]]) -> (i64)  : i32 {
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i64
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[S]], %[[ACC]] : i64
// CHECK-NEXT:      scf.yield %[[T]] : i64
// CHECK-NEXT:    }
// CHECK:         return %[[P]], %[[C2]], %[[R]], %[[R]]
func.func @for_iter_args(%n: i32, %p: i64, %q: i64) -> (i64, i32, i64, i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%same = %p, %two = %c2, %dead = %c0, %acc = %q, %twin = %q) -> (i64, i32, i32, i64, i64) : i32 {
    %s = arith.addi %acc, %same : i64
    %t = arith.addi %s, %twin : i64
    %d = arith.addi %i, %c1 : i32
    scf.yield %same, %c2, %d, %t, %t : i64, i32, i32, i64, i64
  }
  func.return %r#0, %r#1, %r#3, %r#4 : i64, i32, i64, i64
}

// -----

// A loop whose bounds are equal, or whose upper bound is below the lower one, is its inits.
// CHECK-LABEL: func.func @for_zero_trips
// CHECK-NOT:     scf.for
// CHECK:         return %arg1, %arg1
func.func @for_zero_trips(%lb: i32, %init: f32) -> (f32, f32) {
  %c1 = arith.constant 1 : i32
  %cm4 = arith.constant -4 : i32
  %r = scf.for %i = %lb to %lb step %c1 iter_args(%a = %init) -> (f32) : i32 {
    %b = arith.addf %a, %a : f32
    scf.yield %b : f32
  }
  %ub = arith.addi %lb, %cm4 : i32
  %s = scf.for %i = %lb to %ub step %c1 iter_args(%a = %init) -> (f32) : i32 {
    %b = arith.addf %a, %a : f32
    scf.yield %b : f32
  }
  func.return %r, %s : f32, f32
}

// -----

// One trip (step >= ub - lb): the body is inlined with the induction variable at lb.
// CHECK-LABEL: func.func @for_single_trip
// CHECK-NOT:     scf.for
// CHECK:         %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[B:.*]] = arith.addi %arg0, %[[C4]] : i32
// CHECK:         return %[[B]]
func.func @for_single_trip(%init: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %r = scf.for %i = %c4 to %c7 step %c8 iter_args(%a = %init) -> (i32) : i32 {
    %b = arith.addi %a, %i : i32
    scf.yield %b : i32
  }
  func.return %r : i32
}

// -----

// An empty loop that runs at least once and yields values from outside is those values.
// CHECK-LABEL: func.func @for_empty_body
// CHECK-NOT:     scf.for
// CHECK:         return %arg1
func.func @for_empty_body(%a: f32, %b: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %a) -> (f32) : i32 {
    scf.yield %b : f32
  }
  func.return %r : f32
}

// -----

// A loop that may run twice keeps its body.
// CHECK-LABEL: func.func @for_two_trips
// CHECK:         scf.for
func.func @for_two_trips(%init: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %init) -> (i32) : i32 {
    %b = arith.addi %a, %i : i32
    scf.yield %b : i32
  }
  func.return %r : i32
}

// -----

// if of a constant condition is the branch it takes.
// CHECK-LABEL: func.func @if_constant_condition
// CHECK-NOT:     scf.if
// CHECK:         return %arg1
func.func @if_constant_condition(%a: f32, %b: f32) -> f32 {
  %false = arith.constant false
  %r = scf.if %false -> (f32) {
    scf.yield %a : f32
  } else {
    scf.yield %b : f32
  }
  func.return %r : f32
}

// -----

// Results both branches take from outside become arith.select; a result yielded alike by
// both is that value; results yielding true/false are the condition, false/true its negation.
// CHECK-LABEL: func.func @if_to_select
// CHECK-SAME:    (%[[C:.*]]: i1, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[SEL:.*]] = arith.select %[[C]], %[[A]], %[[B]] : tensor<4xf32>
// CHECK-DAG:     %[[NOT:.*]] = arith.xori %[[C]], %[[TRUE]] : i1
// CHECK-NOT:     scf.if
// CHECK:         return %[[SEL]], %[[A]], %[[C]], %[[NOT]]
func.func @if_to_select(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %r:4 = scf.if %c -> (tensor<4xf32>, tensor<4xf32>, i1, i1) {
    scf.yield %a, %a, %true, %false : tensor<4xf32>, tensor<4xf32>, i1, i1
  } else {
    scf.yield %b, %a, %false, %true : tensor<4xf32>, tensor<4xf32>, i1, i1
  }
  func.return %r#0, %r#1, %r#2, %r#3 : tensor<4xf32>, tensor<4xf32>, i1, i1
}

// -----

// Unused results go; results computed inside a branch stay with the if.
// CHECK-LABEL: func.func @if_unused_results
// CHECK:         %[[R:.*]] = scf.if %arg0 -> (f32) {
// CHECK-NEXT:      %[[M:.*]] = arith.mulf
// CHECK-NEXT:      scf.yield %[[M]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[D:.*]] = arith.divf
// CHECK-NEXT:      scf.yield %[[D]] : f32
// CHECK-NEXT:    }
// CHECK:         return %[[R]]
func.func @if_unused_results(%c: i1, %a: f32, %b: f32) -> f32 {
  %r:2 = scf.if %c -> (f32, f32) {
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %a, %b : f32
    scf.yield %m, %s : f32, f32
  } else {
    %d = arith.divf %a, %b : f32
    %s = arith.subf %a, %b : f32
    scf.yield %d, %s : f32, f32
  }
  func.return %r#0 : f32
}

// -----

// if (not c) A else B is if c B else A.
// CHECK-LABEL: func.func @if_negated_condition
// CHECK:         scf.if %arg0 -> (f32) {
// CHECK-NEXT:      arith.subf
// CHECK:         } else {
// CHECK-NEXT:      arith.addf
func.func @if_negated_condition(%c: i1, %a: f32, %b: f32) -> f32 {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  %r = scf.if %n -> (f32) {
    %s = arith.addf %a, %b : f32
    scf.yield %s : f32
  } else {
    %d = arith.subf %a, %b : f32
    scf.yield %d : f32
  }
  func.return %r : f32
}

// -----

// Inside the then branch the condition is true; an else that only yields is removed.
// CHECK-LABEL: func.func @if_condition_propagation
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      tt.store %arg1, %arg2 : !tt.ptr<f32>
// CHECK-NEXT:    }
// CHECK-NOT:     else
func.func @if_condition_propagation(%c: i1, %p: !tt.ptr<f32>, %v: f32, %w: f32) {
  scf.if %c {
    %x = arith.select %c, %v, %w : f32
    tt.store %p, %x : !tt.ptr<f32>
  } else {
  }
  func.return
}

// -----

// Two ifs in a row on one condition are merged; the second reads the first's values
// directly.
// CHECK-LABEL: func.func @combine_ifs
// CHECK:         %[[R:.*]]:2 = scf.if %arg0 -> (f32, f32) {
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %arg1, %arg2
// CHECK-NEXT:      %[[N:.*]] = arith.addf %[[M]], %arg1
// CHECK-NEXT:      scf.yield %[[M]], %[[N]] : f32, f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[D:.*]] = arith.divf %arg1, %arg2
// CHECK-NEXT:      %[[E:.*]] = arith.subf %[[D]], %arg1
// CHECK-NEXT:      scf.yield %[[D]], %[[E]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NOT:     scf.if
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @combine_ifs(%c: i1, %a: f32, %b: f32) -> (f32, f32) {
  %r = scf.if %c -> (f32) {
    %m = arith.mulf %a, %b : f32
    scf.yield %m : f32
  } else {
    %d = arith.divf %a, %b : f32
    scf.yield %d : f32
  }
  %s = scf.if %c -> (f32) {
    %n = arith.addf %r, %a : f32
    scf.yield %n : f32
  } else {
    %e = arith.subf %r, %a : f32
    scf.yield %e : f32
  }
  func.return %r, %s : f32, f32
}

// -----

// Nested ifs become one if on the conjunction.
// CHECK-LABEL: func.func @combine_nested_ifs
// CHECK:         %[[AND:.*]] = arith.andi %arg0, %arg1 : i1
// CHECK-NEXT:    scf.if %[[AND]] {
// CHECK-NEXT:      tt.store %arg2, %arg3 : !tt.ptr<f32>
// CHECK-NEXT:    }
// CHECK-NOT:     scf.if
func.func @combine_nested_ifs(%a: i1, %b: i1, %p: !tt.ptr<f32>, %v: f32) {
  scf.if %a {
    scf.if %b {
      tt.store %p, %v : !tt.ptr<f32>
    }
  }
  func.return
}

// -----

// Locations: the loop that drops a value is a new one, whose builder locates the
// induction variable at the loop and each value it keeps at its init (what names them
// with name locations). (Expected text: Triton 3.6's canonicalizer's output.)

// NAMES-LABEL: tt.func @located
// NAMES: %r = scf.for %r_0 = %c0_i32 to %arg0 step %c1_i32 iter_args(%z_1 = %z) -> (f32)
// NAMES-NEXT: %s = arith.addf %z_1, %arg2 : f32
// NAMES-NEXT: scf.yield %s : f32
module {
  tt.func @located(%n: i32, %p: !tt.ptr<f32>, %v: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.000000e+00 : f32 loc("z")
    %w = arith.constant 1.000000e+00 : f32 loc("w")
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %b = %w) -> (f32, f32) : i32 {
      %s = arith.addf %a, %v : f32 loc("s")
      scf.yield %s, %b : f32, f32 loc("y")
    } loc("r")
    tt.store %p, %r#0 : !tt.ptr<f32> loc("st")
    tt.store %p, %r#1 : !tt.ptr<f32> loc("st")
    tt.return
  }
}

// -----

// scf.while: a forwarded value defined outside the loop is used directly
// (RemoveLoopInvariantValueYielded), one used neither in the after block nor after the
// loop is dropped (WhileUnusedResult), one forwarded twice is forwarded once
// (WhileRemoveDuplicatedResults).
// CHECK-LABEL: func.func @while_forwarded
// CHECK-SAME:    (%[[N:.*]]: i32, %[[INV:.*]]: i32)
// CHECK:         %[[W:.*]] = scf.while (%[[I:.*]] = %[[N]]) : (i32) -> i32 {
// CHECK:           %[[C:.*]] = arith.cmpi sgt, %[[I]], %[[INV]] : i32
// CHECK-NEXT:      scf.condition(%[[C]]) %[[I]] : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%{{.*}}: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.subi %{{.*}}, %[[INV]] : i32
// CHECK-NEXT:      scf.yield %[[S]] : i32
// CHECK:         return %[[W]], %[[INV]], %[[W]]
func.func @while_forwarded(%n: i32, %inv: i32) -> (i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %r:4 = scf.while (%i = %n) : (i32) -> (i32, i32, i32, i32) {
    %c = arith.cmpi sgt, %i, %inv : i32
    %d = arith.addi %i, %c1 : i32
    scf.condition(%c) %i, %inv, %i, %d : i32, i32, i32, i32
  } do {
  ^bb0(%a: i32, %b: i32, %a2: i32, %unused: i32):
    %s = arith.subi %a, %b : i32
    %t = arith.subi %s, %a2 : i32
    scf.yield %t : i32
  }
  func.return %r#0, %r#1, %r#2 : i32, i32, i32
}

// -----

// A loop value that comes back unchanged through the after block is its init value
// (RemoveLoopInvariantArgsFromBeforeBlock); then the duplicate and the invariant
// forwarded values go as above.
// CHECK-LABEL: func.func @while_invariant_arg
// CHECK-SAME:    (%[[N:.*]]: i32, %[[M:.*]]: i32)
// CHECK:         %[[W:.*]] = scf.while (%[[J:.*]] = %[[M]]) : (i32) -> i32 {
// CHECK-NEXT:      %[[C:.*]] = arith.cmpi slt, %[[N]], %[[J]] : i32
// CHECK-NEXT:      scf.condition(%[[C]]) %[[J]] : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[A]] : i32
// CHECK-NEXT:      scf.yield %[[S]] : i32
// CHECK:         return %[[W]], %[[N]], %[[W]], %[[W]]
func.func @while_invariant_arg(%n: i32, %m: i32) -> (i32, i32, i32, i32) {
  %r:4 = scf.while (%i = %n, %j = %m) : (i32, i32) -> (i32, i32, i32, i32) {
    %c = arith.cmpi slt, %i, %j : i32
    %k = arith.muli %j, %i : i32
    scf.condition(%c) %j, %i, %j, %k : i32, i32, i32, i32
  } do {
  ^bb0(%a: i32, %b: i32, %a2: i32, %k2: i32):
    %s = arith.addi %a, %a2 : i32
    scf.yield %b, %s : i32, i32
  }
  func.return %r#0, %r#1, %r#2, %r#2 : i32, i32, i32, i32
}

// -----

// The after block runs only when the condition holds, so its argument that receives the
// condition is true (WhileConditionTruth), and the select on it folds; a before-block
// argument without uses goes with its init and yielded values (WhileRemoveUnusedArgs).
// CHECK-LABEL: func.func @while_truth
// CHECK-SAME:    (%[[N:.*]]: i32, %[[M:.*]]: i32)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[W:.*]] = scf.while (%[[I:.*]] = %[[N]]) : (i32) -> i32 {
// CHECK-NEXT:      %[[C:.*]] = arith.cmpi slt, %[[I]], %[[M]] : i32
// CHECK-NEXT:      scf.condition(%[[C]]) %[[I]] : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32):
// CHECK-NEXT:      %[[B:.*]] = arith.addi %[[A]], %[[ONE]] : i32
// CHECK-NEXT:      scf.yield %[[B]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[W]] : i32
func.func @while_truth(%n: i32, %m: i32) -> i32 {
  %r:2 = scf.while (%i = %n, %dead = %m) : (i32, i32) -> (i32, i1) {
    %c = arith.cmpi slt, %i, %m : i32
    scf.condition(%c) %i, %c : i32, i1
  } do {
  ^bb0(%a: i32, %flag: i1):
    %one = arith.constant 1 : i32
    %b = arith.addi %a, %one : i32
    %s = arith.select %flag, %b, %a : i32
    %d = arith.muli %s, %s : i32
    scf.yield %s, %d : i32, i32
  }
  func.return %r#0 : i32
}

// -----

// The condition is cmpi slt of a forwarded value: in the after block the same compare of
// that argument is true, the inverted one (sge) false, another (sgt) stays (WhileCmpCond).
// CHECK-LABEL: func.func @while_cmp
// CHECK-SAME:    (%[[N:.*]]: i32, %[[M:.*]]: i32)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %{{.*}}: i1):
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpi sgt, %[[A]], %[[M]] : i32
// CHECK-NEXT:      %[[X:.*]] = arith.extui %[[GT]] : i1 to i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[ONE]] : i32
// CHECK-NEXT:      %[[S2:.*]] = arith.addi %[[S]], %[[X]] : i32
// CHECK-NEXT:      scf.yield %[[S2]] : i32
func.func @while_cmp(%n: i32, %m: i32) -> (i32, i1) {
  %r:2 = scf.while (%i = %n) : (i32) -> (i32, i1) {
    %c = arith.cmpi slt, %i, %m : i32
    scf.condition(%c) %i, %c : i32, i1
  } do {
  ^bb0(%a: i32, %f: i1):
    %t = arith.cmpi slt, %a, %m : i32
    %e = arith.cmpi sge, %a, %m : i32
    %o = arith.cmpi sgt, %a, %m : i32
    %x = arith.extui %t : i1 to i32
    %y = arith.extui %e : i1 to i32
    %z = arith.extui %o : i1 to i32
    %s = arith.addi %a, %x : i32
    %s2 = arith.addi %s, %y : i32
    %s3 = arith.addi %s2, %z : i32
    scf.yield %s3 : i32
  }
  func.return %r#0, %r#1 : i32, i1
}
