// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=SM90

// Each op applies to every register; which LLVM op comes from the tables in
// elementwise.py. NVIDIA's f32 math follows Triton: exp is ex2.approx of x*log2(e),
// divf is div.full, sqrt is libdevice's approximate square root (flush-to-zero).
// CHECK-LABEL: llvm.func @float_ops
// CHECK:         %[[LOG2E:.*]] = llvm.mlir.constant(1.442695{{[0-9]*}} : f32) : f32
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK:         llvm.fsub
// CHECK:         llvm.fmul
// CHECK:         %[[S:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] : f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.f"(%[[S]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"
// CHECK:         llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
// CHECK:         llvm.call_intrinsic "llvm.nvvm.div.rn.f"
// CHECK:         llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK:         llvm.intr.minimum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK:         llvm.fcmp "ogt"
// CHECK:         llvm.select
// CHECK:         llvm.fpext %{{.*}} : f32 to f64
// CHECK:         llvm.fptrunc %{{.*}} : f64 to f16
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @float_ops(%a: f32, %b: f32, %out: !tt.ptr<f16>) {
    %x = arith.addf %a, %b : f32
    %y = arith.subf %x, %b : f32
    %z = arith.mulf %y, %a : f32
    %e = math.exp %z : f32
    %d = arith.divf %e, %b : f32
    %s = math.sqrt %d : f32
    %ps = tt.precise_sqrt %s : f32
    %pd = tt.precise_divf %ps, %a : f32
    %mx = arith.maxnumf %pd, %a : f32
    %mn = arith.minimumf %mx, %b : f32
    %c = arith.cmpf ogt, %mn, %a : f32
    %sel = arith.select %c, %mn, %b : f32
    %w = arith.extf %sel : f32 to f64
    %h = arith.truncf %w : f64 to f16
    tt.store %out, %h : !tt.ptr<f16>
    tt.return
  }
}

// -----

// Integer ops and casts; comparison predicates keep their names.
// CHECK-LABEL: llvm.func @int_ops
// CHECK:         llvm.sdiv
// CHECK:         llvm.urem
// CHECK:         llvm.ashr
// CHECK:         llvm.intr.smax
// CHECK:         llvm.icmp "ule"
// CHECK:         llvm.zext %{{.*}} : i1 to i32
// CHECK:         llvm.sext %{{.*}} : i32 to i64
// CHECK:         llvm.sitofp %{{.*}} : i64 to f32
// CHECK:         llvm.fptosi %{{.*}} : f32 to i16
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @int_ops(%a: i32, %b: i32, %out: !tt.ptr<i16>) {
    %q = arith.divsi %a, %b : i32
    %r = arith.remui %q, %b : i32
    %s = arith.shrsi %r, %a : i32
    %m = arith.maxsi %s, %a : i32
    %c = arith.cmpi ule, %m, %b : i32
    %z = arith.extui %c : i1 to i32
    %w = arith.extsi %z : i32 to i64
    %f = arith.sitofp %w : i64 to f32
    %t = arith.fptosi %f : f32 to i16
    tt.store %out, %t : !tt.ptr<i16>
    tt.return
  }
}

// -----

