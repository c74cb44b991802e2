// RUN: tileopt %s --convert-arith-to-llvm --convert-math-to-llvm | FileCheck %s

// Scalar arith and math ops in LLVM functions become the LLVM ops (and generic
// intrinsics) that convert-triton-gpu-to-llvm uses for them.
// CHECK-LABEL: llvm.func @scalars
// CHECK:         %[[C:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK:         %[[X:.*]] = llvm.fmul %arg0, %[[C]] : f32
// CHECK:         %[[E:.*]] = llvm.intr.exp(%[[X]]) : (f32) -> f32
// CHECK:         %[[I:.*]] = llvm.sitofp %arg1 : i32 to f32
// CHECK:         %[[M:.*]] = llvm.intr.maxnum(%[[E]], %[[I]]) : (f32, f32) -> f32
// CHECK:         %[[K:.*]] = llvm.icmp "sge" %arg1, %{{.*}} : i32
// CHECK:         llvm.select %[[K]], %[[M]], %[[E]] : i1, f32
// CHECK-NOT:     arith.
// CHECK-NOT:     math.
module {
  llvm.func @scalars(%arg0: f32, %arg1: i32) -> f32 {
    %c = arith.constant 2.0 : f32
    %x = arith.mulf %arg0, %c : f32
    %e = math.exp %x : f32
    %i = arith.sitofp %arg1 : i32 to f32
    %m = arith.maxnumf %e, %i : f32
    %z = arith.constant 0 : i32
    %k = arith.cmpi sge, %arg1, %z : i32
    %r = arith.select %k, %m, %e : f32
    llvm.return %r : f32
  }
}
