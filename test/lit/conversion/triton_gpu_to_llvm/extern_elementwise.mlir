// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// A libdevice function per register: declared once, called per element; the back end
// links libdevice.10.bc (test/lit/target/ops-ptxas.test). __nv_erff is written out inline
// (conversion/nvidia/libdevice.py), so it needs no declaration.
// CHECK-NOT:   llvm.func @__nv_erff
// CHECK:       llvm.func @__nv_powf(f32, f32) -> f32
// CHECK:       llvm.func @__nv_tanhf(f32) -> f32
// CHECK-LABEL: llvm.func @extern_calls
// CHECK:         llvm.call_intrinsic "llvm.nvvm.fabs.ftz.f32"
// CHECK:         llvm.call_intrinsic "llvm.nvvm.fabs.ftz.f32"
// CHECK:         %[[T0:.*]] = llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK:         %[[T1:.*]] = llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_powf(%[[T0]], %{{.*}}) : (f32, f32) -> f32
// CHECK:         llvm.call @__nv_powf(%[[T1]], %{{.*}}) : (f32, f32) -> f32
// CHECK-NOT:     llvm.call
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extern_calls(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %x = tt.load %pp : tensor<256x!tt.ptr<f32>, #blocked>
    %e = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_erff"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %t = tt.extern_elementwise %e {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %w = tt.extern_elementwise %t, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    tt.store %pp, %w : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

