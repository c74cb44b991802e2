// RUN: tileopt %s -split-input-file --tritongpu-reorder-instructions | FileCheck %s

// A transpose moves right after the op computing its operand.

// CHECK-LABEL: tt.func @transpose_after_def
// CHECK: %[[X:.+]] = tt.load
// CHECK-NEXT: tt.trans %[[X]]
// CHECK: arith.addf
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transpose_after_def(%p: tensor<64x64x!tt.ptr<f32>, #a>, %y: tensor<64x64xf32, #a>) -> (tensor<64x64xf32, #a>, tensor<64x64xf32, #t>) {
    %x = tt.load %p : tensor<64x64x!tt.ptr<f32>, #a>
    %s = arith.addf %y, %y : tensor<64x64xf32, #a>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf32, #a> -> tensor<64x64xf32, #t>
    tt.return %s, %t : tensor<64x64xf32, #a>, tensor<64x64xf32, #t>
  }
}

// -----

// A conversion sinks below the shared-memory deallocations that come before its first use
// (so it can reuse that memory), and a local_alloc of a loaded value moves up to the load.

// CHECK-LABEL: tt.func @sink_and_hoist
// CHECK: %[[X:.+]] = tt.load
// CHECK-NEXT: ttg.local_alloc %[[X]]
// CHECK: ttg.local_dealloc
// CHECK-NEXT: ttg.convert_layout
// CHECK-NEXT: tt.return
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sink_and_hoist(%p: tensor<1024x!tt.ptr<f32>, #a>, %m: !ttg.memdesc<1024xf32, #s, #smem, mutable>) -> tensor<1024xf32, #b> {
    %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #a>
    %c = ttg.convert_layout %x : tensor<1024xf32, #a> -> tensor<1024xf32, #b>
    %y = math.exp %x : tensor<1024xf32, #a>
    %buf = ttg.local_alloc %x : (tensor<1024xf32, #a>) -> !ttg.memdesc<1024xf32, #s, #smem>
    ttg.local_dealloc %m : !ttg.memdesc<1024xf32, #s, #smem, mutable>
    tt.return %c : tensor<1024xf32, #b>
  }
}
