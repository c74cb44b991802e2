// RUN: tileopt %s -split-input-file --tritongpu-remove-layout-conversions | FileCheck %s
// RUN: tileopt %s -split-input-file --tritongpu-remove-layout-conversions --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMES
// RUN: tileopt %s -split-input-file --triton-version=3.9 --tritongpu-remove-layout-conversions | FileCheck %s --check-prefix=V39

// Forward propagation: the load's layout (an anchor: 1024 elements, more than the 128
// threads) flows through the conversion and the exp to the store; both conversions go.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @forward
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[V:.+]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[A]]>
// CHECK-NEXT: %[[E:.+]] = math.exp %[[V]] : tensor<1024xf32, #[[A]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[E]] : tensor<1024x!tt.ptr<f32>, #[[A]]>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @forward(%p: tensor<1024x!tt.ptr<f32>, #A>, %q: tensor<1024x!tt.ptr<f32>, #A>) {
    %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #A>
    %c = ttg.convert_layout %v : tensor<1024xf32, #A> -> tensor<1024xf32, #B>
    %e = math.exp %c : tensor<1024xf32, #B>
    %ec = ttg.convert_layout %e : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
    tt.store %q, %ec : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Backward rematerialization: the offsets are computed in #B and converted for the load.
// make_range, splat and addi are cheap, so they are recomputed in the load's layout and
// the conversion disappears (the #B copies die).

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @remat_offsets
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: %[[R:.+]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[A]]>
// CHECK-DAG: %[[S:.+]] = tt.splat %{{.*}} : i32 -> tensor<1024xi32, #[[A]]>
// CHECK: %[[O:.+]] = arith.addi %[[S]], %[[R]] : tensor<1024xi32, #[[A]]>
// CHECK: tt.addptr %{{.*}}, %[[O]] : tensor<1024x!tt.ptr<f32>, #[[A]]>, tensor<1024xi32, #[[A]]>
// CHECK-NOT: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remat_offsets(%x: !tt.ptr<f32>, %off: i32, %q: tensor<1024x!tt.ptr<f32>, #A>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #B>
    %s = tt.splat %off : i32 -> tensor<1024xi32, #B>
    %o = arith.addi %s, %r : tensor<1024xi32, #B>
    %oc = ttg.convert_layout %o : tensor<1024xi32, #B> -> tensor<1024xi32, #A>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #A>
    %xp = tt.addptr %xs, %oc : tensor<1024x!tt.ptr<f32>, #A>, tensor<1024xi32, #A>
    %v = tt.load %xp : tensor<1024x!tt.ptr<f32>, #A>
    tt.store %q, %v : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Two anchors disagree: a load in #B feeds a store in #A. Neither layout can change, so
// exactly one conversion remains, right on the loaded value.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @anchors_disagree
// CHECK: %[[V:.+]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT: %[[VC:.+]] = ttg.convert_layout %[[V]] : tensor<1024xf32, #[[B]]> -> tensor<1024xf32, #[[A]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[VC]] : tensor<1024x!tt.ptr<f32>, #[[A]]>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @anchors_disagree(%p: tensor<1024x!tt.ptr<f32>, #B>, %q: tensor<1024x!tt.ptr<f32>, #A>) {
    %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #B>
    %vc = ttg.convert_layout %v : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
    tt.store %q, %vc : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Loop-carried values take the propagated layout: the accumulator of this loop is carried
