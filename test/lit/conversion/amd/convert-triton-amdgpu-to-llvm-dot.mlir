// RUN: tileopt %s -split-input-file --allocate-amdgpu-shared-memory --convert-triton-amdgpu-to-llvm | FileCheck %s

// tt.dot on AMD matrix cores (tileopt/conversion/amd/matrix.py) and dot operands from LDS.
// Fragments (CDNA3 ISA, MFMA; RDNA3 ISA, WMMA): MFMA DxDxK on a wave of 64: lane l holds
// kpl consecutive K of row l % D of A and of column l % D of B; WMMA 16x16x16 on a wave of
// 32: lane l holds all 16 K of row (column) l % 16, lanes 16-31 the same as lanes 0-15.

// MFMA 32x32x8 f16 (4 K per lane), not transposed: A (%x) is the first operand, B (%y) the
// second, then the 16 accumulators and cbsz = abid = blgp = 0. A 64x16 x 16x32 dot on one
// warp is 2 M tiles x 2 K steps: four instructions, K outermost.
// CHECK-LABEL: llvm.func @mfma_f16
// CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         %[[A1:.*]] = llvm.insertelement %arg0, %{{.*}} : vector<4xf16>
// CHECK-NEXT:    %[[A2:.*]] = llvm.insertelement %arg0, %[[A1]]
// CHECK-NEXT:    %[[A3:.*]] = llvm.insertelement %arg0, %[[A2]]
// CHECK-NEXT:    %[[A:.*]] = llvm.insertelement %arg0, %[[A3]]
// CHECK:         %[[B1:.*]] = llvm.insertelement %arg1, %{{.*}} : vector<4xf16>
// CHECK-NEXT:    %[[B2:.*]] = llvm.insertelement %arg1, %[[B1]]
// CHECK-NEXT:    %[[B3:.*]] = llvm.insertelement %arg1, %[[B2]]
// CHECK-NEXT:    %[[B:.*]] = llvm.insertelement %arg1, %[[B3]]
// CHECK-NEXT:    rocdl.mfma.f32.32x32x8f16 %[[A]], %[[B]], %{{.*}}, %[[ZERO]], %[[ZERO]], %[[ZERO]] : (vector<4xf16>, vector<4xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-COUNT-3: rocdl.mfma.f32.32x32x8f16
// CHECK-NOT:     rocdl.mfma
// CHECK:         llvm.return
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_f16(%x: f16, %y: f16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %b = tt.splat %y : f16 -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %c = tt.splat %z : f32 -> tensor<64x32xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x32xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// MFMA 16x16x16 bf16 (the 1k form: operands as i16 vectors), transposed (D^T = B^T A^T:
// B first) and kWidth 8 = two instructions per 16x32x16 tile, the second taking the lane's
// other 4 K and the first's result, the vector itself, as its accumulator. The splat
// gives both K halves the same elements: as Triton (after CSE), they are packed once.
// CHECK-LABEL: llvm.func @mfma_bf16_kpack
// CHECK:         llvm.insertelement %arg1, %{{.*}} : vector<4xbf16>
// CHECK:         %[[B0:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK:         llvm.insertelement %arg0, %{{.*}} : vector<4xbf16>
// CHECK:         %[[A0:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK-NEXT:    %[[D0:.*]] = rocdl.mfma.f32.16x16x16bf16.1k %[[B0]], %[[A0]], %{{.*}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-NEXT:    rocdl.mfma.f32.16x16x16bf16.1k %[[B0]], %[[A0]], %[[D0]],
// CHECK-NOT:     rocdl.mfma
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_bf16_kpack(%x: bf16, %y: bf16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : bf16 -> tensor<16x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    %b = tt.splat %y : bf16 -> tensor<32x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<32x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// f32 with inputPrecision = tf32 on CDNA3: the xf32 MFMA, 2 K per lane (32x32x4: 2 lane
// groups of 32).
// CHECK-LABEL: llvm.func @mfma_xf32
// CHECK:         rocdl.mfma.f32.32x32x4.xf32 %{{.*}} : (vector<2xf32>, vector<2xf32>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-NOT:     rocdl.mfma
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 4], isTransposed = false}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_xf32(%x: f32, %y: f32, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f32 -> tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = tt.splat %y : f32 -> tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = tt.splat %z : f32 -> tensor<32x32xf32, #mma>
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x4xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<4x32xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<32x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// fp8 (e4m3 fnuz) x bf8 (e5m2 fnuz), transposed: B goes first, so the intrinsic is named
// bf8 then fp8; 8 K per lane travel as one i64.
// CHECK-LABEL: llvm.func @mfma_fp8
// CHECK:         %[[B:.*]] = llvm.bitcast %{{.*}} : vector<8xi8> to i64
// CHECK:         %[[A:.*]] = llvm.bitcast %{{.*}} : vector<8xi8> to i64
// CHECK-NEXT:    rocdl.mfma.f32.16x16x32.bf8.fp8 %[[B]], %[[A]], %{{.*}} : (i64, i64, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16, 32], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_fp8(%x: f8E4M3FNUZ, %y: f8E5M2FNUZ, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f8E4M3FNUZ -> tensor<16x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
    %b = tt.splat %y : f8E5M2FNUZ -> tensor<32x16xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<32x16xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// WMMA 16x16x16 f16 into f32 (gfx1100, wave 32), transposed: B first; 16 K per lane, 8
// accumulators. 16x32 x 32x16 = two K steps, the second accumulating the first's result
// (the vector itself), with the same packed operands (the splat gives both K steps the
// same elements).
// CHECK-LABEL: llvm.func @wmma_f16
// CHECK-SAME:    nvvm.reqntid = array<i32: 32>
// CHECK:         llvm.insertelement %arg1, %{{.*}} : vector<16xf16>
// CHECK:         %[[U:.*]] = llvm.mlir.undef : vector<16xf16>
// CHECK-NEXT:    llvm.insertelement %arg0, %[[U]]
// CHECK-COUNT-14: llvm.insertelement %arg0,
// CHECK-NEXT:    %[[A:.*]] = llvm.insertelement %arg0,
// CHECK-NEXT:    %[[D0:.*]] = rocdl.wmma.f32.16x16x16.f16 %[[B:.*]], %[[A]], %{{.*}} : (vector<16xf16>, vector<16xf16>, vector<8xf32>) -> vector<8xf32>
// CHECK-NEXT:    %[[D1:.*]] = rocdl.wmma.f32.16x16x16.f16 %[[B]], %[[A]], %[[D0]]
// CHECK-NOT:     rocdl.wmma
// CHECK:         llvm.extractelement %[[D1]]
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [1, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_f16(%x: f16, %y: f16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    %b = tt.splat %y : f16 -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Operand A from LDS on gfx942, through amdg.in_thread_transpose and ttg.local_store into
// buffer 0 of a 2x32x8 f16 allocation (1024 bytes) in #swizzled_shared vec 4, maxPhase 2:
// element (r, c) at byte 16r + 2(c ^ 4(r & 1)).
// - The #blocked source gives lane l row l >> 1, columns 4(l & 1) + 0..3 in registers 0..3;
//   the #linear result holds columns 0, 2, 1, 3 in registers 0..3, so the transpose renames
//   registers 1 and 2 and the store puts the loads back in column order: one 8-byte
//   vector at 16(l >> 1) + 8((l & 1) ^ ((l >> 1) & 1)) = (l << 3) ^ ((l & 2) << 2).
// - local_load into the dot operand (MFMA 32x32x8, kWidth 4): lane l reads row l & 31,
//   K 4(l >> 5) + 0..3: one 8-byte ds_read at 16(l & 31) ^ 8(((l & 32) >> 5) ^ (l & 1)).
//   (COL is l & 1 of the global load's column, the lane's first l & 1.)
// - The transposed MFMA takes B (%y) first, the loaded A second; s.setprio and
//   sched.barrier go through where they stand.
// CHECK-LABEL: llvm.func @mfma_from_lds
// CHECK-DAG:     %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG:     %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG:     %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG:     %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG:     %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG:     %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG:     %[[C63:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK-DAG:     %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK-DAG:     %[[L:.*]] = llvm.and %[[TID]], %[[C63]] : i32
// CHECK-DAG:     %[[COL:.*]] = llvm.and %[[L]], %[[C1]] : i32
// CHECK-DAG:     %[[S1:.*]] = llvm.and %[[L]], %[[C2]] : i32
// CHECK-DAG:     %[[S2:.*]] = llvm.shl %[[S1]], %[[C2]] : i32
// CHECK-DAG:     %[[S3:.*]] = llvm.shl %[[L]], %[[C3]] : i32
// CHECK-DAG:     %[[ST:.*]] = llvm.xor %[[S2]], %[[S3]] : i32
// CHECK-DAG:     %[[R1:.*]] = llvm.and %[[L]], %[[C32]] : i32
// CHECK-DAG:     %[[R2:.*]] = llvm.lshr %[[R1]], %[[C2]] : i32
// CHECK-DAG:     %[[R3:.*]] = llvm.and %[[L]], %[[C1]] : i32
// CHECK-DAG:     %[[R4:.*]] = llvm.shl %[[R3]], %[[C3]] : i32
// CHECK-DAG:     %[[R5:.*]] = llvm.xor %[[R2]], %[[R4]] : i32
// CHECK-DAG:     %[[R6:.*]] = llvm.and %[[L]], %[[C31]] : i32
// CHECK-DAG:     %[[R7:.*]] = llvm.shl %[[R6]], %[[C4]] : i32
// CHECK-DAG:     %[[LD:.*]] = llvm.xor %[[R5]], %[[R7]] : i32
// CHECK:         %[[G0:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %[[G1:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %[[G2:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %[[G3:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %[[SP:.*]] = llvm.getelementptr %{{.*}}[%[[ST]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.mlir.undef : vector<4xf16>
// CHECK-NEXT:    %[[V0:.*]] = llvm.insertelement %[[G0]], %{{.*}}[%{{.*}} : i32]
// CHECK-NEXT:    %[[V1:.*]] = llvm.insertelement %[[G1]], %[[V0]]
// CHECK-NEXT:    %[[V2:.*]] = llvm.insertelement %[[G2]], %[[V1]]
// CHECK-NEXT:    %[[V3:.*]] = llvm.insertelement %[[G3]], %[[V2]]
// CHECK-NEXT:    llvm.store %[[V3]], %[[SP]] {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
// CHECK-NEXT:    rocdl.barrier
// CHECK-NEXT:    %[[LP:.*]] = llvm.getelementptr %{{.*}}[%[[LD]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[A:.*]] = llvm.load %[[LP]] {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xf16>
// CHECK-COUNT-3: llvm.extractelement %[[A]]
// CHECK-NEXT:    %[[E3:.*]] = llvm.extractelement %[[A]]
// CHECK-NOT:     llvm.load
// CHECK:         rocdl.s.setprio 1
// CHECK:         llvm.insertelement %arg1
// CHECK:         %[[AV:.*]] = llvm.insertelement %[[E3]], %{{.*}} : vector<4xf16>
// CHECK-NEXT:    %[[D:.*]] = rocdl.mfma.f32.32x32x8f16 %{{.*}}, %[[AV]], %{{.*}}
// CHECK-COUNT-16: llvm.extractelement %[[D]]
// CHECK-NEXT:    rocdl.s.setprio 0
// CHECK-NEXT:    rocdl.sched.barrier 0
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 2], [0, 1]], lane = [[0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = true}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_from_lds(%ap: !tt.ptr<f16>, %y: f16, %z: f32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x8xi32, #blocked>
    %rb = tt.broadcast %re : tensor<1x8xi32, #blocked> -> tensor<32x8xi32, #blocked>
    %aps = tt.splat %ap : !tt.ptr<f16> -> tensor<32x8x!tt.ptr<f16>, #blocked>
    %pa = tt.addptr %aps, %rb : tensor<32x8x!tt.ptr<f16>, #blocked>, tensor<32x8xi32, #blocked>
    %a = tt.load %pa : tensor<32x8x!tt.ptr<f16>, #blocked>
    %b = tt.splat %y : f16 -> tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %c = tt.splat %z : f32 -> tensor<32x32xf32, #mma>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x8xf16, #shared, #smem, mutable>
    %view = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x32x8xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x8xf16, #shared, #smem, mutable>
    %t = amdg.in_thread_transpose %a : tensor<32x8xf16, #blocked> -> tensor<32x8xf16, #linear>
    ttg.local_store %t, %view : tensor<32x8xf16, #linear> -> !ttg.memdesc<32x8xf16, #shared, #smem, mutable>
    %ad = ttg.local_load %view : !ttg.memdesc<32x8xf16, #shared, #smem, mutable> -> tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    rocdl.s.setprio 1
    %d = tt.dot %ad, %b, %c : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<32x32xf32, #mma>
    rocdl.s.setprio 0
    rocdl.sched.barrier 0
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x8xf16, #shared, #smem, mutable>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<32x32x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Operand A of a WMMA from LDS (gfx1100): a 16x16 f16 buffer (512 bytes) in
// #swizzled_shared vec 8, maxPhase 2: element (r, c) at byte 32r + 2(c ^ 8(r & 1)). Lane
// l reads all of row l & 15 (lanes 16-31 the same rows): two 16-byte reads, at
// 32(l & 15) ^ 16(l & 1) and 16 bytes xor that; their 16 halves, in order, are the
// WMMA's second operand (transposed: B first).
// CHECK-LABEL: llvm.func @wmma_from_lds
// CHECK-DAG:     %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG:     %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG:     %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG:     %[[C15:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-DAG:     %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:     %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG:     %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK-DAG:     %[[L:.*]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK-DAG:     %[[R1:.*]] = llvm.and %[[L]], %[[C1]] : i32
// CHECK-DAG:     %[[R2:.*]] = llvm.shl %[[R1]], %[[C4]] : i32
// CHECK-DAG:     %[[R3:.*]] = llvm.and %[[L]], %[[C15]] : i32
// CHECK-DAG:     %[[R4:.*]] = llvm.shl %[[R3]], %[[C5]] : i32
// CHECK-DAG:     %[[LD:.*]] = llvm.xor %[[R2]], %[[R4]] : i32
// CHECK:         llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT:    rocdl.barrier
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[LD]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[LO:.*]] = llvm.load %[[P0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: llvm.extractelement %[[LO]]
// CHECK-NEXT:    %[[O1:.*]] = llvm.xor %[[LD]], %[[C16]] : i32
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %{{.*}}[%[[O1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[HI:.*]] = llvm.load %[[P1]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-7: llvm.extractelement %[[HI]]
// CHECK-NEXT:    %[[H7:.*]] = llvm.extractelement %[[HI]]
// CHECK-NOT:     llvm.load
// CHECK:         %[[AV:.*]] = llvm.insertelement %[[H7]], %{{.*}} : vector<16xf16>
// CHECK-NEXT:    rocdl.wmma.f32.16x16x16.f16 %{{.*}}, %[[AV]], %{{.*}}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [1, 1]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_from_lds(%x: f16, %y: f16, %z: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f16 -> tensor<16x16xf16, #blocked>
    %buf = ttg.local_alloc %a : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
    %ad = ttg.local_load %buf : !ttg.memdesc<16x16xf16, #shared, #smem> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    %b = tt.splat %y : f16 -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %c = tt.splat %z : f32 -> tensor<16x16xf32, #mma>
    %d = tt.dot %ad, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<16x16xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The FMA dot (a #blocked result: no matrix core), operands from LDS. Each lane of the
// 8x8 lanes holds a 2x2 block of the 16x16 result, so 2 rows of A and 2 columns of B at
// each of the 4 K: A is stored M-fastest (order [0, 1]) and B N-fastest, so each K is one
// 8-byte read of A and one of B; then 2 x 2 x 4 = 16 fmuladds, K outermost: the first K
// step starts from the zero accumulator.
// CHECK-LABEL: llvm.func @fma_dot
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK-NOT:     llvm.load
// CHECK:         %[[D0:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[ZERO:.*]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:    llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK-NEXT:    llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK-NEXT:    llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK-NEXT:    llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[D0]])
// CHECK-COUNT-11: llvm.intr.fmuladd
// CHECK-NOT:     llvm.intr.fmuladd
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @fma_dot(%x: f32, %y: f32, %out: !tt.ptr<f32>) {
    %a = tt.splat %x : f32 -> tensor<16x4xf32, #blocked>
    %b = tt.splat %y : f32 -> tensor<4x16xf32, #blocked>
    %sa = ttg.local_alloc %a : (tensor<16x4xf32, #blocked>) -> !ttg.memdesc<16x4xf32, #shared, #smem>
    %sb = ttg.local_alloc %b : (tensor<4x16xf32, #blocked>) -> !ttg.memdesc<4x16xf32, #shared1, #smem>
    %ad = ttg.local_load %sa : !ttg.memdesc<16x4xf32, #shared, #smem> -> tensor<16x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.local_load %sb : !ttg.memdesc<4x16xf32, #shared1, #smem> -> tensor<4x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %c = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked>
    %d = tt.dot %ad, %bd, %c : tensor<16x4xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<4x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #blocked>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// WMMA into f16 (not transposed: A first): the 8 accumulator items live in the low halves
// of 8 words (opsel 0), i.e. at the even indices of the 16-half vector, zero between.
// CHECK-LABEL: llvm.func @wmma_f16_acc
// CHECK-DAG:     %[[HZ:.*]] = llvm.mlir.constant(0.000000e+00 : f16) : f16
// CHECK-DAG:     %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:     %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG:     %[[I2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG:     %[[OPSEL:.*]] = llvm.mlir.constant(false) : i1
// CHECK:         %[[C0:.*]] = llvm.insertelement %arg2, %{{.*}}[%[[I0]] : i32] : vector<16xf16>
// CHECK-NEXT:    %[[C1:.*]] = llvm.insertelement %[[HZ]], %[[C0]][%[[I1]] : i32] : vector<16xf16>
// CHECK-NEXT:    llvm.insertelement %arg2, %[[C1]][%[[I2]] : i32] : vector<16xf16>
// CHECK-COUNT-15: llvm.insertelement %arg0,
// CHECK-NEXT:    %[[A:.*]] = llvm.insertelement %arg0,
// CHECK:         %[[D:.*]] = rocdl.wmma.f16.16x16x16.f16 %[[A]], %{{.*}}, %{{.*}}, %[[OPSEL]] : (vector<16xf16>, vector<16xf16>, vector<16xf16>, i1) -> vector<16xf16>
// CHECK-NEXT:    llvm.extractelement %[[D]][%[[I0]] : i32] : vector<16xf16>
// CHECK-NEXT:    llvm.extractelement %[[D]][%[[I2]] : i32] : vector<16xf16>
// CHECK-COUNT-6: llvm.extractelement %[[D]]
// CHECK-NOT:     llvm.extractelement %[[D]]
#mma = #ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [1, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_f16_acc(%x: f16, %y: f16, %z: f16, %out: !tt.ptr<f16>) {
    %a = tt.splat %x : f16 -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    %b = tt.splat %y : f16 -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %c = tt.splat %z : f16 -> tensor<16x16xf16, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<16x16xf16, #mma>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<f16>, #mma>
    tt.return
  }
}

// -----

// WMMA i8 into i32: 16 bytes a lane as 4 words, both operands signed, no clamp.
// CHECK-LABEL: llvm.func @wmma_i8
// CHECK-DAG:     %[[T:.*]] = llvm.mlir.constant(true) : i1
// CHECK-DAG:     %[[F:.*]] = llvm.mlir.constant(false) : i1
// CHECK:         %[[A:.*]] = llvm.bitcast %{{.*}} : vector<16xi8> to vector<4xi32>
// CHECK:         %[[B:.*]] = llvm.bitcast %{{.*}} : vector<16xi8> to vector<4xi32>
// CHECK-NEXT:    rocdl.wmma.i32.16x16x16.iu8 %[[T]], %[[A]], %[[T]], %[[B]], %{{.*}}, %[[F]] : (i1, vector<4xi32>, i1, vector<4xi32>, vector<8xi32>, i1) -> vector<8xi32>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [1, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_i8(%x: i8, %y: i8, %z: i32, %out: !tt.ptr<i32>) {
    %a = tt.splat %x : i8 -> tensor<16x16xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>>
    %b = tt.splat %y : i8 -> tensor<16x16xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %c = tt.splat %z : i32 -> tensor<16x16xi32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x16xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 16}>> * tensor<16x16xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>> -> tensor<16x16xi32, #mma>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<16x16x!tt.ptr<i32>, #mma>
    tt.store %p, %d : tensor<16x16x!tt.ptr<i32>, #mma>
    tt.return
  }
}
