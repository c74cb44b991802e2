// RUN: tileopt %s --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s --convert-triton-gpu-to-llvm | tileopt-translate --emit=llvm-ir | FileCheck %s --check-prefix=LLIR
// RUN: tileopt %s --convert-triton-amdgpu-to-llvm=arch=gfx942 | FileCheck %s --check-prefix=AMD

// ttg.barrier (Triton 3.9's membar writes `ttg.barrier local`) is the target's block
// barrier, as gpu.barrier is, and the lowering's own barrier analysis adds none beside it.
// CHECK-LABEL: llvm.func @ttg_barrier
// CHECK:         st.global.b32
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
// LLIR-LABEL: define ptx_kernel void @ttg_barrier
// LLIR:         call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// AMD-LABEL: llvm.func @ttg_barrier
// AMD:         rocdl.barrier
// AMD-NOT:     rocdl.barrier
// AMD:         llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ttg_barrier(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: i32) {
    tt.store %arg0, %arg1 : !tt.ptr<i32>
    ttg.barrier local
    tt.return
  }
}
