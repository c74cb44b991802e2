// A misspelt --arch is one error naming the processor (LLVM itself only warns, once per
// use, and then fails to select GPU intrinsics); --emit=cubin assembles the PTX with ptxas.
// RUN: not tileopt-translate %s --emit=ptx --arch=sm_900 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not tileopt-translate %s --emit=amdgcn --arch=gfx9421 2>&1 | FileCheck %s --check-prefix=AMDTYPO
// RUN: tileopt-translate %s --emit=cubin --arch=sm_90a -o %t.cubin
// RUN: od -An -c -N4 %t.cubin | FileCheck %s --check-prefix=ELF
// REQUIRES: ptxas

// TYPO: error: unknown GPU architecture 'sm_900': LLVM has no such NVIDIA processor; did you mean 'sm_90'?
// TYPO-NOT: is not a recognized processor
// AMDTYPO: error: unknown GPU architecture 'gfx9421': LLVM has no such AMD processor; did you mean 'gfx942'?
// ELF: 177 E L F
module {
  llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel = 1 : ui1} {
    %c = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store %c, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
