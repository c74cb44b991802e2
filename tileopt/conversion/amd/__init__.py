"""AMD parts of the TritonGPU -> LLVM lowering (so far: the shared-memory allocation pass)."""
