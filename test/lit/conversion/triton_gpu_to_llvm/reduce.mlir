// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// 512 elements over 4 x 32 threads, 4 each: three adds in registers, a butterfly over the
// five lane bits (16, 8, 4, 2, 1), then lane 0 of each warp writes its partial at slot
// `warp`; a barrier; threads 0-3 read one slot each (the others are not needed), a
// butterfly over 4 lanes (2, 1) adds them, and lane 0 writes the sum back to slot 0; a
// barrier; every thread reads slot 0. Only thread 0 stores the scalar.
// CHECK-LABEL: llvm.func @sum_all
// CHECK-DAG:     %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:     %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG:     %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG:     %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG:     %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-COUNT-3: llvm.fadd
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]], %{{.*}} : i32 -> i32
// CHECK:         llvm.fadd
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : i32 -> i32
// CHECK-COUNT-3: nvvm.shfl.sync bfly
// CHECK:         "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    %[[NEEDED:.*]] = llvm.icmp "ult" %{{.*}}, %[[C4]] : i32
// CHECK:         %[[FIRST:.*]] = llvm.icmp "eq"
// CHECK-NEXT:    %[[WRITE:.*]] = llvm.and %[[NEEDED]], %[[FIRST]] : i1
// CHECK:         "@$2 ld.shared.b32 $0, [ $1 + 0 ];", "=r,r,b" %{{.*}}, %[[NEEDED]]
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]], %{{.*}} : i32 -> i32
// CHECK:         llvm.fadd
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : i32 -> i32
// CHECK:         llvm.fadd
// CHECK:         "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[WRITE]]
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.fadd
// CHECK:         %[[T0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK:         "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %{{.*}}, %arg1, %[[T0]]
// CHECK-NOT:     nvvm.barrier0
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sum_all(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<512xf32, #blocked>) -> f32
    tt.store %out, %s : !tt.ptr<f32>
    tt.return
  }
}

// -----

// The axis lives in each thread's registers only: three combines, no exchange at all.
// The combiner region is inlined (here a max).
// CHECK-LABEL: llvm.func @rows_in_registers
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-COUNT-3: llvm.intr.maxnum
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rows_in_registers(%x: f32, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %t = tt.splat %x : f32 -> tensor<128x4xf32, #b>
    %m = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %d = arith.maxnumf %a, %c : f32
      tt.reduce.return %d : f32
    }) : (tensor<128x4xf32, #b>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %ps = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>, tensor<128xi32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %pp, %m : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}

// -----

// Two operands reduced together (an argmax): each butterfly step shuffles both, and the
// combiner sees (acc value, acc index, other value, other index). The axis (dim 1, the
// fastest) spans the 8 lanes of lane bits 0..2, so there are 3 steps (4, 2, 1) and no
// shared memory; the lanes along dim 0 keep their rows apart.
// CHECK-LABEL: llvm.func @argmax
// CHECK-DAG:     %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]]
// CHECK-NEXT:    llvm.bitcast
// CHECK-NEXT:    nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]]
// CHECK:         llvm.fcmp "ogt"
// CHECK:         llvm.select
// CHECK:         llvm.select
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @argmax(%v: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x8xi32, #b>
    %idx = tt.broadcast %re : tensor<1x8xi32, #b> -> tensor<4x8xi32, #b>
    %ps = tt.splat %v : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %idx : tensor<4x8x!tt.ptr<f32>, #b>, tensor<4x8xi32, #b>
    %x = tt.load %pp : tensor<4x8x!tt.ptr<f32>, #b>
    %m:2 = "tt.reduce"(%x, %idx) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %c: f32, %ci: i32):
      %gt = arith.cmpf ogt, %c, %a : f32
      %mv = arith.select %gt, %c, %a : f32
      %mi = arith.select %gt, %ci, %ai : i32
      tt.reduce.return %mv, %mi : f32, i32
    }) : (tensor<4x8xf32, #b>, tensor<4x8xi32, #b>) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #b}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #b}>>)
    %o = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #b}>>
    %op = tt.addptr %os, %o : tensor<4x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #b}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %op, %m#1 : tensor<4x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}
