// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// Triton ops whose operands do not fit together.
// CLEAN-NOT: {{Traceback|internal error}}

// tt.dot: the K dimensions of A and B differ.
// CHECK: {{.*}}invalid-tt.mlir:9:3: error: 'tt.dot' op K dimensions differ: A is 16x32 but B is 16x32
tt.func @dot(%a: tensor<16x32xf16>, %b: tensor<16x32xf16>, %c: tensor<16x32xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x32xf16> -> tensor<16x32xf32>
  tt.return
}

// -----

// tt.dot: the accumulator does not have the shape of A x B.
// CHECK: {{.*}}invalid-tt.mlir:18:3: error: 'tt.dot' op accumulator C is 16x16 but A x B is 16x8
tt.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

// tt.addptr: pointers and offsets of different shapes.
// CHECK: {{.*}}invalid-tt.mlir:27:3: error: 'tt.addptr' op requires the same shape for all operands and results, got tensor<128x!tt.ptr<f32>>, tensor<64xi32>, tensor<128x!tt.ptr<f32>>
tt.func @addptr(%p: tensor<128x!tt.ptr<f32>>, %o: tensor<64xi32>) {
  %0 = tt.addptr %p, %o : tensor<128x!tt.ptr<f32>>, tensor<64xi32>
  tt.return
}

// -----

// tt.addptr: a float offset.
// CHECK: {{.*}}invalid-tt.mlir:36:3: error: 'tt.addptr' op offset must be an integer or a tensor of integers, got f32
tt.func @addptr_float(%p: !tt.ptr<f32>, %o: f32) {
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, f32
  tt.return
}

// -----

// tt.broadcast: a dimension that is not 1 cannot grow.
// CHECK: {{.*}}invalid-tt.mlir:45:3: error: 'tt.broadcast' op different dimensions at index 0 between source (4) and result (8); broadcast requires the source dimension to be 1
tt.func @broadcast(%x: tensor<4x1xi32>) {
  %0 = tt.broadcast %x : tensor<4x1xi32> -> tensor<8x8xi32>
  tt.return
}

// -----

// tt.broadcast: ranks differ.
// CHECK: {{.*}}invalid-tt.mlir:54:3: error: 'tt.broadcast' op rank of source (1) must be same as rank of result (2)
tt.func @broadcast_rank(%x: tensor<4xi32>) {
  %0 = tt.broadcast %x : tensor<4xi32> -> tensor<4x4xi32>
  tt.return
}

// -----

// tt.splat: the element type changes.
// CHECK: {{.*}}invalid-tt.mlir:63:3: error: 'tt.splat' op requires the same element type for all operands and results
tt.func @splat(%x: i32) {
  %0 = tt.splat %x : i32 -> tensor<4xf32>
  tt.return
}

// -----

// tt.make_range: start after end.
// CHECK: {{.*}}invalid-tt.mlir:72:3: error: 'tt.make_range' op start (16) must be less than end (0)
tt.func @make_range() {
  %0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
  tt.return
}

// -----

// tt.make_range: the tensor does not hold the range.
// CHECK: {{.*}}invalid-tt.mlir:81:3: error: 'tt.make_range' op number of elements in returned tensor, 8, must match size of range [0, 16), which has 16 elements
tt.func @make_range_len() {
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<8xi32>
  tt.return
}

// -----

