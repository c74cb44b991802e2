// --mlir-pass-statistics: MLIR's "Pass statistics report" on stderr, passes (by class name)
// under their nesting, each statistic as "(S) value name - description".
// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse, canonicalize), cse)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --strict-whitespace
// RUN: tileopt %s --cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty

// CHECK:      {{^}}===-------------------------------------------------------------------------==={{$}}
// CHECK-NEXT: {{^}}                         ... Pass statistics report ...{{$}}
// CHECK-NEXT: {{^}}===-------------------------------------------------------------------------==={{$}}
// CHECK-NEXT: {{^}}'func.func' Pipeline{{$}}
// CHECK-NEXT: {{^}}  CSE{{$}}
// The duplicate addi and the unused one.
// CHECK-NEXT: {{^}}    (S) 2 num-cse'd - Number of operations CSE'd (or erased as dead){{$}}
// CHECK-NEXT: {{^}}  Canonicalize{{$}}
// CHECK-NEXT: {{^}}    (S) 1 num-patterns-applied - Number of canonicalization patterns applied{{$}}
// CHECK-NEXT: {{^}}CSE{{$}}
// CHECK-NEXT: {{^}}  (S) 0 num-cse'd - Number of operations CSE'd (or erased as dead){{$}}
// NONE-NOT: statistics
func.func @f(%a: i32, %b: i1) -> i32 {
  %unused = arith.addi %a, %a : i32
  %1 = arith.muli %a, %a : i32
  %2 = arith.muli %a, %a : i32
  %3 = arith.addi %1, %2 : i32
  %4 = arith.select %b, %3, %3 : i32
  func.return %4 : i32
}
