// Float constants print as MLIR prints them (issue 12): APFloat's six-digit form only when
// it reads back to the same bits, else APFloat's default form, else the bit pattern; for
// every float type, scalar, splat and non-splat. The expected texts are MLIR's own (see
// test/unit/ir/data/mlir_float_text.txt); printing twice gives the same text.
// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s | tileopt | FileCheck %s

// CHECK-LABEL: tt.func @wide
// CHECK: arith.constant 0.00999999977 : f32
// CHECK: arith.constant dense<0.00999999977> : tensor<4xf32>
// CHECK: arith.constant 1.000210e-02 : f16
// CHECK: arith.constant 1.000980e-02 : bf16
// CHECK: arith.constant 1.000000e-02 : f64
// CHECK: arith.constant 4.65661287E-10 : f32
// CHECK: arith.constant 0x4B800001 : f32
// CHECK: arith.constant dense<[0.00999999977, 5.000000e-01, 0xFF800000]> : tensor<3xf32>
// CHECK: arith.constant dense<1.000210e-02> : tensor<2xf16>
tt.func @wide() {
  %0 = arith.constant 0.01 : f32
  %1 = arith.constant dense<0.01> : tensor<4xf32>
  %2 = arith.constant 0.01 : f16
  %3 = arith.constant 0.01 : bf16
  %4 = arith.constant 0.01 : f64
  %5 = arith.constant 0x30000000 : f32
  %6 = arith.constant 16777218.0 : f32
  %7 = arith.constant dense<[0.01, 0.5, 0xFF800000]> : tensor<3xf32>
  %8 = arith.constant dense<0x211F> : tensor<2xf16>
  tt.return
}

// CHECK-LABEL: tt.func @narrow
// CHECK: arith.constant 1.953130e-03 : f8E4M3FN
// CHECK: arith.constant 4.480000e+02 : f8E4M3FN
// CHECK: arith.constant 0x7F : f8E4M3FN
// CHECK: arith.constant 0xFF : f8E4M3FN
// CHECK: arith.constant 5.734400e+04 : f8E5M2
// CHECK: arith.constant 0x7D : f8E5M2
// CHECK: arith.constant 0x80 : f8E4M3FNUZ
// CHECK: arith.constant dense<[1.953130e-03, 2.500000e-01]> : tensor<2xf8E4M3FN>
// CHECK: arith.constant dense<5.000000e-01> : tensor<2xf8E5M2>
tt.func @narrow() {
  %0 = arith.constant 0x1 : f8E4M3FN
  %1 = arith.constant 448.0 : f8E4M3FN
  %2 = arith.constant 0x7F : f8E4M3FN
  %3 = arith.constant 0xFF : f8E4M3FN
  %4 = arith.constant 57344.0 : f8E5M2
  %5 = arith.constant 0x7D : f8E5M2
  %6 = arith.constant 0x80 : f8E4M3FNUZ
  %7 = arith.constant dense<[0x1, 0x28]> : tensor<2xf8E4M3FN>
  %8 = arith.constant dense<0.5> : tensor<2xf8E5M2>
  tt.return
}
