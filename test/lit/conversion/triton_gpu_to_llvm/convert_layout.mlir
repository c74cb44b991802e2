// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=SM90

// Elements move between threads: through shared memory. Each thread writes its 4
// consecutive elements as one 128-bit store, a barrier, and reads its 4 new ones (128
// apart, not consecutive) with one ldmatrix.x4: its lanes take 32-bit words of rows 16
// bytes long, so 32-bit elements move as pairs of 16-bit columns (Triton's PTX of the
// rotary kernel's 1024x1 f32 conversion does the same). The module records the 2 KiB of
// scratch.
// CHECK:       module attributes {{{.*}}ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @through_shared
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK:         %[[W:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         llvm.store %{{.*}}, %[[W]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    %[[R:.+]] = llvm.getelementptr
// CHECK-NEXT:    nvvm.ldmatrix %[[R]] {layout = #nvvm.mma_layout<row>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     !llvm.ptr<3>
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

// -----

// 16-bit elements, 8 consecutive along the rows written and 8 along the columns read
// (Inductor's rotary kernel, 32x32 bf16, 4 warps): as in Triton's PTX for it, each thread
// writes its 8 elements as one 16-byte store (the truncations packed in pairs) and reads
// its new ones with one transposing ldmatrix.x4, in Triton's 2 KiB.
// CHECK:       module attributes {{{.*}}ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @matrix_load_bf16
// CHECK-COUNT-8: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK-NOT:     : bf16, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    %[[R:.+]] = llvm.getelementptr
// CHECK-NEXT:    nvvm.ldmatrix %[[R]] {layout = #nvvm.mma_layout<col>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
#src = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matrix_load_bf16(%s: f32, %p: !tt.ptr<bf16> {tt.divisibility = 16 : i32}) {
    %x = tt.splat %s : f32 -> tensor<32x32xf32, #src>
    %t = arith.truncf %x : tensor<32x32xf32, #src> to tensor<32x32xbf16, #src>
    %c = ttg.convert_layout %t : tensor<32x32xbf16, #src> -> tensor<32x32xbf16, #dst>
    %ps = tt.splat %p : !tt.ptr<bf16> -> tensor<32x32x!tt.ptr<bf16>, #dst>
    tt.store %ps, %c : tensor<32x32x!tt.ptr<bf16>, #dst>
    tt.return
  }
}

// -----

// Two rows of 512 (Inductor's rotary kernel, 2x512 bf16): Triton's PTX writes with one
// stmatrix.x4 and reads with one transposing ldmatrix.x4. Both suit one offset map: the
// written word pairs registers 4 apart (columns 0 and 4 of the thread's 8), so the
// stored row's 16-bit columns are the columns the reader's lanes 4-16 pick. Without
// stmatrix (sm_80) the writes go as pairs, one 32-bit store each, never 16-bit ones.
// CHECK-LABEL: llvm.func @pairs_bf16
// CHECK-NOT:     : bf16, !llvm.ptr<3>
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    %[[R:.+]] = llvm.getelementptr
// CHECK-NEXT:    nvvm.ldmatrix %[[R]] {layout = #nvvm.mma_layout<col>, num = 4 : i32} : (!llvm.ptr<3>)
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
// SM90-LABEL:  llvm.func @pairs_bf16
// SM90-COUNT-8:  %[[T:.+]] = llvm.fptrunc %{{.*}} : f32 to bf16
// SM90:          %[[W0:.+]] = llvm.insertelement %[[T0:.+]], %{{.*}}[%{{.*}} : i32] : vector<2xbf16>
// SM90-NOT:      : bf16, !llvm.ptr<3>
// SM90:          nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32
// SM90-NEXT:     nvvm.barrier0
// SM90-NEXT:     %[[R:.+]] = llvm.getelementptr
// SM90-NEXT:     nvvm.ldmatrix %[[R]] {layout = #nvvm.mma_layout<col>, num = 4 : i32} : (!llvm.ptr<3>)
// SM90-NOT:      !llvm.ptr<3>
// SM90:          llvm.return
#src = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pairs_bf16(%s: f32, %p: !tt.ptr<bf16> {tt.divisibility = 16 : i32}) {
    %x = tt.splat %s : f32 -> tensor<2x512xf32, #src>
    %t = arith.truncf %x : tensor<2x512xf32, #src> to tensor<2x512xbf16, #src>
    %c = ttg.convert_layout %t : tensor<2x512xbf16, #src> -> tensor<2x512xbf16, #dst>
    %ps = tt.splat %p : !tt.ptr<bf16> -> tensor<2x512x!tt.ptr<bf16>, #dst>
    tt.store %ps, %c : tensor<2x512x!tt.ptr<bf16>, #dst>
    tt.return
  }
}

