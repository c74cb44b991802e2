// An op the lowering cannot handle is reported at the op (issue 12, item 8):
// file:line:col of its loc(...) when it has one (as MLIR reports it), else where the
// parser read it, not the input file alone.
// RUN: not tileopt %s -split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm=compute-capability=80 2>&1 | FileCheck %s

// No location: the position the op was read at.
// CHECK: lowering-errors.mlir:[[# @LINE + 6]]:5: error: no lowering to LLVM for 'amdg.buffer_load'
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_location(%p: !tt.ptr<f32>) {
    %offs = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %out = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %x = amdg.buffer_load %p[%offs] : tensor<1024xf32, #blocked>
    tt.store %out, %x : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A loc(...): its file:line:col (the callee's, for an inlined op).
// CHECK: kernels.py:7:3: error: no lowering to LLVM for 'amdg.buffer_load'
#loc = loc("kernels.py":7:3)
#loc1 = loc("helpers.py":30:8)
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @with_location(%p: !tt.ptr<f32>) {
    %offs = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %out = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %x = amdg.buffer_load %p[%offs] : tensor<1024xf32, #blocked> loc(callsite(#loc at #loc1))
    tt.store %out, %x : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