// tt.expand_dims: an axis past the rank.
// CHECK: {{.*}}invalid-tt.mlir:90:3: error: 'tt.expand_dims' op axis 3 is out of range for a rank-1 source (expected 0..1)
tt.func @expand_dims(%x: tensor<4xi32>) {
  %0 = tt.expand_dims %x {axis = 3 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  tt.return
}

// -----

// tt.load: a mask of another shape than the pointers.
// CHECK: {{.*}}invalid-tt.mlir:99:20: error: operand is used with type tensor<4xi1>, but has been previously used or defined with type tensor<8xi1>
tt.func @load_mask(%p: tensor<4x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  %0 = tt.load %p, %m : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

// tt.store: a value of another element type than the pointers.
// CHECK: {{.*}}invalid-tt.mlir:108:16: error: operand is used with type tensor<4xf32>, but has been previously used or defined with type tensor<4xf16>
tt.func @store(%p: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf16>) {
  tt.store %p, %v : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

// tt.get_program_id: an axis that is not x, y or z.
// CHECK: {{.*}}invalid-tt.mlir:117:26: error: expected program id dimension (x, y, z)
tt.func @program_id() {
  %0 = tt.get_program_id w : i32
  tt.return
}

// -----

// tt.reduce: an axis past the rank.
// CHECK: {{.*}}invalid-tt.mlir:126:3: error: 'tt.reduce' op axis 1 out of bounds for operand rank 1
tt.func @reduce(%x: tensor<4xf32>) {
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %1 = arith.addf %a, %b : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4xf32>) -> f32
  tt.return
}

// -----

// tt.trans: an order that is not a permutation.
// CHECK: {{.*}}invalid-tt.mlir:139:3: error: 'tt.trans' op order [0, 0] must be a permutation of 0..1
tt.func @trans(%x: tensor<4x8xf32>) {
  %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

// tt.func without tt.return.
// CHECK: {{.*}}invalid-tt.mlir:148:3: error: 'arith.addi' op ends the body of 'tt.func', which must end with a terminator operation
tt.func @no_return(%x: i32) {
  %0 = arith.addi %x, %x : i32
}

// -----

// tt.unsplat: the source holds more than one element.
// CHECK: {{.*}}invalid-tt.mlir:[[# @LINE + 2]]:3: error: 'tt.unsplat' op source tensor must have exactly one element
tt.func @unsplat_two(%a: tensor<2xf32>) -> f32 {
  %0 = tt.unsplat %a : tensor<2xf32>
  tt.return %0 : f32
}

// -----

// tt.join: operands with a layout need a result layout.
// CHECK: {{.*}}invalid-tt.mlir:167:5: error: 'tt.join' op result encoding must be specified
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_no_layout(%x: tensor<256xf16, #blocked>) {
    %0 = tt.join %x, %x : tensor<256xf16, #blocked> -> tensor<256x2xf16>
    tt.return
  }
}

// -----

// tt.join: the result's layout, its pair split off, must be the operands' one; here the
// operands hold 2 consecutive elements per thread, the result's split holds 1.
// CHECK: {{.*}}invalid-tt.mlir:181:5: error: 'tt.join' op incompatible join layout: the result tensor<256x2xf32, #ttg.blocked<{{.*}}>> pairs elements that the operands' layout does not give it (tensor<256xf32, #ttg.blocked<{{.*}}>>)
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_bad_layout(%x: tensor<256xf32, #b1>) {
    %0 = tt.join %x, %x : tensor<256xf32, #b1> -> tensor<256x2xf32, #b2>
    tt.return
  }
}

// -----

// tt.split: the results' layout is the input's without the last dimension; here the
// input holds 4 elements of dim 1 per thread, the result says 1.
// CHECK: {{.*}}invalid-tt.mlir:195:5: error: 'tt.split' op inferred type differs from the result type tensor<4x64xf32, #ttg.blocked<{{.*}}>>: its layout is not the input's (tensor<4x64x2xf32, #ttg.blocked<{{.*}}>>) without the last dimension
#b3 = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#b4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_bad_layout(%x: tensor<4x64x2xf32, #b3>) {
    %0, %1 = tt.split %x : tensor<4x64x2xf32, #b3> -> tensor<4x64xf32, #b4>
    tt.return
  }
}

// -----

// tt.split: the two elements of a pair sit in different lanes, so no thread can split.
// CHECK: {{.*}}invalid-tt.mlir:208:5: error: 'tt.split' op the input layout cannot be split on its last dimension: the layout does not hold both elements of the last dimension (size 2) in one thread's registers
#b5 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#b6 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_pair_across_lanes(%x: tensor<64x2xf32, #b5>) {
    %0, %1 = tt.split %x : tensor<64x2xf32, #b5> -> tensor<64xf32, #b6>
    tt.return
  }
}

// -----

// tt.dot_scaled: an e2m1 A packs two values per byte along K, so its 64 bytes are K = 128;
// B's K is 64.
// CHECK: {{.*}}invalid-tt.mlir:220:3: error: 'tt.dot_scaled' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand (K: 128 and 64, e2m1 operands packed two to a byte)
tt.func @dot_scaled_k(%a: tensor<32x64xi8>, %s: tensor<32x4xi8>, %b: tensor<64x32xbf16>) -> tensor<32x32xf32> {
  %c = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x64xi8>, tensor<32x4xi8> * tensor<64x32xbf16> -> tensor<32x32xf32>
  tt.return %d : tensor<32x32xf32>
}

// -----

// tt.dot_scaled: a scale holds one value per 32 of K (K = 128: 4), not 8.
// CHECK: {{.*}}invalid-tt.mlir:230:3: error: 'tt.dot_scaled' op scales K dimension must match the operand K divided by the scale factor: 128 / 32 = 4, got 8
tt.func @dot_scaled_scale_k(%a: tensor<32x128xf8E4M3FN>, %s: tensor<32x8xi8>, %b: tensor<128x32xf8E4M3FN>) -> tensor<32x32xf32> {
  %c = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x128xf8E4M3FN>, tensor<32x8xi8> * tensor<128x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return %d : tensor<32x32xf32>
}

// -----

// An elementwise op's tensors share one shape (MLIR's Elementwise trait).
// CHECK: {{.*}}invalid-tt.mlir:239:3: error: 'tt.elementwise_inline_asm' op all non-scalar operands and results must have the same shape, got tensor<64xi32>, tensor<32xi32> -> tensor<64xi32>
tt.func @inline_asm_shapes(%x: tensor<64xi32>, %y: tensor<32xi32>) -> tensor<64xi32> {
  %0 = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %x, %y : tensor<64xi32>, tensor<32xi32> -> tensor<64xi32>
  tt.return %0 : tensor<64xi32>
}

// -----

// tt.dot: the two dot operand layouts must agree on kWidth.
// CHECK: {{.*}}invalid-tt.mlir:251:5: error: 'tt.dot' op mismatching kWidth between A and B operands (4 and 2)
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @dot_kwidth(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<64x64xf32, #mma> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// tt.dot: mma.sync multiplies f32 only as tf32; an ieee f32 dot cannot have an MMA layout.
// CHECK: {{.*}}invalid-tt.mlir:264:5: error: 'tt.dot' op unsupported MMA version: mma v2 cannot multiply f32 by f32 with input precision ieee
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @dot_ieee_mma(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>) -> tensor<64x64xf32, #mma> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
