// RUN: tileopt %s | FileCheck %s
// RUN: tileopt - < %s | FileCheck %s
// RUN: tileopt %s -o %t && FileCheck %s --input-file=%t
// A file goes through parse, verify and print unchanged.

// CHECK-LABEL: func.func @add_one
// CHECK:         %[[C:.*]] = arith.constant 1 : i32
// CHECK:         arith.addi %{{.*}}, %[[C]] : i32
func.func @add_one(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %r = arith.addi %a, %c : i32
  func.return %r : i32
}
