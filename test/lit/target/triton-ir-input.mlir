// tileopt-translate (and tileopt --emit) given Triton IR says which stages are missing and
// how to run them, the pipeline named from the module's ttg.target.
// RUN: not tileopt-translate --emit=ptx --split-input-file %s 2>&1 | FileCheck %s --check-prefix=TTGIR
// RUN: not tileopt-translate --emit=llvm-ir %S/Inputs/ttir-add.mlir 2>&1 | FileCheck %s --check-prefix=TTIR
// RUN: not tileopt --emit=llvm-ir %S/Inputs/ttir-add.mlir 2>&1 | FileCheck %s --check-prefix=TTIR

// TTGIR: triton-ir-input.mlir:[[# @LINE + 2]]:3: error: the input is TritonGPU IR (TTGIR), not the LLVM dialect yet: the 'llir' stage is missing; run tileopt --pass-pipeline=nvidia-sm90 --start-at=llir FILE first ('tt.func' cannot be translated to LLVM IR)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @k() {
    tt.return
  }
}
// TTIR: ttir-add.mlir:2:3: error: the input is Triton IR (TTIR), not the LLVM dialect yet: the 'ttgir' and 'llir' stages are missing; run tileopt --pass-pipeline=PIPELINE --start-at=ttgir FILE (PIPELINE: see tileopt --list-pipelines) first ('tt.func' cannot be translated to LLVM IR)
