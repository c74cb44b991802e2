// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// make_range: each register holds start + its element's index. With sizePerThread 2 over
// 32 lanes and 2 warps, thread t holds elements 2*lane + 64*warp and that plus 1:
// lane and warp bits are one run of tid.x, so one shift puts them in place (no lane/warp
// split), the register adds an xor constant.
// CHECK-LABEL: llvm.func @make_range
// CHECK-DAG:     %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-DAG:     %[[C63:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK:         %[[T:.*]] = llvm.and %[[TID]], %[[C63]] : i32
// CHECK-NOT:     llvm.lshr
// CHECK:         %[[E0:.*]] = llvm.shl %[[T]], %{{.*}} : i32
// CHECK:         %[[E1:.*]] = llvm.xor %[[E0]], %{{.*}} : i32
// CHECK:         llvm.add %[[E0]], %[[START:.*]] : i32
// CHECK:         llvm.add %[[E1]], %[[START]] : i32
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @make_range(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 132 : i32, start = 4 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %pp, %r : tensor<128x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// expand_dims and broadcast only pick registers: in a 16x8 tensor where each thread holds
// 4 columns of one row (sizePerThread [1, 4]), the row value comes from the 16-element
// slice, is computed once (the 16x1 tensor's 4 registers repeat one element, so its
// multiply is done once too), and all 4 stored registers are that one value.
// CHECK-LABEL: llvm.func @expand_broadcast
// CHECK:         %[[ROW:.*]] = llvm.add %{{.*}}, %arg1 : i32
// CHECK-NOT:     llvm.add %{{.*}}, %arg1
// CHECK:         llvm.mul %[[ROW]], %{{.*}} : i32
// CHECK-NOT:     llvm.mul
// CHECK:         %[[V:.*]] = llvm.insertelement %[[ROW]], %{{.*}}[%{{.*}} : i32] : vector<4xi32>
// CHECK:         %[[V2:.*]] = llvm.insertelement %[[ROW]], %[[V]][%{{.*}} : i32] : vector<4xi32>
// CHECK:         %[[V3:.*]] = llvm.insertelement %[[ROW]], %[[V2]][%{{.*}} : i32] : vector<4xi32>
// CHECK:         %[[V4:.*]] = llvm.insertelement %[[ROW]], %[[V3]][%{{.*}} : i32] : vector<4xi32>
// CHECK:         llvm.store %[[V4]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @expand_broadcast(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %base: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %s = tt.splat %base : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %row = arith.addi %r, %s : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %e = tt.expand_dims %row {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<16x1xi32, #b>
    %v = tt.broadcast %e : tensor<16x1xi32, #b> -> tensor<16x8xi32, #b>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x8xi32, #b>
    %cb = tt.broadcast %ce : tensor<1x8xi32, #b> -> tensor<16x8xi32, #b>
    %c8 = arith.constant dense<8> : tensor<16x1xi32, #b>
    %rowoff = arith.muli %e, %c8 : tensor<16x1xi32, #b>
    %rb = tt.broadcast %rowoff : tensor<16x1xi32, #b> -> tensor<16x8xi32, #b>
    %off = arith.addi %rb, %cb : tensor<16x8xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x8x!tt.ptr<i32>, #b>
    %pp = tt.addptr %ps, %off : tensor<16x8x!tt.ptr<i32>, #b>, tensor<16x8xi32, #b>
    tt.store %pp, %v : tensor<16x8x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// trans into the transposed layout, and back, only renames registers: no shared memory.
// CHECK-LABEL: llvm.func @trans_twice
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     addr_space = 3
// CHECK:         llvm.return
#t = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#tt = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @trans_twice(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #t}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #t}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #t}>> -> tensor<64x1xi32, #t>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #t}>> -> tensor<1x64xi32, #t>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #t>
    %ro = arith.muli %re, %c64 : tensor<64x1xi32, #t>
    %rb = tt.broadcast %ro : tensor<64x1xi32, #t> -> tensor<64x64xi32, #t>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #t> -> tensor<64x64xi32, #t>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #t>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #t>
    %pp = tt.addptr %ps, %off : tensor<64x64x!tt.ptr<f32>, #t>, tensor<64x64xi32, #t>
    %x = tt.load %pp : tensor<64x64x!tt.ptr<f32>, #t>
    %y = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf32, #t> -> tensor<64x64xf32, #tt>
    %z = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x64xf32, #tt> -> tensor<64x64xf32, #t>
    tt.store %pp, %z : tensor<64x64x!tt.ptr<f32>, #t>
    tt.return
  }
}

// -----

// reshape 128x2 -> 256 where each thread's pair of a row is its pair of consecutive
// elements: registers stay in place (the loaded vector is stored unchanged).
// CHECK-LABEL: llvm.func @reshape_pairs
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT:     addr_space = 3
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_pairs(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #flat>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #flat>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #flat>, tensor<256xi32, #flat>
    %x = tt.load %pp : tensor<256x!tt.ptr<f32>, #flat>
    %y = tt.reshape %x : tensor<256xf32, #flat> -> tensor<128x2xf32, #pair>
    %z = tt.reshape %y : tensor<128x2xf32, #pair> -> tensor<256xf32, #flat>
    tt.store %pp, %z : tensor<256x!tt.ptr<f32>, #flat>
    tt.return
  }
}

// -----

// unsplat: the element of a one-element tensor is the first register of every thread;
// the scalar store of it is done by thread 0.
// CHECK-LABEL: llvm.func @unsplat
// CHECK:         %[[SUM:.*]] = llvm.fadd %arg1, %arg1 : f32
// CHECK:         %[[BITS:.*]] = llvm.bitcast %[[SUM]] : f32 to i32
// CHECK:         st.global.b32 {{.*}} %[[BITS]], %arg0
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unsplat(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %x: f32) {
    %t = tt.splat %x : f32 -> tensor<1xf32, #blocked>
    %u = arith.addf %t, %t : tensor<1xf32, #blocked>
    %s = tt.unsplat %u : tensor<1xf32, #blocked>
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
}
