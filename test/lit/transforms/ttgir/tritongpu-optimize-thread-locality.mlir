// RUN: tileopt %s -split-input-file --tritongpu-optimize-thread-locality | FileCheck %s
// RUN: tileopt %s -split-input-file --tritongpu-optimize-thread-locality --triton-version=3.9 | FileCheck %s --check-prefix=V39
// RUN: tileopt %s -split-input-file --tritongpu-optimize-thread-locality --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMES

// A loop accumulating row sums of loaded tiles. Each thread holds 4 consecutive elements of
// a row, so the loop now only adds those 4 (reshape 16x64 -> 16x16x4, reduce the new last
// axis) into a 16x16 partial accumulator, and reduces across threads once, after the loop.
// The accumulator is added back in its original layout. The old reduction stays, dead.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[T:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @row_sums
// CHECK: %[[INIT:.+]] = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[A]]}>>
// CHECK: %[[PART:.+]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #[[T]]}>>
// CHECK: %[[LOOP:.+]]:2 = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[INIT]], %[[P:.+]] = %[[PART]])
// CHECK: %[[X:.+]] = tt.load
// CHECK: "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: %[[V:.+]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<16x64xf32, #[[A]]> -> tensor<16x16x4xf32, #[[T]]>
// CHECK: %[[R:.+]] = "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK: -> tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #[[T]]}>>
// CHECK: %[[NP:.+]] = arith.addf %[[P]], %[[R]] : tensor<16x16xf32, #ttg.slice<{dim = 2, parent = #[[T]]}>>
// CHECK: scf.yield %[[ACC]], %[[NP]]
// CHECK: %[[F:.+]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK: -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #[[T]]}>}>>
// CHECK: %[[FC:.+]] = ttg.convert_layout %[[F]] : {{.*}} -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[A]]}>>
// CHECK: %[[SUM:.+]] = arith.addf %[[INIT]], %[[FC]]
// CHECK: tt.store %{{.*}}, %[[SUM]]

// Triton 3.9 builds the same 16x16x4 view without a reshape that may reorder: the row of
// 64 is split into [1, 16, 4] (repetitions, threads, a thread's elements; nothing moves),
// the threads are moved before the repetitions, the size-1 dim is dropped (a slice of the
// 4-D layout) and a conversion gives the 3-D layout (as corpus-3.9's sum_rows).
// V39-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// V39-DAG: #[[T:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// V39-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 1, 4], threadsPerWarp = [2, 1, 16, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>
// V39-DAG: #[[W:.+]] = #ttg.blocked<{sizePerThread = [1, 1, 1, 4], threadsPerWarp = [2, 16, 1, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 1, 2, 0]}>
// V39-LABEL: tt.func @row_sums
// V39: %[[X:.+]] = tt.load
// V39: %[[V1:.+]] = tt.reshape %[[X]] : tensor<16x64xf32, #[[A]]> -> tensor<16x1x16x4xf32, #[[S]]>
// V39-NEXT: %[[V2:.+]] = tt.trans %[[V1]] {order = array<i32: 0, 2, 1, 3>} : tensor<16x1x16x4xf32, #[[S]]> -> tensor<16x16x1x4xf32, #[[W]]>
// V39-NEXT: %[[V3:.+]] = tt.reshape %[[V2]] efficient_layout : tensor<16x16x1x4xf32, #[[W]]> -> tensor<16x16x4xf32, #ttg.slice<{dim = 2, parent = #[[W]]}>>
// V39-NEXT: %[[V4:.+]] = ttg.convert_layout %[[V3]] : tensor<16x16x4xf32, #ttg.slice<{dim = 2, parent = #[[W]]}>> -> tensor<16x16x4xf32, #[[T]]>
// V39-NEXT: "tt.reduce"(%[[V4]]) <{axis = 2 : i32}>
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_sums(%p: tensor<16x64x!tt.ptr<f32>, #A>, %q: tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>) : i32 {
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #A>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<16x64xf32, #A>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      %next = arith.addf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      scf.yield %next : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    }
    tt.store %q, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>
    tt.return
  }
}

// -----

// A max-reduction gets the neutral element -inf for its partial accumulator.

// CHECK-LABEL: tt.func @row_max
// CHECK: arith.constant dense<0xFF800000> : tensor<16x16xf32
// CHECK: arith.maxnumf
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_max(%p: tensor<16x64x!tt.ptr<f32>, #A>, %q: tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %init = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>) : i32 {
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #A>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<16x64xf32, #A>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      %next = arith.maxnumf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      scf.yield %next : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    }
    tt.store %q, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>
    tt.return
  }
}

// -----

// One element per thread along the reduced axis: nothing to gain, nothing changes.

// CHECK-LABEL: tt.func @one_element_per_thread
// CHECK-NOT: tt.reshape
// CHECK: scf.for
// CHECK-COUNT-1: "tt.reduce"
// CHECK-NOT: "tt.reduce"
#A = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_element_per_thread(%p: tensor<16x64x!tt.ptr<f32>, #A>, %q: tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>) : i32 {
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #A>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<16x64xf32, #A>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      %next = arith.addf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      scf.yield %next : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    }
    tt.store %q, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>
    tt.return
  }
}

