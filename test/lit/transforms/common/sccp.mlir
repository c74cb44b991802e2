// RUN: tileopt %s -split-input-file -sccp | FileCheck %s

// Constants flow through folders, a taken scf.if branch, and loop-carried values that
// every iteration keeps equal to their init.
// CHECK-LABEL: func.func @propagate
// CHECK:         %[[R:.*]]:2 = scf.for
// CHECK:           arith.addi
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[TEN:.*]] = arith.constant 10 : i32
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
// CHECK:         %[[R:.*]]:2 = scf.while
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : i32
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
