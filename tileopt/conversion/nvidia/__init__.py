"""NVIDIA parts of the TritonGPU -> LLVM lowering: target hooks, libdevice, the passes."""