// -----

// A reordering reshape feeding a reduction along axis 1 gets a layout with one element
// per thread and axis 1 last in its order (threads spread over rows first, so each thread
// walks whole rows); the reduction reads it through a conversion back to the old layout.

// CHECK-DAG: #[[OLD:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[NEW:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-LABEL: tt.func @reshape_for_reduce
// CHECK: %[[V:.+]] = tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<4096xf32, #{{.*}}> -> tensor<128x32xf32, #[[NEW]]>
// CHECK: %[[C:.+]] = ttg.convert_layout %[[V]] : tensor<128x32xf32, #[[NEW]]> -> tensor<128x32xf32, #[[OLD]]>
// CHECK: "tt.reduce"(%[[C]]) <{axis = 1 : i32}>
#L = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#OLD = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_for_reduce(%x: tensor<4096xf32, #L>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #OLD}>> {
    %v = tt.reshape %x allow_reorder : tensor<4096xf32, #L> -> tensor<128x32xf32, #OLD>
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<128x32xf32, #OLD>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #OLD}>>
    tt.return %s : tensor<128xf32, #ttg.slice<{dim = 1, parent = #OLD}>>
  }
}

// -----

// A gather along axis 0 of a 32x16 source with 64x16 indices: all 32 lanes go along the
// axis (each thread then holds 64 / 32 = 2 rows), one warp along it, the 4 warps across
// the 16 columns. Source and indices are converted to it; the result converted back.

// CHECK-DAG: #[[G:.+]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @gather
// CHECK: %[[S:.+]] = ttg.convert_layout %{{.*}} : tensor<32x16xf32, #{{.*}}> -> tensor<32x16xf32, #[[G]]>
// CHECK: %[[I:.+]] = ttg.convert_layout %{{.*}} : tensor<64x16xi32, #{{.*}}> -> tensor<64x16xi32, #[[G]]>
// CHECK: %[[R:.+]] = tt.gather %[[S]][%[[I]]] {axis = 0 : i32, efficient_layout} : (tensor<32x16xf32, #[[G]]>, tensor<64x16xi32, #[[G]]>) -> tensor<64x16xf32, #[[G]]>
// CHECK: %[[O:.+]] = ttg.convert_layout %[[R]]
// CHECK: tt.return %[[O]]
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather(%src: tensor<32x16xf32, #b>, %idx: tensor<64x16xi32, #b>) -> tensor<64x16xf32, #b> {
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x16xf32, #b>, tensor<64x16xi32, #b>) -> tensor<64x16xf32, #b>
    tt.return %g : tensor<64x16xf32, #b>
  }
}

// -----

// Where a thread meets the row twice (128 = 2 repetitions x 16 threads x 4), Triton 3.9's
// exact split is not done here: the 3.6 reshape, which may reorder, gives the view.
// CHECK-LABEL: tt.func @row_sums_twice
// V39-LABEL: tt.func @row_sums_twice
// V39: tt.reshape %{{.+}} allow_reorder efficient_layout : tensor<16x128xf32, #{{.+}}> -> tensor<16x16x8xf32, #{{.+}}>
// V39-NOT: tt.trans
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_sums_twice(%p: tensor<16x128x!tt.ptr<f32>, #A>, %q: tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>) : i32 {
      %x = tt.load %p : tensor<16x128x!tt.ptr<f32>, #A>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<16x128xf32, #A>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      %next = arith.addf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
      scf.yield %next : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>
    }
    tt.store %q, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>
    tt.return
  }
}

// -----

// Locations, as Triton's pass gives them (what names values with name locations): the
// new accumulator at the old one, the rebuilt loop at the loop and its new loop-carried
// value at its init, the views at the reduction, the conversion after the loop at the
// final reduction. (Expected text: Triton 3.6's own output.)

// NAMES-LABEL: tt.func @located
// V39-LABEL: tt.func @located
// NAMES: %zero = arith.constant dense<0.000000e+00> : tensor<16xf32
// NAMES-NEXT: %zero_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32
// NAMES-NEXT: %r:2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %zero, %zero_2 = %zero_0)
// NAMES: %s_4 = tt.reshape %x allow_reorder efficient_layout
// NAMES-NEXT: %s_5 = "tt.reduce"(%s_4) <{axis = 2 : i32}>
// NAMES: %next_6 = arith.addf %zero_2, %s_5
// NAMES: scf.yield %arg4, %next_6
// NAMES: %s = "tt.reduce"(%r#1) <{axis = 1 : i32}>
// NAMES: %s_1 = ttg.convert_layout %s
// NAMES-NEXT: %next = arith.addf %zero, %s_1
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @located(%p: tensor<16x64x!tt.ptr<f32>, #A>, %q: tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>> loc("zero")
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>>) : i32 {
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #A> loc("x")
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32 loc("t")
        tt.reduce.return %t : f32 loc("t")
      }) : (tensor<16x64xf32, #A>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>> loc("s")
      %next = arith.addf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>> loc("next")
      scf.yield %next : tensor<16xf32, #ttg.slice<{dim = 1, parent = #A}>> loc("y")
    } loc("r")
    tt.store %q, %r : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #A}>> loc("st")
    tt.return
  }
}
