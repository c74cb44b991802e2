// A part that holds only alias definitions is an empty module, as MLIR reads it (the first
// `// -----` part of Triton's TritonGPU/dot-operands.mlir is such a part).
// RUN: tileopt %s -split-input-file | FileCheck %s

// CHECK:      module {
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK:      tt.func @after
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

tt.func @after() {
  tt.return
}
