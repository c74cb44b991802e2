// RUN: tileopt %s -symbol-dce | FileCheck %s
// Private symbols nothing live refers to are erased, also ones only dead symbols call.

// CHECK-NOT:  @dead
// CHECK-NOT:  @only_called_by_dead
// CHECK:      func.func private @used
// CHECK:      func.func @main
// CHECK:      func.func @public_unused
func.func private @dead(%x: i32) -> i32 {
  %y = func.call @only_called_by_dead(%x) : (i32) -> i32
  func.return %y : i32
}
func.func private @only_called_by_dead(%x: i32) -> i32 {
  func.return %x : i32
}
func.func private @used(%x: i32) -> i32 {
  func.return %x : i32
}
func.func @main(%a: i32) -> i32 {
  %r = func.call @used(%a) : (i32) -> i32
  func.return %r : i32
}
func.func @public_unused() {
  func.return
}