// in the load's layout #A, its zero init is rebuilt in #A, no conversion is left.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[A]]>
// CHECK: %[[R:.+]] = scf.for %{{.*}} iter_args(%[[ACC:.+]] = %[[Z]]) -> (tensor<1024xf32, #[[A]]>)
// CHECK: %[[V:.+]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[A]]>
// CHECK: %[[S:.+]] = arith.addf %[[ACC]], %[[V]] : tensor<1024xf32, #[[A]]>
// CHECK: scf.yield %[[S]] : tensor<1024xf32, #[[A]]>
// CHECK: tt.store %{{.*}}, %[[R]] : tensor<1024x!tt.ptr<f32>, #[[A]]>
// CHECK-NOT: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_carried(%p: tensor<1024x!tt.ptr<f32>, #A>, %q: tensor<1024x!tt.ptr<f32>, #A>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #B>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #B>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #A>
      %vc = ttg.convert_layout %v : tensor<1024xf32, #A> -> tensor<1024xf32, #B>
      %s = arith.addf %acc, %vc : tensor<1024xf32, #B>
      scf.yield %s : tensor<1024xf32, #B>
    }
    %rc = ttg.convert_layout %r : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
    tt.store %q, %rc : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Reductions: the layout flows through tt.reduce (to a slice of it) and back through
