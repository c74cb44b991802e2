"""NVIDIA parts of the TritonGPU -> LLVM lowering: target hooks and the pass."""
