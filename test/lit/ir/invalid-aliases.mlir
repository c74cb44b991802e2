// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// Attribute aliases and locations that cannot be resolved.
// CLEAN-NOT: {{Traceback|internal error}}

// A location alias that is never defined.
// CHECK: {{.*}}invalid-aliases.mlir:9:35: error: undefined symbol alias '#nowhere'
module {
  %0 = arith.constant 1 : i32 loc(#nowhere)
}

// -----

// A layout alias that is never defined.
// CHECK: {{.*}}invalid-aliases.mlir:17:48: error: undefined symbol alias '#blocked'
module {
  %0 = arith.constant dense<0> : tensor<4xi32, #blocked>
}

// -----

// An alias defined twice.
// CHECK: {{.*}}invalid-aliases.mlir:27:1: error: redefinition of attribute alias '#loc'
#loc = loc(unknown)
module {
}
#loc = loc("kernels.py":1:1)

// -----

// Aliases that only refer to each other.
// CHECK: {{.*}}invalid-aliases.mlir:36:1: error: alias '#a' is defined in terms of itself
module {
  %0 = arith.constant 1 : i32 loc(#a)
}
#a = loc("x"(#b))
#b = loc("y"(#a))

// -----

// An alias of something that is not a location, used as a location.
// CHECK: {{.*}}invalid-aliases.mlir:44:35: error: expected location, but '#notaloc' is not one
module {
  %0 = arith.constant 1 : i32 loc(#notaloc)
}
#notaloc = 42 : i32

// -----

// A location kind MLIR does not have.
// CHECK: {{.*}}invalid-aliases.mlir:53:35: error: unknown location kind 'sideways'
module {
  %0 = arith.constant 1 : i32 loc(sideways)
}

// -----

// A file location without a line number.
// CHECK: {{.*}}invalid-aliases.mlir:61:48: error: expected integer literal as line number in location
module {
  %0 = arith.constant 1 : i32 loc("kernels.py":x:1)
}

// -----

// A call site location without 'at'.
// CHECK: {{.*}}invalid-aliases.mlir:69:55: error: expected 'at' in callsite location
module {
  %0 = arith.constant 1 : i32 loc(callsite("a.py":1:1 "b.py":2:2))
}

// -----

// A fused location that is not a list.
// CHECK: {{.*}}invalid-aliases.mlir:77:40: error: '[' expected in fused location
module {
  %0 = arith.constant 1 : i32 loc(fused("a.py":1:1))
}

// -----

// A type alias cut short.
// CHECK: {{.*}}invalid-aliases.mlir:[[# @LINE + 1]]:22: error: expected '>'
!mytype = !tt.ptr<f32
module {
}
