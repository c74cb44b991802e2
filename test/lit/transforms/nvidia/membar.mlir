// RUN: tileopt %s -split-input-file --load-pass-plugin=%S/Inputs/membar_plugin.py --test-insert-membar | FileCheck %s

// Store then load of one buffer: read after write needs a barrier between them; a second
// load does not (reads do not conflict).

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @raw
  tt.func public @raw(%t: tensor<32x32xf32, #b>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #sh, #smem, mutable>
// CHECK: ttg.local_store
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %1 = ttg.local_load
// CHECK-NOT: nvvm.barrier0
// CHECK: %2 = ttg.local_load
    ttg.local_store %t, %a : tensor<32x32xf32, #b> -> !ttg.memdesc<32x32xf32, #sh, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<32x32xf32, #sh, #smem, mutable> -> tensor<32x32xf32, #b>
    %l2 = ttg.local_load %a : !ttg.memdesc<32x32xf32, #sh, #smem, mutable> -> tensor<32x32xf32, #b>
    tt.return
  }
}

// -----

// Two shared-memory conversions reuse the same scratch bytes: the second must wait until
// every thread has read the first's (write after read).

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @scratch_reuse
  tt.func public @scratch_reuse(%x: tensor<64x64xf32, #b>) -> (tensor<64x64xf32, #b2>, tensor<64x64xf32, #b2>) {
// CHECK-NOT: nvvm.barrier0
// CHECK: %0 = ttg.convert_layout
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %1 = ttg.convert_layout
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #b> -> tensor<64x64xf32, #b2>
    %1 = ttg.convert_layout %x : tensor<64x64xf32, #b> -> tensor<64x64xf32, #b2>
    tt.return %0, %1 : tensor<64x64xf32, #b2>, tensor<64x64xf32, #b2>
  }
}

// -----

// A reduction across warps inside a loop (as in sum_cols after convert-scf-to-cf): on the
// back edge its scratch write meets the previous iteration's read, so a barrier goes
// before it; the conversion after the loop reuses the same bytes and needs one too.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @loop
  tt.func public @loop(%x: tensor<64x128xf32, #blocked>, %n: i32) -> tensor<128xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    cf.br ^bb1(%c0, %acc : i32, tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>)
  ^bb1(%i: i32, %s: tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>):
    %cond = arith.cmpi slt, %i, %n : i32
    cf.cond_br %cond, ^bb2, ^bb3
  ^bb2:
// CHECK: ^bb2:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: "tt.reduce"
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %sum = arith.addf %p, %q : f32
      tt.reduce.return %sum : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %s2 = arith.addf %s, %r : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %i2 = arith.addi %i, %c1 : i32
    cf.br ^bb1(%i2, %s2 : i32, tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>)
  ^bb3:
// CHECK: ^bb3:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: ttg.convert_layout
    %out = ttg.convert_layout %s : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<128xf32, #blocked1>
    tt.return %out : tensor<128xf32, #blocked1>
  }
}

// -----

// A store under scf.if reaches the load after it on one path: barrier before the load.
// After ttg.async_wait a barrier always follows (other threads' copies are complete only
// once every thread has waited).

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @branches
  tt.func public @branches(%t: tensor<32x32xf32, #b>, %c: i1) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #sh, #smem, mutable>
    scf.if %c {
      ttg.local_store %t, %a : tensor<32x32xf32, #b> -> !ttg.memdesc<32x32xf32, #sh, #smem, mutable>
    }
// CHECK: scf.if
// CHECK-NOT: nvvm.barrier0
// CHECK: }
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %1 = ttg.local_load
    %l = ttg.local_load %a : !ttg.memdesc<32x32xf32, #sh, #smem, mutable> -> tensor<32x32xf32, #b>
// CHECK: ttg.async_wait
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %3 = ttg.local_load
    %w = ttg.async_wait {num = 0 : i32}
    %l2 = ttg.local_load %a : !ttg.memdesc<32x32xf32, #sh, #smem, mutable> -> tensor<32x32xf32, #b>
    tt.return
  }
}
