// --stop-after / --start-at run part of a staged YAML pipeline.
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/base.yaml --stop-after=first --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=STOP
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/base.yaml --start-at=second --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=START
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/base.yaml -start-at=second -stop-after=second --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ONLY
// RUN: tileopt %S/Inputs/kernel.mlir --pass-pipeline=amd-cdna3 --start-at=llir --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BUILTIN
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/base.yaml --stop-after=secnd 2>&1 | FileCheck %s --check-prefix=BADSTAGE
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/base.yaml --start-at=third --stop-after=first 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not tileopt %S/Inputs/input.mlir -cse --stop-after=ttir 2>&1 | FileCheck %s --check-prefix=NOSTAGES

// STOP: builtin.module(cse, test-option-probe{{.*}})
// START: builtin.module(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, symbol-dce, cse)
// ONLY: builtin.module(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, symbol-dce)
// BUILTIN: IR Dump After ConvertSCFToCF (convert-scf-to-cf)
// BADSTAGE: error: --stop-after: pipeline 'base' has no stage 'secnd'; did you mean 'second'?
// ORDER: error: --start-at=third comes after --stop-after=first
// NOSTAGES: error: --start-at/--stop-after need a YAML pipeline with stages
