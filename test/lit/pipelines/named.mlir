// Named pipelines: the built-in ones, then TILEOPT_PIPELINE_PATH directories.
// The llir stages lower tt.func kernels only: a func.func input stops before them.
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=amd-cdna3 --stop-after=ttgir | FileCheck %s
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=nvidia-sm90 --stop-after=ttgir | FileCheck %s
// RUN: env TILEOPT_PIPELINE_PATH=%S/Inputs tileopt %S/Inputs/input.mlir --pass-pipeline=extended --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=PATH
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline=amd-cdna4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/nothing.yaml 2>&1 | FileCheck %s --check-prefix=NOFILE

// The YAML's passes ran: CSE merged the two additions.
// CHECK-LABEL: func.func @kernel
// CHECK-COUNT-1: arith.addi
// PATH: builtin.module(sccp, cse, test-option-probe
// UNKNOWN: error: unknown pass or pipeline 'amd-cdna4'; did you mean 'amd-cdna3'?
// NOFILE: error: no pipeline file '{{.*}}nothing.yaml'
