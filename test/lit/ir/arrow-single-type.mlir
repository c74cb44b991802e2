// One result type after `->` without parentheses, as MLIR's arrow type lists take it
// (`scf.if %c -> tensor<8xi64> {`, `scf.for ... -> tensor<8xi64> : i32 {`); it prints
// in parentheses, as MLIR prints it.
// RUN: tileopt %s | FileCheck %s

// CHECK-LABEL: tt.func @single_result
// CHECK: %[[R:.+]] = scf.if %{{.+}} -> (tensor<8xi64>) {
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[R]]) -> (tensor<8xi64>)  : i32 {
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (index) {
tt.func @single_result(%c: i1, %a: tensor<8xi64>, %b: tensor<8xi64>, %n: i32, %lb: index, %ub: index, %st: index) -> tensor<8xi64> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.if %c -> tensor<8xi64> {
    scf.yield %a : tensor<8xi64>
  } else {
    scf.yield %b : tensor<8xi64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> tensor<8xi64>  : i32 {
    %t = arith.addi %acc, %a : tensor<8xi64>
    scf.yield %t : tensor<8xi64>
  }
  %k = scf.for %j = %lb to %ub step %st iter_args(%x = %lb) -> index {
    scf.yield %x : index
  }
  tt.return %s : tensor<8xi64>
}
