"""Patterns of the TritonGPU -> LLVM lowering, one module per op family.

``lowering.py`` is the driver; each family module registers its patterns with
``lowering.lowers``. The vendor passes (``tileopt/conversion/nvidia/``) run the driver
with their target hooks.
"""
