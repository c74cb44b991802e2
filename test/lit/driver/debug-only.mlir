// -debug-only=NAME: each pass has a debug channel named as the pass (LLVM's DEBUG_TYPE); the
// channels named print their messages, "[name] message", on stderr, the others nothing.
// RUN: tileopt %s --pass-pipeline='builtin.module(cse, func.func(canonicalize))' -debug-only=canonicalize -o /dev/null 2>&1 | FileCheck %s
// RUN: tileopt %s --cse --canonicalize --debug-only=cse,canonicalize -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: tileopt %s --cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty

// CHECK-NOT: [cse]
// CHECK: [canonicalize] running on 'func.func' @f
// CHECK-NEXT: [canonicalize] ArithCanonicalization applied to 'arith.select'
// CHECK-NOT: [cse]
// BOTH: [cse] running on 'builtin.module'
// BOTH-NEXT: [canonicalize] running on 'builtin.module'
// NONE-NOT: [
func.func @f(%a: i32, %b: i1) -> i32 {
  %0 = arith.select %b, %a, %a : i32
  func.return %0 : i32
}
