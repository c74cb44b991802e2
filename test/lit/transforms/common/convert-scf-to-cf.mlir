// RUN: tileopt %s -split-input-file -convert-scf-to-cf | FileCheck %s
// RUN: tileopt %s -split-input-file -convert-scf-to-cf --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// scf.for: a header block tests iv < ub; the body steps the iv and branches back.
// CHECK-LABEL: func.func @for_loop
// CHECK-SAME:  (%[[N:[a-z0-9_]+]]: i32)
// CHECK:         cf.br ^bb1(%{{.*}}, %{{.*}} : i32, i32)
// CHECK:       ^bb1(%[[IV:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK:         %[[CMP:.*]] = arith.cmpi slt, %[[IV]], %[[N]] : i32
// CHECK:         cf.cond_br %[[CMP]], ^bb2, ^bb3
// CHECK:       ^bb2:
// CHECK:         cf.br ^bb1
// CHECK:       ^bb3:
// CHECK:         return %[[ACC]]
// CHECK-NOT:     scf.
// LOC-LABEL: func.func @for_loop
// LOC:         arith.cmpi slt, {{.*}} loc(#[[FOR:loc[0-9]*]])
// LOC:       #[[FOR]] = loc("loop.py":4:2)
func.func @for_loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  } loc("loop.py":4:2)
  func.return %r : i32
}

// -----

// scf.if with results: two branches joining in a block with an argument.
// CHECK-LABEL: func.func @if_else
// CHECK-SAME:  (%[[B:[a-z0-9_]+]]: i1, %[[X:[a-z0-9_]+]]: i32, %[[Y:[a-z0-9_]+]]: i32)
// CHECK:         cf.cond_br %[[B]], ^bb1, ^bb2
// CHECK:       ^bb1:
// CHECK:         cf.br ^bb3(%[[X]] : i32)
// CHECK:       ^bb2:
// CHECK:         cf.br ^bb3(%[[Y]] : i32)
// CHECK:       ^bb3(%[[V:.*]]: i32):
func.func @if_else(%b: i1, %x: i32, %y: i32) -> i32 {
  %r = scf.if %b -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  func.return %r : i32
}

// -----

// scf.while: the "before" block tests, the "after" block branches back to it.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME:  (%[[INIT:[a-z0-9_]+]]: i32, %[[N:[a-z0-9_]+]]: i32)
// CHECK:         cf.br ^bb1(%[[INIT]] : i32)
// CHECK:       ^bb1(%[[X:.*]]: i32):
// CHECK:         %[[C:.*]] = arith.cmpi slt, %[[X]], %[[N]] : i32
// CHECK:         cf.cond_br %[[C]], ^bb2(%[[X]] : i32), ^bb3(%[[X]] : i32)
// CHECK:       ^bb2(%[[Y:.*]]: i32):
// CHECK:         cf.br ^bb1(%{{.*}} : i32)
// CHECK:       ^bb3(%[[W:.*]]: i32):
// CHECK:         return %[[W]] : i32
func.func @while_loop(%init: i32, %n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %w = scf.while (%x = %init) : (i32) -> i32 {
    %c = arith.cmpi slt, %x, %n : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %y2 = arith.addi %y, %c1 : i32
    scf.yield %y2 : i32
  }
  func.return %w : i32
}
