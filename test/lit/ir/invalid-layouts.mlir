// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// TritonGPU layouts that do not fit the module or the tensor.
// CLEAN-NOT: {{Traceback|internal error}}

// A blocked layout over 8 warps in a 4-warp module.
// CHECK: {{.*}}invalid-layouts.mlir:11:5: error: 'tt.make_range' op blocked layout warpsPerCTA [8] has 8 warps but the module has ttg.num-warps = 4
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// A blocked layout over 64 lanes in a module of 32-thread warps.
// CHECK: {{.*}}invalid-layouts.mlir:23:5: error: 'tt.make_range' op blocked layout threadsPerWarp [64] has 64 threads but the module has ttg.threads-per-warp = 32
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// An MMA layout over 8 warps in a 4-warp module.
// CHECK: {{.*}}invalid-layouts.mlir:35:5: error: 'arith.constant' op nvidia_mma layout warpsPerCTA [4, 2] has 8 warps but the module has ttg.num-warps = 4
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    %0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// An order that is not a permutation.
// CHECK: {{.*}}invalid-layouts.mlir:44:24: error: ttg.blocked: order must be a permutation of 0..1, but was [0, 0]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
}

// -----

// Parameters of different ranks.
// CHECK: {{.*}}invalid-layouts.mlir:52:24: error: ttg.blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order must all have the same rank
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
}

// -----

// A blocked layout without warpsPerCTA.
// CHECK: {{.*}}invalid-layouts.mlir:61:46: error: #ttg.blocked: missing 'warpsPerCTA'
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<128xi32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], order = [0]}>>) {
    tt.return
  }
}

// -----

// A slice of a dimension the parent does not have.
// CHECK: {{.*}}invalid-layouts.mlir:72:44: error: ttg.slice: parent layout must have rank >= 2
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<128xi32, #ttg.slice<{dim = 2, parent = #blocked}>>) {
    tt.return
  }
}

// -----

// ttg.convert_layout cannot change the shape.
// CHECK: {{.*}}invalid-layouts.mlir:84:5: error: 'ttg.convert_layout' op ttg.convert_layout: shapes differ (128 vs 64)
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<128xi32, #blocked>) {
    %0 = ttg.convert_layout %x : tensor<128xi32, #blocked> -> tensor<64xi32, #blocked>
    tt.return
  }
}

// -----

// A rank-1 layout on a rank-2 tensor (Triton: 'Layout has rank 1, but the tensor it's attached to has rank 2').
// CHECK: {{.*}}invalid-layouts.mlir:96:5: error: 'arith.constant' op {{.*}}rank 1{{.*}}rank 2
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    %0 = arith.constant dense<0> : tensor<128x4xi32, #blocked>
    tt.return
  }
}

// -----

// A function's own ttg.num-warps overrides the module's for the layouts inside it.
// CHECK: {{.*}}invalid-layouts.mlir:108:5: error: 'tt.make_range' op blocked layout warpsPerCTA [4] has 4 warps but the function has ttg.num-warps = 8
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @function_warps() attributes {"ttg.num-warps" = 8 : i32} {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// A tensor in a shared layout: the error is at the op that uses it, as Triton's.
// CHECK: {{.*}}invalid-layouts.mlir:121:5: error: 'tt.trans' op Non-distributed layout is not allowed in tensor type. Got tensor<32x16xf32, #ttg.swizzled_shared<{{.*}}>>; a shared layout belongs to a !ttg.memdesc
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_tensor(%arg0: tensor<16x32xf32, #shared>) {
    %0 = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<16x32xf32, #shared> -> tensor<32x16xf32, #shared1>
    tt.return
  }
}
