// RUN: tileopt %s | FileCheck %s
// tt.fp_to_fp's rounding mode written in the attribute dictionary (its integer storage,
// as some of Triton's tests write it) is read as the property, as MLIR reads it.

// CHECK-LABEL: tt.func @rounding_in_dict
// CHECK: tt.fp_to_fp %{{.+}}, rounding = rtne : tensor<4xf16> -> tensor<4xf8E5M2>
tt.func @rounding_in_dict(%x: tensor<4xf16>) -> tensor<4xf8E5M2> {
  %y = tt.fp_to_fp %x {rounding = 1 : i32} : tensor<4xf16> -> tensor<4xf8E5M2>
  tt.return %y : tensor<4xf8E5M2>
}
