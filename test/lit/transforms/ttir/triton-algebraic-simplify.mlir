// RUN: tileopt %s -split-input-file --triton-algebraic-simplify | FileCheck %s
// RUN: tileopt %s -split-input-file --triton-algebraic-simplify="strength-reduction=false" | FileCheck %s --check-prefix=NOSR

// Integer identities, on scalars and splat tensors.
// CHECK-LABEL: tt.func @int_identities
// CHECK-SAME: (%[[X:.*]]: i32, %[[T:.*]]: tensor<64xi32>)
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ZT:.*]] = arith.constant dense<0> : tensor<64xi32>
// CHECK-NOT: arith.addi
// CHECK-NOT: arith.muli
// CHECK: tt.return %[[X]], %[[X]], %[[Z]], %[[Z]], %[[T]], %[[ZT]]
tt.func @int_identities(%x: i32, %t: tensor<64xi32>) -> (i32, i32, i32, i32, tensor<64xi32>, tensor<64xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0> : tensor<64xi32>
  %one = arith.constant dense<1> : tensor<64xi32>
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %c1, %x : i32
  %c = arith.subi %x, %x : i32
  %d = arith.remsi %x, %c1 : i32
  %e = arith.muli %t, %one : tensor<64xi32>
  %f = arith.muli %t, %z : tensor<64xi32>
  tt.return %a, %b, %c, %d, %e, %f : i32, i32, i32, i32, tensor<64xi32>, tensor<64xi32>
}

// -----

// Common factors, in any operand order, for + and -.
// CHECK-LABEL: tt.func @common_factor
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[B]], %[[C]] : i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[A]], %[[S]] : i32
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[B]], %[[C]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.muli %[[A]], %[[D]] : i32
// CHECK-NEXT: tt.return %[[P]], %[[Q]]
tt.func @common_factor(%a: i32, %b: i32, %c: i32) -> (i32, i32) {
  %ab = arith.muli %a, %b : i32
  %ca = arith.muli %c, %a : i32
  %s = arith.addi %ab, %ca : i32
  %ab2 = arith.muli %b, %a : i32
  %ac2 = arith.muli %a, %c : i32
  %d = arith.subi %ab2, %ac2 : i32
  tt.return %s, %d : i32, i32
}

// -----

// A product that is used elsewhere stays: factoring would not save an op.
// CHECK-LABEL: tt.func @shared_product_kept
// CHECK: arith.muli %arg0, %arg1
// CHECK: arith.muli %arg0, %arg2
// CHECK: arith.addi
tt.func @shared_product_kept(%a: i32, %b: i32, %c: i32) -> (i32, i32) {
  %ab = arith.muli %a, %b : i32
  %ac = arith.muli %a, %c : i32
  %s = arith.addi %ab, %ac : i32
  tt.return %s, %ab : i32, i32
}

// -----

// Powers of two: shifts and masks; the signed forms only where the value is known to be
// non-negative (make_range), not for an unknown %n.
// CHECK-LABEL: tt.func @strength_reduction
// CHECK-SAME: (%[[X:.*]]: i32, %[[N:.*]]: i32)
// CHECK-DAG: %[[K3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[K4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[M15:.*]] = arith.constant 15 : i32
// CHECK-DAG: %[[K6:.*]] = arith.constant dense<6> : tensor<128xi32>
// CHECK-DAG: %[[M63:.*]] = arith.constant dense<63> : tensor<128xi32>
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[MUL:.*]] = arith.shli %[[X]], %[[K3]] : i32
// CHECK: %[[DIVU:.*]] = arith.shrui %[[X]], %[[K4]] : i32
// CHECK: %[[REMU:.*]] = arith.andi %[[X]], %[[M15]] : i32
// CHECK: %[[R:.*]] = tt.make_range
// CHECK: %[[DIVS:.*]] = arith.shrsi %[[R]], %[[K6]] : tensor<128xi32>
// CHECK: %[[REMS:.*]] = arith.andi %[[R]], %[[M63]] : tensor<128xi32>
// CHECK: %[[DN:.*]] = arith.divsi %[[N]], %[[C16]] : i32
// CHECK: %[[RN:.*]] = arith.remsi %[[N]], %[[C16]] : i32
// CHECK: tt.return %[[MUL]], %[[DIVU]], %[[REMU]], %[[DIVS]], %[[REMS]], %[[DN]], %[[RN]]
// NOSR-LABEL: tt.func @strength_reduction
// NOSR-NOT: arith.shli
// NOSR-NOT: arith.shrui
// NOSR-NOT: arith.shrsi
// NOSR: tt.return
tt.func @strength_reduction(%x: i32, %n: i32) -> (i32, i32, i32, tensor<128xi32>, tensor<128xi32>, i32, i32) {
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant dense<64> : tensor<128xi32>
  %m = arith.muli %x, %c8 : i32
  %du = arith.divui %x, %c16 : i32
  %ru = arith.remui %x, %c16 : i32
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ds = arith.divsi %r, %c64 : tensor<128xi32>
  %rs = arith.remsi %r, %c64 : tensor<128xi32>
  %dn = arith.divsi %n, %c16 : i32
  %rn = arith.remsi %n, %c16 : i32
  tt.return %m, %du, %ru, %ds, %rs, %dn, %rn : i32, i32, i32, tensor<128xi32>, tensor<128xi32>, i32, i32
}

