// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s | tileopt | FileCheck %s
// Every tt op in Triton 3.6's custom assembly goes through parse, verify and print unchanged.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  // CHECK-LABEL: tt.func public @memory(
  // CHECK-SAME:    %arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: tensor<1024xi1, #blocked>, %arg2: f32) attributes {noinline = false} {
  tt.func public @memory(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: tensor<1024xi1, #blocked>, %x: f32) attributes {noinline = false} {
    // CHECK: %0 = tt.get_program_id x : i32
    // CHECK: %1 = tt.get_num_programs z : i32
    // CHECK: %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    // CHECK: %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: %4 = tt.addptr %3, %2 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    // CHECK: %5 = tt.load %4 : tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: %6 = tt.load %4, %arg1, %5 cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: tt.store %4, %6, %arg1 cacheModifier = wt : tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: tt.store %arg0, %arg2 : !tt.ptr<f32>
    // CHECK: %7 = tt.atomic_rmw fadd, acq_rel, gpu, %4, %5, %arg1 : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    // CHECK: %8 = tt.atomic_cas relaxed, sys, %arg0, %arg2, %arg2 : (!tt.ptr<f32>, f32, f32) -> f32
    %pid = tt.get_program_id x : i32
    %np = tt.get_num_programs z : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %a : tensor<1024x!tt.ptr<f32>, #blocked>
    %w = tt.load %a, %m, %v cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.store %a, %w, %m cacheModifier = wt : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.store %p, %x : !tt.ptr<f32>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %a, %v, %m : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    %cas = tt.atomic_cas relaxed, sys, %p, %x, %x : (!tt.ptr<f32>, f32, f32) -> f32
    tt.return
  }

  // CHECK-LABEL: tt.func @shapes(
  tt.func @shapes(%x: tensor<64xi32>, %f: tensor<32x64xf32>, %s: i32) -> tensor<64x64xi32> {
    // CHECK: %0 = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    // CHECK: %1 = tt.broadcast %0 : tensor<64x1xi32> -> tensor<64x64xi32>
    // CHECK: %2 = tt.trans %arg1 {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    // CHECK: %3 = tt.reshape %arg1 allow_reorder efficient_layout : tensor<32x64xf32> -> tensor<32x2x32xf32>
    // CHECK: %4 = tt.join %arg1, %arg1 : tensor<32x64xf32> -> tensor<32x64x2xf32>
    // CHECK: %outLHS, %outRHS = tt.split %4 : tensor<32x64x2xf32> -> tensor<32x64xf32>
    // CHECK: %5 = tt.cat %arg1, %arg1 : tensor<32x64xf32> -> tensor<64x64xf32>
    // CHECK: %6 = tt.histogram %arg0 : tensor<64xi32> -> tensor<16xi32>
    // CHECK: tt.return %1 : tensor<64x64xi32>
    %e = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %b = tt.broadcast %e : tensor<64x1xi32> -> tensor<64x64xi32>
    %t = tt.trans %f {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    %rs = tt.reshape %f allow_reorder efficient_layout : tensor<32x64xf32> -> tensor<32x2x32xf32>
    %j = tt.join %f, %f : tensor<32x64xf32> -> tensor<32x64x2xf32>
    %lo, %hi = tt.split %j : tensor<32x64x2xf32> -> tensor<32x64xf32>
    %c = tt.cat %f, %f : tensor<32x64xf32> -> tensor<64x64xf32>
    %h = tt.histogram %x : tensor<64xi32> -> tensor<16xi32>
    tt.return %b : tensor<64x64xi32>
  }

  // CHECK-LABEL: tt.func @compute(
  tt.func @compute(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>, %i: tensor<64xi64>, %x: f32) {
    // CHECK: %0 = tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    // CHECK: %1 = tt.dot %arg0, %arg1, %0 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    // CHECK: %2 = tt.int_to_ptr %arg3 : tensor<64xi64> -> tensor<64x!tt.ptr<f16>>
    // CHECK: %3 = tt.ptr_to_int %2 : tensor<64x!tt.ptr<f16>> -> tensor<64xi64>
    // CHECK: %4 = tt.bitcast %2 : tensor<64x!tt.ptr<f16>> -> tensor<64x!tt.ptr<i16>>
    // CHECK: %5 = tt.fp_to_fp %arg2, rounding = rtne : tensor<64x64xf32> -> tensor<64x64xf16>
    // CHECK: %6 = tt.precise_sqrt %arg4 : f32
    // CHECK: %7 = tt.precise_divf %arg4, %6 : f32
    // CHECK: %8 = tt.clampf %arg4, %6, %7, propagateNan = all : f32
    // CHECK: %9 = tt.extern_elementwise %arg4 {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (f32) -> f32
    // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %arg4 : f32
    // A print without arguments may keep an isSigned entry: Triton has no verifier for it.
    // CHECK: tt.print "test" {hex = false, isSigned = array<i32: 0>}
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %d2 = tt.dot %a, %b, %d : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %ip = tt.int_to_ptr %i : tensor<64xi64> -> tensor<64x!tt.ptr<f16>>
    %pi = tt.ptr_to_int %ip : tensor<64x!tt.ptr<f16>> -> tensor<64xi64>
    %bc = tt.bitcast %ip : tensor<64x!tt.ptr<f16>> -> tensor<64x!tt.ptr<i16>>
    %h = tt.fp_to_fp %c, rounding = rtne : tensor<64x64xf32> -> tensor<64x64xf16>
    %sq = tt.precise_sqrt %x : f32
    %dv = tt.precise_divf %x, %sq : f32
    %cl = tt.clampf %x, %sq, %dv, propagateNan = all : f32
    %ex = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (f32) -> f32
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : f32
    tt.print "test" { hex = false, isSigned = array<i32: 0>}
    tt.return
  }

  // Block pointers print the result type without `!tt.ptr`, as Triton does.
  // CHECK-LABEL: tt.func @block_pointers(
  tt.func @block_pointers(%base: !tt.ptr<f16>, %M: i64, %K: i64, %sm: i64, %o: i32, %c1_i64: i64, %c0_i32: i32) {
    // CHECK: %0 = tt.make_tensor_ptr %arg0, [%arg1, %arg2], [%arg3, %arg5], [%arg4, %arg6] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    // CHECK: %1 = tt.load %0 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: %2 = tt.advance %0, [%arg6, %arg4] : <tensor<64x32xf16>>
    // CHECK: tt.store %2, %1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16>>
    %bp = tt.make_tensor_ptr %base, [%M, %K], [%sm, %c1_i64], [%o, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    %v = tt.load %bp {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    %adv = tt.advance %bp, [%c0_i32, %o] : <tensor<64x32xf16>>
    tt.store %adv, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16>>
    tt.return
  }

  // tt.reduce and tt.scan have no custom form: Triton prints them generically.
  // CHECK-LABEL: tt.func private @combine(f32, f32) -> f32 attributes {noinline = false}
  tt.func private @combine(f32, f32) -> f32 attributes {noinline = false}

  // CHECK-LABEL: tt.func @reductions(
  tt.func @reductions(%x: tensor<16x64xf32>) -> tensor<16xf32> {
    // CHECK:      %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
    // CHECK-NEXT: ^bb0(%arg1: f32, %arg2: f32):
    // CHECK-NEXT:   %2 = tt.call @combine(%arg1, %arg2) : (f32, f32) -> f32
    // CHECK-NEXT:   tt.reduce.return %2 : f32
    // CHECK-NEXT: }) : (tensor<16x64xf32>) -> tensor<16xf32>
    // CHECK:      %1 = "tt.scan"(%0) <{axis = 0 : i32, reverse = false}> ({
    // CHECK:        tt.scan.return %2 : f32
    // CHECK-NEXT: }) : (tensor<16xf32>) -> tensor<16xf32>
    %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = tt.call @combine(%a, %b) : (f32, f32) -> f32
      tt.reduce.return %s : f32
    }) : (tensor<16x64xf32>) -> tensor<16xf32>
    %cs = "tt.scan"(%sum) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s2 = arith.addf %a, %b : f32
      tt.scan.return %s2 : f32
    }) : (tensor<16xf32>) -> tensor<16xf32>
    tt.return %cs : tensor<16xf32>
  }
}

// tt.unsplat: the result type is the source's element type (Triton 3.6 prints it so).
// CHECK-LABEL: tt.func @unsplat
// CHECK-NEXT:    %0 = tt.unsplat %arg0 : tensor<1x1xf32>
// CHECK-NEXT:    tt.return %0 : f32
tt.func @unsplat(%arg0: tensor<1x1xf32>) -> f32 {
  %0 = tt.unsplat %arg0 : tensor<1x1xf32>
  tt.return %0 : f32
}
