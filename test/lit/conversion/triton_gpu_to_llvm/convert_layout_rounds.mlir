// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s

// block_ptr_matmul's sm_90 epilogue (Triton 3.6): 8 KiB of f16 in a wgmma accumulator
// to a blocked layout, through the 2 KiB allocate-shared-memory sets aside (one round of
// Triton's swizzled layout). Four rounds over the columns held in registers on both
// sides (bits 16 and 32): each stores its quarter with one stmatrix.x4 (the
// accumulator's pairs are 8x8 matrices' rows), a barrier, loads it with 16-byte
// vectors, and a barrier before the next round overwrites it; none after the last.
// Triton's PTX of the kernel: 4 stmatrix.x4 and 4 ld.shared.v4.b32.
// CHECK:       module attributes {{{.*}}ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @epilogue
// CHECK-NOT:   !llvm.ptr<3> -> 
// CHECK:       nvvm.stmatrix {{.*}} {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NEXT:  nvvm.barrier0
// CHECK:       llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:       nvvm.barrier0
// CHECK:       nvvm.stmatrix
// CHECK-NEXT:  nvvm.barrier0
// CHECK:       llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:       nvvm.barrier0
// CHECK:       nvvm.stmatrix
// CHECK-NEXT:  nvvm.barrier0
// CHECK:       llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:       nvvm.barrier0
// CHECK:       nvvm.stmatrix
// CHECK-NEXT:  nvvm.barrier0
// CHECK:       llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT:   nvvm.barrier0
// CHECK-NOT:   !llvm.ptr<3>
// CHECK:       llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @epilogue(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %v = arith.constant dense<1.0> : tensor<64x64xf16, #mma>
    %c = ttg.convert_layout %v : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.store %ps, %c : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
