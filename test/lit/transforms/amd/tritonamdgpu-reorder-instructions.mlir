// RUN: tileopt %s -split-input-file --tritonamdgpu-reorder-instructions | FileCheck %s

// A transposition moves up to just after the op defining its operand.
// CHECK-LABEL: tt.func @transpose_moves_up
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[X]]
// CHECK-NEXT: tt.splat
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: ttg.convert_layout %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @transpose_moves_up(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %q: tensor<64x64x!tt.ptr<f32>, #blocked>, %s: i32) {
    %x = tt.load %p : tensor<64x64x!tt.ptr<f32>, #blocked>
    %o = tt.splat %s : i32 -> tensor<64x64xi32, #blocked>
    %q2 = tt.addptr %q, %o : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %c = ttg.convert_layout %t : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.store %q2, %c : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A layout conversion moves down past a dealloc before its first user.
// CHECK-LABEL: tt.func @conversion_after_dealloc
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_dealloc
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout
// CHECK-NEXT: tt.store %{{.*}}, %[[C]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @conversion_after_dealloc(%x: tensor<256xf32, #blocked>, %p: tensor<256x!tt.ptr<f32>, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked>
    ttg.local_dealloc %buf : !ttg.memdesc<256xf32, #shared, #smem, mutable>
    tt.store %p, %c : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A matmul function: the load in front of the loop rises to the top of the block with
// the mask it needs (its pointer is an argument, so nothing bounds it); in the loop the
// second global load sinks to just before the dot, behind the shared-memory reads.
// CHECK-LABEL: tt.func @matmul_schedule
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0> : tensor<128x64xi32, #blocked>
// CHECK-NEXT: %[[KS:.*]] = tt.splat %arg3
// CHECK-NEXT: %[[M:.*]] = arith.cmpi slt, %[[Z]], %[[KS]]
// CHECK-NEXT: tt.load %arg0, %[[M]]
// CHECK-NEXT: arith.constant 0 : i32
// CHECK: scf.for
// CHECK-NEXT: %[[A:.*]] = tt.load %arg0
// CHECK-NEXT: ttg.local_load %arg4
// CHECK-NEXT: ttg.local_load %arg5
// CHECK-NEXT: %[[B:.*]] = tt.load %arg1
// CHECK-NEXT: tt.dot
// CHECK-NEXT: ttg.local_store %[[A]], %arg4
// CHECK-NEXT: ttg.local_store %[[B]], %arg5
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @matmul_schedule(%pa: tensor<128x64x!tt.ptr<f16>, #blocked>, %pb: tensor<64x128x!tt.ptr<f16>, #blocked>, %n: i32, %k: i32, %bufA: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %bufB: !ttg.memdesc<64x128xf16, #shared, #smem, mutable>) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %unrelated = arith.addi %n, %c1 : i32
    %ks = tt.splat %k : i32 -> tensor<128x64xi32, #blocked>
    %z = arith.constant dense<0> : tensor<128x64xi32, #blocked>
    %m = arith.cmpi slt, %z, %ks : tensor<128x64xi32, #blocked>
    %first = tt.load %pa, %m : tensor<128x64x!tt.ptr<f16>, #blocked>
    ttg.local_store %first, %bufA : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %unrelated step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32, #mma>) : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked>
      %la = ttg.local_load %bufA : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %lb = ttg.local_load %bufB : !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %la, %lb, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<128x128xf32, #mma>
      ttg.local_store %a, %bufA : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
      ttg.local_store %b, %bufB : tensor<64x128xf16, #blocked> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    tt.return %r : tensor<128x128xf32, #mma>
  }
}

// -----

// The loads the AMD pipeliner peeled into a prologue (`amd.pipeliner_part`) move up,
// with their masks, in a function without any loop or dot too: a load of a function
// argument to the top of the block, even past an op that uses the same pointer; a load
// of a computed pointer to just after it. Buffers and unmarked loads stay. (Triton 3.6's
// output for the same input.)

// CHECK-LABEL: tt.func @prologue_loads
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: %[[C:.*]] = arith.cmpi sgt
// CHECK-NEXT: %[[M:.*]] = tt.splat %[[C]]
// CHECK-NEXT: tt.load %arg0, %[[M]] {amd.pipeliner_part = "prologue"}
// CHECK-NEXT: arith.constant dense<128>
// CHECK-NEXT: %[[P:.*]] = tt.addptr %arg0
// CHECK-NEXT: tt.load %[[P]] {amd.pipeliner_part = "prologue"}
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: tt.load %arg0 :
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @prologue_loads(%p: tensor<32x128x!tt.ptr<f16>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %off = arith.constant dense<128> : tensor<32x128xi32, #blocked>
    %q = tt.addptr %p, %off : tensor<32x128x!tt.ptr<f16>, #blocked>, tensor<32x128xi32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x32x128xf16, #shared, #smem, mutable>
    %other = tt.load %p : tensor<32x128x!tt.ptr<f16>, #blocked>
    %c = arith.cmpi sgt, %n, %c0 : i32
    %m = tt.splat %c : i1 -> tensor<32x128xi1, #blocked>
    %a = tt.load %p, %m {amd.pipeliner_part = "prologue"} : tensor<32x128x!tt.ptr<f16>, #blocked>
    %b = tt.load %q {amd.pipeliner_part = "prologue"} : tensor<32x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
