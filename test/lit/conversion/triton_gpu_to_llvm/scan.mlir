// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// cumsum of 512 elements, one per thread per chunk of 128 (4 chunks, 4 warps):
// Hillis-Steele over the 32 lanes with shfl.sync.up by 1..16 plus one more for the
// exclusive lane prefix, per chunk (4 x 6 = 24 shuffles); then the last lane of each
// (chunk, warp) block writes its total, one barrier, and each thread reads the 16 totals
// (four 128-bit loads) to add those of the blocks before its own.
// CHECK-LABEL: llvm.func @cumsum
// CHECK-COUNT-24: nvvm.shfl.sync up
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-COUNT-4: "@$2 st.shared.b32 [ $0 + 0 ], $1;"
// CHECK:         nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.scan.return %c : f32
    }) : (tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked>
    tt.store %pp, %s : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Rows of 8 held in registers, 4 per thread and two lanes per row: a running sum in
// registers, then one shfl.up step (and one for the exclusive prefix); no shared memory.
// CHECK-LABEL: llvm.func @rows
// CHECK-COUNT-3: llvm.add
// CHECK-COUNT-2: nvvm.shfl.sync up
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rows(%x: i32, %p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %t = tt.splat %x : i32 -> tensor<16x8xi32, #b>
    %s = "tt.scan"(%t) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %c: i32):
      %d = arith.addi %a, %c : i32
      tt.scan.return %d : i32
    }) : (tensor<16x8xi32, #b>) -> tensor<16x8xi32, #b>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x8xi32, #b>
    %rb = tt.broadcast %re : tensor<1x8xi32, #b> -> tensor<16x8xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x8x!tt.ptr<i32>, #b>
    %pp = tt.addptr %ps, %rb : tensor<16x8x!tt.ptr<i32>, #b>, tensor<16x8xi32, #b>
    tt.store %pp, %s : tensor<16x8x!tt.ptr<i32>, #b>
    tt.return
  }
}