// -----

// Exact float identities: x*1, x/1, x-0, x+(-0); x+0 only with nsz; x/4 is x*0.25
// (exact), x/3 stays (1/3 is not representable).
// CHECK-LABEL: tt.func @exact_float
// CHECK-SAME: (%[[X:.*]]: f32, %[[T:.*]]: tensor<32xf16>)
// CHECK-DAG: %[[Q:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[H:.*]] = arith.constant dense<5.000000e-01> : tensor<32xf16>
// CHECK-DAG: %[[E:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK-DAG: %[[G:.*]] = arith.mulf %[[X]], %[[Q]] : f32
// CHECK-DAG: %[[I:.*]] = arith.mulf %[[T]], %[[H]] : tensor<32xf16>
// CHECK-DAG: %[[J:.*]] = arith.divf %[[X]], %{{.*}} : f32
// CHECK: tt.return %[[X]], %[[X]], %[[X]], %[[X]], %[[E]], %[[X]], %[[G]], %[[I]], %[[J]]
tt.func @exact_float(%x: f32, %t: tensor<32xf16>) -> (f32, f32, f32, f32, f32, f32, f32, tensor<32xf16>, f32) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %four = arith.constant 4.0 : f32
  %three = arith.constant 3.0 : f32
  %h = arith.constant dense<2.0> : tensor<32xf16>
  %a = arith.mulf %x, %one : f32
  %b = arith.divf %x, %one : f32
  %c = arith.subf %x, %zero : f32
  %d = arith.addf %x, %nzero : f32
  %e = arith.addf %x, %zero : f32
  %f = arith.addf %x, %zero fastmath<nsz> : f32
  %g = arith.divf %x, %four : f32
  %i = arith.divf %t, %h : tensor<32xf16>
  %j = arith.divf %x, %three : f32
  tt.return %a, %b, %c, %d, %e, %f, %g, %i, %j : f32, f32, f32, f32, f32, f32, f32, tensor<32xf16>, f32
}

// -----

// Not exact for every float: x*0 (NaN, inf, -0), x-x (inf), x-(-0) (-0 - -0 = +0).
// CHECK-LABEL: tt.func @float_not_simplified
// CHECK: arith.mulf %arg0, %cst
// CHECK: arith.subf %arg0, %arg0
// CHECK: arith.subf %arg0, %cst_0
tt.func @float_not_simplified(%x: f32) -> (f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %a = arith.mulf %x, %zero : f32
  %b = arith.subf %x, %x : f32
  %c = arith.subf %x, %nzero : f32
  tt.return %a, %b, %c : f32, f32, f32
}
