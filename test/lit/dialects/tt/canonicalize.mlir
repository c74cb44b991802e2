// RUN: tileopt %s -canonicalize -split-input-file | FileCheck %s
// Triton's canonicalization patterns and folders for tt ops.

// CHECK-LABEL: tt.func @masked_load_store
// CHECK-NEXT:    %[[V:.*]] = tt.load %arg0 cacheModifier = cg : tensor<4x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %arg0, %[[V]] : tensor<4x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %arg0, %arg1 : tensor<4x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return
tt.func @masked_load_store(%p: tensor<4x!tt.ptr<f32>>, %o: tensor<4xf32>) {
  %true = arith.constant dense<true> : tensor<4xi1>
  %false = arith.constant dense<false> : tensor<4xi1>
  %v = tt.load %p, %true cacheModifier = cg : tensor<4x!tt.ptr<f32>>
  %w = tt.load %p, %false, %o : tensor<4x!tt.ptr<f32>>
  tt.store %p, %v, %true : tensor<4x!tt.ptr<f32>>
  tt.store %p, %v, %false : tensor<4x!tt.ptr<f32>>
  tt.store %p, %w : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @shape_chains
// CHECK-NEXT:    %[[S:.*]] = tt.splat %arg0 : f32 -> tensor<8x64xf32>
// CHECK-NEXT:    tt.return %[[S]] : tensor<8x64xf32>
tt.func @shape_chains(%x: f32) -> tensor<8x64xf32> {
  %s = tt.splat %x : f32 -> tensor<64xf32>
  %e = tt.expand_dims %s {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
  %b = tt.broadcast %e : tensor<1x64xf32> -> tensor<8x64xf32>
  tt.return %b : tensor<8x64xf32>
}

// -----

// CHECK-LABEL: tt.func @constants
// CHECK-DAG:     %[[C7:.*]] = arith.constant dense<7> : tensor<4xi32>
// CHECK-DAG:     %[[C3:.*]] = arith.constant dense<3> : tensor<1xi32>
// CHECK:         tt.return %[[C7]], %[[C3]] : tensor<4xi32>, tensor<1xi32>
tt.func @constants() -> (tensor<4xi32>, tensor<1xi32>) {
  %c7 = arith.constant 7 : i32
  %s = tt.splat %c7 : i32 -> tensor<4xi32>
  %r = tt.make_range {end = 4 : i32, start = 3 : i32} : tensor<1xi32>
  tt.return %s, %r : tensor<4xi32>, tensor<1xi32>
}

// -----

// CHECK-LABEL: tt.func @pointer_folds
// CHECK-NEXT:    tt.return %arg0, %arg1 : tensor<4x!tt.ptr<f32>>, !tt.ptr<tensor<4x8xf16>>
tt.func @pointer_folds(%p: tensor<4x!tt.ptr<f32>>, %bp: !tt.ptr<tensor<4x8xf16>>) -> (tensor<4x!tt.ptr<f32>>, !tt.ptr<tensor<4x8xf16>>) {
  %zero = arith.constant dense<0> : tensor<4xi32>
  %c0 = arith.constant 0 : i32
  %a = tt.addptr %p, %zero : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %q = tt.advance %bp, [%c0, %c0] : <tensor<4x8xf16>>
  tt.return %a, %q : tensor<4x!tt.ptr<f32>>, !tt.ptr<tensor<4x8xf16>>
}

// -----

// CHECK-LABEL: tt.func @transpose_twice
// CHECK-NEXT:    %[[T:.*]] = tt.trans %arg0 {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT:    tt.return %[[T]]
tt.func @transpose_twice(%x: tensor<2x4x8xf32>) -> tensor<2x8x4xf32> {
  %a = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %b = tt.trans %a {order = array<i32: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  tt.return %b : tensor<2x8x4xf32>
}

// -----

// A volatile load has a write effect: canonicalize's dead-code removal keeps it.
// CHECK-LABEL: tt.func @volatile_load_stays
// CHECK-NEXT:    tt.load %arg0 {isVolatile = true}
// CHECK-NEXT:    tt.return
tt.func @volatile_load_stays(%p: tensor<4x!tt.ptr<f32>>) {
  %v = tt.load %p : tensor<4x!tt.ptr<f32>>
  %w = tt.load %p {isVolatile = true} : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

// tt.bitcast has no folder in Triton 3.6: a bitcast to its own type and a bitcast of a
// bitcast stay (Triton 3.6's canonicalize keeps both in this function).
// CHECK-LABEL: tt.func @bitcast_stays
// CHECK-NEXT:    %[[S:.*]] = tt.splat %arg0 : i32 -> tensor<16xi32>
// CHECK-NEXT:    %[[B:.*]] = tt.bitcast %[[S]] : tensor<16xi32> -> tensor<16xi32>
// CHECK-NEXT:    %[[F:.*]] = tt.bitcast %[[B]] : tensor<16xi32> -> tensor<16xf32>
// CHECK-NEXT:    %[[I:.*]] = tt.bitcast %[[F]] : tensor<16xf32> -> tensor<16xi32>
// CHECK-NEXT:    tt.return %[[I]]
tt.func @bitcast_stays(%x: i32) -> tensor<16xi32> {
  %s = tt.splat %x : i32 -> tensor<16xi32>
  %b = tt.bitcast %s : tensor<16xi32> -> tensor<16xi32>
  %f = tt.bitcast %b : tensor<16xi32> -> tensor<16xf32>
  %i = tt.bitcast %f : tensor<16xf32> -> tensor<16xi32>
  tt.return %i : tensor<16xi32>
}

// -----

// expand_dims(broadcast(x)) -> broadcast(expand_dims(x)) also with layouts (Triton's
// test/Triton/canonicalize.mlir @fn): the new expand_dims gets the layout the encoding's
// dialect infers, a slice along the axis expanding to its parent (issue 12).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: tt.func @expand_dims_of_broadcast_layout
// CHECK-NEXT:    %[[E:.*]] = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x1xf32, #blocked>
// CHECK-NEXT:    %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32, #blocked> -> tensor<32x1xf32, #blocked>
// CHECK-NEXT:    tt.return %[[B]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
tt.func @expand_dims_of_broadcast_layout(%arg0: tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> tensor<32x1xf32, #blocked> {
  %a = tt.broadcast %arg0 : tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  %b = tt.expand_dims %a {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xf32, #blocked>
  tt.return %b : tensor<32x1xf32, #blocked>
}
}
