// RUN lines as Triton's own tests write them for triton-opt, with only the tool renamed.
// RUN: tileopt %s -split-input-file -canonicalize -cse -allow-unregistered-dialect | FileCheck %s
// RUN: tileopt %s -split-input-file -allow-unregistered-dialect --triton-licm | FileCheck %s --check-prefix=LICM
// RUN: tileopt --split-input-file %s -triton-loop-aware-cse -allow-unregistered-dialect | FileCheck %s --check-prefix=LCSE

// CHECK-LABEL: tt.func @kernel
// CHECK-COUNT-1: tt.splat
// LICM-LABEL: tt.func @kernel
// LCSE-LABEL: tt.func @kernel
tt.func @kernel(%p: !tt.ptr<f32>, %n: i32) {
  %a = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %b = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %x = tt.load %a : tensor<128x!tt.ptr<f32>>
  tt.store %b, %x : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @unregistered
// LICM-LABEL: tt.func @unregistered
// LICM: "test.op"
tt.func @unregistered() {
  "test.op"() : () -> ()
  tt.return
}
