// RUN: tileopt %s -split-input-file --tritongpu-coalesce | FileCheck %s

// A 16-byte aligned f32 pointer with runs of 1024: 4 elements (128 bits) per thread. The
// load is rebuilt in that layout between converts; the store through an unaligned pointer
// stays at 1 element per thread (stores are never widened past their own alignment).

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @vec4
// CHECK: %[[P:.+]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[B1]]> -> tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[M:.+]] = ttg.convert_layout %{{.*}} : tensor<1024xi1, #[[B1]]> -> tensor<1024xi1, #[[V4]]>
// CHECK: %[[L:.+]] = tt.load %[[P]], %[[M]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[LB:.+]] = ttg.convert_layout %[[L]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[B1]]>
// CHECK: %[[SP:.+]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[B1]]> -> tensor<1024x!tt.ptr<f32>, #[[B1]]>
// CHECK: %[[SV:.+]] = ttg.convert_layout %[[LB]] : tensor<1024xf32, #[[B1]]> -> tensor<1024xf32, #[[B1]]>
// CHECK: tt.store %[[SP]], %[[SV]], %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[B1]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @vec4(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32>, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp, %m : tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %yp, %v, %m : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The other way round: a load whose own pointer has no known alignment takes the width of
// a store of the same shape and order it is connected to (they would meet in one layout).

// CHECK-DAG: #[[V4:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @widened_load
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @widened_load(%x: !tt.ptr<f32>, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp : tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %yp, %v : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// 2D: the load walks rows (contiguous along dim 1), the store walks columns (contiguous
// along dim 0, rows 16 bytes apart). Each gets 8 f16 (16 bytes) along its contiguous dim,
// lanes fastest along that dim.

// CHECK-DAG: #[[ROWS:.+]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[COLS:.+]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @transpose
// CHECK: %[[V:.+]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[ROWS]]>
// CHECK: %[[VB:.+]] = ttg.convert_layout %[[V]] : tensor<64x64xf16, #[[ROWS]]> -> tensor<64x64xf16, #[[TILE:.+]]>
// CHECK: %[[SV:.+]] = ttg.convert_layout %[[VB]] : tensor<64x64xf16, #[[TILE]]> -> tensor<64x64xf16, #[[COLS]]>
// CHECK: tt.store %{{.*}}, %[[SV]] : tensor<64x64x!tt.ptr<f16>, #[[COLS]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transpose(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %s = tt.splat %stride : i32 -> tensor<64x1xi32, #blocked1>
    %roff = arith.muli %r2, %s : tensor<64x1xi32, #blocked1>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %rb = tt.broadcast %roff : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %rbc = ttg.convert_layout %rb : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked>
    %c2c = ttg.convert_layout %c2 : tensor<1x64xi32, #blocked2> -> tensor<1x64xi32, #blocked>
    %cb = tt.broadcast %c2c : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %rowmajor = arith.addi %rbc, %cb : tensor<64x64xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %src = tt.addptr %p, %rowmajor : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %v = tt.load %src : tensor<64x64x!tt.ptr<f16>, #blocked>
    %r2b = ttg.convert_layout %r2 : tensor<64x1xi32, #blocked1> -> tensor<64x1xi32, #blocked>
    %cs = tt.splat %stride : i32 -> tensor<1x64xi32, #blocked>
    %coff = arith.muli %c2c, %cs : tensor<1x64xi32, #blocked>
    %rb2 = tt.broadcast %r2b : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb2 = tt.broadcast %coff : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %colmajor = arith.addi %rb2, %cb2 : tensor<64x64xi32, #blocked>
    %dst = tt.addptr %p, %colmajor : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %dst, %v : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Limits: 64 elements for 128 threads leave 1 per thread; i64 gets 2 (128 bits); atomics
// are coalesced like stores and their result converted back.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V2:.+]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @limits
// CHECK: tt.load %{{.*}} : tensor<64x!tt.ptr<i64>, #[[B1]]>
// CHECK: %[[OLD:.+]] = tt.atomic_rmw add, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<512x!tt.ptr<i32>, #[[V4]]>, tensor<512xi32, #[[V4]]>) -> tensor<512xi32, #[[V4]]>
// CHECK: ttg.convert_layout %[[OLD]] : tensor<512xi32, #[[V4]]> -> tensor<512xi32, #[[B1]]>
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<i64>, #[[V2]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @limits(%x: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %h: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<i64> -> tensor<64x!tt.ptr<i64>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<i64>, #blocked>, tensor<64xi32, #blocked>
    %v = tt.load %xp : tensor<64x!tt.ptr<i64>, #blocked>
    %r1 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %hs = tt.splat %h : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %hp = tt.addptr %hs, %r1 : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    %one = arith.constant dense<1> : tensor<512xi32, #blocked>
    %old = tt.atomic_rmw add, relaxed, gpu, %hp, %one : (tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>) -> tensor<512xi32, #blocked>
    %w = tt.splat %x : !tt.ptr<i64> -> tensor<1024x!tt.ptr<i64>, #blocked>
    %r2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %wp = tt.addptr %w, %r2 : tensor<1024x!tt.ptr<i64>, #blocked>, tensor<1024xi32, #blocked>
    %wv = tt.load %wp : tensor<1024x!tt.ptr<i64>, #blocked>
    tt.return
  }
}

// -----

// Wave64 (AMD CDNA): the same rule with 64 lanes.

// CHECK-DAG: #[[W4:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @wave64
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<f32>, #[[W4]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @wave64(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %r : tensor<2048x!tt.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
    %v = tt.load %xp : tensor<2048x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