// expand_dims, so a row-wise "x - max(x)" runs entirely in the load's layout.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @through_reduce
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.reduce"
// CHECK: (tensor<32x32xf32, #[[A]]>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[A]]}>>
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[A]]}>> -> tensor<32x1xf32, #[[A]]>
// CHECK: tt.broadcast %{{.*}} : tensor<32x1xf32, #[[A]]> -> tensor<32x32xf32, #[[A]]>
// CHECK: arith.subf %{{.*}}, %{{.*}} : tensor<32x32xf32, #[[A]]>
// CHECK-NOT: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @through_reduce(%p: tensor<32x32x!tt.ptr<f32>, #A>, %q: tensor<32x32x!tt.ptr<f32>, #A>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #A>
    %xc = ttg.convert_layout %x : tensor<32x32xf32, #A> -> tensor<32x32xf32, #B>
    %m = "tt.reduce"(%xc) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<32x32xf32, #B>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #B}>>
    %e = tt.expand_dims %m {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #B}>> -> tensor<32x1xf32, #B>
    %bc = tt.broadcast %e : tensor<32x1xf32, #B> -> tensor<32x32xf32, #B>
    %d = arith.subf %xc, %bc : tensor<32x32xf32, #B>
    %dc = ttg.convert_layout %d : tensor<32x32xf32, #B> -> tensor<32x32xf32, #A>
    tt.store %q, %dc : tensor<32x32x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Hoisting above an extension: the f32 value comes from an f16 load that must keep its
// layout, so the conversion cannot be removed; it moves before the extf instead, and the
// extf is computed in the store's layout.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @hoist_above_extf
// CHECK: %[[X:.+]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[B]]>
// CHECK-NEXT: %[[XC:.+]] = ttg.convert_layout %[[X]] : tensor<1024xf16, #[[B]]> -> tensor<1024xf16, #[[A]]>
// CHECK-NEXT: %[[Y:.+]] = arith.extf %[[XC]] : tensor<1024xf16, #[[A]]> to tensor<1024xf32, #[[A]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[Y]] : tensor<1024x!tt.ptr<f32>, #[[A]]>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_above_extf(%p: tensor<1024x!tt.ptr<f16>, #B>, %q: tensor<1024x!tt.ptr<f32>, #A>) {
    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #B>
    %y = arith.extf %x : tensor<1024xf16, #B> to tensor<1024xf32, #B>
    %yc = ttg.convert_layout %y : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
    tt.store %q, %yc : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// The cost model. A small (cheap, 64-element) load feeds two exps; the result is stored in
// #B and also converted to #A. Recomputing the load and the exps in #A costs
// 8 + 2 * 8 = 24 units per byte, the conversion 32: it is rematerialized.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @remat_is_cheaper
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<f32>, #[[A]]>
// CHECK-NOT: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remat_is_cheaper(%x: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #B>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #B>
    %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>, #B>, tensor<64xi32, #B>
    %v = tt.load %xp : tensor<64x!tt.ptr<f32>, #B>
    %a = math.exp %v : tensor<64xf32, #B>
    %b = math.exp %a : tensor<64xf32, #B>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #B>
    %qp = tt.addptr %qs, %r : tensor<64x!tt.ptr<f32>, #B>, tensor<64xi32, #B>
    tt.store %qp, %b : tensor<64x!tt.ptr<f32>, #B>
    %bc = ttg.convert_layout %b : tensor<64xf32, #B> -> tensor<64xf32, #A>
    %ra = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #A>
    %qa = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #A>
    %qpa = tt.addptr %qa, %ra : tensor<64x!tt.ptr<f32>, #A>, tensor<64xi32, #A>
    tt.store %qpa, %bc : tensor<64x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Same with four exps: 8 + 4 * 8 = 40 units per byte exceed the conversion's 32, so the
// values stay in #B and the conversion stays.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @conversion_is_cheaper
// CHECK-COUNT-4: math.exp %{{.*}} : tensor<64xf32, #[[B]]>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64xf32, #[[B]]> -> tensor<64xf32, #[[A]]>
#A = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conversion_is_cheaper(%x: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #B>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #B>
    %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>, #B>, tensor<64xi32, #B>
    %v = tt.load %xp : tensor<64x!tt.ptr<f32>, #B>
    %a = math.exp %v : tensor<64xf32, #B>
    %b = math.exp %a : tensor<64xf32, #B>
    %c = math.exp %b : tensor<64xf32, #B>
    %d = math.exp %c : tensor<64xf32, #B>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #B>
    %qp = tt.addptr %qs, %r : tensor<64x!tt.ptr<f32>, #B>, tensor<64xi32, #B>
    tt.store %qp, %d : tensor<64x!tt.ptr<f32>, #B>
    %dc = ttg.convert_layout %d : tensor<64xf32, #B> -> tensor<64xf32, #A>
    %ra = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #A>
    %qa = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #A>
    %qpa = tt.addptr %qa, %ra : tensor<64x!tt.ptr<f32>, #A>, tensor<64xi32, #A>
    tt.store %qpa, %dc : tensor<64x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Conversions that fold away on their own: convert(convert(x)), a conversion to the type
// it already has, and a conversion of a splat constant (rebuilt in the new layout).

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @folds
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[C:.+]] = arith.constant dense<1.000000e+00> : tensor<1024xf32, #[[A]]>
// CHECK: arith.addf %{{.*}}, %[[C]] : tensor<1024xf32, #[[A]]>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#C = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @folds(%p: tensor<1024x!tt.ptr<f32>, #A>, %q: tensor<1024x!tt.ptr<f32>, #A>) {
    %one = arith.constant dense<1.000000e+00> : tensor<1024xf32, #B>
    %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #A>
    %v1 = ttg.convert_layout %v : tensor<1024xf32, #A> -> tensor<1024xf32, #C>
    %v2 = ttg.convert_layout %v1 : tensor<1024xf32, #C> -> tensor<1024xf32, #A>
    %v3 = ttg.convert_layout %v2 : tensor<1024xf32, #A> -> tensor<1024xf32, #A>
    %onec = ttg.convert_layout %one : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
    %s = arith.addf %v3, %onec : tensor<1024xf32, #A>
    tt.store %q, %s : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Hoisting into a conditional (inside a loop): only the branch with the load needs a
