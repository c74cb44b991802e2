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


// -----

// Math NVPTX has no instruction for calls libdevice (as MLIR's libdevice lowering in
// Triton's back end): f32 __nv_<op>f, f64 __nv_<op>; f16 goes through f32. f32 exp keeps
// its ex2.approx form (TargetHooks.math comes first); f64 exp has none and calls __nv_exp.
// CHECK-DAG:   llvm.func @__nv_sinf(f32) -> f32
// CHECK-DAG:   llvm.func @__nv_cosf(f32) -> f32
// CHECK-DAG:   llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-DAG:   llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG:   llvm.func @__nv_erf(f64) -> f64
// CHECK-LABEL: llvm.func @no_instruction
// CHECK:         llvm.call @__nv_sinf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_cosf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_powf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK:         %[[W:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK:         %[[T:.*]] = llvm.call @__nv_tanhf(%[[W]]) : (f32) -> f32
// CHECK:         llvm.fptrunc %[[T]] : f32 to f16
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.f"
// CHECK:         llvm.call @__nv_exp(%{{.*}}) : (f64) -> f64
// CHECK:         llvm.call @__nv_erf(%{{.*}}) : (f64) -> f64
// CHECK-NOT:     llvm.intr.sin
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_instruction(%p: !tt.ptr<f32>, %q: !tt.ptr<f64>, %h: !tt.ptr<f16>, %x: f32, %d: f64, %y: f16) {
    %s = math.sin %x : f32
    %c = math.cos %s : f32
    %w = math.powf %c, %x : f32
    %t = math.tanh %y : f16
    %e = math.exp %w : f32
    %ed = math.exp %d : f64
    %rd = math.erf %ed : f64
    tt.store %p, %e : !tt.ptr<f32>
    tt.store %q, %rd : !tt.ptr<f64>
    tt.store %h, %t : !tt.ptr<f16>
    tt.return
  }
}

// -----

// Triton 3.6 calls libdevice for f32 log, log2, floor and ceil (its make_llir of the same
// ops): logf and log2f are polynomials there, not lg2.approx, and floorf flushes a
// denormal (cvt.rmi.ftz). sqrt keeps its one instruction (what libdevice's sqrtf is under
// Triton's reflect settings); an f16 sqrt goes through __nv_sqrtf, as Triton's does.
// CHECK-LABEL: llvm.func @libdevice_as_triton
// CHECK-NOT:     lg2.approx
// CHECK:         llvm.call @__nv_logf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_log2f(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_floorf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_ceilf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK:         %[[W:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK:         %[[S:.*]] = llvm.call @__nv_sqrtf(%[[W]]) : (f32) -> f32
// CHECK:         llvm.fptrunc %[[S]] : f32 to f16
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @libdevice_as_triton(%p: !tt.ptr<f32>, %h: !tt.ptr<f16>, %x: f32, %y: f16) {
    %l = math.log %x : f32
    %l2 = math.log2 %l : f32
    %f = math.floor %l2 : f32
    %c = math.ceil %f : f32
    %s = math.sqrt %c : f32
    %t = math.sqrt %y : f16
    tt.store %p, %s : !tt.ptr<f32>
    tt.store %h, %t : !tt.ptr<f16>
    tt.return
  }
}
