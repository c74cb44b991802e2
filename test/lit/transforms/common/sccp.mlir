// RUN: tileopt %s -split-input-file -sccp | FileCheck %s

// Constants flow through folders, a taken scf.if branch, and loop-carried values that
// every iteration keeps equal to their init.
// Every constant value, existing constants included, gets a new constant at the top of the
// function, the one made last on top (MLIR's sccp with a fresh OperationFolder); ops whose
// results all became constants are erased.
// The constants in the order Triton 3.6's sccp gives them for this function.
// CHECK-LABEL: func.func @propagate
// CHECK-NEXT:    %[[TEN:.*]] = arith.constant 10 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK:         %[[R:.*]]:2 = scf.for
// CHECK-NOT:       arith.muli
// CHECK:           arith.addi
// CHECK:           scf.yield %[[FIVE]], %{{.*}}
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[FIVE]], %[[R]]#1, %[[TEN]] : i32, i32, i32
// CHECK-NOT:     scf.if
func.func @propagate(%n: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %true = arith.constant true
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c5, %b = %c0) -> (i32, i32) : i32 {
    %a2 = arith.muli %a, %c1 : i32
    %b2 = arith.addi %b, %c1 : i32
    scf.yield %a2, %b2 : i32, i32
  }
  %s = scf.if %true -> (i32) {
    %x = arith.addi %c5, %c5 : i32
    scf.yield %x : i32
  } else {
    scf.yield %n : i32
  }
  func.return %r#0, %r#1, %s : i32, i32, i32
}

// -----

// A value that changes across iterations, or comes from a load, is not a constant.
// CHECK-LABEL: tt.func @not_constant
// CHECK:         %[[R:.*]]:2 = scf.for
// CHECK:         tt.load
// CHECK:         tt.return %[[R]]#0, %[[R]]#1
tt.func @not_constant(%n: i32, %p: !tt.ptr<i32>) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    %a2 = arith.addi %a, %c1 : i32
    %v = tt.load %p : !tt.ptr<i32>
    scf.yield %a2, %v : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}

// -----

// In an scf.while, a value the loop carries unchanged is its init; one it counts is not.
// CHECK-LABEL: func.func @while_loop
// CHECK:         %[[FIVE:.*]] = arith.constant 5 : i32
// CHECK:         %[[R:.*]]:2 = scf.while
// CHECK:           scf.yield %{{.*}}, %[[FIVE]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[FIVE]] : i32, i32
func.func @while_loop(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %r:2 = scf.while (%a = %c0, %b = %c5) : (i32, i32) -> (i32, i32) {
    %cond = arith.cmpi slt, %a, %n : i32
    scf.condition(%cond) %a, %b : i32, i32
  } do {
  ^bb0(%x: i32, %y: i32):
    %x1 = arith.addi %x, %c1 : i32
    %y1 = arith.addi %y, %c0 : i32
    scf.yield %x1, %y1 : i32, i32
  }
  func.return %r#0, %r#1 : i32, i32
}

// -----

// The buffer counter of a single-buffered pipelined loop (Triton's sm80 matmul_small):
// (k + 1 >= 1 ? 0 : k + 1) stays 0, so k is the constant 0. Zero constants count (an
// IntegerAttr of 0 is falsy in Python), cmpi and select fold through arith's folders, and
// the constant made for the cmpi stays behind unused, as in MLIR.
// CHECK-LABEL: func.func @single_buffer_counter
// CHECK-NEXT:    %true = arith.constant true
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK:         scf.for
// CHECK-NOT:       arith.select
// CHECK:           tt.store %{{.*}}, %[[C0]]
// CHECK-NEXT:      scf.yield %[[C0]] : i32
func.func @single_buffer_counter(%n: i32, %p: !tt.ptr<i32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c0) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    %wrap = arith.cmpi sge, %k1, %c1 : i32
    %k2 = arith.select %wrap, %c0, %k1 : i32
    tt.store %p, %k2 : !tt.ptr<i32>
    scf.yield %k2 : i32
  }
  func.return %r : i32
}