// conversion; the other branch's constant is rebuilt in #A. The conversion now runs only
// when that branch is taken, and the scf.if yields #A.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @into_branch
// CHECK: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[A]]>
// CHECK: scf.for
// CHECK: %[[V:.+]] = scf.if %{{.*}} -> (tensor<1024xf32, #[[A]]>) {
// CHECK-NEXT: %[[L:.+]] = tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT: %[[LC:.+]] = ttg.convert_layout %[[L]] : tensor<1024xf32, #[[B]]> -> tensor<1024xf32, #[[A]]>
// CHECK-NEXT: scf.yield %[[LC]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[Z]]
// CHECK: tt.store %{{.*}}, %[[V]] : tensor<1024x!tt.ptr<f32>, #[[A]]>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @into_branch(%p: tensor<1024x!tt.ptr<f32>, #B>, %q: tensor<1024x!tt.ptr<f32>, #A>, %n: i32, %cond: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = scf.if %cond -> (tensor<1024xf32, #B>) {
        %l = tt.load %p : tensor<1024x!tt.ptr<f32>, #B>
        scf.yield %l : tensor<1024xf32, #B>
      } else {
        %z = arith.constant dense<0.000000e+00> : tensor<1024xf32, #B>
        scf.yield %z : tensor<1024xf32, #B>
      }
      %vc = ttg.convert_layout %v : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
      tt.store %q, %vc : tensor<1024x!tt.ptr<f32>, #A>
    }
    tt.return
  }
}

// -----

// Triton 3.6 prices every conversion as a round trip through shared memory, even one
// between two spellings of the same layout (#A and #B hold a 16x1 tensor identically).
// So the offsets (addi, used by another store too) are recomputed in #B rather than
// kept with a free conversion: the 4096-unit conversion costs more than the 64-byte addi
// and the muli that moves with it. This is what Triton 3.6 itself does with this input.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @equivalent_layouts_cost_a_conversion
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: %[[AB:.+]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x1xi32, #[[B]]>
// CHECK-DAG: %[[AA:.+]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x1xi32, #[[A]]>
// CHECK-DAG: %[[M:.+]] = arith.muli %[[AB]], %[[AB]] : tensor<16x1xi32, #[[B]]>
// CHECK-DAG: tt.store %{{.*}}, %[[AA]] : tensor<16x1x!tt.ptr<i32>, #[[A]]>
// CHECK-DAG: tt.store %{{.*}}, %[[M]] : tensor<16x1x!tt.ptr<i32>, #[[B]]>
// CHECK-NOT: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @equivalent_layouts_cost_a_conversion(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>, %o: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #A}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #A}>> -> tensor<16x1xi32, #A>
    %s = tt.splat %o : i32 -> tensor<16x1xi32, #A>
    %a = arith.addi %s, %e : tensor<16x1xi32, #A>
    %b = arith.muli %a, %a : tensor<16x1xi32, #A>
    %sq = tt.splat %q : !tt.ptr<i32> -> tensor<16x1x!tt.ptr<i32>, #A>
    %qtr = tt.addptr %sq, %a : tensor<16x1x!tt.ptr<i32>, #A>, tensor<16x1xi32, #A>
    tt.store %qtr, %a : tensor<16x1x!tt.ptr<i32>, #A>
    %sp = tt.splat %p : !tt.ptr<i32> -> tensor<16x1x!tt.ptr<i32>, #B>
    %c = ttg.convert_layout %b : tensor<16x1xi32, #A> -> tensor<16x1xi32, #B>
    tt.store %sp, %c : tensor<16x1x!tt.ptr<i32>, #B>
    tt.return
  }
}

// -----

