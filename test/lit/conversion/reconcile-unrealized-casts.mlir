// RUN: tileopt %s --reconcile-unrealized-casts | FileCheck %s

// A round trip through casts is the identity; dead casts go.
// CHECK-LABEL: llvm.func @round_trip
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         llvm.return %arg0 : f32
module {
  llvm.func @round_trip(%arg0: f32) -> f32 {
    %0 = builtin.unrealized_conversion_cast %arg0 : f32 to i32
    %1 = builtin.unrealized_conversion_cast %0 : i32 to f32
    %2 = builtin.unrealized_conversion_cast %arg0 : f32 to i64
    llvm.return %1 : f32
  }
}
