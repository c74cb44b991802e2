// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 | FileCheck %s --check-prefix=ALLOC

// A device function (private tt.func, noinline) takes one parameter per argument, as
// Triton's (the tensor: a struct of its 2 registers), keeps the scalars' tt.divisibility,
// and takes last the shared memory its frame starts at; two results come back as a struct
// of the same forms (Triton 3.6's signature, which also appends the kernel's two scratch
// pointers). The callee reduces across 4 warps (16 bytes: one partial per warp, at
// offset 0 of its frame); the call owns that frame as a virtual buffer (offset 0 here) and
// passes @global_smem plus that offset.
// ALLOC: ttg.shared = 16 : i32
// ALLOC: tt.call @helper(%{{.*}}) {allocation.offset = 0 : i32}
// CHECK-LABEL: llvm.func @caller
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK:         %[[X:.*]] = llvm.insertvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK:         %[[R:.*]] = llvm.call @helper(%[[X]], %{{.*}}, %[[SMEM]]) : (!llvm.struct<(f32, f32)>, i32, !llvm.ptr<3>) -> !llvm.struct<([[Y:(!llvm.)?struct<\(f32, f32\)>]], f32)>
// CHECK:         %[[Y0:.*]] = llvm.extractvalue %[[R]][0] : !llvm.struct<([[Y]], f32)>
// CHECK:         llvm.extractvalue %[[R]][1] : !llvm.struct<([[Y]], f32)>
// CHECK:         llvm.extractvalue %[[Y0]][0] : !llvm.struct<(f32, f32)>
// CHECK-LABEL: llvm.func internal @helper
// CHECK-SAME:    (%[[A:.*]]: !llvm.struct<(f32, f32)>, %arg1: i32 {tt.divisibility = 16 : i32}, %[[FRAME:.*]]: !llvm.ptr<3>) -> !llvm.struct<([[Y]], f32)>
// CHECK-SAME:    noinline = true
// CHECK:         llvm.extractvalue %[[A]][0] : !llvm.struct<(f32, f32)>
// CHECK:         llvm.getelementptr %[[FRAME]]
// CHECK:         llvm.insertvalue
// CHECK:         llvm.return %{{.*}} : !llvm.struct<([[Y]], f32)>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @caller(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
    %x = tt.load %pp : tensor<256x!tt.ptr<f32>, #b>
    %y:2 = tt.call @helper(%x, %n) : (tensor<256xf32, #b>, i32) -> (tensor<256xf32, #b>, f32)
    tt.store %pp, %y#0 : tensor<256x!tt.ptr<f32>, #b>
    tt.store %p, %y#1 : !tt.ptr<f32>
    tt.return
  }
  tt.func private @helper(%x: tensor<256xf32, #b>, %n: i32 {tt.divisibility = 16 : i32}) -> (tensor<256xf32, #b>, f32) attributes {noinline = true} {
    %s = tt.splat %n : i32 -> tensor<256xi32, #b>
    %f = arith.sitofp %s : tensor<256xi32, #b> to tensor<256xf32, #b>
    %y = arith.mulf %x, %f : tensor<256xf32, #b>
    %t = "tt.reduce"(%y) <{axis = 0 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tt.reduce.return %w : f32
    }) : (tensor<256xf32, #b>) -> f32
    tt.return %y, %t : tensor<256xf32, #b>, f32
  }
}
