"""Patterns of the TritonGPU -> LLVM lowering, one module per op family.

``lowering.py`` holds the pattern table and what patterns work with; each family module
registers its patterns with ``lowering.lowers``; ``module_lowering.py`` imports every
family and drives the walk. The vendor passes (``tileopt/conversion/nvidia/``) run it
with their target hooks.
"""