// -----

// A reduced row (replicated across the 32 lanes, both rows in two registers) to a layout
// whose lane bit 0 picks the row: every thread already holds its element, in register
// (lane & 1). One select on that lane bit, no shuffle, no shared memory (Triton 3.6 takes
// a shuffle and two selects here).
// CHECK:       module attributes {{{.*}}ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @select_in_thread
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         %[[SET:.*]] = llvm.icmp "ne" %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.select %[[SET]], %{{.*}}, %{{.*}} : i1, f32
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         llvm.return
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @select_in_thread(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    %s = arith.sitofp %r : tensor<2xi32, #ttg.slice<{dim = 1, parent = #rows}>> to tensor<2xf32, #ttg.slice<{dim = 1, parent = #rows}>>
    %c = ttg.convert_layout %s : tensor<2xf32, #ttg.slice<{dim = 1, parent = #rows}>> -> tensor<2xf32, #ttg.slice<{dim = 1, parent = #lanes}>>
    %o = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #lanes}>>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #lanes}>>
    %pp = tt.addptr %ps, %o : tensor<2x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #lanes}>>, tensor<2xi32, #ttg.slice<{dim = 1, parent = #lanes}>>
    tt.store %pp, %c : tensor<2x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #lanes}>>
    tt.return
  }
}

// -----

// 32-bit elements as pairs of 16-bit columns (Inductor's rotary kernel, 256x16 f32, 8
// warps): a lane's 4 consecutive elements sit in 4 matrices' rows, so Triton's PTX writes
// them with one stmatrix.x4 (sm_90; sm_80 has none: 32-bit stores) and reads with 16-byte
// vectors; four of each a thread. The words are the elements' bits.
// CHECK-LABEL: llvm.func @matrix_store_f32
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
// SM90-LABEL:  llvm.func @matrix_store_f32
// SM90-NOT:      !llvm.ptr<3> -> f32
// SM90:          %[[A:.+]] = llvm.bitcast %{{.*}} : f32 to i32
// SM90-COUNT-3:  llvm.bitcast %{{.*}} : f32 to i32
// SM90-NEXT:     %[[P:.+]] = llvm.getelementptr
// SM90-NEXT:     nvvm.stmatrix %[[P]], %[[A]], %{{.*}}, %{{.*}}, %{{.*}} {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32
// SM90-COUNT-3:  nvvm.stmatrix
// SM90-NEXT:     nvvm.barrier0
// SM90-COUNT-4:  llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// SM90-NOT:      !llvm.ptr<3>
// SM90:          llvm.return
#src = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matrix_store_f32(%s: f32, %p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %x = tt.splat %s : f32 -> tensor<256x16xf32, #src>
    %c = ttg.convert_layout %x : tensor<256x16xf32, #src> -> tensor<256x16xf32, #dst>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x16x!tt.ptr<f32>, #dst>
    tt.store %ps, %c : tensor<256x16x!tt.ptr<f32>, #dst>
    tt.return
  }
}

// -----

