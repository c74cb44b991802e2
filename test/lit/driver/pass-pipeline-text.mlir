// MLIR pipeline text: op-anchored nesting, options in {...}; builtin.module(...) optional.
// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --dump-pass-pipeline 2>&1 | FileCheck %s
// RUN: tileopt %s --pass-pipeline='cse, canonicalize' | FileCheck %s --check-prefix=OUT
// RUN: tileopt %s --load-pass-plugin=%S/Inputs/test_passes.py --pass-pipeline='builtin.module(func.func(test-option-probe{count=7 label="a b"}))' 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not tileopt %s --pass-pipeline='builtin.module(func.func(inline))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not tileopt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tileopt %s --pass-pipeline='cse' --canonicalize 2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK: builtin.module(func.func(cse), canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true})
// OUT-COUNT-1: arith.addi
// OPTS: remark: count=7 scale=0.5 enabled=False label=a b
// ANCHOR: error: pass 'inline' runs on 'builtin.module' and cannot be nested under 'func.func'
// SYNTAX: <pass-pipeline>:1:19: error: expected ',' or ')' in pass pipeline, found 'end of text'
// BOTH: error: --pass-pipeline cannot be combined with pass flags (--canonicalize)
func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.addi %a, %a : i32
  %r = arith.muli %x, %y : i32
  func.return %r : i32
}