// Tensors: one op per register; constants are shared by all registers.
// CHECK-LABEL: llvm.func @tensor_ops
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK-COUNT-4: llvm.fmul %{{.*}}, %[[TWO]] : f32
// CHECK-NOT:     llvm.fmul
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tensor_ops(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %two = arith.constant dense<2.0> : tensor<512xf32, #blocked>
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
    %y = arith.mulf %x, %two : tensor<512xf32, #blocked>
    tt.store %pp, %y : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// math.erf expands to libdevice's erff polynomial (no library call): the |x| >= 1.00296
// test, the fma chain, and 1 - 2^p for large |x| with the sign of x.
// CHECK-LABEL: llvm.func @erf
// CHECK-NOT:     llvm.call @
// CHECK:         llvm.call_intrinsic "llvm.nvvm.fabs.ftz.f32"
// CHECK:         llvm.fcmp "oge"
// CHECK-COUNT-7: llvm.call_intrinsic "llvm.nvvm.fma.rn.ftz.f"
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:         llvm.intr.copysign
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @erf(%a: f32, %out: !tt.ptr<f32>) {
    %e = math.erf %a : f32
    tt.store %out, %e : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Triton's own elementwise ops: mulhiui is the high half of the 64-bit product; clampf
// is max with the lower bound, then min with the upper (NaN-propagating maximum/minimum
// with propagateNan = all, maxnum/minnum otherwise), in the order of Triton 3.6's
// make_llir (a NaN x gives lo); bitcast, int_to_ptr and ptr_to_int are LLVM's casts.
// CHECK-LABEL: llvm.func @triton_elementwise
// CHECK:         %[[A:.*]] = llvm.zext %arg0 : i32 to i64
// CHECK:         %[[B:.*]] = llvm.zext %arg1 : i32 to i64
// CHECK:         %[[M:.*]] = llvm.mul %[[A]], %[[B]] : i64
// CHECK:         %[[H:.*]] = llvm.lshr %[[M]], %{{.*}} : i64
// CHECK:         llvm.trunc %[[H]] : i64 to i32
// CHECK:         %[[LO:.*]] = llvm.intr.maxnum(%arg2, %arg3) : (f32, f32) -> f32
// CHECK:         llvm.intr.minnum(%[[LO]], %arg4) : (f32, f32) -> f32
// CHECK:         %[[LO2:.*]] = llvm.intr.maximum(%arg2, %arg3) : (f32, f32) -> f32
// CHECK:         llvm.intr.minimum(%[[LO2]], %arg4) : (f32, f32) -> f32
// CHECK:         llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         llvm.ptrtoint %arg5 : !llvm.ptr<1> to i64
// CHECK:         llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @triton_elementwise(%a: i32, %b: i32, %x: f32, %lo: f32, %hi: f32, %p: !tt.ptr<i32>) {
    %h = tt.mulhiui %a, %b : i32
    %c = tt.clampf %x, %lo, %hi, propagateNan = none : f32
    %d = tt.clampf %x, %lo, %hi, propagateNan = all : f32
    %e = arith.addf %c, %d : f32
    %i = tt.bitcast %e : f32 -> i32
    %s = arith.addi %h, %i : i32
    %n = tt.ptr_to_int %p : !tt.ptr<i32> -> i64
    %q = tt.int_to_ptr %n : i64 -> !tt.ptr<i32>
    tt.store %q, %s : !tt.ptr<i32>
    tt.return
  }
}

// -----

// clamp(x, -limit, limit) in the two forms Triton 3.6 recognises on sm_90 (the lower
// bound is 0 - upper with a splat 0, or both are splat constants that negate each other)
// is one min.xorsign.abs (.nan with propagateNan = all), as its make_llir writes it; an
// asymmetric pair stays max then min, and so does every clamp before sm_90.
// SM90-LABEL: llvm.func @symmetric_clamp
// SM90:         %[[A:.*]] = llvm.call_intrinsic "llvm.nvvm.fmin.xorsign.abs.f"(%{{.*}}, %[[Y:.*]]) : (f32, f32) -> f32
// SM90:         %[[C:.*]] = llvm.call_intrinsic "llvm.nvvm.fmin.nan.xorsign.abs.f"(%[[A]], %{{.*}}) : (f32, f32) -> f32
// SM90:         %[[D:.*]] = llvm.intr.maxnum(%[[C]], %{{.*}})
// SM90-NEXT:    llvm.intr.minnum(%[[D]], %{{.*}})
// CHECK-LABEL: llvm.func @symmetric_clamp
// CHECK-NOT:     xorsign
// CHECK-COUNT-3: llvm.intr.{{maxnum|maximum}}
// CHECK-NOT:     xorsign
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @symmetric_clamp(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %qp = tt.addptr %qs, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    %x = tt.load %pp : tensor<32x!tt.ptr<f32>, #b>
    %y = tt.load %qp : tensor<32x!tt.ptr<f32>, #b>
    %c0 = arith.constant dense<0.000000e+00> : tensor<32xf32, #b>
    %ny = arith.subf %c0, %y : tensor<32xf32, #b>
    %a = tt.clampf %x, %ny, %y, propagateNan = none : tensor<32xf32, #b>
    %lo = arith.constant dense<-5.000000e-01> : tensor<32xf32, #b>
    %hi = arith.constant dense<5.000000e-01> : tensor<32xf32, #b>
    %c = tt.clampf %a, %lo, %hi, propagateNan = all : tensor<32xf32, #b>
    %quarter = arith.constant dense<-2.500000e-01> : tensor<32xf32, #b>
    %d = tt.clampf %c, %quarter, %hi, propagateNan = none : tensor<32xf32, #b>
    tt.store %pp, %d : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}
