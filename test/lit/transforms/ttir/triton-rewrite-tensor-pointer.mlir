// RUN: tileopt %s -split-input-file --triton-rewrite-tensor-pointer | FileCheck %s

// A 1-D block load with a boundary check and NaN padding: the pointer is
// splat(base) + (splat(off) + range) * stride, the mask is 0 <= o < n, other is NaN.
// CHECK-LABEL: tt.func @load_1d
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f32>, %[[N:.*]]: i64, %[[OFF:.*]]: i32)
// CHECK: %[[OFF64:.*]] = arith.extsi %[[OFF]] : i32 to i64
// CHECK: %[[PTRS:.*]] = tt.splat %[[BASE]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK: %[[START:.*]] = tt.splat %[[OFF64]] : i64 -> tensor<128xi64>
// CHECK: %[[RANGE:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK: %[[RANGE64:.*]] = arith.extsi %[[RANGE]] : tensor<128xi32> to tensor<128xi64>
// CHECK: %[[IDX:.*]] = arith.addi %[[START]], %[[RANGE64]] : tensor<128xi64>
// CHECK: %[[STRIDE:.*]] = tt.splat %{{.*}} : i64 -> tensor<128xi64>
// CHECK: %[[SCALED:.*]] = arith.muli %[[IDX]], %[[STRIDE]] : tensor<128xi64>
// CHECK: %[[SPREAD:.*]] = tt.broadcast %[[SCALED]] : tensor<128xi64> -> tensor<128xi64>
// CHECK: %[[ADDR:.*]] = tt.addptr %[[PTRS]], %[[SPREAD]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ZEROS:.*]] = tt.splat %[[ZERO]] : i64 -> tensor<128xi64>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[IDX]], %[[ZEROS]] : tensor<128xi64>
// CHECK: %[[NS:.*]] = tt.splat %[[N]] : i64 -> tensor<128xi64>
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[IDX]], %[[NS]] : tensor<128xi64>
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<128xi1>
// CHECK: %[[MASK:.*]] = tt.broadcast %[[IN]] : tensor<128xi1> -> tensor<128xi1>
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[OTHER:.*]] = tt.splat %[[NAN]] : f32 -> tensor<128xf32>
// CHECK: %[[V:.*]] = tt.load %[[ADDR]], %[[MASK]], %[[OTHER]] : tensor<128x!tt.ptr<f32>>
// CHECK: tt.return %[[V]]
// CHECK-NOT: make_tensor_ptr
tt.func @load_1d(%base: !tt.ptr<f32>, %n: i64, %off: i32) -> tensor<128xf32> {
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%n], [%c1], [%off] {order = array<i32: 0>} : <tensor<128xf32>>
  %v = tt.load %bp {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<128xf32>>
  tt.return %v : tensor<128xf32>
}

// -----

// A 2-D store without boundary check: no mask; each dimension's index row is expanded
// on the other axis, scaled by its stride, broadcast to the block and added.
// CHECK-LABEL: tt.func @store_2d_no_check
// CHECK-SAME: %[[S0:arg3]]: i64, %[[S1:arg4]]: i64, %{{.*}}: i32, %{{.*}}: i32, %[[V:arg7]]: tensor<16x32xf16>
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: tt.splat %[[S0]] : i64 -> tensor<16x1xi64>
// CHECK: tt.broadcast %{{.*}} : tensor<16x1xi64> -> tensor<16x32xi64>
// CHECK: %[[P0:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi64>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK: tt.splat %[[S1]] : i64 -> tensor<1x32xi64>
// CHECK: tt.broadcast %{{.*}} : tensor<1x32xi64> -> tensor<16x32xi64>
// CHECK: %[[P1:.*]] = tt.addptr %[[P0]], %{{.*}} : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi64>
// CHECK-NOT: arith.cmpi
// CHECK: tt.store %[[P1]], %[[V]] : tensor<16x32x!tt.ptr<f16>>
tt.func @store_2d_no_check(%base: !tt.ptr<f16>, %m: i64, %n: i64, %s0: i64, %s1: i64, %o0: i32, %o1: i32, %v: tensor<16x32xf16>) {
  %bp = tt.make_tensor_ptr %base, [%m, %n], [%s0, %s1], [%o0, %o1] {order = array<i32: 1, 0>} : <tensor<16x32xf16>>
  tt.store %bp, %v : !tt.ptr<tensor<16x32xf16>>
  tt.return
}

// -----

// A block pointer advanced in a loop: the loop carries its i64 offset instead, the
// advance becomes an add, and zero padding gives a zero `other`.
// CHECK-LABEL: tt.func @advance_in_loop
// CHECK: %[[INIT:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP:.*]] iter_args(%[[OFF:.*]] = %[[INIT]], %{{.*}} = %{{.*}}) -> (i64, tensor<64xf16>)
// CHECK:   tt.splat %[[OFF]] : i64 -> tensor<64xi64>
// CHECK:   %[[PAD:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:   %[[OTHER:.*]] = tt.splat %[[PAD]] : f16 -> tensor<64xf16>
// CHECK:   tt.load %{{.*}}, %{{.*}}, %[[OTHER]] : tensor<64x!tt.ptr<f16>>
// CHECK:   %[[DELTA:.*]] = arith.extsi %[[STEP]] : i32 to i64
// CHECK:   %[[NEXT:.*]] = arith.addi %[[OFF]], %[[DELTA]] : i64
// CHECK:   scf.yield %[[NEXT]], %{{.*}} : i64, tensor<64xf16>
// CHECK-NOT: tt.advance
tt.func @advance_in_loop(%base: !tt.ptr<f16>, %m: i64, %s0: i64, %ub: i32) -> tensor<64xf16> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  %bp = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<64xf16>>
  %r:2 = scf.for %i = %c0 to %ub step %c64 iter_args(%p = %bp, %acc = %zero) -> (!tt.ptr<tensor<64xf16>>, tensor<64xf16>) : i32 {
    %x = tt.load %p {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<64xf16>>
    %s = arith.addf %acc, %x : tensor<64xf16>
    %q = tt.advance %p, [%c64] : <tensor<64xf16>>
    scf.yield %q, %s : !tt.ptr<tensor<64xf16>>, tensor<64xf16>
  }
  tt.return %r#1 : tensor<64xf16>
}

// -----

// A block pointer chosen by scf.if: the if yields the offsets.
// CHECK-LABEL: tt.func @select_in_if
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK:   %[[MOVED:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:   scf.yield %[[MOVED]] : i64
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : i64
// CHECK: }
// CHECK: tt.splat %[[R]] : i64 -> tensor<32xi64>
// CHECK: tt.load %{{.*}} : tensor<32x!tt.ptr<i32>>
tt.func @select_in_if(%base: !tt.ptr<i32>, %n: i64, %c: i1) -> tensor<32xi32> {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<32xi32>>
  %sel = scf.if %c -> (!tt.ptr<tensor<32xi32>>) {
    %q = tt.advance %bp, [%c32] : <tensor<32xi32>>
    scf.yield %q : !tt.ptr<tensor<32xi32>>
  } else {
    scf.yield %bp : !tt.ptr<tensor<32xi32>>
  }
  %v = tt.load %sel : !tt.ptr<tensor<32xi32>>
  tt.return %v : tensor<32xi32>
}
