// RUN: tileopt %s -split-input-file -cse | FileCheck %s

// Identical pure ops are merged.
// CHECK-LABEL: func.func @pure
// CHECK-COUNT-1: arith.addi
// CHECK:         arith.muli %[[X:.*]], %[[X]]
func.func @pure(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.addi %a, %a : i32
  %r = arith.muli %x, %y : i32
  func.return %r : i32
}

// -----

// Two loads of the same pointers with no write between them read the same values.
// CHECK-LABEL: tt.func @loads_merged
// CHECK-COUNT-1: tt.load
// CHECK-NOT:     tt.load
tt.func @loads_merged(%p: tensor<128x!tt.ptr<f32>>) -> tensor<128xf32> {
  %x = tt.load %p : tensor<128x!tt.ptr<f32>>
  %y = tt.load %p : tensor<128x!tt.ptr<f32>>
  %s = arith.addf %x, %y : tensor<128xf32>
  tt.return %s : tensor<128xf32>
}

// -----

// A store between them may change memory: both loads stay.
// CHECK-LABEL: tt.func @loads_across_store
// CHECK:         tt.load
// CHECK:         tt.store
// CHECK:         tt.load
tt.func @loads_across_store(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>) -> tensor<128xf32> {
  %x = tt.load %p : tensor<128x!tt.ptr<f32>>
  tt.store %p, %v : tensor<128x!tt.ptr<f32>>
  %y = tt.load %p : tensor<128x!tt.ptr<f32>>
  %s = arith.addf %x, %y : tensor<128xf32>
  tt.return %s : tensor<128xf32>
}

// -----

// Atomics and volatile loads are never merged.
// CHECK-LABEL: tt.func @atomics
// CHECK-COUNT-2: tt.atomic_rmw
// CHECK-COUNT-2: tt.load {{.*}}isVolatile = true
tt.func @atomics(%p: tensor<128x!tt.ptr<i32>>, %v: tensor<128xi32>, %q: tensor<128x!tt.ptr<f32>>) -> (tensor<128xi32>, tensor<128xf32>) {
  %a = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %b = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %s = arith.addi %a, %b : tensor<128xi32>
  %x = tt.load %q {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  %y = tt.load %q {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  %t = arith.addf %x, %y : tensor<128xf32>
  tt.return %s, %t : tensor<128xi32>, tensor<128xf32>
}

// -----

// A commutative op with its operands swapped is the same expression (MLIR's
// OperationEquivalence); the first stays. A non-commutative one is not (Triton 3.6.0's cse
// on this input).
// CHECK-LABEL: tt.func @commutative
// CHECK-NEXT:    %[[AND:.+]] = arith.andi %arg0, %arg1 : i1
// CHECK-NEXT:    %[[SUB:.+]] = arith.subi %arg2, %arg3 : i32
// CHECK-NEXT:    %[[SUB2:.+]] = arith.subi %arg3, %arg2 : i32
// CHECK-NEXT:    tt.return %[[AND]], %[[AND]], %[[SUB]], %[[SUB2]] : i1, i1, i32, i32
tt.func @commutative(%a: i1, %b: i1, %x: i32, %y: i32) -> (i1, i1, i32, i32) {
  %0 = arith.andi %a, %b : i1
  %1 = arith.andi %b, %a : i1
  %2 = arith.subi %x, %y : i32
  %3 = arith.subi %y, %x : i32
  tt.return %0, %1, %2, %3 : i1, i1, i32, i32
}
