// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --triton-nvidia-gpu-membar=compute-capability=90 | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --triton-nvidia-gpu-membar=compute-capability=90 --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=LLVM
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --triton-nvidia-gpu-membar=compute-capability=90 --triton-version=3.9 | FileCheck %s --check-prefix=V39
// Triton 3.9's membar as a pass: ttg.barrier local where shared-memory accesses conflict;
// the lowering turns it into the CTA barrier and adds none beside it.

// Store then load of one buffer: read after write needs a barrier between them; a second
// load does not (reads do not conflict).
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @raw
  // CHECK: ttg.local_store
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // CHECK-NOT: ttg.barrier
  // CHECK: ttg.local_load
  // LLVM-LABEL: llvm.func @raw
  // LLVM: nvvm.barrier0
  // LLVM-NOT: nvvm.barrier0
  // LLVM: llvm.return
  tt.func public @raw(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %q = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %t = tt.load %q : tensor<512x!tt.ptr<f32>, #b>
    %a = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #sh, #smem, mutable>
    ttg.local_store %t, %a : tensor<512xf32, #b> -> !ttg.memdesc<512xf32, #sh, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<512xf32, #sh, #smem, mutable> -> tensor<512xf32, #b>
    %l2 = ttg.local_load %a : !ttg.memdesc<512xf32, #sh, #smem, mutable> -> tensor<512xf32, #b>
    %x = arith.addf %l, %l2 : tensor<512xf32, #b>
    tt.store %q, %x : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Nothing shared: no barrier.
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @none
  // CHECK-NOT: ttg.barrier
  // CHECK: tt.return
  // LLVM-LABEL: llvm.func @none
  // LLVM-NOT: nvvm.barrier0
  // LLVM: llvm.return
  tt.func public @none(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %q = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %x = tt.load %q : tensor<512x!tt.ptr<f32>, #b>
    tt.store %q, %x : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Async waits in a row (the prefetched dot loop waits once per operand): 3.9 puts the one
// barrier after the last, before the first read; 3.6's rule puts one after each.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @waits_in_a_row
  // CHECK: ttg.async_wait
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.async_wait
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.local_load
  // V39-LABEL: tt.func public @waits_in_a_row
  // V39: ttg.async_wait
  // V39-NEXT: ttg.async_wait
  // V39-NEXT: ttg.barrier local
  // V39-NEXT: ttg.local_load
  tt.func public @waits_in_a_row(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b>
    %q = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #b>, tensor<512xi32, #b>
    %a = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #sh, #smem, mutable>
    %t = ttg.async_copy_global_to_local %q, %a : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #sh, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w1 = ttg.async_wait %g {num = 0 : i32}
    %w2 = ttg.async_wait %g {num = 0 : i32}
    %l = ttg.local_load %a token %w2 : !ttg.memdesc<512xf32, #sh, #smem, mutable> -> tensor<512xf32, #b>
    tt.store %q, %l : tensor<512x!tt.ptr<f32>, #b>
    tt.return
  }
}
