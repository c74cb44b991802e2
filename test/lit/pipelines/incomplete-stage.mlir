// A stage that lists passes tileopt does not run yet (tagged !missing in its YAML) warns,
// once per run, naming the stage and the skipped passes; the exit status stays 0
// (issue 16, item 2).
// RUN: tileopt %s --pass-pipeline=amd-cdna3 -split-input-file -o %t 2>&1 | FileCheck %s
// RUN: tileopt %s --pass-pipeline=amd-cdna3 --stop-after=ttir 2>&1 | FileCheck %s --check-prefix=TTIR
// RUN: tileopt %s --pass-pipeline=amd-cdna3 --start-at=llir -o %t 2>&1 | FileCheck %s --check-prefix=LLIR
// RUN: tileopt %s --pass-pipeline=%S/Inputs/partial.yaml -o %t 2>&1 | FileCheck %s --check-prefix=OWN

// amd-cdna3's ttgir stage runs every pass Triton runs there, so only its llir stage warns.
// CHECK-NOT: stage 'ttgir'
// CHECK: warning: stage 'llir' of pipeline 'amd-cdna3' is incomplete: it skips gluon-inline, convert-index-to-llvm (not run by tileopt yet)
// CHECK-NOT: warning

// TTIR-NOT: warning
// TTIR: tt.func public @kernel

// LLIR-NOT: stage 'ttgir'
// LLIR: warning: stage 'llir' of pipeline 'amd-cdna3' is incomplete
// LLIR-NOT: warning

// OWN: warning: stage 'second' of pipeline 'partial' is incomplete: it skips my-future-pass (not run by tileopt yet)
// OWN-NOT: warning
tt.func public @kernel(%p: !tt.ptr<i32>) {
  tt.return
}

// -----

tt.func public @other(%p: !tt.ptr<i32>) {
  tt.return
}
