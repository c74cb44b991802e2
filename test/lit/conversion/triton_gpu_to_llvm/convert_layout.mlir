// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// Elements move between threads: through shared memory. Each thread writes its 4
// consecutive elements as one 128-bit store, a barrier, and reads its 4 new ones (512
// apart, not consecutive) one by one. The module records the 2 KiB of scratch.
// CHECK:       module attributes {{{.*}}ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @through_shared
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK:         %[[W:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         llvm.store %{{.*}}, %[[W]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NOT:     nvvm.barrier0
#src = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @through_shared(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #src>
    %c = ttg.convert_layout %r : tensor<512xi32, #src> -> tensor<512xi32, #dst>
    %o = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #dst>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #dst>
    %pp = tt.addptr %ps, %o : tensor<512x!tt.ptr<i32>, #dst>, tensor<512xi32, #dst>
    tt.store %pp, %c : tensor<512x!tt.ptr<i32>, #dst>
    tt.return
  }
}

// -----

// The same linear layout spelled two ways (blocked and #ttg.linear): nothing to do.
// A layout that only orders the registers differently: the registers are renamed.
// CHECK-LABEL: llvm.func @in_registers
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#same = #ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], block = []}>
#swapped = #ttg.linear<{register = [[256], [1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], block = []}>
#wide = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @in_registers(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %a = ttg.convert_layout %r : tensor<256xi32, #blocked> -> tensor<256xi32, #same>
    %b = ttg.convert_layout %a : tensor<256xi32, #same> -> tensor<256xi32, #blocked>
    %r2 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #wide>
    %s = ttg.convert_layout %r2 : tensor<512xi32, #wide> -> tensor<512xi32, #swapped>
    %t = ttg.convert_layout %s : tensor<512xi32, #swapped> -> tensor<512xi32, #wide>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #blocked>
    %pp = tt.addptr %ps, %b : tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %pp, %b : tensor<256x!tt.ptr<i32>, #blocked>
    %ps2 = tt.splat %p : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #wide>
    %pp2 = tt.addptr %ps2, %t : tensor<512x!tt.ptr<i32>, #wide>, tensor<512xi32, #wide>
    tt.store %pp2, %t : tensor<512x!tt.ptr<i32>, #wide>
    tt.return
  }
}
