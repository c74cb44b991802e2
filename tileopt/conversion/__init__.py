"""TritonGPU IR -> LLVM dialect (``convert-triton-gpu-to-llvm`` and its helper passes).

Layout of the package:

- ``triton_gpu_to_llvm/``: the lowering shared by every vendor. ``lowering.py`` holds the
  pattern table and the state patterns see (each tensor is the Python list of a thread's
  values), ``module_lowering.py`` the driver (functions rebuilt in one walk); one module
  of patterns per op family (program_id, view_ops, elementwise, load_store, atomics,
  control_flow, reduce, scan, convert_layout, print_assert).
- ``target_hooks.py``: what a vendor supplies (ids, shuffles, barriers, shared-memory
  banks, memory instructions, atomics, math and its device library, printf, assert,
  kernel attributes; ``docs/lowering.md`` lists them).
- ``nvidia/``: ``hooks.py`` implements the hooks with ``nvvm`` ops and inline PTX,
  ``libdevice.py`` the libdevice functions written out inline, and the passes
  ``convert-triton-gpu-to-llvm`` and ``allocate-shared-memory-nv``. ``amd/``: the pass
  ``allocate-amdgpu-shared-memory`` (the AMD lowering is not written yet).
- ``allocate_shared_memory.py``: the generic ``allocate-shared-memory`` pass and the
  allocation step the vendor passes share (Triton keeps it beside its lowering too).
- Layout machinery, pure Python over ``tileopt.layouts``: ``indexing.py`` (thread id ->
  element coordinates as i32 arithmetic), ``register_maps.py`` (moves within a thread),
  ``shared_layouts.py`` (GF(2)-swizzled shared-memory plans for conversions).
- ``llvm_builder.py`` (op creation with folding and a per-function prologue),
  ``type_converter.py``, ``shared_memory.py`` (allocator offsets or a stand-in, barrier
  placement).
- Small MLIR passes: ``reconcile-unrealized-casts``, ``convert-arith-to-llvm`` and
  ``convert-math-to-llvm`` (``scalar_lowering.py``).
"""
