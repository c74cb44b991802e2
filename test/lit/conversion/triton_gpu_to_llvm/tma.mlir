// RUN: tileopt %s --tritongpu-global-scratch-memory-allocation --allocate-shared-memory-nv="compute-capability=90" --convert-triton-gpu-to-llvm="compute-capability=90" | FileCheck %s

// A device-side descriptor, a TMA load on an mbarrier and a TMA store (the ops of 3.9's
// sm90 desc_matmul; the PTX instructions are those of its .llir). The second global
// scratch allocation starts at 128 (64 bytes before it, aligned to 128): this program's
// scratch is the next-to-last parameter + linear program id * 256 + 128 (the first one's
// address is unused, and the lowering drops unused address arithmetic). Warp 0 zeroes
// the 128-byte tensormap in shared memory, thread 0 writes its fields (rank 2 -> 0x1,
// boxes 64 x 64, sizes innermost first, the outer byte stride, element type f16 (6),
// 128-byte swizzle (3)) and warp 0 copies it out. The 64x128 block is two 64-column
// boxes: the second 64 * 64 * 2 = 8192 bytes further in shared memory, at column + 64.
// CHECK-LABEL: llvm.func @descriptor_copies
// CHECK-SAME: (%[[BASE:.+]]: !llvm.ptr<1>, %[[ROWS:.+]]: i32, %[[COLS:.+]]: i32, %[[STRIDE:.+]]: i64, %[[SCRATCH:.+]]: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>)
// CHECK-DAG: %[[C256:.+]] = llvm.mlir.constant(256 : i32) : i32
// CHECK-DAG: %[[C128:.+]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-DAG: %[[C8192:.+]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK-DAG: %[[C64:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK-NOT: llvm.getelementptr %[[SCRATCH]]
// CHECK: %[[PROG:.+]] = llvm.mul %{{.+}}, %[[C256]] : i32
// CHECK-NEXT: %[[START:.+]] = llvm.add %[[PROG]], %[[C128]] : i32
// CHECK-NEXT: %[[DESC:.+]] = llvm.getelementptr %[[SCRATCH]][%[[START]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK: "@$2 st.shared::cta.b32 [ $0 + 0 ], $1;", "r,r,b"
// CHECK: nvvm.bar.warp.sync
// CHECK: llvm.cond_br
// CHECK: tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ $0 + 0 ], $1;", "l,l" %{{.+}}, %[[BASE]]
// CHECK-NEXT: tensormap.replace.tile.rank.shared::cta.b1024.b32 [ $0 + 0 ], 0x1;"
// CHECK-NEXT: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x0, $1;", "l,r" %{{.+}}, %[[C64]]
// CHECK-NEXT: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x1, $1;", "l,r" %{{.+}}, %[[C64]]
// CHECK-NEXT: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x0, $1;", "l,r" %{{.+}}, %[[COLS]]
// CHECK-NEXT: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x1, $1;", "l,r" %{{.+}}, %[[ROWS]]
// CHECK-NEXT: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [ $0 + 0 ], 0x0, $1;", "l,l" %{{.+}}, %[[STRIDE]]
// CHECK-NEXT: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [ $0 + 0 ], 0x0, $1;"
// CHECK-NEXT: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [ $0 + 0 ], 0x1, $1;"
// CHECK-NEXT: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [ $0 + 0 ], 0x6;"
// CHECK-NEXT: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [ $0 + 0 ], 0x3;"
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: "@$2 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ $0 + 0 ], [ $1 + 0 ], 0x80;", "l,l,b" %[[DESC]]
// CHECK: "@$1 fence.proxy.tensormap::generic.acquire.gpu [ $0 + 0 ], 0x80;{{.*}}cp.async.bulk.wait_group.read 0 ;", "l,b,b,b" %[[DESC]]
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[GENERIC:.+]] = llvm.addrspacecast %[[DESC]] : !llvm.ptr<1> to !llvm.ptr<0>
// CHECK: "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r" %{{.+}}, %[[BAR:[^ ]+]] :
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 16384;", "b,r" %{{.+}}, %[[BAR]] :
// CHECK: %[[BOX1:.+]] = llvm.getelementptr %{{.+}}[%[[C8192]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[COL1:.+]] = llvm.add %[[COLS]], %[[C64]] : i32
// CHECK-NEXT: "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r" %[[P:.+]], %{{.+}}, %[[GENERIC]], %[[COLS]], %[[ROWS]], %[[BAR]] :
// CHECK-NEXT: "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r" %[[P]], %[[BOX1]], %[[GENERIC]], %[[COL1]], %[[ROWS]], %[[BAR]] :
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;{{.*}}", "r,r" %[[BAR]],
// CHECK: "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r" %{{.+}}, %[[BAR]] :
// CHECK: nvvm.barrier0
// CHECK: "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];", "b,l,r,r,r" %{{.+}}, %[[GENERIC]], %[[COLS]], %[[ROWS]],
// CHECK-NEXT: "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];", "b,l,r,r,r" %{{.+}}, %[[GENERIC]], %{{.+}}, %[[ROWS]],
// CHECK-NEXT: "@$0 cp.async.bulk.commit_group;"
// CHECK: "@$0 cp.async.bulk.wait_group.read 0;"
// CHECK-NEXT: nvvm.barrier0
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_copies(%base: !tt.ptr<f16>, %rows: i32, %cols: i32, %stride: i64) {
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %pad = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 64 : i32} : !tt.ptr<i8>
    %scratch = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %scratch, %base, [%c64, %c64], [%cols, %rows], [%stride], [%c1, %c1] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %scratch : !tt.ptr<i8>
    %desc = ttng.reinterpret_tensor_descriptor %scratch : !tt.ptr<i8> to !tt.tensordesc<tensor<64x128xf16, #shared>>
    %bars = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bars, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %true = arith.constant true
    ttng.barrier_expect %bars, 16384, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%rows, %cols] %buf, %bars, %true : !tt.tensordesc<tensor<64x128xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %c0 = arith.constant 0 : i32
    ttng.wait_barrier %bars, %c0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.inval_barrier %bars : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.fence_async_shared {bCluster = false}
    ttng.async_tma_copy_local_to_global %desc[%rows, %cols] %buf : !tt.tensordesc<tensor<64x128xf16, #shared>>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}
