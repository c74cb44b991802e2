// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm="compute-capability=90" | FileCheck %s

// sm90 matmul's dot (corpus matmul.ttgir): 2 warp groups, each 4 wgmma m64n128k16 over
// K = 64. The descriptor constants are Triton's (corpus matmul.llir): A K-major 128-byte
// swizzle, SBO 1024 (4611686293305294848), +32 bytes per k16; B N-major, LBO 8192,
// SBO 1024 (4611686293338849280), +2048 bytes per k16. Warp group 1 reads A 8192 bytes
// further ((warp >> 2) << 12 elements). The wait ties all 64 accumulators and both
// memdescs (pointer and two offsets each).
// CHECK-LABEL: llvm.func @corpus_matmul_dot
// CHECK-DAG:     llvm.mlir.constant(4611686293305294848) : i64
// CHECK-DAG:     llvm.mlir.constant(4611686293305294854) : i64
// CHECK-DAG:     llvm.mlir.constant(4611686293338849280) : i64
// CHECK-DAG:     llvm.mlir.constant(4611686293338849664) : i64
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         %[[WG:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.shl %[[WG]], %{{.*}} : i32
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{.*}}}, $128, $129, $130, 1, 1, 0, 1;", "=f,{{.*}},l,l,b"
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         "// wait for regs: $0,{{.*}},$69\0A\09wgmma.wait_group.sync.aligned 1;", "=f,{{.*}},=f,=l,=r,=r,=l,=r,=r,0,{{.*}},69"
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @corpus_matmul_dot(%pc: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %c = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
    %w:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 1 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %ps = tt.splat %pc : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #mma>
    tt.store %ps, %w#0 : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// block_ptr_matmul's operands (corpus): A M-major (transposed) with a 128-byte swizzle,
// B K-major with a 64-byte one: imm-trans-a 1, imm-trans-b 0. Not async: the dot waits
// for itself (0 pending). bf16 on a 64x32x16 dot (A K-major with a 32-byte swizzle, B N-major): one m64n32k16.
// CHECK-LABEL: llvm.func @transposed_operands
// CHECK-DAG:     llvm.mlir.constant(4611686293305294848) : i64
// CHECK-DAG:     llvm.mlir.constant(4611686293305294976) : i64
// CHECK-DAG:     llvm.mlir.constant(-9223371899415822336) : i64
// CHECK-DAG:     llvm.mlir.constant(-9223371899415822334) : i64
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, $64, $65, $66, 1, 1, 1, 0;"
// CHECK:         wgmma.wait_group.sync.aligned 0;
// CHECK:         wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{{.*}}}, $32, $33, $34, 1, 1, 0, 1;"
// CHECK:         wgmma.wait_group.sync.aligned 0;
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma32 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#sk = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#sn = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed_operands(%pc: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #sa, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #sb, #smem, mutable>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #sa, #smem, mutable> * !ttg.memdesc<32x64xf16, #sb, #smem, mutable> -> tensor<64x64xf32, #mma>
    %ps = tt.splat %pc : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    %a2 = ttg.local_alloc : () -> !ttg.memdesc<64x16xbf16, #sk, #smem, mutable>
    %b2 = ttg.local_alloc : () -> !ttg.memdesc<16x32xbf16, #sn, #smem, mutable>
    %c2 = arith.constant dense<0.0> : tensor<64x32xf32, #mma32>
    %d2 = ttng.warp_group_dot %a2, %b2, %c2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x16xbf16, #sk, #smem, mutable> * !ttg.memdesc<16x32xbf16, #sn, #smem, mutable> -> tensor<64x32xf32, #mma32>
    %ps2 = tt.splat %pc : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma32>
    tt.store %ps2, %d2 : tensor<64x32x!tt.ptr<f32>, #mma32>
    tt.return
  }
}

// -----

// A chained dot's second product: A from registers (dot_op of the v3 accumulator, as
// attention's P), B from shared memory. Each k16 step packs 4 b32 registers of A; no
// imm-trans-a; B N-major (imm-trans-b 1).
// CHECK-LABEL: llvm.func @a_in_registers
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, {$64,$65,$66,$67}, $68, $69, 1, 1, 1;", "=f,{{.*}},r,r,r,r,l,b"
// CHECK-NOT:     wgmma.mma_async
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @a_in_registers(%x: f16, %pc: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #sb, #smem, mutable>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #sb, #smem, mutable> -> tensor<64x64xf32, #mma>
    %ps = tt.splat %pc : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Inductor's mm template with 8 warps on a 64x64 tile (gemm_autotune
// triton_tem_fused_add_mm_relu_0): the two warp groups split N (warpsPerCTA [4, 2]), so
// group 1 reads B 32 columns (64 bytes) further into the 128-byte swizzle atom, and the
// operands are a stage of a 3-stage buffer picked by a loop index. The k16 steps add 32
// bytes to A and 2048 to B; the group's 64 bytes and the stage's multiple of 8192 bytes set
// no bit of them, so all three add. Descriptor constants as Triton's LLVM IR of the
// template: A 4611686293305294848 + 0/2/4/6, B + 0/128/256/384; the warp id read at the
// dot through shfl.sync.idx from lane 0, as there.
// CHECK-LABEL: llvm.func @groups_split_n
// CHECK-DAG:     llvm.mlir.constant(4611686293305294848) : i64
// CHECK-DAG:     llvm.mlir.constant(4611686293305294854) : i64
// CHECK-DAG:     llvm.mlir.constant(4611686293305295232) : i64
// CHECK:         %[[W:.*]] = nvvm.shfl.sync idx
// CHECK-NEXT:    %[[WG:.*]] = llvm.lshr %[[W]], %{{.*}} : i32
// CHECK-NEXT:    %[[COL:.*]] = llvm.shl %[[WG]], %{{.*}} : i32
// CHECK-NEXT:    llvm.ptrtoint
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mul %[[COL]], %{{.*}} : i32
// CHECK-NEXT:    llvm.add %{{.*}}, %[[OFF]] : i32
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{{.*}}}, $32, $33, $34, 1, 1, 0, 1;"
// CHECK-NOT:     wgmma.mma_async
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @groups_split_n(%stage: i32, %pc: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
    %as = ttg.memdesc_index %a[%stage] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bs = ttg.memdesc_index %b[%stage] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    %ps = tt.splat %pc : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
