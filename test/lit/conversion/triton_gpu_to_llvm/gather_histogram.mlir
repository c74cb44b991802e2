// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 | FileCheck %s --check-prefix=ALLOC

// histogram: 16 bins zeroed by the first 16 threads, a barrier, one shared atomic add per
// element a thread holds (2) to bin x & 31 (Triton's low bits over max(16 bins, 32
// lanes)); bins 16..31 add 0 to bin 0; a barrier, each thread reads its result's bin. Scratch: the 16 counters (Triton's rule
// gives max(16 bins, 32 lanes) x 4 bytes = 128).
// ALLOC: ttg.shared = 128 : i32
// CHECK-LABEL: llvm.func @histogram
// CHECK:         %[[MASK:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK:         %[[FIRST:.*]] = llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK:         st.shared.b32
// CHECK:         nvvm.barrier0
// CHECK:         %[[LOW:.*]] = llvm.and %{{.*}}, %[[MASK]] : i32
// CHECK:         llvm.icmp "ult" %[[LOW]], %{{.*}} : i32
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK-NOT:     llvm.atomicrmw
// CHECK:         nvvm.barrier0
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> i32
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @histogram(%x_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %x = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b2>
    %x_0 = tt.splat %x_ptr : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #b2>
    %x_1 = tt.addptr %x_0, %x : tensor<256x!tt.ptr<i32>, #b2>, tensor<256xi32, #b2>
    %x_2 = tt.load %x_1 : tensor<256x!tt.ptr<i32>, #b2>
    %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #b1>
    %1 = tt.splat %y_ptr : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>, #b1>
    %2 = tt.addptr %1, %0 : tensor<16x!tt.ptr<i32>, #b1>, tensor<16xi32, #b1>
    %3 = tt.histogram %x_2 : tensor<256xi32, #b2> -> tensor<16xi32, #b1>
    tt.store %2, %3 : tensor<16x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// gather along axis 0 of 128 f32 over 4 warps: the source goes to shared memory (128 x 4
// bytes; the lowering's scratch rule asks that even of a warp-local gather, where
// Triton's gives 0), a barrier, and each thread reads src[idx] for its register.
// ALLOC: ttg.shared = 512 : i32
// CHECK-LABEL: llvm.func @gather_rows
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         %[[AT:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK:         llvm.load %[[AT]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_rows(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %idx_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %xp = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %x = tt.load %xp : tensor<128x!tt.ptr<f32>, #b>
    %is = tt.splat %idx_ptr : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %ip = tt.addptr %is, %r : tensor<128x!tt.ptr<i32>, #b>, tensor<128xi32, #b>
    %idx = tt.load %ip : tensor<128x!tt.ptr<i32>, #b>
    %g = tt.gather %x[%idx] {axis = 0 : i32} : (tensor<128xf32, #b>, tensor<128xi32, #b>) -> tensor<128xf32, #b>
    tt.store %xp, %g : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}
