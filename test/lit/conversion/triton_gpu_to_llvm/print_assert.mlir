// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// tt.print: one vprintf per element a thread holds (2 here), with the program ids, the
// element's index, the prefix and the value (f32 widened to double) packed in a buffer
// in the entry block; the format string is shared by the elements.
// CHECK-DAG:   llvm.mlir.global internal constant @[[FMT:printfFormat_[0-9]+]]("pid (%u, %u, %u) idx (%2u)%s%f\0A\00")
// CHECK-DAG:   llvm.mlir.global internal constant @[[PREFIX:printfPrefix_[0-9]+]](" x: \00")
// CHECK-DAG:   llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @print_tensor
// CHECK-DAG:     %[[BUF:.*]] = llvm.alloca %{{.*}} x i64 {alignment = 8 : i64} : (i32) -> !llvm.ptr
// CHECK-DAG:     %[[F:.*]] = llvm.mlir.addressof @[[FMT]] : !llvm.ptr
// CHECK:         llvm.fpext %{{.*}} : f32 to f64
// CHECK:         llvm.call @vprintf(%[[F]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK:         llvm.fpext %{{.*}} : f32 to f64
// CHECK:         llvm.call @vprintf(%[[F]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT:     llvm.call @vprintf
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @print_tensor(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    %x = tt.load %pp : tensor<64x!tt.ptr<f32>, #blocked>
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<64xf32, #blocked>
    tt.return
  }
}

// -----

// tt.assert: if any element a thread holds is false, __assertfail(message, file, line,
// function, 1), with the op's source position; then every thread waits at a barrier
// (Triton 3.6's convert-triton-gpu-to-llvm output has nvvm.barrier0 there).
// CHECK-DAG:   llvm.mlir.global internal constant @[[MSG:assertMessage_[0-9]+]]("out of range\00")
// CHECK-DAG:   llvm.mlir.global internal constant @[[FILE:assertFile_[0-9]+]]("kernels.py\00")
// CHECK-DAG:   llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func @check
// CHECK-DAG:     %[[LINE:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK:         %[[B0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
// CHECK:         %[[B1:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
// CHECK:         %[[ANY:.*]] = llvm.or %[[B0]], %[[B1]] : i1
// CHECK:         llvm.cond_br %[[ANY]], ^[[FAIL:.*]], ^[[OK:.*]]
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
// CHECK-NEXT:    llvm.br ^[[OK]]
// CHECK:       ^[[OK]]:
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    llvm.return
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @check(%n: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<64xi32, #blocked>
    %ok = arith.cmpi slt, %r, %ns : tensor<64xi32, #blocked>
    tt.assert %ok, "out of range" : tensor<64xi1, #blocked> loc("kernels.py":7:4)
    tt.return
  }
}