// Hoisting above an extension has no cost check in Triton 3.6: the conversion of the
// exp's result moves above the extf (onto the f16 load), and extf and exp are
// recomputed in #B even though the exp is also used in #A and costs more than the
// conversion saves. This is what Triton 3.6 itself does with this input.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: tt.func public @hoist_above_extf_without_cost_check
// CHECK: %[[V:.+]] = tt.load %{{.*}} : tensor<256x!tt.ptr<f16>, #[[A]]>
// CHECK: %[[C:.+]] = ttg.convert_layout %[[V]] : tensor<256xf16, #[[A]]> -> tensor<256xf16, #[[B]]>
// CHECK-DAG: %[[EB:.+]] = arith.extf %[[C]] : tensor<256xf16, #[[B]]> to tensor<256xf32, #[[B]]>
// CHECK-DAG: %[[EA:.+]] = arith.extf %[[V]] : tensor<256xf16, #[[A]]> to tensor<256xf32, #[[A]]>
// CHECK-DAG: %[[XB:.+]] = math.exp %[[EB]] : tensor<256xf32, #[[B]]>
// CHECK-DAG: %[[XA:.+]] = math.exp %[[EA]] : tensor<256xf32, #[[A]]>
// CHECK-DAG: tt.store %{{.*}}, %[[XA]] : tensor<256x!tt.ptr<f32>, #[[A]]>
// CHECK-DAG: tt.store %{{.*}}, %[[XB]] : tensor<256x!tt.ptr<f32>, #[[B]]>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hoist_above_extf_without_cost_check(%p: tensor<256x!tt.ptr<f16>, #A>, %q: tensor<256x!tt.ptr<f32>, #A>, %o: tensor<256x!tt.ptr<f32>, #B>) {
    %v = tt.load %p : tensor<256x!tt.ptr<f16>, #A>
    %e = arith.extf %v : tensor<256xf16, #A> to tensor<256xf32, #A>
    %x = math.exp %e : tensor<256xf32, #A>
    tt.store %q, %x : tensor<256x!tt.ptr<f32>, #A>
    %c = ttg.convert_layout %x : tensor<256xf32, #A> -> tensor<256xf32, #B>
    tt.store %o, %c : tensor<256x!tt.ptr<f32>, #B>
    tt.return
  }
}

// -----

// A reshape that keeps elements in place passes layouts on: the load's layout (two
// registers per thread along the pair dim) propagates through the reshape as the 1-d
// layout with two registers per thread, and both conversions go (as Triton 3.6 does).

// CHECK-DAG: #[[J:.+]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @reshape_forward
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[V:.+]] = tt.load %{{.*}} : tensor<128x2x!tt.ptr<f32>, #[[J]]>
// CHECK-NEXT: %[[R:.+]] = tt.reshape %[[V]] : tensor<128x2xf32, #[[J]]> -> tensor<256xf32, #[[S]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[R]] : tensor<256x!tt.ptr<f32>, #[[S]]>
#J = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#K = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#S = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_forward(%p: tensor<128x2x!tt.ptr<f32>, #J>, %q: tensor<256x!tt.ptr<f32>, #S>) {
    %v = tt.load %p : tensor<128x2x!tt.ptr<f32>, #J>
    %c = ttg.convert_layout %v : tensor<128x2xf32, #J> -> tensor<128x2xf32, #K>
    %r = tt.reshape %c : tensor<128x2xf32, #K> -> tensor<256xf32, #D>
    %s = ttg.convert_layout %r : tensor<256xf32, #D> -> tensor<256xf32, #S>
    tt.store %q, %s : tensor<256x!tt.ptr<f32>, #S>
    tt.return
  }
}

// -----

// Backward through a reshape: to store in #D the producers of the reshaped value are
// recomputed in the 2-d layout that reshapes to #D (the default one), and the
// conversion from the #ttg.linear result goes (as Triton 3.6 does).

// CHECK-DAG: #[[D:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @reshape_backward
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[S:.+]] = tt.splat %{{.*}} : i32 -> tensor<64x4xi32, #[[B]]>
// CHECK-NEXT: %[[M:.+]] = arith.muli %[[S]], %[[S]] : tensor<64x4xi32, #[[B]]>
// CHECK-NEXT: %[[R:.+]] = tt.reshape %[[M]] : tensor<64x4xi32, #[[B]]> -> tensor<256xi32, #[[D]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[R]] : tensor<256x!tt.ptr<i32>, #[[D]]>
#B = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#L = #ttg.linear<{register = [[1], [2], [128]], lane = [[0], [0], [4], [8], [16]], warp = [[32], [64]], block = []}>
#D = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_backward(%x: i32, %q: tensor<256x!tt.ptr<i32>, #D>) {
    %s = tt.splat %x : i32 -> tensor<64x4xi32, #B>
    %a = arith.muli %s, %s : tensor<64x4xi32, #B>
    %r = tt.reshape %a : tensor<64x4xi32, #B> -> tensor<256xi32, #L>
    %c = ttg.convert_layout %r : tensor<256xi32, #L> -> tensor<256xi32, #D>
    tt.store %q, %c : tensor<256x!tt.ptr<i32>, #D>
    tt.return
  }
}

