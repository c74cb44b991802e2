// extends: insert-before, insert-after, remove, replace, append, parameter defaults.
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/extended.yaml --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/extended.yaml 2>&1 >/dev/null | FileCheck %s --check-prefix=OUT

// CHECK: builtin.module(sccp, cse, test-option-probe{count=8 scale=0.25 enabled=true label=hip:gfx942/w64/t sizes=1,8 mode=fast kPack=1 warn=false}, test-option-probe{count=2 scale=0.5 enabled=false label=second-probe mode=fast kPack=1 warn=false}, canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, triton-licm, cse, canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true})
// OUT: count=8
// OUT: count=2 {{.*}}label=second-probe
