// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s -canonicalize -cse | FileCheck %s --check-prefix=KEEP
// AMD ops at TritonGPU level (buffer ops after tritonamdgpu-convert-buffer-ops, the
// in-thread transpose, ping-pong priorities and scheduling barriers).

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[1, 0], [0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @buffers
  tt.func @buffers(%base: !tt.ptr<f32>, %out: !tt.ptr<f32>, %off: tensor<1024xi32, #blocked>,
                   %m: tensor<1024xi1, #blocked>, %o: tensor<1024xf32, #blocked>,
                   %t: tensor<64x128xf16, #blocked1>) {
    // CHECK: %[[X:.*]] = amdg.buffer_load %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} : tensor<1024xf32, #blocked>
    %x = amdg.buffer_load %base[%off], %m, %o : tensor<1024xf32, #blocked>
    // CHECK: amdg.buffer_store %[[X]], %{{.*}}[%{{.*}}], %{{.*}} : tensor<1024xf32, #blocked>
    amdg.buffer_store %x, %out[%off], %m : tensor<1024xf32, #blocked>
    // CHECK: rocdl.s.setprio 1
    rocdl.s.setprio 1
    // CHECK: rocdl.sched.barrier 0
    rocdl.sched.barrier 0
    // CHECK: amdg.in_thread_transpose %{{.*}} : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #linear>
    %y = amdg.in_thread_transpose %t : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #linear>
    // CHECK: rocdl.s.setprio 0
    rocdl.s.setprio 0
    // CHECK: amdg.instruction_sched_hint {variant = #amdg.SchedHintVariant<attention>}
    // The hint has an effect: clean-up passes keep it.
    // KEEP: amdg.instruction_sched_hint
    amdg.instruction_sched_hint {variant = #amdg.SchedHintVariant<attention>}
    // Waits on direct-to-LDS instructions, with and without tokens (as Triton 3.6
    // prints them); they synchronise: clean-up passes keep them.
    // CHECK: %[[W:.*]] = amdg.async_wait {num_inst = 0 : i32}
    // CHECK: amdg.async_wait %[[W]], %[[W]] {num_inst = 2 : i32}
    // KEEP: amdg.async_wait {num_inst = 0 : i32}
    // KEEP: amdg.async_wait
    %w = amdg.async_wait {num_inst = 0 : i32}
    %w2 = amdg.async_wait %w, %w {num_inst = 2 : i32}
    tt.return
  }
}
