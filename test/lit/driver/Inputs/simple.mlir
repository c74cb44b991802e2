func.func @simple(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %x = arith.addi %a, %c : i32
  %y = arith.addi %a, %c : i32
  %r = arith.muli %x, %y : i32
  func.return %r : i32
}
