// RUN: tileopt %s -cse --inline --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// RUN: tileopt %s --pass-pipeline=amd-cdna3 --stop-after=ttir --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=YAML
// The pipeline, with every option spelled out, on stderr.

// CHECK: builtin.module(cse, inline{default-pipeline=canonicalize inlining-threshold=4294967295 max-iterations=4})
// YAML: builtin.module(inline{default-pipeline=canonicalize inlining-threshold=4294967295 max-iterations=4}, triton-rewrite-tensor-pointer, triton-rewrite-tensor-descriptor-to-pointer, canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, triton-combine, triton-reorder-broadcast, cse, triton-licm, symbol-dce, triton-loop-unroll)
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
}
