// RUN: tileopt %s -split-input-file --convert-builtin-func-to-llvm -verify-diagnostics | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-builtin-func-to-llvm=ftz=false -verify-diagnostics | FileCheck %s --check-prefix=NOFTZ

// Each __triton_hip_* call becomes the LLVM ops it stands for; other calls stay.
// CHECK-LABEL: llvm.func @builtins
// CHECK:         %[[ABS:.*]] = llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK:         llvm.intr.abs(%arg2) {is_int_min_poison = false} : (i32) -> i32
// CHECK:         %[[R:.*]] = llvm.intr.rint(%arg0) : (f32) -> f32
// CHECK-NEXT:    %[[L:.*]] = llvm.fptosi %[[R]] : f32 to i64
// CHECK:         %[[RCP:.*]] = llvm.call_intrinsic "llvm.amdgcn.rcp"(%arg1) : (f32) -> f32
// CHECK-NEXT:    %[[Q:.*]] = llvm.fmul %arg0, %[[RCP]] : f32
// CHECK:         %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK-NEXT:    %[[S:.*]] = llvm.fmul %arg0, %[[LOG2E]] : f32
// CHECK-NEXT:    %[[E:.*]] = llvm.call_intrinsic "llvm.amdgcn.exp2"(%[[S]]) : (f32) -> f32
// CHECK:         llvm.call @other(%arg0) : (f32) -> f32
// CHECK-NEXT:    llvm.return %8 : f32
// NOFTZ-LABEL: llvm.func @builtins
// NOFTZ:         %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// NOFTZ-NEXT:    %[[S:.*]] = llvm.fmul %arg0, %[[LOG2E]] : f32
// NOFTZ-NEXT:    llvm.intr.exp2(%[[S]]) : (f32) -> f32
// NOFTZ-NOT:     llvm.amdgcn.exp2
llvm.func @__triton_hip_fabs(f32) -> f32
llvm.func @__triton_hip_iabs(i32) -> i32
llvm.func @__triton_hip_llrint(f32) -> i64
llvm.func @__triton_hip_fast_fdividef(f32, f32) -> f32
llvm.func @__triton_hip_fast_expf(f32) -> f32
llvm.func @other(f32) -> f32
llvm.func @builtins(%x: f32, %y: f32, %i: i32) -> f32 {
  %a = llvm.call @__triton_hip_fabs(%x) : (f32) -> f32
  %b = llvm.call @__triton_hip_iabs(%i) : (i32) -> i32
  %c = llvm.call @__triton_hip_llrint(%x) : (f32) -> i64
  %d = llvm.call @__triton_hip_fast_fdividef(%x, %y) : (f32, f32) -> f32
  %e = llvm.call @__triton_hip_fast_expf(%x) : (f32) -> f32
  %f = llvm.call @other(%x) : (f32) -> f32
  llvm.return %e : f32
}

// -----

// tanh(x) = (1 - 2 / (e^(2|x|) + 1)) * sign(x): e^(2|x|) may be +inf, the ratio is then 0.
// CHECK-LABEL: llvm.func @tanh
// CHECK:         %[[A:.*]] = llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK:         %[[T:.*]] = llvm.fmul %[[A]], %[[TWO:.*]] : f32
// CHECK:         llvm.call_intrinsic "llvm.amdgcn.exp2"
// CHECK:         %[[D:.*]] = llvm.fadd %{{.*}}, %[[ONE:.*]] : f32
// CHECK:         %[[R:.*]] = llvm.fdiv %[[TWO]], %[[D]] : f32
// CHECK:         %[[P:.*]] = llvm.fsub %[[ONE]], %[[R]] : f32
// CHECK:         %[[N:.*]] = llvm.fcmp "olt" %arg0, %{{.*}} : f32
// CHECK:         %[[S:.*]] = llvm.select %[[N]], %{{.*}}, %[[ONE]] : i1, f32
// CHECK:         llvm.fmul %[[P]], %[[S]] : f32
llvm.func @__triton_hip_fast_tanhf(f32) -> f32
llvm.func @tanh(%x: f32) -> f32 {
  %t = llvm.call @__triton_hip_fast_tanhf(%x) : (f32) -> f32
  llvm.return %t : f32
}

// -----

llvm.func @__triton_hip_fast_expf(f64) -> f64
llvm.func @wrong_type(%x: f64) -> f64 {
  // expected-error @+1 {{'__triton_hip_fast_expf' is defined on f32, not f64}}
  %e = llvm.call @__triton_hip_fast_expf(%x) : (f64) -> f64
  llvm.return %e : f64
}

// -----

llvm.func @__triton_hip_fast_logf(f32) -> f32
llvm.func @unknown(%x: f32) -> f32 {
  // expected-error @+1 {{unknown HIP built-in function '__triton_hip_fast_logf'}}
  %e = llvm.call @__triton_hip_fast_logf(%x) : (f32) -> f32
  llvm.return %e : f32
}
