// RUN: tileopt %s -split-input-file --tritonamdgpu-fold-true-cmpi | FileCheck %s
// RUN: tileopt %s -split-input-file --triton-version=3.9 --tritonamdgpu-fold-true-cmpi | FileCheck %s --check-prefix=V39

// A scalar comparison of known values folds to true; tensor comparisons are left to
// other passes (as in Triton 3.6), even when provably true. Triton 3.9 (V39) folds the
// tensor one too, to a splat true.
// CHECK-LABEL: tt.func @range_below_block
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK: tt.return %[[M]], %[[T]] : tensor<64xi1>, i1
// V39-LABEL: tt.func @range_below_block
// V39-DAG: %[[T:.*]] = arith.constant true
// V39-DAG: %[[M:.*]] = arith.constant dense<true> : tensor<64xi1>
// V39-NOT: arith.cmpi
// V39: tt.return %[[M]], %[[T]] : tensor<64xi1>, i1
tt.func @range_below_block(%x: tensor<64xf32>) -> (tensor<64xi1>, i1) {
  %c64 = arith.constant dense<64> : tensor<64xi32>
  %c8 = arith.constant 8 : i32
  %c3 = arith.constant 3 : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %m = arith.cmpi slt, %r, %c64 : tensor<64xi32>
  %s = arith.cmpi ugt, %c8, %c3 : i32
  tt.return %m, %s : tensor<64xi1>, i1
}

// -----

// An unknown bound: nothing is known.
// CHECK-LABEL: tt.func @unknown_bound
// CHECK: %[[LT:.*]] = arith.cmpi slt, %0, %arg0 : i32
// CHECK: tt.return %[[LT]]
tt.func @unknown_bound(%n: i32) -> i1 {
  %pid = tt.get_program_id x : i32
  %lt = arith.cmpi slt, %pid, %n : i32
  tt.return %lt : i1
}

// -----

// Program ids are never negative: `pid >= 0` is true; `pid < 0` is false, which this
// pass does not fold (only true comparisons).
// CHECK-LABEL: tt.func @program_id_non_negative
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[LT:.*]] = arith.cmpi slt, %0, %c0_i32 : i32
// CHECK: tt.return %[[T]], %[[LT]] : i1, i1
tt.func @program_id_non_negative() -> (i1, i1) {
  %c0 = arith.constant 0 : i32
  %pid = tt.get_program_id x : i32
  %ge = arith.cmpi sge, %pid, %c0 : i32
  %lt = arith.cmpi slt, %pid, %c0 : i32
  tt.return %ge, %lt : i1, i1
}
