// RUN: not tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm 2>&1 | FileCheck %s
// Layouts that parse and verify but would give a thread millions of elements: the lowering
// stops at once with an error at the op (issue 13: sizePerThread = [33554432] took minutes
// and gigabytes before).

// CHECK: {{.*}}limits.mlir:[[# @LINE + 4]]:5: error: tensor<1024xi32, #ttg.blocked<{{.*}}>> gives each thread 33554432 elements, more than the 16384 tileopt lowers (check the layout's sizePerThread)
#huge = #ttg.blocked<{sizePerThread = [33554432], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @huge(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #huge>
    tt.return
  }
}

// -----

// 4294967296 does not fit an i32 count either: the same error, not an overflow.
// CHECK: {{.*}}limits.mlir:[[# @LINE + 4]]:5: error: {{.*}} gives each thread 4294967296 elements
#wide = #ttg.blocked<{sizePerThread = [4294967296], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wide(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #wide>
    tt.return
  }
}

// -----

// A swizzle that parses but that no layout math fits (perPhase must be a power of two):
// an error at the op, not an internal error (found by the fuzzer, issue 13).
// CHECK: {{.*}}limits.mlir:[[# @LINE + 7]]:5: error: cannot lower: every element of vec/perPhase/maxPhase [8, 3, 8] must be a power of two
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 3, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @odd_phase(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %v = arith.constant dense<1.0> : tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}
