// --mlir-print-value-users: after each op a comment naming the users of its results, after a
// block header a line per argument, worded as MLIR's printer words them. A user is named by
// its results; an op without results by an id (%opN: tileopt numbers those apart from the
// values, whose names stay as without the flag).
// RUN: tileopt --allow-unregistered-dialect --mlir-print-value-users %s | FileCheck %s
// RUN: tileopt --allow-unregistered-dialect %s | FileCheck %s --check-prefix=PLAIN

// CHECK: func.func @f(%[[A0:[^:]+]]: i32, %[[A1:[^:]+]]: i32, %[[A2:[^:]+]]: i32) -> i32 {
// CHECK-NEXT: // %[[A0]] is used by %[[SUM:[^,]+]], %[[DEAD:[^,]+]], %[[ID:op[0-9]+]]{{$}}
// CHECK-NEXT: // %[[A1]] is used by %[[SUM]], %[[DEAD]]{{$}}
// CHECK-NEXT: // %[[A2]] is unused
// A result-less op without operands gets no comment.
// CHECK-NEXT: "test.noop"() : () -> (){{$}}
// CHECK-NEXT: "test.sink"(%[[A0]]) : (i32) -> () // id: %[[ID]]{{$}}
// CHECK-NEXT: %[[DEAD]] = "test.pair"(%[[A0]], %[[A1]]) : (i32, i32) -> i32 // unused
// One user with two results: "users", each result named.
// CHECK-NEXT: %[[SUM]] = "test.pair"(%[[A0]], %[[A1]]) : (i32, i32) -> i32 // users: %[[TWO:[^#]+]]#0, %[[TWO]]#1{{$}}
// Several results: each result's users in parentheses.
// CHECK-NEXT: %[[TWO]]:2 = "test.split"(%[[SUM]]) : (i32) -> (i32, i32) // users: (%[[LAST:[^,]+]], %[[X:[^)]+]]), (%[[LAST]], %[[Y:[^)]+]]){{$}}
// CHECK-NEXT: %[[OTHER:.+]]:2 = "test.split"() : () -> (i32, i32) // users: (%[[SINK2:op[0-9]+]]), (unused)
// One user with one result, using the value once: "user".
// CHECK-NEXT: %[[X]] = "test.use"(%[[TWO]]#0) : (i32) -> i32 // user: %[[Y]]{{$}}
// CHECK-NEXT: %[[Y]] = "test.use"(%[[TWO]]#1, %[[X]], %[[X]]) : (i32, i32, i32) -> i32 // unused
// CHECK-NEXT: %[[LAST]] = "test.use"(%[[TWO]]#0, %[[TWO]]#1) : (i32, i32) -> i32 // users: %[[RET:op[0-9]+]], %[[SINK1:op[0-9]+]]{{$}}
// CHECK-NEXT: "test.sink"(%[[LAST]]) : (i32) -> () // id: %[[SINK1]]{{$}}
// CHECK-NEXT: "test.sink"(%[[OTHER]]#0) : (i32) -> () // id: %[[SINK2]]{{$}}
// CHECK-NEXT: return %[[LAST]] : i32 // id: %[[RET]]{{$}}
// PLAIN-NOT: //
func.func @f(%a: i32, %b: i32, %c: i32) -> i32 {
  "test.noop"() : () -> ()
  "test.sink"(%a) : (i32) -> ()
  %dead = "test.pair"(%a, %b) : (i32, i32) -> i32
  %sum = "test.pair"(%a, %b) : (i32, i32) -> i32
  %two:2 = "test.split"(%sum) : (i32) -> (i32, i32)
  %other:2 = "test.split"() : () -> (i32, i32)
  %x = "test.use"(%two#0) : (i32) -> i32
  %y = "test.use"(%two#1, %x, %x) : (i32, i32, i32) -> i32
  %last = "test.use"(%two#0, %two#1) : (i32, i32) -> i32
  "test.sink"(%last) : (i32) -> ()
  "test.sink"(%other#0) : (i32) -> ()
  func.return %last : i32
}
