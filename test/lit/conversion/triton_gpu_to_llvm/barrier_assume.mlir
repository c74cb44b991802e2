// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | tileopt-translate --emit=llvm-ir | FileCheck %s --check-prefix=LLIR

// gpu.barrier is the target's block barrier; llvm.intr.assume stays on the lowered
// condition, and becomes a call of @llvm.assume.
// CHECK-LABEL: llvm.func @barrier_and_assume
// CHECK:         %[[C:.*]] = llvm.icmp "sgt" %arg1, %{{.*}} : i32
// CHECK-NEXT:    llvm.intr.assume %[[C]] : i1
// CHECK:         st.global.b32
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
// LLIR-LABEL: define ptx_kernel void @barrier_and_assume
// LLIR:         call void @llvm.assume(i1 %{{.*}})
// LLIR:         call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @barrier_and_assume(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: i32) {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.cmpi sgt, %arg1, %c0_i32 : i32
    llvm.intr.assume %0 : i1
    tt.store %arg0, %arg1 : !tt.ptr<i32>
    gpu.barrier
    tt.return
  }
}
