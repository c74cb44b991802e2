// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// A memdesc is its frame's base address and one i32 offset per dim; a token is an i32.
// Loops carry both as block arguments. Buffer %idx of a 2x128x64xf16 allocation starts
// %idx * 16384 bytes in; a subslice only adds to its offsets (a store through the view
// uses them: the lowering drops address arithmetic nothing uses).
// CHECK-LABEL: llvm.func @loop_carried
// CHECK-DAG:     %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:     %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-DAG:     %[[BUF:.*]] = llvm.mlir.constant(16384 : i32) : i32
// CHECK-DAG:     %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK:         nvvm.cp.async.commit.group
// CHECK:         llvm.br ^bb1(%[[C0]], %[[C0]], %[[C0]], %[[SMEM]], %[[C0]], %[[C0]], %[[C0]] : i32, i32, i32, !llvm.ptr<3>, i32, i32, i32)
// CHECK:       ^bb1(%{{.*}}: i32, %[[IDX:.*]]: i32, %{{.*}}: i32, %[[BASE:.*]]: !llvm.ptr<3>, %[[O0:.*]]: i32, %[[O1:.*]]: i32, %[[O2:.*]]: i32):
// CHECK:         %[[I:.*]] = llvm.add %[[IDX]], %[[O0]] : i32
// CHECK:         %[[BYTES:.*]] = llvm.mul %[[I]], %[[BUF]] : i32
// CHECK:         llvm.getelementptr %[[BASE]][%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         llvm.add %[[O2]], %[[C32]] : i32
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         llvm.br ^bb1(%{{.*}}, %{{.*}}, %[[C0]], %[[BASE]], %[[O0]], %[[O1]], %[[O2]] :
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop_carried(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_commit_group
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%idx = %c0, %t = %t0, %v = %a) -> (i32, !ttg.async.token, !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>) : i32 {
      %b = ttg.memdesc_index %v[%idx] : !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      %s = ttg.memdesc_subslice %b[0, 32] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable, 128x64>
      %w = ttg.async_wait %t {num = 0 : i32}
      %z = arith.constant dense<0.000000e+00> : tensor<128x32xf16, #bl>
      ttg.local_store %z, %s : tensor<128x32xf16, #bl> -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable, 128x64>
      %n2 = arith.xori %idx, %c1 : i32
      scf.yield %n2, %w, %v : i32, !ttg.async.token, !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
    }
    ttg.local_dealloc %a : !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Two buffers live at once; local_dealloc emits no code, and views of constant index
// no more than a constant address, which nothing here uses (the lowering drops unused
// address arithmetic).
// CHECK-LABEL: llvm.func @two_buffers
// CHECK-NOT:     llvm.getelementptr
// CHECK:         llvm.return
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_buffers() {
    %c0 = arith.constant 0 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
    %a0 = ttg.memdesc_index %a[%c0] : !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %b[%c0] : !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %t = ttg.memdesc_trans %b0 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}


// -----

// memdesc_reshape of a whole buffer: the same bytes under the new shape (row-major), so
// the view keeps the buffer's address and a load through it reads the buffer's elements
// in order: 4-element (16-byte) vectors from the reshaped 1-D view.
// CHECK-LABEL: llvm.func @reshape_view
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#one_d = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_view(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<16x32xf32, #rows, #smem, mutable>
    %r = ttg.memdesc_reshape %a : !ttg.memdesc<16x32xf32, #rows, #smem, mutable> -> !ttg.memdesc<512xf32, #flat, #smem, mutable>
    %v = ttg.local_load %r : !ttg.memdesc<512xf32, #flat, #smem, mutable> -> tensor<512xf32, #one_d>
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #one_d>
    tt.store %ptrs, %v : tensor<512x!tt.ptr<f32>, #one_d>
    tt.return
  }
}
