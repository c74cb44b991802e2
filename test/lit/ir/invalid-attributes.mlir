// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// Constants and dense literals that do not fit their types.
// CLEAN-NOT: {{Traceback|internal error}}

// A hexadecimal float with more bits than f32 has.
// CHECK: {{.*}}invalid-attributes.mlir:9:29: error: hexadecimal float constant out of range for type f32
func.func @f() {
  %0 = arith.constant dense<0x1FF800000> : tensor<4xf32>
  func.return
}

// -----

// A dense literal with fewer elements than its type.
// CHECK: {{.*}}invalid-attributes.mlir:18:43: error: dense literal has shape [2], the type has [4]
func.func @f() {
  %0 = arith.constant dense<[1.0, 2.0]> : tensor<4xf32>
  func.return
}

// -----

// A dense literal typed as a scalar.
// CHECK: {{.*}}invalid-attributes.mlir:27:36: error: dense attribute type must be a tensor, vector or memref of integers, index or floats, not f32
func.func @f() {
  %0 = arith.constant dense<1.0> : f32
  func.return
}

// -----

// A dense literal of dynamic shape.
// CHECK: {{.*}}invalid-attributes.mlir:36:34: error: dense attribute type must have a static shape
func.func @f() {
  %0 = arith.constant dense<1> : tensor<?xi32>
  func.return
}

// -----

// Nested lists of different lengths.
// CHECK: {{.*}}invalid-attributes.mlir:45:42: error: Tensor literal has inconsistent ranks between elements
func.func @f() {
  %0 = arith.constant dense<[[1, 2], [3]]> : tensor<2x2xi32>
  func.return
}

// -----

// Raw dense data that is not hexadecimal.
// CHECK: {{.*}}invalid-attributes.mlir:54:39: error: dense hex string is not valid hexadecimal data
func.func @f() {
  %0 = arith.constant dense<"0xZZ"> : tensor<1xi8>
  func.return
}

// -----

// An integer too large for its type.
// CHECK: {{.*}}invalid-attributes.mlir:63:23: error: Integer value 300 is out of range for type i8 which supports values in the range [-128, 256)
func.func @f() {
  %0 = arith.constant 300 : i8
  func.return
}

// -----

// A float where an integer is expected.
// CHECK: {{.*}}invalid-attributes.mlir:72:23: error: floating point value is not valid for an integer type
func.func @f() -> i32 {
  %0 = arith.constant 1.5 : i32
  func.return %0 : i32
}
