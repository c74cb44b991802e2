// Parameters: defaults, ${name} references keeping their type, ${target.*} fields, and
// overrides from the command line as NAME{param=value ...}.
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline=%S/Inputs/base.yaml 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: tileopt %S/Inputs/input.mlir --pass-pipeline='%S/Inputs/base.yaml{num-warps=8 tag=x fast=false}' 2>&1 >/dev/null | FileCheck %s --check-prefix=OVERRIDE
// RUN: env TILEOPT_PIPELINE_PATH=%S/Inputs tileopt %S/Inputs/input.mlir --pass-pipeline='base{scale=2}' 2>&1 >/dev/null | FileCheck %s --check-prefix=NAMED
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline='%S/Inputs/base.yaml{num-warps=eight}' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not tileopt %S/Inputs/input.mlir --pass-pipeline='%S/Inputs/base.yaml{num-warp=8}' 2>&1 | FileCheck %s --check-prefix=BADNAME

// DEFAULT: remark: count=4 scale=0.25 enabled=True label=hip:gfx942/w64/t sizes=[1, 4] mode=fast kPack=1
// OVERRIDE: remark: count=8 scale=0.25 enabled=False label=hip:gfx942/w64/x sizes=[1, 8]
// NAMED: remark: count=4 scale=2.0
// BADVALUE: <pass-pipeline>:1:{{[0-9]+}}: error: parameter 'num-warps' is an int, not 'eight'
// BADNAME: error: pipeline 'base' has no parameter 'num-warp'; did you mean 'num-warps'?
