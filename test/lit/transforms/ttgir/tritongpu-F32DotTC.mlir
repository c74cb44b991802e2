// RUN: tileopt %s -split-input-file --tritongpu-F32DotTC | FileCheck %s
// RUN: tileopt %s -split-input-file --tritongpu-F32DotTC=emu-tf32=true | FileCheck %s --check-prefix=EMU

// bf16x3: each operand splits into hi = bf16(x) and mid = bf16(x - hi); the two cross
// terms go into a zero accumulator first, NaNs in them are dropped, then hi*hi, then c.

// CHECK-LABEL: tt.func @bf16x3
// CHECK-SAME: (%[[A:[^:]+]]: tensor<16x16xf32>, %[[B:[^:]+]]: tensor<16x16xf32>, %[[C:[^:]+]]: tensor<16x16xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[AHI:.+]] = arith.truncf %[[A]] : tensor<16x16xf32> to tensor<16x16xbf16>
// CHECK: %[[AHI32:.+]] = arith.extf %[[AHI]]
// CHECK: %[[AREST:.+]] = arith.subf %[[A]], %[[AHI32]]
// CHECK: %[[AMID:.+]] = arith.truncf %[[AREST]]
// CHECK: %[[BHI:.+]] = arith.truncf %[[B]]
// CHECK: %[[BHI32:.+]] = arith.extf %[[BHI]]
// CHECK: %[[BREST:.+]] = arith.subf %[[B]], %[[BHI32]]
// CHECK: %[[BMID:.+]] = arith.truncf %[[BREST]]
// CHECK: %[[ACC0:.+]] = tt.splat %[[ZERO]] : f32 -> tensor<16x16xf32>
// CHECK: %[[D1:.+]] = tt.dot %[[AMID]], %[[BHI]], %[[ACC0]] : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
// CHECK: %[[D2:.+]] = tt.dot %[[AHI]], %[[BMID]], %[[D1]] :
// CHECK: %[[NAN:.+]] = arith.cmpf uno, %[[D2]], %[[D2]]
// CHECK: %[[Z:.+]] = tt.splat %[[ZERO]]
// CHECK: %[[SMALL:.+]] = arith.select %[[NAN]], %[[Z]], %[[D2]]
// CHECK: %[[D3:.+]] = tt.dot %[[AHI]], %[[BHI]], %[[SMALL]] :
// CHECK: %[[R:.+]] = arith.addf %[[D3]], %[[C]]
// CHECK: tt.return %[[R]]
// CHECK-NOT: inputPrecision = bf16x3
tt.func @bf16x3(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

// bf16x6: three parts per operand (hi, mid, lo) and six products, smallest first.

// CHECK-LABEL: tt.func @bf16x6
// CHECK: %[[AHI:.+]] = arith.truncf %{{.*}} : tensor<32x16xf32> to tensor<32x16xbf16>
// CHECK: %[[AMID:.+]] = arith.truncf %{{.*}} : tensor<32x16xf32> to tensor<32x16xbf16>
// CHECK: %[[ALO:.+]] = arith.truncf %{{.*}} : tensor<32x16xf32> to tensor<32x16xbf16>
// CHECK: %[[BHI:.+]] = arith.truncf %{{.*}} : tensor<16x8xf32> to tensor<16x8xbf16>
// CHECK: %[[BMID:.+]] = arith.truncf %{{.*}} : tensor<16x8xf32> to tensor<16x8xbf16>
// CHECK: %[[BLO:.+]] = arith.truncf %{{.*}} : tensor<16x8xf32> to tensor<16x8xbf16>
// CHECK: tt.dot %[[AMID]], %[[BMID]],
// CHECK: tt.dot %[[ALO]], %[[BHI]],
// CHECK: tt.dot %[[AHI]], %[[BLO]],
// CHECK: tt.dot %[[AMID]], %[[BHI]],
// CHECK: %[[D5:.+]] = tt.dot %[[AHI]], %[[BMID]],
// CHECK: arith.cmpf uno, %[[D5]], %[[D5]]
// CHECK: %[[SMALL:.+]] = arith.select
// CHECK: tt.dot %[[AHI]], %[[BHI]], %[[SMALL]]
// CHECK-NOT: tt.dot
// CHECK: arith.addf
tt.func @bf16x6(%a: tensor<32x16xf32>, %b: tensor<16x8xf32>, %c: tensor<32x8xf32>) -> tensor<32x8xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<32x16xf32> * tensor<16x8xf32> -> tensor<32x8xf32>
  tt.return %d : tensor<32x8xf32>
}

// -----

// tf32x3 is only split when emu-tf32 is set (Triton sets it for NVIDIA sm80 and later):
// big = cvt.rna.tf32(x), small = x - big; three tf32 dots.

// CHECK-LABEL: tt.func @tf32x3
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32x3
// CHECK-NOT: elementwise_inline_asm

// EMU-LABEL: tt.func @tf32x3
// EMU-SAME: (%[[A:[^:]+]]: tensor<16x16xf32>, %[[B:[^:]+]]: tensor<16x16xf32>, %[[C:[^:]+]]: tensor<16x16xf32>)
// EMU: %[[ABIG:.+]] = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %[[A]]
// EMU: %[[ASMALL:.+]] = arith.subf %[[A]], %[[ABIG]]
// EMU: %[[BBIG:.+]] = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {{.*}} %[[B]]
// EMU: %[[BSMALL:.+]] = arith.subf %[[B]], %[[BBIG]]
// EMU: %[[D1:.+]] = tt.dot %[[ASMALL]], %[[BBIG]], %{{.+}}, inputPrecision = tf32 :
// EMU: %[[D2:.+]] = tt.dot %[[ABIG]], %[[BSMALL]], %[[D1]], inputPrecision = tf32 :
// EMU: arith.cmpf uno, %[[D2]], %[[D2]]
// EMU: %[[SMALL:.+]] = arith.select
// EMU: %[[D3:.+]] = tt.dot %[[ABIG]], %[[BBIG]], %[[SMALL]], inputPrecision = tf32 :
// EMU: arith.addf %[[D3]], %[[C]]
tt.func @tf32x3(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

// Operands that are not f32, and the other precisions, are left alone.

// CHECK-LABEL: tt.func @untouched
// CHECK: tt.dot %{{.*}}, inputPrecision = tf32x3 : tensor<16x16xf16> * tensor<16x16xf16>
// CHECK: tt.dot %{{.*}}, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32>
// CHECK: tt.dot %{{.*}} : tensor<16x16xf32> * tensor<16x16xf32>
// CHECK-NOT: arith.truncf
// EMU-LABEL: tt.func @untouched
// EMU-NOT: elementwise_inline_asm
tt.func @untouched(%h: tensor<16x16xf16>, %a: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = tt.dot %h, %h, %c, inputPrecision = tf32x3 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %1 = tt.dot %a, %a, %0, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %2 = tt.dot %a, %a, %1 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %2 : tensor<16x16xf32>
}
