"""TritonGPU IR -> LLVM dialect (``convert-triton-gpu-to-llvm`` and its helper passes).

Layout of the package:

- ``triton_gpu_to_llvm/``: the lowering shared by every vendor. ``lowering.py`` is the
  driver (each tensor is the Python list of a thread's values, functions rebuilt in one
  walk); one module of patterns per op family (func, program_id, view_ops, elementwise,
  load_store, atomics, control_flow, reduce, scan, convert_layout, print_assert).
- ``target_hooks.py``: what a vendor supplies (ids, shuffles, barriers, memory
  instructions, atomics, math, kernel attributes); ``nvidia/hooks.py`` implements it with
  ``nvvm`` ops and inline PTX, ``nvidia/convert_triton_gpu_to_llvm.py`` is the pass.
- Layout machinery, pure Python over ``tileopt.layouts``: ``indexing.py`` (thread id ->
  element coordinates as i32 arithmetic), ``register_maps.py`` (moves within a thread),
  ``shared_layouts.py`` (GF(2)-swizzled shared-memory plans for conversions).
- ``llvm_builder.py`` (op creation with folding and a per-function prologue),
  ``type_converter.py``, ``shared_memory.py`` (allocator offsets or a stand-in, barrier
  placement).
- Small MLIR passes: ``reconcile-unrealized-casts``, ``convert-arith-to-llvm``,
  ``convert-math-to-llvm``.
"""