// -----

// A reshape whose layout a pass chose (efficient_layout; here Triton 3.9's thread-locality
// view, which keeps elements in place) is an anchor: the loaded layout does not flow
// through it, and its slice layout goes on to the reduction (the conversion moves to
// the return).
// CHECK-DAG: #[[W:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 1, 4], threadsPerWarp = [2, 16, 1, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 1, 2, 0]}>
// CHECK-LABEL: tt.func @efficient_reshape_anchor
// CHECK: %[[V:.+]] = tt.reshape %{{.+}} efficient_layout : tensor<16x16x1x4xf32, #[[W]]> -> tensor<16x16x4xf32, #ttg.slice<{dim = 2, parent = #[[W]]}>>
// CHECK-NEXT: "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK: (tensor<16x16x4xf32, #ttg.slice<{dim = 2, parent = #[[W]]}>>)
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.blocked<{sizePerThread = [1, 1, 1, 4], threadsPerWarp = [2, 1, 16, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>
#W = #ttg.blocked<{sizePerThread = [1, 1, 1, 4], threadsPerWarp = [2, 16, 1, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 1, 2, 0]}>
#T = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @efficient_reshape_anchor(%p: tensor<16x64x!tt.ptr<f32>, #A>) -> tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #T}>> {
    %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #A>
    %1 = tt.reshape %x : tensor<16x64xf32, #A> -> tensor<16x1x16x4xf32, #S>
    %2 = tt.trans %1 {order = array<i32: 0, 2, 1, 3>} : tensor<16x1x16x4xf32, #S> -> tensor<16x16x1x4xf32, #W>
    %3 = tt.reshape %2 efficient_layout : tensor<16x16x1x4xf32, #W> -> tensor<16x16x4xf32, #ttg.slice<{dim = 2, parent = #W}>>
    %4 = ttg.convert_layout %3 : tensor<16x16x4xf32, #ttg.slice<{dim = 2, parent = #W}>> -> tensor<16x16x4xf32, #T>
    %5 = "tt.reduce"(%4) <{axis = 2 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x16x4xf32, #T>) -> tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #T}>>
    tt.return %5 : tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #T}>>
  }
}

// -----

// Locations, as Triton's pass gives them (what names values with name locations): the
// conversion propagation puts after the splat is located at the splat, so the splat it
// folds into keeps the name "x"; the rebuilt loop's induction variable is located at the
// loop and its loop-carried value at its init. (Expected text: Triton 3.6's own output.)

// NAMES-LABEL: tt.func @located
// NAMES: %init = arith.constant dense<0.000000e+00>
// NAMES-NEXT: %x = tt.splat %arg1 : f32 -> tensor<1024xf32, #blocked>
// NAMES-NEXT: %r = scf.for %r_0 = %c0_i32 to %arg2 step %c1_i32 iter_args(%init_1 = %init)
// NAMES-NEXT: %v = tt.load %arg0
// NAMES-NEXT: %d = arith.subf %v, %x
// NAMES-NEXT: %a = arith.addf %init_1, %d
// NAMES-NEXT: scf.yield %a
// NAMES: tt.store %arg0, %r
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @located(%p: tensor<1024x!tt.ptr<f32>, #A>, %s: f32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<0.000000e+00> : tensor<1024xf32, #B> loc("init")
    %x = tt.splat %s : f32 -> tensor<1024xf32, #B> loc("x")
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1024xf32, #B>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f32>, #A> loc("v")
      %vb = ttg.convert_layout %v : tensor<1024xf32, #A> -> tensor<1024xf32, #B> loc("v")
      %d = arith.subf %vb, %x : tensor<1024xf32, #B> loc("d")
      %a = arith.addf %acc, %d : tensor<1024xf32, #B> loc("a")
      scf.yield %a : tensor<1024xf32, #B>
    } loc("r")
    %ra = ttg.convert_layout %r : tensor<1024xf32, #B> -> tensor<1024xf32, #A> loc("ra")
    tt.store %p, %ra : tensor<1024x!tt.ptr<f32>, #A> loc("st")
    tt.return
  }
}

