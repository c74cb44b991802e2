// RUN: not tileopt %s 2>&1 | FileCheck %s
// A parse error names the file, line and column, and shows no Python traceback.

// CHECK: parse-error.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: {{.*}}foo.bar{{.*}}not registered
// CHECK-NOT: Traceback
func.func @f(%a: i32) -> i32 {
  %r = "foo.bar"(%a) : (i32) -> i32
  func.return %r : i32
}
