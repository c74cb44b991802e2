// RUN: tileopt %s -split-input-file -canonicalize | FileCheck %s

// MLIR's math folders (tileopt/transforms/canonicalization/math_patterns.py); expected
// values are what Triton 3.6's canonicalizer prints for the same input.

// The host libm, f32 and f64 only: f32 through the float functions (acosh of 0.75 is
// libm's negative NaN); log and sqrt of -0.0 stay, log1p of -0.5 folds; cbrt, rsqrt,
// fma and fpowi have no folder.
// CHECK-LABEL: func.func @libm
// CHECK-DAG:     %[[SIN:.*]] = arith.constant 0.681638777 : f32
// CHECK-DAG:     %[[ACOSH:.*]] = arith.constant 0xFFC00000 : f32
// CHECK-DAG:     %[[EXPM1:.*]] = arith.constant 1.117000e+00 : f32
// CHECK-DAG:     %[[LOG1P:.*]] = arith.constant -0.693147182 : f32
// CHECK-DAG:     %[[LOG0:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[ROUND:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG:     %[[TANH:.*]] = arith.constant 0.6351489523872873 : f64
// CHECK-DAG:     %[[POW:.*]] = arith.constant 2.05280089 : f32
// CHECK-DAG:     %[[ATAN2:.*]] = arith.constant 2.8501358591119264 : f64
// CHECK-DAG:     %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 7.500000e-01 : f16
// CHECK:         %[[L:.*]] = math.log %[[NZ]] : f32
// CHECK:         %[[S:.*]] = math.sqrt %[[NZ]] : f32
// CHECK:         %[[C:.*]] = math.cbrt
// CHECK:         %[[R:.*]] = math.rsqrt
// CHECK:         %[[F:.*]] = math.fma
// CHECK:         %[[SH:.*]] = math.sin %[[HALF]] : f16
// CHECK:         return %[[SIN]], %[[ACOSH]], %[[EXPM1]], %[[LOG1P]], %[[LOG0]], %[[L]], %[[S]], %[[ROUND]], %[[TANH]], %[[POW]], %[[ATAN2]], %[[C]], %[[R]], %[[F]], %[[SH]]
func.func @libm() -> (f32, f32, f32, f32, f32, f32, f32, f32, f64, f32, f64, f32, f32, f32, f16) {
  %a = arith.constant 0.75 : f32
  %h = arith.constant -0.5 : f32
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %d = arith.constant 0.75 : f64
  %e = arith.constant -2.5 : f32
  %de = arith.constant -2.5 : f64
  %f16 = arith.constant 0.75 : f16
  %0 = math.sin %a : f32
  %1 = math.acosh %a : f32
  %2 = math.expm1 %a : f32
  %3 = math.log1p %h : f32
  %4 = math.log %z : f32
  %5 = math.log %nz : f32
  %6 = math.sqrt %nz : f32
  %7 = math.round %h : f32
  %8 = math.tanh %d : f64
  %9 = math.powf %a, %e : f32
  %10 = math.atan2 %d, %de : f64
  %11 = math.cbrt %a : f32
  %12 = math.rsqrt %a : f32
  %13 = math.fma %a, %e, %a : f32
  %14 = math.sin %f16 : f16
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 : f32, f32, f32, f32, f32, f32, f32, f32, f64, f32, f64, f32, f32, f32, f16
}

// -----

// Exact operations fold in every float type (round and trunc do not: they go through
// libm); NaNs keep sign and payload, absf clears the sign; splat and non-splat tensors.
// CHECK-LABEL: func.func @exact
// CHECK-DAG:     %[[CEIL:.*]] = arith.constant -0.000000e+00 : f16
// CHECK-DAG:     %[[FLOOR:.*]] = arith.constant -3.000000e+00 : bf16
// CHECK-DAG:     %[[EVEN:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-DAG:     %[[ABS:.*]] = arith.constant 0x7FC00001 : f32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0xFFC00001 : f32
// CHECK-DAG:     %[[SIGN:.*]] = arith.constant -2.500000e+00 : f16
// CHECK-DAG:     %[[SQRT:.*]] = arith.constant dense<[0.707106769, 1.000000e+00, 1.41421354, 2.000000e+00]> : tensor<4xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 2.500000e+00 : f16
// CHECK:         %[[TR:.*]] = math.trunc %[[HALF]] : f16
// CHECK:         return %[[CEIL]], %[[FLOOR]], %[[EVEN]], %[[ABS]], %[[NAN]], %[[SIGN]], %[[TR]], %[[SQRT]]
func.func @exact() -> (f16, bf16, f16, f32, f32, f16, f16, tensor<4xf32>) {
  %a = arith.constant -0.5 : f16
  %b = arith.constant -2.5 : bf16
  %c = arith.constant 2.5 : f16
  %m = arith.constant -1.0 : f16
  %nan = arith.constant 0xFFC00001 : f32
  %t = arith.constant dense<[0.5, 1.0, 2.0, 4.0]> : tensor<4xf32>
  %0 = math.ceil %a : f16
  %1 = math.floor %b : bf16
  %2 = math.roundeven %c : f16
  %3 = math.absf %nan : f32
  %4 = math.floor %nan : f32
  %5 = math.copysign %c, %m : f16
  %6 = math.trunc %c : f16
  %7 = math.sqrt %t : tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : f16, bf16, f16, f32, f32, f16, f16, tensor<4xf32>
}

// -----

// Integers: abs wraps, ctlz/cttz of zero give the width, ipowi wraps and gives 0 for a
// negative power of a base other than 1 and -1 (0 to a negative power stays).
// CHECK-LABEL: func.func @integers
// CHECK-DAG:     %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[BIG:.*]] = arith.constant 689956897 : i32
// CHECK-DAG:     %[[POP:.*]] = arith.constant dense<[1, 1, 2, 1]> : tensor<4xi32>
// CHECK:         %[[P:.*]] = math.ipowi %[[ZERO]], %[[M1]] : i32
// CHECK:         return %[[W]], %[[W]], %[[MIN]], %[[ZERO]], %[[M1]], %[[P]], %[[BIG]], %[[POP]]
func.func @integers() -> (i32, i32, i32, i32, i32, i32, i32, tensor<4xi32>) {
  %z = arith.constant 0 : i32
  %min = arith.constant -2147483648 : i32
  %two = arith.constant 2 : i32
  %m1 = arith.constant -1 : i32
  %m3 = arith.constant -3 : i32
  %three = arith.constant 3 : i32
  %forty = arith.constant 40 : i32
  %t = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = math.ctlz %z : i32
  %1 = math.cttz %z : i32
  %2 = math.absi %min : i32
  %3 = math.ipowi %two, %m1 : i32
  %4 = math.ipowi %m1, %m3 : i32
  %5 = math.ipowi %z, %m1 : i32
  %6 = math.ipowi %three, %forty : i32
  %7 = math.ctpop %t : tensor<4xi32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : i32, i32, i32, i32, i32, i32, i32, tensor<4xi32>
}
