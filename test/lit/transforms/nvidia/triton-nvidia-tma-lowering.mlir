// RUN: tileopt %s -split-input-file --verify-diagnostics --triton-nvidia-tma-lowering | FileCheck %s

// desc_matmul's C descriptor (Triton 3.9, sm90): 128 bytes of global scratch filled by
// tensormap_create, innermost dimension first (box [64, 128]: a 128-byte swizzled box holds
// 64 f16 across; sizes [N, M]; the row stride in bytes), published and reinterpreted; the
// store goes through shared memory and a TMA store. Unused stride constants go away, the
// element size constant is made at the start of the function.
// CHECK-LABEL: tt.func @store_block
// CHECK-SAME: (%[[C:.*]]: !tt.ptr<f16>, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[V:.*]]: tensor<128x128xf16, #{{.*}}>, %[[I:.*]]: i32, %[[J:.*]]: i32)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NOT: arith.constant 1 : i64
// CHECK: %[[S:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT: %[[P:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[SB:.*]] = arith.muli %[[S]], %[[C2]] : i64
// CHECK-NEXT: ttng.tensormap_create %[[P]], %[[C]], [%[[C64]], %[[C128]]], [%[[N]], %[[M]]], [%[[SB]]], [%[[C1]], %[[C1]]] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[P]] : !tt.ptr<i8>
// CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[P]] : !tt.ptr<i8> to !tt.tensordesc<128x128xf16, #shared>
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc %[[V]] : (tensor<128x128xf16, #{{.*}}>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[D]][%[[I]], %[[J]]] %[[BUF]] : !tt.tensordesc<128x128xf16, #shared>, !ttg.memdesc<128x128xf16, #shared, #smem>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK-NOT: tt.descriptor_store
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_block(%c: !tt.ptr<f16>, %m: i32, %n: i32, %v: tensor<128x128xf16, #blocked>, %i: i32, %j: i32) {
    %c1_i64 = arith.constant 1 : i64
    %s = arith.extsi %n : i32 to i64
    %d = tt.make_tensor_descriptor %c, [%m, %n], [%s, %c1_i64] : <f16>, <128x128xf16, #shared>
    tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<128x128xf16, #shared>, tensor<128x128xf16, #blocked>
    tt.return
  }
}

// -----

// A 64-byte swizzle spans 16 f32: the box is [16, 32]; NaN padding asks TMA for NaN fill
// (fill_mode 1); f32 is element type 7. Descriptors used only by TMA copies the pipeliner
// made are just reinterpreted.
// CHECK-LABEL: tt.func @nan_f32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: ttng.tensormap_create %{{.*}}, %{{.*}}, [%[[C16]], %[[C32]]], [%{{.*}}, %{{.*}}], [%{{.*}}], [%{{.*}}, %{{.*}}] {elem_type = 7 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 2 : i32}
// CHECK: %[[D:.*]] = ttng.reinterpret_tensor_descriptor
// CHECK: ttng.async_tma_copy_global_to_local %[[D]]
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nan_f32(%p: !tt.ptr<f32>, %m: i32, %k: i32, %s: i64, %i: i32) {
    %c1_i64 = arith.constant 1 : i64
    %true = arith.constant true
    %d = tt.make_tensor_descriptor %p, [%m, %k], [%s, %c1_i64] {padding = 2 : i32} : <f32>, <32x32xf32, #shared>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %true : !tt.tensordesc<32x32xf32, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Without an NVMMA shared encoding there is no TMA layout to write: an error at the op.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_encoding(%p: !tt.ptr<f16>, %m: i32, %s: i64) {
    %c1_i64 = arith.constant 1 : i64
    // expected-error @+1 {{the descriptor has no NVMMA shared encoding}}
    %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %c1_i64] : <f16>, <64x64xf16>
    tt.return
  }
}

// -----

// A descriptor load the pipeliner did not turn into TMA copies is not lowered yet.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @plain_load(%d: !tt.tensordesc<64x64xf16, #shared>, %i: i32) -> tensor<64x64xf16, #blocked> {
    // expected-error @+1 {{a tt.descriptor_load outside a pipelined loop is not lowered yet}}
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
    tt.return %v : tensor<64x64xf16, #blocked>
  }
}
