// RUN: not tileopt %s --reconcile-unrealized-casts 2>&1 | FileCheck %s


// A cast whose value is really needed means something was left unlowered.
// CHECK: error: failed to legalize unresolved materialization: a value of type f32 is still needed as i32
module {
  llvm.func @needed(%arg0: f32) -> i32 {
    %0 = builtin.unrealized_conversion_cast %arg0 : f32 to i32
    llvm.return %0 : i32
  }
}
