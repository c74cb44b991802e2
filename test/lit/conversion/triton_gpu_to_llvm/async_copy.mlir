// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// A copy loop as the pipeliner writes it (matmul_small's B operand): each thread copies
// its 8 consecutive f16 as one 16-byte cp.async.cg, whose source size is 16 or 0 by the
// mask (zero-fill); commit, wait, then the barrier the analysis puts after a wait.
// CHECK-LABEL:   llvm.func @copy_loop
// CHECK:         ^bb2:
// CHECK:         %[[SIZE:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;", "r,l,r" %{{.*}}, %{{.*}}, %[[SIZE]]
// CHECK:         %[[SIZE:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;", "r,l,r" %{{.*}}, %{{.*}}, %[[SIZE]]
// CHECK-NOT:     cp.async.cg
// CHECK:         nvvm.cp.async.commit.group
// CHECK-NEXT:    nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.barrier0
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_loop(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %col = tt.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %s, %col : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %k = arith.andi %i, %c1 : i32
      %view = ttg.memdesc_index %buf[%k] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      %in = arith.cmpi slt, %i, %n : i32
      %mask = tt.splat %in : i1 -> tensor<32x64xi1, #blocked>
      %t = ttg.async_copy_global_to_local %ptrs, %view mask %mask other %zero : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
      %w = ttg.async_wait %g {num = 0 : i32}
      %v = ttg.local_load %view token %w : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #blocked>
      tt.store %ptrs, %v : tensor<32x64x!tt.ptr<f16>, #blocked>
    }
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
    tt.return
  }
}
