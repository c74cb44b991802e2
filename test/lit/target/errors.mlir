// Errors of the back end are diagnostics, never tracebacks or crashes. The kernel below
// uses a Hopper-only instruction (wgmma fence): fine for sm_90a, refused for sm_80 by
// LLVM's instruction selection, which would abort the process if it ran in it.

// RUN: tileopt-translate %s --emit=ptx --arch=sm_90a | FileCheck %s --check-prefix=OK
// RUN: not tileopt-translate %s --emit=ptx --arch=sm_80 2>&1 | FileCheck %s --check-prefix=SELECT
// RUN: not tileopt-translate %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOARCH
// RUN: not tileopt-translate %s --emit=ptx --arch=gfx942 2>&1 | FileCheck %s --check-prefix=VENDOR
// RUN: not tileopt-translate %s --emit=ptx --arch=pentium 2>&1 | FileCheck %s --check-prefix=ARCH

// OK:     wgmma.fence.sync.aligned;
// SELECT: error: LLVM failed during PTX generation for sm_80: Cannot select: intrinsic %llvm.nvvm.wgmma.fence.sync.aligned
// NOARCH: error: --emit=ptx needs a GPU: give --arch (e.g. sm_90a or gfx942)
// VENDOR: error: PTX is for NVIDIA GPUs; 'gfx942' is an AMD GPU
// ARCH:   error: unknown GPU architecture 'pentium'

module {
  llvm.func @fence() attributes {nvvm.kernel} {
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}
