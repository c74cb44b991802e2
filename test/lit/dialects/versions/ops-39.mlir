// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s | tileopt | FileCheck %s
// Ops first seen in Triton 3.9's output (desc_matmul on sm90, membar's barriers), as
// the 3.9 corpus prints them.

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  // CHECK-LABEL: tt.func public @tma
  tt.func public @tma(%a_ptr: !tt.ptr<f16>, %K: i32, %M: i32, %i: i32, %pred: i1,
                      %buf: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>,
                      %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>) {
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c2_i64 = arith.constant 2 : i64
    // CHECK: %[[P:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    %p = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    // CHECK: ttng.tensormap_create %[[P]], %{{.+}}, [%{{.+}}, %{{.+}}], [%{{.+}}, %{{.+}}], [%{{.+}}], [%{{.+}}, %{{.+}}] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_create %p, %a_ptr, [%c64_i32, %c128_i32], [%K, %M], [%c2_i64], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    // CHECK: ttng.tensormap_fenceproxy_acquire %[[P]] : !tt.ptr<i8>
    ttng.tensormap_fenceproxy_acquire %p : !tt.ptr<i8>
    // CHECK: %[[D:.+]] = ttng.reinterpret_tensor_descriptor %[[P]] : !tt.ptr<i8> to !tt.tensordesc<128x64xf16, #shared>
    %d = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<128x64xf16, #shared>
    // CHECK: ttng.async_tma_copy_global_to_local %[[D]][%{{.+}}, %{{.+}}] %{{.+}}, %{{.+}}, %{{.+}} : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %pred : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.barrier local
    ttg.barrier local
    // CHECK: ttng.async_tma_copy_local_to_global %[[D]][%{{.+}}, %{{.+}}] %{{.+}} : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.async_tma_store_wait {pendings = 0 : i32}
    // CHECK: ttg.barrier local|global_read|global_write
    ttg.barrier global_write|local|global_read
    // CHECK: ttg.barrier all
    ttg.barrier local|global_read|global_write|tensor_read|tensor_write
    tt.return
  }
}
