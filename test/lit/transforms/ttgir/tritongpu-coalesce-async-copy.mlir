// RUN: tileopt %s -split-input-file --tritongpu-coalesce-async-copy | FileCheck %s

// Each thread holds 8 f16 along dim 1, but the buffer is column-major (order [0, 1]): no
// two of them are neighbours in shared memory, so each copy moves one element. The
// pointers and the mask get one element per thread along dim 1 (32 lanes, then 2 warps
// along it); the copy's reads are coalesced again.

// CHECK: #[[CLIP:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func @column_major_buffer
// CHECK: %[[P:.+]] = ttg.convert_layout %{{.+}} : tensor<64x64x!tt.ptr<f16>, #{{.+}}> -> tensor<64x64x!tt.ptr<f16>, #[[CLIP]]>
// CHECK: %[[M:.+]] = ttg.convert_layout %{{.+}} : tensor<64x64xi1, #{{.+}}> -> tensor<64x64xi1, #[[CLIP]]>
// CHECK: ttg.async_copy_global_to_local %[[P]], %{{.+}} mask %[[M]] : tensor<64x64x!tt.ptr<f16>, #[[CLIP]]>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @column_major_buffer(%p: tensor<64x64x!tt.ptr<f16>, #b>, %m: tensor<64x64xi1, #b>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf mask %m : tensor<64x64x!tt.ptr<f16>, #b> -> <64x64xf16, #s, #smem, mutable>
    tt.return
  }
}

// -----

// A row-major buffer keeps the 8 elements together (one 16-byte copy): nothing changes.

// CHECK-LABEL: tt.func @row_major_buffer
// CHECK-NOT: ttg.convert_layout
// CHECK: ttg.async_copy_global_to_local %arg0, %{{.+}} : tensor<64x64x!tt.ptr<f16>, #blocked>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_major_buffer(%arg0: tensor<64x64x!tt.ptr<f16>, #b>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %arg0, %buf : tensor<64x64x!tt.ptr<f16>, #b> -> <64x64xf16, #s, #smem, mutable>
    tt.return
  }
}
