// A translation error points at the op that caused it, in the input file.

// RUN: not tileopt-translate %s --emit=llvm-ir 2>&1 | FileCheck %s -DFILE=%s

// CHECK: [[FILE]]:10:5: error: LLVM rejects the translation of 'llvm.bitcast': invalid cast opcode for cast from 'i32' to 'i64'
// CHECK-NOT: Traceback

module {
  llvm.func @k(%a: i32, %p: !llvm.ptr<1>) {
    %0 = llvm.bitcast %a : i32 to i64
    llvm.store %0, %p : i64, !llvm.ptr<1>
    llvm.return
  }
}
