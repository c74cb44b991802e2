// RUN: tileopt %s | FileCheck %s
// tt.splat takes a 0-d tensor (one value) as its source, as Triton's verifier does.

// CHECK-LABEL: tt.func @splat_0d
// CHECK: tt.splat %{{.+}} : tensor<f32> -> tensor<8xf32>
tt.func @splat_0d(%x: tensor<f32>) -> tensor<8xf32> {
  %s = tt.splat %x : tensor<f32> -> tensor<8xf32>
  tt.return %s : tensor<8xf32>
}
