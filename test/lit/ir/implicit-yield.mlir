// scf.if and scf.for bodies written without their scf.yield get MLIR's implicit one, also
// after an op of an unregistered dialect (MLIR's ensureRegionTerminator asks hasTrait, which
// is false for an unregistered op; Triton's TritonGPU/loop-schedule.mlir relies on it). The
// yield is elided again when printed.
// RUN: tileopt %s -allow-unregistered-dialect | FileCheck %s
// RUN: tileopt %s -allow-unregistered-dialect | tileopt -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: tt.func @unregistered_last
// CHECK:      scf.if %arg0 {
// CHECK-NEXT:   "use"(%arg1) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[I:.+]] = %arg1 to %arg1 step %arg1  : i32 {
// CHECK-NEXT:   "use"(%[[I]]) : (i32) -> ()
// CHECK-NEXT: }
tt.func @unregistered_last(%c: i1, %x: i32) {
  scf.if %c {
    "use"(%x) : (i32) -> ()
  }
  scf.for %i = %x to %x step %x : i32 {
    "use"(%i) : (i32) -> ()
  }
  tt.return
}
