// The inliner alone (no clean-up pipeline afterwards), then as Triton runs it (canonicalize
// after inlining, the default).
// RUN: tileopt %s -split-input-file --inline="default-pipeline=''" | FileCheck %s
// RUN: tileopt %s -split-input-file --inline="default-pipeline=''" --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: tileopt %s -split-input-file -inline | FileCheck %s --check-prefix=CANON

// func.call: inlined, arguments mapped, the private callee erased.
// CHECK-LABEL: func.func @caller
// CHECK-NOT:     call
// CHECK:         %[[C:.*]] = arith.constant 2 : i32
// CHECK:         %[[X:.*]] = arith.muli %arg0, %[[C]] : i32
// CHECK:         %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[Y:.*]] = arith.muli %[[X]], %[[C2]] : i32
// CHECK:         return %[[Y]] : i32
// CHECK-NOT:   func.func private @double
// CANON-LABEL: func.func @caller
// CANON-NOT:     @double
// CANON:       // -----
func.func private @double(%x: i32) -> i32 {
  %c = arith.constant 2 : i32
  %y = arith.muli %x, %c : i32
  func.return %y : i32
}
func.func @caller(%arg0: i32) -> i32 {
  %r = func.call @double(%arg0) : (i32) -> i32
  %s = func.call @double(%r) : (i32) -> i32
  func.return %s : i32
}

// -----

// tt.call into a tt.func as Triton's frontend emits it: the helper's body has an
// unreachable block after its tt.return. Inlined ops get callsite(callee at call) locations.
// CHECK-LABEL: tt.func public @kernel
// CHECK-NOT:     tt.call
// CHECK:         math.exp
// CHECK-NOT:   @helper
// LOC-LABEL:   tt.func public @kernel
// LOC:           math.exp {{.*}} loc(#[[SITE:loc[0-9]*]])
// LOC:         #[[SITE]] = loc(callsite(#{{loc[0-9]*}} at #{{loc[0-9]*}}))
tt.func public @kernel(%x: f32) -> f32 {
  %r = tt.call @helper(%x) : (f32) -> f32 loc("kernel.py":10:4)
  tt.return %r : f32
}
tt.func private @helper(%x: f32) -> f32 {
  %e = math.exp %x : f32 loc("helper.py":3:8)
  tt.return %e : f32
^bb1:  // no predecessors
  %p = ub.poison : f32
  tt.return %p : f32
}

// -----

// noinline = true is respected; a recursive function is not inlined into itself.
// CHECK-LABEL: tt.func public @keeps_calls
// CHECK:         tt.call @kept
// CHECK:         tt.call @recursive
// CHECK:       tt.func private @kept
// CHECK:       tt.func private @recursive
tt.func public @keeps_calls(%x: i32) -> i32 {
  %a = tt.call @kept(%x) : (i32) -> i32
  %b = tt.call @recursive(%a) : (i32) -> i32
  tt.return %b : i32
}
tt.func private @kept(%x: i32) -> i32 attributes {noinline = true} {
  tt.return %x : i32
}
tt.func private @recursive(%x: i32) -> i32 {
  %r = tt.call @recursive(%x) : (i32) -> i32
  tt.return %r : i32
}

// -----

// Values named as Triton's frontend names tl.rand's Philox helpers (`%_0`, `%_0_1`): a
// helper inlined twice clones them twice (xDSL kept `%_0_1` as `_0` and a clone of that
// as an invalid empty name: issue 12).
// CHECK-LABEL: tt.func public @twice
// CHECK-NOT:     tt.call
// CHECK:         arith.addi %arg0, %{{.*}} : i32
// CHECK:         arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT:   @add_zero
tt.func private @add_zero(%x: i32) -> i32 {
  %_0 = arith.constant 0 : i32
  %_0_1 = arith.addi %x, %_0 : i32
  tt.return %_0_1 : i32
}
tt.func public @twice(%arg0: i32) -> i32 {
  %r = tt.call @add_zero(%arg0) : (i32) -> i32
  %s = tt.call @add_zero(%r) : (i32) -> i32
  tt.return %s : i32
}
