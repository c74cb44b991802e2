// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm=compute-capability=70 | FileCheck %s --check-prefix=SM70
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=SM90

// A tensor stored into a swizzled buffer and read back: each thread holds rows of 8
// f16, which the swizzle keeps together, so 16-byte stores, one barrier (the barrier
// analysis: the load reads what other threads wrote) and 16-byte loads.
// CHECK-LABEL:   llvm.func @round_trip
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT:     llvm.store {{.*}}!llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK-NOT:     nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT:     llvm.load {{.*}}!llvm.ptr<3>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @round_trip(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %x = tt.splat %p : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %v = tt.load %x : tensor<64x64x!tt.ptr<f16>, #blocked>
    %a = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %w = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    tt.store %x, %w : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Dot operands of matmul_small (sm80): A (K contiguous in the buffer) with 4
// ldmatrix.x4, B (N contiguous) with 4 transposing ones, as in Triton's PTX; no plain
// shared loads. local_store writes 16-byte vectors (16 f16 a thread).
// CHECK-LABEL:   llvm.func @dot_operands
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {layout = #nvvm.mma_layout<row>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {layout = #nvvm.mma_layout<col>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT:     nvvm.ldmatrix
// CHECK-NOT:     llvm.load {{.*}}!llvm.ptr<3>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_operands(%s: f16) {
    %v = tt.splat %s : f16 -> tensor<64x32xf16, #blocked>
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    ttg.local_store %v, %a : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return
  }
}

// -----

// An #mma v3 tensor into a 128-byte swizzled buffer has the shape of stmatrix.x4,
// which sm_90 has (4 per thread for 64x64); sm_80 stores 4-byte pairs; sm_70 has no
// ldmatrix either.
// CHECK-LABEL:    llvm.func @stmatrix
// CHECK-NOT:      nvvm.stmatrix
// CHECK:          llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// SM90-LABEL:     llvm.func @stmatrix
// SM90-COUNT-4:   nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32
// SM90-NOT:       llvm.store {{.*}}!llvm.ptr<3>
// SM70-LABEL:     llvm.func @stmatrix
// SM70-NOT:       nvvm.ldmatrix
// SM70:           llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<2xf16>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @stmatrix(%s: f16) {
    %v = tt.splat %s : f16 -> tensor<64x64xf16, #mma>
    %a = ttg.local_alloc %v : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %b = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>
    tt.return
  }
}

// -----

// Views carried through a loop (the prefetched dot loop's buffers): their offsets are
// block arguments, known only at run time, but they move whole 16-byte rows, so the
// K-slices still load with ldmatrix (the offsets' xor joins the row addresses).
// CHECK-LABEL:   llvm.func @carried_views
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {layout = #nvvm.mma_layout<row>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {layout = #nvvm.mma_layout<col>, num = 4 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT:     nvvm.ldmatrix
// CHECK-NOT:     llvm.load {{.*}}!llvm.ptr<3>
// CHECK:         llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried_views(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    %a0 = ttg.memdesc_index %a[%c0] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %b[%c0] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%av = %a0, %bv = %b0) -> (!ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) : i32 {
      %as = ttg.memdesc_subslice %av[0, 16] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
      %x = ttg.local_load %as : !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bs = ttg.memdesc_subslice %bv[16, 0] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 32x64>
      %y = ttg.local_load %bs : !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 32x64> -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %an = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %bn = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      scf.yield %an, %bn : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    }
    tt.return
  }
}
