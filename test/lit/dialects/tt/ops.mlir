// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s | tileopt | FileCheck %s
// Every tt op in Triton 3.6's custom assembly goes through parse, verify and print unchanged.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  // CHECK-LABEL: tt.func public @memory(
  // CHECK-SAME:    %p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: tensor<1024xi1, #blocked>, %x: f32) attributes {noinline = false} {
  tt.func public @memory(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: tensor<1024xi1, #blocked>, %x: f32) attributes {noinline = false} {
    // CHECK: %pid = tt.get_program_id x : i32
    // CHECK: %np = tt.get_num_programs z : i32
    // CHECK: %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    // CHECK: %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: %a = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    // CHECK: %v = tt.load %a : tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: %w = tt.load %a, %m, %v cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: tt.store %a, %w, %m cacheModifier = wt : tensor<1024x!tt.ptr<f32>, #blocked>
    // CHECK: tt.store %p, %x : !tt.ptr<f32>
    // CHECK: %old = tt.atomic_rmw fadd, acq_rel, gpu, %a, %v, %m : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    // CHECK: %cas = tt.atomic_cas relaxed, sys, %p, %x, %x : (!tt.ptr<f32>, f32, f32) -> f32
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
    // CHECK: %e = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    // CHECK: %b = tt.broadcast %e : tensor<64x1xi32> -> tensor<64x64xi32>
    // CHECK: %t = tt.trans %f {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    // CHECK: %rs = tt.reshape %f allow_reorder efficient_layout : tensor<32x64xf32> -> tensor<32x2x32xf32>
    // CHECK: %j = tt.join %f, %f : tensor<32x64xf32> -> tensor<32x64x2xf32>
    // CHECK: {{%[a-z0-9_:]+}} = tt.split %j : tensor<32x64x2xf32> -> tensor<32x64xf32>
    // CHECK: %c = tt.cat %f, %f : tensor<32x64xf32> -> tensor<64x64xf32>
    // CHECK: %h = tt.histogram %x : tensor<64xi32> -> tensor<16xi32>
    // CHECK: tt.return %b : tensor<64x64xi32>
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
    // CHECK: %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    // CHECK: %d2 = tt.dot %a, %b, %d : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    // CHECK: %ip = tt.int_to_ptr %i : tensor<64xi64> -> tensor<64x!tt.ptr<f16>>
    // CHECK: %pi = tt.ptr_to_int %ip : tensor<64x!tt.ptr<f16>> -> tensor<64xi64>
    // CHECK: %bc = tt.bitcast %ip : tensor<64x!tt.ptr<f16>> -> tensor<64x!tt.ptr<i16>>
    // CHECK: %h = tt.fp_to_fp %c, rounding = rtne : tensor<64x64xf32> -> tensor<64x64xf16>
    // CHECK: %sq = tt.precise_sqrt %x : f32
    // CHECK: %dv = tt.precise_divf %x, %sq : f32
    // CHECK: %cl = tt.clampf %x, %sq, %dv, propagateNan = all : f32
    // CHECK: %ex = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (f32) -> f32
    // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : f32
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
    tt.return
  }

  // Block pointers print the result type without `!tt.ptr`, as Triton does.
  // CHECK-LABEL: tt.func @block_pointers(
  tt.func @block_pointers(%base: !tt.ptr<f16>, %M: i64, %K: i64, %sm: i64, %o: i32, %c1_i64: i64, %c0_i32: i32) {
    // CHECK: %bp = tt.make_tensor_ptr %base, [%M, %K], [%sm, %c1_i64], [%o, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    // CHECK: %v = tt.load %bp {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: %adv = tt.advance %bp, [%c0_i32, %o] : <tensor<64x32xf16>>
    // CHECK: tt.store %adv, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x32xf16>>
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
    // CHECK:      %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    // CHECK-NEXT: ^bb0(%a: f32, %b: f32):
    // CHECK-NEXT:   %s = tt.call @combine(%a, %b) : (f32, f32) -> f32
    // CHECK-NEXT:   tt.reduce.return %s : f32
    // CHECK-NEXT: }) : (tensor<16x64xf32>) -> tensor<16xf32>
    // CHECK:      %cs = "tt.scan"(%sum) <{axis = 0 : i32, reverse = false}> ({
    // CHECK:        tt.scan.return %s2 : f32
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
