// One or two dashes, values after '=' or as the next argument, pass options as
// -pass=a=1, --pass="a=1 b=2" and -pass='{a=1}': LLVM's command line, as triton-opt takes it.
// RUN: tileopt %s -cse | FileCheck %s
// RUN: tileopt %s --cse | FileCheck %s
// RUN: tileopt -cse -o - %s | FileCheck %s
// RUN: tileopt %s -load-pass-plugin %S/Inputs/test_passes.py -test-option-probe=count=3 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-option-probe="count=3 label='two words' sizes=1,2,4 kPack=2" 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --test-option-probe='{enabled scale=2.5 mode=slow}' 2>&1 | FileCheck %s --check-prefix=BRACED
// RUN: tileopt %s -split-input-file=true --verify-each=false -cse | FileCheck %s

// CHECK-COUNT-1: arith.addi
// ONE: remark: count=3 scale=0.5 enabled=False label=none sizes=[] mode=fast kPack=1
// MANY: remark: count=3 scale=0.5 enabled=False label=two words sizes=[1, 2, 4] mode=fast kPack=2
// BRACED: remark: count=1 scale=2.5 enabled=True label=none sizes=[] mode=slow kPack=1
func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.addi %a, %a : i32
  %r = arith.muli %x, %y : i32
  func.return %r : i32
}
