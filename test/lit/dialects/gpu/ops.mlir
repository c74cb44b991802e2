// RUN: tileopt %s -split-input-file | FileCheck %s
// RUN: tileopt %s -split-input-file --canonicalize --cse --symbol-dce | FileCheck %s --check-prefix=KEPT

// gpu.barrier (tl.debug_barrier) and llvm.intr.assume (tl.assume) as Triton 3.6's frontend
// prints them. Neither has a result; both must survive canonicalize, cse and dce.
// CHECK-LABEL: tt.func public @barrier_and_assume
// CHECK:         %[[C:.*]] = arith.cmpi sgt, %arg1, %c0_i32 : i32
// CHECK-NEXT:    llvm.intr.assume %[[C]] : i1
// CHECK:         gpu.barrier
// CHECK-NEXT:    tt.return
// KEPT-LABEL: tt.func public @barrier_and_assume
// KEPT:         llvm.intr.assume
// KEPT:         gpu.barrier
module {
  tt.func public @barrier_and_assume(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.cmpi sgt, %arg1, %c0_i32 : i32
    llvm.intr.assume %0 : i1
    tt.store %arg0, %c0_i32 : !tt.ptr<i32>
    gpu.barrier
    tt.return
  }
}

