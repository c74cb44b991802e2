// RUN: tileopt %s -split-input-file --triton-nvidia-optimize-descriptor-encoding | FileCheck %s

// desc_matmul's loop on sm90 (Triton 3.9): A and B take the encoding of the wgmma buffers
// their loads fill; C, only stored, takes the default for its block, here the same
// 128-byte swizzle. Loads and stores see the new types.
// CHECK: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @wgmma_operands
// CHECK: tt.make_tensor_descriptor %{{.*}} : <f16>, <128x64xf16, #[[S]]>
// CHECK: tt.make_tensor_descriptor %{{.*}} : <f16>, <64x128xf16, #[[S]]>
// CHECK: tt.make_tensor_descriptor %{{.*}} : <f16>, <128x128xf16, #[[S]]>
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<128x64xf16, #[[S]]>
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<64x128xf16, #[[S]]>
// CHECK: tt.descriptor_store %{{.*}} : !tt.tensordesc<128x128xf16, #[[S]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_operands(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f16>, %m: i32, %k: i32, %s: i64, %i: i32, %acc: tensor<128x128xf32, #mma>) {
    %c1_i64 = arith.constant 1 : i64
    %da = tt.make_tensor_descriptor %a, [%m, %k], [%s, %c1_i64] : <f16>, <128x64xf16>
    %db = tt.make_tensor_descriptor %b, [%k, %m], [%s, %c1_i64] : <f16>, <64x128xf16>
    %dc = tt.make_tensor_descriptor %c, [%m, %m], [%s, %c1_i64] : <f16>, <128x128xf16>
    %x = tt.descriptor_load %da[%i, %i] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16, #blocked>
    %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %y = tt.descriptor_load %db[%i, %i] : !tt.tensordesc<64x128xf16> -> tensor<64x128xf16, #blocked1>
    %ys = ttg.local_alloc %y : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
    %d = ttng.warp_group_dot %xs, %ys, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
    %h = arith.truncf %d : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %hb = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %dc[%i, %i], %hb : !tt.tensordesc<128x128xf16>, tensor<128x128xf16, #blocked1>
    tt.return
  }
}

// -----

// Defaults (checked against Triton 3.6's own pass): the widest swizzle the contiguous
// dimension allows (64x32 f16: 64 bytes; 8x16 f16: 32 bytes), none under 8 rows (4x8 f32);
// an argument's type changes in the signature too. An encoded descriptor stays as it is.
// CHECK-DAG: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S64:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S0:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[KEPT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @defaults
// CHECK-SAME: !tt.tensordesc<8x16xf16, #[[S32]]>
// CHECK-SAME: !tt.tensordesc<64x64xf16, #[[KEPT]]>
// CHECK: tt.make_tensor_descriptor %{{.*}} : <f16>, <64x32xf16, #[[S64]]>
// CHECK: tt.make_tensor_descriptor %{{.*}} : <f32>, <4x8xf32, #[[S0]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#kept = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @defaults(%p: !tt.ptr<f16>, %q: !tt.ptr<f32>, %m: i32, %s: i64, %i: i32, %arg: !tt.tensordesc<8x16xf16>, %enc: !tt.tensordesc<64x64xf16, #kept>) {
    %c1_i64 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %c1_i64] : <f16>, <64x32xf16>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<64x32xf16> -> tensor<64x32xf16, #blocked>
    %e = tt.make_tensor_descriptor %q, [%m, %m], [%s, %c1_i64] : <f32>, <4x8xf32>
    %w = tt.descriptor_load %e[%i, %i] : !tt.tensordesc<4x8xf32> -> tensor<4x8xf32, #blocked>
    %x = tt.descriptor_load %arg[%i, %i] : !tt.tensordesc<8x16xf16> -> tensor<8x16xf16, #blocked>
    %y = tt.descriptor_load %enc[%i, %i] : !tt.tensordesc<64x64xf16, #kept> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}
