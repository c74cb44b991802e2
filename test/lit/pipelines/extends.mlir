// extends: insert-before, insert-after, remove, replace, append, parameter defaults.
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/extended.yaml --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/extended.yaml 2>&1 >/dev/null | FileCheck %s --check-prefix=OUT

// CHECK: builtin.module(sccp, cse, test-option-probe{count=8 scale=0.25 enabled=true label=hip:gfx942/w64/t sizes=1,8 mode=fast kPack=1 warn=false}, test-option-probe{count=2 scale=0.5 enabled=false label=second-probe sizes= mode=fast kPack=1 warn=false}, canonicalize, triton-licm, cse, canonicalize)
// OUT: count=8
// OUT: count=2 {{.*}}label=second-probe
