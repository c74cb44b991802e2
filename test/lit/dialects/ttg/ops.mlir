// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s | tileopt | FileCheck %s
// TritonGPU ops keep Triton's custom assembly through a parse/print round trip.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @pipeline
  tt.func @pipeline(%ptrs: tensor<32x64x!tt.ptr<f16>, #blocked>, %mask: tensor<32x64xi1, #blocked>,
                    %other: tensor<32x64xf16, #blocked>, %i: i32) -> tensor<32x64xf16, #blocked1> {
    // CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    // CHECK: %[[SLOT:.*]] = ttg.memdesc_index %[[BUF]][%{{.*}}] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %slot = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    // CHECK: %[[CP:.*]] = ttg.async_copy_global_to_local %{{.*}}, %[[SLOT]] mask %{{.*}} other %{{.*}} {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %cp = ttg.async_copy_global_to_local %ptrs, %slot mask %mask other %other {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    // Triton's DefaultValuedAttrs holding their default (contiguity 1, isVolatile false)
    // are left out of the text, as Triton 3.6 prints them.
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[SLOT]] : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    %cp1 = ttg.async_copy_global_to_local %ptrs, %slot {contiguity = 1 : i32, isVolatile = false} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
    // CHECK: %[[GRP:.*]] = ttg.async_commit_group tokens %[[CP]]
    %grp = ttg.async_commit_group tokens %cp
    // CHECK: %[[W:.*]] = ttg.async_wait %[[GRP]] {num = 0 : i32}
    %w = ttg.async_wait %grp {num = 0 : i32}
    // CHECK: ttg.local_load %[[SLOT]] token %[[W]] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %a = ttg.local_load %slot token %w : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    // CHECK: ttg.local_store %{{.*}}, %[[SLOT]] : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    ttg.local_store %other, %slot : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    %init = ttg.local_alloc %other {allocation.offset = 0 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    // CHECK: ttg.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %t = ttg.memdesc_trans %init {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared, #smem>
    // CHECK: ttg.memdesc_subslice %[[SLOT]][0, 32] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 32x64>
    %s = ttg.memdesc_subslice %slot[0, 32] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 32x64>
    // CHECK: ttg.local_dealloc %[[BUF]] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.convert_layout %{{.*}} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    %c = ttg.convert_layout %other : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
    tt.return %c : tensor<32x64xf16, #blocked1>
  }
}
