// 'set:' changes the named options of an inherited pass; the others keep what the base
// wrote, ${...} references included (count and sizes follow num-warps=16 here, or 2 given).
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/set-options.yaml --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline='%S/Inputs/set-options.yaml{num-warps=2}' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=GIVEN
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/set-options-bad.yaml 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: builtin.module(cse, test-option-probe{count=16 scale=0.75 enabled=true label=hip:gfx942/w64/t sizes=1,16 mode=slow kPack=1 warn=false}, canonicalize
// GIVEN: test-option-probe{count=2 scale=0.75 enabled=true label=hip:gfx942/w64/t sizes=1,2 mode=slow kPack=1 warn=false}
// BAD: set-options-bad.yaml:6:28: error: pass 'test-option-probe' has no option 'modes'; did you mean 'mode'?
