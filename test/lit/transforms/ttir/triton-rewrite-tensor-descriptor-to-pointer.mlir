// RUN: tileopt %s -split-input-file --verify-diagnostics --triton-rewrite-tensor-descriptor-to-pointer | FileCheck %s
// RUN: tileopt %s -split-input-file --verify-diagnostics --triton-rewrite-tensor-descriptor-to-pointer --triton-version=3.9 | FileCheck %s --check-prefix=V39

// Each descriptor argument becomes (base, 2 sizes, 2 strides, NaN-padding flag), the base
// keeping the descriptor's attributes; the load reads through masked pointers with
// select(flag, NaN, 0) out of bounds, the store writes through masked pointers. (Checked
// against Triton 3.6's own pass, run through its Python bindings.)
// CHECK-LABEL: tt.func public @copy
// CHECK-SAME: (%[[IN:.*]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %[[M0:.*]]: i64, %[[M1:.*]]: i64, %[[S0:.*]]: i64, %[[S1:.*]]: i64, %[[NAN:.*]]: i1, %[[OUT:.*]]: !tt.ptr<f16>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i1, %[[I:.*]]: i32, %[[J:.*]]: i32)
// CHECK: %[[NANS:.*]] = arith.constant dense<0x7E00> : tensor<16x32xf16>
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
// CHECK: %[[OTHER:.*]] = arith.select %[[NAN]], %[[NANS]], %[[ZEROS]] : tensor<16x32xf16>
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK: tt.splat %[[IN]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.splat %[[S0]] : i64 -> tensor<16x1xi64>
// CHECK: tt.splat %[[S1]] : i64 -> tensor<1x32xi64>
// CHECK: %[[LP:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi64>
// CHECK: tt.splat %[[M0]] : i64 -> tensor<16x1xi64>
// CHECK: tt.splat %[[M1]] : i64 -> tensor<1x32xi64>
// CHECK: %[[LM:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<16x32xi1>
// CHECK: %[[V:.*]] = tt.load %[[LP]], %[[LM]], %[[OTHER]] : tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.splat %[[OUT]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.store %{{.*}}, %[[V]], %{{.*}} : tensor<16x32x!tt.ptr<f16>>
// CHECK-NOT: descriptor
// Triton 3.9 brings each index range to rank 2 with a reshape, not expand_dims.
// V39-LABEL: tt.func public @copy
// V39-NOT: tt.expand_dims
// V39: tt.reshape %{{.*}} : tensor<16xi64> -> tensor<16x1xi64>
// V39: tt.reshape %{{.*}} : tensor<32xi64> -> tensor<1x32xi64>
// V39-NOT: tt.expand_dims
// V39: tt.return
tt.func public @copy(%in: !tt.tensordesc<tensor<16x32xf16>> {tt.divisibility = 16 : i32}, %out: !tt.tensordesc<tensor<16x32xf16>>, %i: i32, %j: i32) {
  %v = tt.descriptor_load %in[%i, %j] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tt.descriptor_store %out[%i, %j], %v : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  tt.return
}

// -----

// A 1-D load in detail (no view of the range: rank 1 already); the cache modifier carries
// over; integers read 0 out of bounds (no NaN to select).
// CHECK-LABEL: tt.func @load_1d
// CHECK-SAME: (%[[N:.*]]: i32, %[[B:.*]]: !tt.ptr<i32>, %[[SIZE:.*]]: i64, %[[STRIDE:.*]]: i64, %{{.*}}: i1)
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0> : tensor<64xi32>
// CHECK: %[[START:.*]] = tt.splat %[[N64]] : i64 -> tensor<64xi64>
// CHECK: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32}
// CHECK: %[[R64:.*]] = arith.extsi %[[R]]
// CHECK: %[[IDX:.*]] = arith.addi %[[START]], %[[R64]] : tensor<64xi64>
// CHECK: %[[PTRS:.*]] = tt.splat %[[B]] : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
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
// CHECK: %[[V:.*]] = tt.load %[[P]], %[[MASK]], %[[ZEROS]] cacheModifier = ca
// CHECK: tt.return %[[V]]
// V39-LABEL: tt.func @load_1d
// V39-NOT: tt.reshape
// V39: tt.return
tt.func @load_1d(%n: i32, %d: !tt.tensordesc<tensor<64xi32>>) -> tensor<64xi32> {
  %v = tt.descriptor_load %d[%n] cacheModifier = ca : !tt.tensordesc<tensor<64xi32>> -> tensor<64xi32>
  tt.return %v : tensor<64xi32>
}

// -----

// A descriptor made in the kernel (desc_matmul's tt.make_tensor_descriptor): where it
// stood, its i32 sizes widened to i64 and its padding flag as a constant (Triton 3.6: one
// `false`; 3.9: two, the second unread); its strides and base are used as they are.
// CHECK-LABEL: tt.func @made
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f16>, %[[M:.*]]: i32, %[[K:.*]]: i32, %[[S:.*]]: i64, %[[I:.*]]: i32)
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[K64:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK-NOT: arith.constant false
// CHECK: arith.select %[[FALSE]]
// CHECK: tt.splat %[[P]] : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>>
// CHECK: tt.splat %[[S]] : i64 -> tensor<32x1xi64>
// CHECK: tt.splat %[[C1]] : i64 -> tensor<1x16xi64>
// CHECK: tt.splat %[[M64]] : i64 -> tensor<32x1xi64>
// CHECK: tt.splat %[[K64]] : i64 -> tensor<1x16xi64>
// CHECK: tt.load
// CHECK-NOT: descriptor
// V39-LABEL: tt.func @made
// V39: arith.extsi
// V39-NEXT: arith.extsi
// V39-NEXT: %[[FALSE:.*]] = arith.constant false
// V39-NEXT: arith.constant false
// V39: arith.select %[[FALSE]]
// V39: tt.reshape
// V39: tt.load
tt.func @made(%p: !tt.ptr<f16>, %m: i32, %k: i32, %s: i64, %i: i32) -> tensor<32x16xf16> {
  %c1 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %p, [%m, %k], [%s, %c1] : <f16>, <tensor<32x16xf16>>
  %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<32x16xf16>> -> tensor<32x16xf16>
  tt.return %v : tensor<32x16xf16>
}

// -----

// padding = nan: the flag is true, out-of-bounds elements read NaN.
// CHECK-LABEL: tt.func @made_nan
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[NANS:.*]] = arith.constant dense<0x7FC00000> : tensor<64xf32>
// CHECK: arith.select %[[TRUE]], %[[NANS]], %{{.*}} : tensor<64xf32>
tt.func @made_nan(%p: !tt.ptr<f32>, %m: i32, %s: i64, %i: i32) -> tensor<64xf32> {
  %d = tt.make_tensor_descriptor %p, [%m], [%s] {padding = 2 : i32} : <f32>, <tensor<64xf32>>
  %v = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<64xf32>> -> tensor<64xf32>
  tt.return %v : tensor<64xf32>
}

// -----

// A descriptor carried by a loop is not rewritten: an error at the op, not a traceback.
tt.func @carried(%p: !tt.ptr<f16>, %m: i32, %s: i64, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d = tt.make_tensor_descriptor %p, [%m], [%s] : <f16>, <tensor<64xf16>>
  // expected-error @+1 {{scf.for on a tensor descriptor cannot be rewritten to pointers}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %d) -> (!tt.tensordesc<tensor<64xf16>>)  : i32 {
    scf.yield %x : !tt.tensordesc<tensor<64xf16>>
  }
  tt.return
}
