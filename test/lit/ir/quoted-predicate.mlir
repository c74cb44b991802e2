// Comparison predicates also read as strings (`arith.cmpi "slt", ...`), as MLIR's enum
// parser takes them and Triton's TritonGPU/coalesce.mlir and loop-pipeline.mlir write
// them; they print as keywords.
// RUN: tileopt %s | FileCheck %s

// CHECK-LABEL: tt.func @quoted
// CHECK-NEXT:    arith.cmpi slt, %arg0, %arg1 : tensor<4xi32>
// CHECK-NEXT:    arith.cmpf olt, %arg2, %arg2 : f32
tt.func @quoted(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>, %arg2: f32) {
  %0 = arith.cmpi "slt", %arg0, %arg1 : tensor<4xi32>
  %1 = arith.cmpf "olt", %arg2, %arg2 : f32
  tt.return
}
