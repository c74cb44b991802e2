// RUN: tileopt %s -split-input-file --allocate-amdgpu-shared-memory --triton-amdgpu-membar | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-amdgpu-shared-memory --triton-amdgpu-membar --convert-triton-amdgpu-to-llvm=arch=gfx942 | FileCheck %s --check-prefix=LLVM
// Triton 3.9's AMD membar as a pass: ttg.barrier local where shared-memory accesses conflict;
// the lowering turns it into the CTA barrier and adds none beside it.

// Store then load of one buffer: read after write needs a barrier between them; a second
// load does not (reads do not conflict).
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func public @raw
  // CHECK: ttg.local_store
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NOT: ttg.barrier
  // CHECK: ttg.local_load
  // LLVM-LABEL: llvm.func @raw
  // LLVM: rocdl.barrier
  // LLVM-NOT: rocdl.barrier
  // LLVM: llvm.return
  tt.func public @raw(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %q = tt.addptr %s, %r : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %t = tt.load %q : tensor<1024x!tt.ptr<f32>, #b>
    %a = ttg.local_alloc : () -> !ttg.memdesc<1024xf32, #sh, #smem, mutable>
    ttg.local_store %t, %a : tensor<1024xf32, #b> -> !ttg.memdesc<1024xf32, #sh, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<1024xf32, #sh, #smem, mutable> -> tensor<1024xf32, #b>
    %l2 = ttg.local_load %a : !ttg.memdesc<1024xf32, #sh, #smem, mutable> -> tensor<1024xf32, #b>
    %x = arith.addf %l, %l2 : tensor<1024xf32, #b>
    tt.store %q, %x : tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Nothing shared: no barrier.
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func public @none
  // CHECK-NOT: ttg.barrier
  // CHECK: tt.return
  // LLVM-LABEL: llvm.func @none
  // LLVM-NOT: rocdl.barrier
  // LLVM: llvm.return
  tt.func public @none(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %q = tt.addptr %s, %r : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %x = tt.load %q : tensor<1024x!tt.ptr<f32>, #b>
    tt.store %q, %x : tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }
}
