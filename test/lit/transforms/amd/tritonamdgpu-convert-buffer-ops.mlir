// RUN: tileopt %s -split-input-file --tritonamdgpu-convert-buffer-ops="arch-generation-name=gfx942" | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: tileopt %s -split-input-file --tritonamdgpu-convert-buffer-ops="arch-generation-name=gfx1100" | FileCheck %s --check-prefixes=CHECK,GFX1100

// Offsets from make_range: non-negative and small, so buffer ops; the zero `other`
// goes, the mask stays.
// CHECK-LABEL: tt.func @range_offsets
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[Q:.*]]: !tt.ptr<f32>, %{{.*}}: i32)
// CHECK: %[[R:.*]] = tt.make_range
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK: %[[X:.*]] = amdg.buffer_load %[[P]][%[[R]]], %[[M]] : tensor<1024xf32, #blocked>
// CHECK: amdg.buffer_store %[[X]], %[[Q]][%[[R]]], %[[M]] : tensor<1024xf32, #blocked>
// CHECK-NOT: tt.load
// CHECK-NOT: arith.constant
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @range_offsets(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %n: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pa = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x = tt.load %pa, %m, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %qa = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %qa, %x, %m : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// pid * 1024 may wrap around (pid < 2^31), so the offsets may be negative: no buffer op.
// CHECK-LABEL: tt.func @program_offsets_may_wrap
// CHECK: tt.load
// CHECK-NOT: amdg.buffer_load
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @program_offsets_may_wrap(%p: !tt.ptr<f32>) -> tensor<1024xf32, #blocked> {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<1024xi32, #blocked>
    %o = arith.addi %s, %r : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pa = tt.addptr %ps, %o : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x = tt.load %pa : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return %x : tensor<1024xf32, #blocked>
  }
}

// -----

// A tt.pointer_range = 32 base is a tensor under 2 GiB: any 32-bit offsets will do,
// 64-bit offsets never do.
// CHECK-LABEL: tt.func @small_tensor_base
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f16> {tt.pointer_range = 32 : i32}, %[[O:.*]]: tensor<1024xi32, #blocked>, %{{.*}}: tensor<1024xi64, #blocked>, %[[V:.*]]: tensor<1024xf16, #blocked>)
// CHECK: amdg.buffer_store %[[V]], %[[P]][%[[O]]] : tensor<1024xf16, #blocked>
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @small_tensor_base(%p: !tt.ptr<f16> {tt.pointer_range = 32 : i32}, %o: tensor<1024xi32, #blocked>, %o64: tensor<1024xi64, #blocked>, %v: tensor<1024xf16, #blocked>) {
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %pa = tt.addptr %ps, %o : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %pa, %v : tensor<1024x!tt.ptr<f16>, #blocked>
    %pb = tt.addptr %ps, %o64 : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi64, #blocked>
    tt.store %pb, %v : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Buffer atomics only on CDNA3/4; the all-true mask is dropped.
// CHECK-LABEL: tt.func @atomic_add
// GFX942: %[[OLD:.*]] = amdg.buffer_atomic_rmw fadd, relaxed, gpu, %arg1, %arg0[%{{.*}}] : tensor<1024xf32, #blocked>
// GFX942-NEXT: tt.return %[[OLD]]
// GFX1100: tt.atomic_rmw fadd, relaxed, gpu
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @atomic_add(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked> {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pa = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %t = arith.constant dense<true> : tensor<1024xi1, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pa, %v, %t : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    tt.return %old : tensor<1024xf32, #blocked>
  }
}

// -----

// Offsets that come out of tt.split keep the range of the split tensor (non-negative, small),
// and an async copy's contiguity goes to its buffer form; expected text: Triton 3.6's pass
// on this input (also the two spaces before `->` of a copy without `other`).
// CHECK-LABEL: tt.func public @split_offsets
// CHECK:         %outLHS, %outRHS = tt.split
// CHECK-NEXT:    %{{.*}} = amdg.buffer_load %arg0[%outLHS] : tensor<64xf16, #blocked>
// CHECK-NEXT:    %{{.*}} = amdg.buffer_load_to_local %arg0[%outRHS] into %arg1 {contiguity = 4 : i32} : <f16>[tensor<64xi32, #blocked>]  -> <64xf16, #shared, #smem, mutable>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @split_offsets(%p: !tt.ptr<f16>, %buf: !ttg.memdesc<64xf16, #shared, #smem, mutable>) -> tensor<64xf16, #b1> {
    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>
    %r1 = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32, #b1>
    %j = tt.join %r0, %r1 : tensor<64xi32, #b1> -> tensor<64x2xi32, #b2>
    %lo, %hi = tt.split %j : tensor<64x2xi32, #b2> -> tensor<64xi32, #b1>
    %s = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #b1>
    %a = tt.addptr %s, %lo : tensor<64x!tt.ptr<f16>, #b1>, tensor<64xi32, #b1>
    %v = tt.load %a : tensor<64x!tt.ptr<f16>, #b1>
    %b = tt.addptr %s, %hi : tensor<64x!tt.ptr<f16>, #b1>, tensor<64xi32, #b1>
    %t = ttg.async_copy_global_to_local %b, %buf {contiguity = 4 : i32} : tensor<64x!tt.ptr<f16>, #b1> -> <64xf16, #shared, #smem, mutable>
    tt.return %v : tensor<64xf16, #b1>
  }
}

// -----

// tt.atomic_cas of 32/64-bit integers at cta/gpu scope becomes amdg.buffer_atomic_cas; sys
// scope and floats stay; expected text: Triton 3.6's pass on this input.
// CHECK-LABEL: tt.func public @atomic_cas
// CHECK:         amdg.buffer_atomic_cas acq_rel, cta, %cst_1, %cst_0, %arg0[%0] : tensor<64xi32, #blocked>
// CHECK:         tt.atomic_cas acq_rel, sys, %{{.*}}, %cst_1, %cst_0
// CHECK:         tt.atomic_cas relaxed, gpu, %{{.*}}, %cst, %cst
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @atomic_cas(%p: !tt.ptr<i32> {tt.pointer_range = 32 : i32}, %q: !tt.ptr<f32> {tt.pointer_range = 32 : i32}) -> (tensor<64xi32, #b>, tensor<64xi32, #b>, tensor<64xf32, #b>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %cmp = arith.constant dense<0> : tensor<64xi32, #b>
    %val = arith.constant dense<1> : tensor<64xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #b>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>
    %a = tt.atomic_cas acq_rel, cta, %pp, %cmp, %val : (tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    %s = tt.atomic_cas acq_rel, sys, %pp, %cmp, %val : (tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    %fc = arith.constant dense<0.0> : tensor<64xf32, #b>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b>
    %qp = tt.addptr %qs, %r : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>
    %f = tt.atomic_cas relaxed, gpu, %qp, %fc, %fc : (tensor<64x!tt.ptr<f32>, #b>, tensor<64xf32, #b>, tensor<64xf32, #b>) -> tensor<64xf32, #b>
    tt.return %a, %s, %f : tensor<64xi32, #b>, tensor<64xi32, #b>, tensor<64xf32, #b>
  }
}
