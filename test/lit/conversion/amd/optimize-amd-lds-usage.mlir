// RUN: tileopt %s -split-input-file --optimize-amd-lds-usage=target-arch=gfx942 -verify-diagnostics | FileCheck %s
// RUN: tileopt %s -split-input-file --optimize-amd-lds-usage=target-arch=gfx1100 -verify-diagnostics | FileCheck %s
// RUN: tileopt %s -split-input-file --optimize-amd-lds-usage="target-arch=gfx942 lds-limit=32768" -verify-diagnostics | FileCheck %s --check-prefix=LIMIT32K
// RUN: tileopt %s -split-input-file --optimize-amd-lds-usage=target-arch=gfx942 --allocate-amdgpu-shared-memory | FileCheck %s --check-prefix=ALLOC
// RUN: not tileopt %s -split-input-file --optimize-amd-lds-usage 2>&1 | FileCheck %s --check-prefix=NOARCH
// RUN: not tileopt %s -split-input-file --optimize-amd-lds-usage=target-arch=gfx90a 2>&1 | FileCheck %s --check-prefix=BADARCH

// Both gfx942 and gfx1100 give a workgroup 64 KiB of LDS; lds-limit overrides it, and
// without either the pass cannot know the limit.
// NOARCH: optimize-amd-lds-usage.mlir:{{[0-9]+}}:1: error: missing gfx* target for pass optimize-amd-lds-usage
// BADARCH: error: unknown AMD architecture 'gfx90a'

// A 64 KiB conversion while an 8 KiB buffer is live: 72 KiB, past gfx942's 64 KiB. It
// becomes two conversions through an MFMA layout with the warps along the other dimension.
// CHECK-LABEL: tt.func public @over_the_limit
// CHECK:         %[[A:.*]] = ttg.local_alloc %arg0
// CHECK-NEXT:    %[[T:.*]] = ttg.convert_layout %arg1 : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #[[TMP:mma[0-9]*]]>
// CHECK-NEXT:    %[[D:.*]] = ttg.convert_layout %[[T]] : tensor<128x128xf32, #[[TMP]]> -> tensor<128x128xf32, #[[DST:mma[0-9]*]]>
// CHECK-NEXT:    ttg.local_load %[[A]]
// CHECK-NEXT:    tt.return %[[D]]
// LIMIT32K-LABEL: tt.func public @over_the_limit
// LIMIT32K-COUNT-2: ttg.convert_layout
// The allocator, which had 72 KiB to place, now fits in 64 KiB (at most 65536 bytes):
// ALLOC: ttg.shared = {{([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-6])}} : i32
// ALLOC-SAME: "ttg.threads-per-warp" = 64
// ALLOC: tt.func public @over_the_limit
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = false}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @over_the_limit(%arg0: tensor<64x64xf16, #blocked>, %arg1: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #mma> {
    %0 = ttg.local_alloc %arg0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %1 = ttg.convert_layout %arg1 : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #mma>
    %2 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    tt.return %1 : tensor<128x128xf32, #mma>
  }
}

// -----

// 16 KiB of conversion and 8 KiB of buffer fit both limits: nothing changes.
// CHECK-LABEL: tt.func public @fits
// CHECK-COUNT-1: ttg.convert_layout
// CHECK-NOT:     ttg.convert_layout
// LIMIT32K-LABEL: tt.func public @fits
// LIMIT32K-COUNT-1: ttg.convert_layout
// LIMIT32K-NOT:     ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = false}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @fits(%arg0: tensor<64x64xf16, #blocked>, %arg1: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #mma> {
    %0 = ttg.local_alloc %arg0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %1 = ttg.convert_layout %arg1 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %2 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    tt.return %1 : tensor<64x64xf32, #mma>
  }
}

// -----

// 32 KiB of conversion beside a 16 KiB buffer: 48 KiB fits gfx942, not a 32 KiB limit.
// CHECK-LABEL: tt.func public @over_a_custom_limit
// CHECK-COUNT-1: ttg.convert_layout
// CHECK-NOT:     ttg.convert_layout
// LIMIT32K-LABEL: tt.func public @over_a_custom_limit
// LIMIT32K:         ttg.convert_layout %arg1 : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #[[TMP:[a-z]+[0-9]*]]>
// LIMIT32K-NEXT:    ttg.convert_layout %{{.*}} : tensor<128x64xf32, #[[TMP]]> -> tensor<128x64xf32, #mma
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = false}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @over_a_custom_limit(%arg0: tensor<128x64xf16, #blocked>, %arg1: tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #mma> {
    %0 = ttg.local_alloc %arg0 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %1 = ttg.convert_layout %arg1 : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
    %2 = ttg.local_load %0 : !ttg.memdesc<128x64xf16, #shared, #smem> -> tensor<128x64xf16, #blocked>
    tt.return %1 : tensor<128x64xf32, #mma>
  }
}

// -----

// A 64 KiB buffer live across the conversion leaves it no room at all: nothing changes.
// CHECK-LABEL: tt.func public @no_room
// CHECK-COUNT-1: ttg.convert_layout
// CHECK-NOT:     ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = false}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @no_room(%arg0: tensor<128x128xf32, #blocked>, %arg1: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #mma> {
    %0 = ttg.local_alloc %arg0 : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #shared, #smem>
    %1 = ttg.convert_layout %arg1 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %2 = ttg.local_load %0 : !ttg.memdesc<128x128xf32, #shared, #smem> -> tensor<128x128xf32, #blocked>
    tt.return %1 : tensor<64x64xf32, #mma>
  }
}

// -----

// A 1-D conversion out of a sliced MFMA layout: the slice keeps its parent's warps, the
// fallback layout puts the whole wave along the one dimension.
// CHECK-LABEL: tt.func public @one_dimension
// CHECK:         ttg.local_alloc
// CHECK-NEXT:    ttg.convert_layout
// CHECK-NEXT:    ttg.local_load
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @one_dimension(%arg0: tensor<128xf32, #ttg.slice<{dim = 0, parent = #mma}>>, %arg1: tensor<128x128xf32, #mma>) {
    %0 = ttg.local_alloc %arg1 : (tensor<128x128xf32, #mma>) -> !ttg.memdesc<128x128xf32, #shared, #smem>
    %1 = ttg.convert_layout %arg0 : tensor<128xf32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<128xf32, #blocked>
    %2 = ttg.local_load %0 : !ttg.memdesc<128x128xf32, #shared, #smem> -> tensor<128x128xf32, #mma>
    tt.return
  }
}
