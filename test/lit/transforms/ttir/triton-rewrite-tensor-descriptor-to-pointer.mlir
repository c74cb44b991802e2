// RUN: tileopt %s -split-input-file --triton-rewrite-tensor-descriptor-to-pointer | FileCheck %s

// Each descriptor argument becomes (base, 2 sizes, 2 strides); the load reads through
// masked pointers with zeros out of bounds, the store writes through masked pointers.
// CHECK-LABEL: tt.func public @copy
// CHECK-SAME: (%[[IN:.*]]: !tt.ptr<f16>, %[[M0:.*]]: i64, %[[M1:.*]]: i64, %[[S0:.*]]: i64, %[[S1:.*]]: i64, %[[OUT:.*]]: !tt.ptr<f16>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[I:.*]]: i32, %[[J:.*]]: i32)
// CHECK: tt.splat %[[IN]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.splat %[[S0]] : i64 -> tensor<16x1xi64>
// CHECK: tt.splat %[[S1]] : i64 -> tensor<1x32xi64>
// CHECK: %[[LP:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi64>
// CHECK: tt.splat %[[M0]] : i64 -> tensor<16x1xi64>
// CHECK: tt.splat %[[M1]] : i64 -> tensor<1x32xi64>
// CHECK: %[[LM:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<16x32xi1>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
// CHECK: %[[V:.*]] = tt.load %[[LP]], %[[LM]], %[[Z]] : tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.splat %[[OUT]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.store %{{.*}}, %[[V]], %{{.*}} : tensor<16x32x!tt.ptr<f16>>
// CHECK-NOT: descriptor
tt.func public @copy(%in: !tt.tensordesc<tensor<16x32xf16>> {tt.divisibility = 16 : i32}, %out: !tt.tensordesc<tensor<16x32xf16>>, %i: i32, %j: i32) {
  %v = tt.descriptor_load %in[%i, %j] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tt.descriptor_store %out[%i, %j], %v : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  tt.return
}

// -----

// A 1-D load in detail; the cache modifier carries over.
// CHECK-LABEL: tt.func @load_1d
// CHECK-SAME: (%[[N:.*]]: i32, %[[B:.*]]: !tt.ptr<i32>, %[[SIZE:.*]]: i64, %[[STRIDE:.*]]: i64)
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[PTRS:.*]] = tt.splat %[[B]] : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
// CHECK: %[[START:.*]] = tt.splat %[[N64]] : i64 -> tensor<64xi64>
// CHECK: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32}
// CHECK: %[[R64:.*]] = arith.extsi %[[R]]
// CHECK: %[[IDX:.*]] = arith.addi %[[START]], %[[R64]] : tensor<64xi64>
// CHECK: %[[ST:.*]] = tt.splat %[[STRIDE]] : i64 -> tensor<64xi64>
// CHECK: %[[OFF:.*]] = arith.muli %[[IDX]], %[[ST]]
// CHECK: %[[B1:.*]] = tt.broadcast %[[OFF]]
// CHECK: %[[P:.*]] = tt.addptr %[[PTRS]], %[[B1]]
// CHECK: %[[IDX2:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64xi64>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ZS:.*]] = tt.splat %[[ZERO]]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[IDX2]], %[[ZS]]
// CHECK: %[[SZ:.*]] = tt.splat %[[SIZE]] : i64 -> tensor<64xi64>
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[IDX2]], %[[SZ]]
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: %[[MASK:.*]] = tt.broadcast %[[IN]]
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0> : tensor<64xi32>
// CHECK: %[[V:.*]] = tt.load %[[P]], %[[MASK]], %[[ZEROS]] cacheModifier = ca
// CHECK: tt.return %[[V]]
tt.func @load_1d(%n: i32, %d: !tt.tensordesc<tensor<64xi32>>) -> tensor<64xi32> {
  %v = tt.descriptor_load %d[%n] cacheModifier = ca : !tt.tensordesc<tensor<64xi32>> -> tensor<64xi32>
  tt.return %v : tensor<64xi32>
}
