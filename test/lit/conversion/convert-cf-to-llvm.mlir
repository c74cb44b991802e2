// RUN: tileopt %s -split-input-file --convert-cf-to-llvm -verify-diagnostics | FileCheck %s

// Branches keep their successors and operands.
// CHECK-LABEL: llvm.func @branches
// CHECK:         llvm.cond_br %arg0, ^[[T:.*]](%arg1 : i32), ^[[E:.*]](%arg2 : i32)
// CHECK:       ^[[T]](%[[X:.*]]: i32):
// CHECK-NEXT:    llvm.br ^[[J:.*]](%[[X]] : i32)
// CHECK:       ^[[E]](%[[Y:.*]]: i32):
// CHECK-NEXT:    llvm.br ^[[J]](%[[Y]] : i32)
// CHECK:       ^[[J]](%[[Z:.*]]: i32):
// CHECK-NEXT:    llvm.return %[[Z]] : i32
// CHECK-NOT:     cf.
llvm.func @branches(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^t(%a : i32), ^e(%b : i32)
^t(%x: i32):
  cf.br ^j(%x : i32)
^e(%y: i32):
  cf.br ^j(%y : i32)
^j(%z: i32):
  llvm.return %z : i32
}

// -----

// A switch is a chain of equality tests in case order; the last one fails into the
// default.
// CHECK-LABEL: llvm.func @switch
// CHECK:         %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT:    %[[E5:.*]] = llvm.icmp "eq" %arg0, %[[C5]] : i32
// CHECK-NEXT:    llvm.cond_br %[[E5]], ^[[FIVE:.*]], ^[[NEXT:.*]]
// CHECK:       ^[[NEXT]]:
// CHECK-NEXT:    %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT:    %[[E7:.*]] = llvm.icmp "eq" %arg0, %[[C7]] : i32
// CHECK-NEXT:    llvm.cond_br %[[E7]], ^[[SEVEN:.*]](%arg1 : i32), ^[[LAST:.*]]
// CHECK:       ^[[LAST]]:
// CHECK-NEXT:    llvm.br ^[[DEFAULT:.*]]
llvm.func @switch(%f: i32, %a: i32) {
  cf.switch %f : i32, [
    default: ^default,
    5: ^five,
    7: ^seven(%a : i32)
  ]
^default:
  llvm.return
^five:
  llvm.return
^seven(%x: i32):
  llvm.return
}

// -----

// An assert continues where its condition holds and traps where it does not.
// CHECK-LABEL: llvm.func @assert
// CHECK:         llvm.cond_br %arg0, ^[[OK:.*]], ^[[FAIL:.*]]
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    llvm.call_intrinsic "llvm.trap"() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK:       ^[[OK]]:
// CHECK-NEXT:    llvm.return
llvm.func @assert(%c: i1) {
  cf.assert %c, "must hold"
  llvm.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @not_lowered(%c: i1) {
    // expected-error @+1 {{convert-cf-to-llvm runs after the TritonGPU lowering}}
    cf.cond_br %c, ^a, ^a
  ^a:
    tt.return
  }
}
