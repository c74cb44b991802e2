// RUN: tileopt %s --allow-unregistered-dialect | FileCheck %s
// RUN: tileopt %s -allow-unregistered-dialect | FileCheck %s
// RUN: not tileopt %s 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: "foo.bar"(%{{.*}}) : (i32) -> i32
// ERR: allow-unregistered-dialect.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: {{.*}}foo.bar
// ERR-NOT: Traceback
func.func @f(%a: i32) -> i32 {
  %r = "foo.bar"(%a) : (i32) -> i32
  func.return %r : i32
}