// -----

// The last clean-up runs scf.for's and scf.if's canonicalization patterns, as Triton's
// does: a loop that runs (4 iterations) and yields a value from outside it is that value
// (Triton 3.6.0's output for this input).
// CHECK-LABEL: tt.func @loop_yields_outer_value
// CHECK-NEXT:    tt.return %arg1 : tensor<128xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_yields_outer_value(%x: tensor<128xf32, #blocked>, %y: tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<128xf32, #blocked>) : i32 {
      scf.yield %y : tensor<128xf32, #blocked>
    }
    tt.return %r : tensor<128xf32, #blocked>
  }
}

// -----

// Pointers built from row and column offsets, converted to a layout with two rows per
// thread for the load. Triton 3.6 recomputes all the index math in the load's layout.
// Triton 3.9 (V39) lets a broadcast change layout where no element changes thread: the
// column offsets' 1x64 tensor is already where the load's layout wants it, so only the
// broadcast's result changes; the row offsets (one row per thread) are recomputed.

// CHECK-LABEL: tt.func @broadcast_absorbs_layout
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #[[L:blocked]]}>>
// CHECK: tt.broadcast %{{.*}} : tensor<32x1xi32, #[[L]]> -> tensor<32x64xi32, #[[L]]>
// CHECK: tt.broadcast %{{.*}} : tensor<1x64xi32, #[[L]]> -> tensor<32x64xi32, #[[L]]>
// CHECK-NOT: ttg.convert_layout
// V39-LABEL: tt.func @broadcast_absorbs_layout
// V39: %[[R:.+]] = arith.muli {{.*}} : tensor<32x1xi32, #[[L:blocked]]>
// V39: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #[[C:blocked1]]}>>
// V39: %[[COLS:.+]] = tt.expand_dims {{.*}} -> tensor<1x64xi32, #[[C]]>
// V39: tt.broadcast %[[R]] : tensor<32x1xi32, #[[L]]> -> tensor<32x64xi32, #[[L]]>
// V39: tt.broadcast %[[COLS]] : tensor<1x64xi32, #[[C]]> -> tensor<32x64xi32, #[[L]]>
// V39-NOT: ttg.convert_layout
// V39: tt.load %{{.*}} : tensor<32x64x!tt.ptr<f16>, #[[L]]>

#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [2, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @broadcast_absorbs_layout(%p: !tt.ptr<f16>, %stride: i32) -> tensor<32x64xf16, #b2> {
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<32x1xi32, #b>
    %s = tt.splat %stride : i32 -> tensor<32x1xi32, #b>
    %roff = arith.muli %r2, %s : tensor<32x1xi32, #b>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %rb = tt.broadcast %roff : tensor<32x1xi32, #b> -> tensor<32x64xi32, #b>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #b>
    %base = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #b>
    %ptrs = tt.addptr %base, %off : tensor<32x64x!tt.ptr<f16>, #b>, tensor<32x64xi32, #b>
    %cv = ttg.convert_layout %ptrs : tensor<32x64x!tt.ptr<f16>, #b> -> tensor<32x64x!tt.ptr<f16>, #b2>
    %x = tt.load %cv : tensor<32x64x!tt.ptr<f16>, #b2>
    tt.return %x : tensor<32x64xf16, #b2>
  }
}

// -----