// Inductor's looped-reduction result: 16 rows, 4 per thread in registers and 4 lanes
// apart, to one row per lane. The rows a lane needs sit in the registers of other lanes;
// the source broadcasts along lane bits 2-4, so the lane read from (bits 2-3 say which
// register it offers) is picked to make one shuffle enough: two levels of selects, one
// indexed shuffle, no shared memory (Triton 3.6 goes through shared memory here).
// CHECK:       module attributes {{{.*}}ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @shuffle_in_warp
// CHECK-COUNT-3: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
// CHECK:         nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
#spread = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#tall = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shuffle_in_warp(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #spread}>>
    %f = arith.sitofp %r : tensor<16xi32, #ttg.slice<{dim = 1, parent = #spread}>> to tensor<16xf32, #ttg.slice<{dim = 1, parent = #spread}>>
    %c = ttg.convert_layout %f : tensor<16xf32, #ttg.slice<{dim = 1, parent = #spread}>> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #tall}>>
    %o = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #tall}>>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #tall}>>
    %pp = tt.addptr %ps, %o : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #tall}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #tall}>>
    tt.store %pp, %c : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #tall}>>
    tt.return
  }
}

// -----

// 2x512 from 8 to 4 consecutive columns a thread (one warp): column bit 2 moves from a
// register bit to lane bit 0 while the lane bits move up one. No lane is broadcast, so
// the register bit and the lane bit trade places: each thread offers, per register, one of
// two registers picked by its lane bit 4 (32 selects), reads one indexed shuffle per
// register (32), then swaps register pairs 4 apart by its lane bit 0 (32 selects). No
// shared memory (Triton 3.6: 32 shuffles and 98 selects).
// CHECK:       module attributes {{{.*}}ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @swap_register_and_lane_bits
// CHECK:         llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
// CHECK-COUNT-32: nvvm.shfl.sync idx
// CHECK-COUNT-32: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
// CHECK-NOT:     llvm.select
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
#eight = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#four = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @swap_register_and_lane_bits(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #eight}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #eight}>> -> tensor<1x512xi32, #eight>
    %b = tt.broadcast %e : tensor<1x512xi32, #eight> -> tensor<2x512xi32, #eight>
    %f = arith.sitofp %b : tensor<2x512xi32, #eight> to tensor<2x512xf32, #eight>
    %c = ttg.convert_layout %f : tensor<2x512xf32, #eight> -> tensor<2x512xf32, #four>
    %o = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #four}>>
    %oe = tt.expand_dims %o {axis = 0 : i32} : tensor<512xi32, #ttg.slice<{dim = 0, parent = #four}>> -> tensor<1x512xi32, #four>
    %ob = tt.broadcast %oe : tensor<1x512xi32, #four> -> tensor<2x512xi32, #four>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<2x512x!tt.ptr<f32>, #four>
    %pp = tt.addptr %ps, %ob : tensor<2x512x!tt.ptr<f32>, #four>, tensor<2x512xi32, #four>
    tt.store %pp, %c : tensor<2x512x!tt.ptr<f32>, #four>
    tt.return
  }
}

// -----

// The other way round (16x256 f32, 8 warps): Triton's PTX writes 16-byte vectors and
// reads with ldmatrix.x4 (sm_75 on), each 32-bit word bitcast back to f32.
// CHECK-LABEL: llvm.func @matrix_load_f32
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    %[[R:.+]] = llvm.getelementptr
// CHECK-NEXT:    %[[M:.+]] = nvvm.ldmatrix %[[R]] {layout = #nvvm.mma_layout<row>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:    %[[W:.+]] = llvm.extractvalue %[[M]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-3: llvm.extractvalue %[[M]]
// CHECK-NEXT:    llvm.bitcast %[[W]] : i32 to f32
// CHECK-COUNT-3: nvvm.ldmatrix {{.*}}
// CHECK-NOT:     !llvm.ptr<3>
// CHECK:         llvm.return
#src = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matrix_load_f32(%s: f32, %p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %x = tt.splat %s : f32 -> tensor<16x256xf32, #src>
    %c = ttg.convert_layout %x : tensor<16x256xf32, #src> -> tensor<16x256xf32, #dst>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x256x!tt.ptr<f32>, #dst>
    tt.store %ps, %c : tensor<16x256x!tt.ptr<f32>, #dst>
    tt.return
  }
}