// Row offsets reshaped 128 -> 128x1 before a conversion to a layout with 8 columns per
// thread. Recomputing them in that layout: Triton 3.6 gives the reshape's operand the
// reshaped linear layout; Triton 3.9 (V39) gives the slice of the 2-D layout (its 8
// registers along the unit dim only repeat the element).

// CHECK-LABEL: tt.func @reshape_keeps_slice
// CHECK: tt.make_range {{.*}} : tensor<128xi32, #linear>
// CHECK: tt.reshape %{{.*}} : tensor<128xi32, #linear> -> tensor<128x1xi32, #blocked>
// V39-LABEL: tt.func @reshape_keeps_slice
// V39: tt.make_range {{.*}} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[B:blocked]]}>>
// V39: tt.reshape %{{.*}} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[B]]}>> -> tensor<128x1xi32, #[[B]]>
// V39-NOT: ttg.convert_layout

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#p = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#q = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_keeps_slice(%p: !tt.ptr<f16>, %base: i32) -> tensor<128x64xf16, #q> {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    %s = tt.splat %base : i32 -> tensor<128xi32, #b1>
    %o = arith.addi %s, %r : tensor<128xi32, #b1>
    %rows = tt.reshape %o : tensor<128xi32, #b1> -> tensor<128x1xi32, #p>
    %wide = tt.broadcast %rows : tensor<128x1xi32, #p> -> tensor<128x64xi32, #p>
    %ptrs = tt.splat %p : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #p>
    %addr = tt.addptr %ptrs, %wide : tensor<128x64x!tt.ptr<f16>, #p>, tensor<128x64xi32, #p>
    %cv = ttg.convert_layout %addr : tensor<128x64x!tt.ptr<f16>, #p> -> tensor<128x64x!tt.ptr<f16>, #q>
    %x = tt.load %cv : tensor<128x64x!tt.ptr<f16>, #q>
    tt.return %x : tensor<128x64xf16, #q>
  }
}

// -----

// The same into an MFMA layout, rows and columns: Triton 3.9 (V39) takes the slice for the
// 1x128 columns, which it places as the reshape does, and keeps the linear layout for the
// 128x1 rows, whose 16 registers along the unit dim a slice would drop (in its corpus).

// CHECK-LABEL: tt.func @reshape_mfma_slices
// CHECK: tt.make_range {{.*}} : tensor<128xi32, #linear>
// CHECK: tt.make_range {{.*}} : tensor<128xi32, #linear1>
// V39-LABEL: tt.func @reshape_mfma_slices
// V39: tt.make_range {{.*}} : tensor<128xi32, #linear>
// V39: tt.make_range {{.*}} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>>
// V39: tt.reshape %{{.*}} : tensor<128xi32, #linear> -> tensor<128x1xi32, #mma>
// V39: tt.reshape %{{.*}} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x128xi32, #mma>

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @reshape_mfma_slices(%p: !tt.ptr<f16>, %v: tensor<128x128xf16, #mma>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %rows = tt.reshape %r : tensor<128xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<128x1xi32, #bl>
    %cols = tt.reshape %c : tensor<128xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x128xi32, #bl>
    %rw = tt.broadcast %rows : tensor<128x1xi32, #bl> -> tensor<128x128xi32, #bl>
    %cw = tt.broadcast %cols : tensor<1x128xi32, #bl> -> tensor<128x128xi32, #bl>
    %off = arith.addi %rw, %cw : tensor<128x128xi32, #bl>
    %ptrs = tt.splat %p : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #bl>
    %addr = tt.addptr %ptrs, %off : tensor<128x128x!tt.ptr<f16>, #bl>, tensor<128x128xi32, #bl>
    %cv = ttg.convert_layout %addr : tensor<128x128x!tt.ptr<f16>, #bl> -> tensor<128x128x!tt.ptr<f16>, #mma>
    tt.store %cv, %v : tensor<128x128x!tt.ptr<f16>, #mma>
    tt.return
  }
}
