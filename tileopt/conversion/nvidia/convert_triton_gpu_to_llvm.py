"""``convert-triton-gpu-to-llvm``: TritonGPU IR -> LLVM dialect + ``nvvm`` for NVIDIA GPUs.

Triton's pass of the same name (``third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/
TritonGPUToLLVM.cpp``, options from its ``Passes.td``). The lowering itself is shared
with AMD (``tileopt/conversion/triton_gpu_to_llvm/``); this pass supplies the NVIDIA
target hooks. Structured control flow may still be present (it is lowered directly,
keeping axis information for loads in loops) or already be ``cf`` (Triton's pipeline runs
``convert-scf-to-cf`` first). The result contains no TritonGPU ops and no unrealized
casts: it is ready for ``tileopt-translate``.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

# Registers the lowering of the NVIDIA-only ttng ops (wgmma and its fences, TMA, mbarriers).
from tileopt.conversion.nvidia import tma, wgmma  # noqa: F401
from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.conversion.nvidia.target_options import NvidiaPass
from tileopt.conversion.triton_gpu_to_llvm.module_lowering import ModuleLowering, lowering_units
from tileopt.passes import PassFailure, register_pass


@register_pass
class ConvertTritonGPUToLLVM(NvidiaPass):
    """Convert TritonGPU to LLVM (NVIDIA: nvvm ops and inline PTX)."""

    name = "convert-triton-gpu-to-llvm"

    def apply(self, ctx: Context, op: Operation) -> None:
        if not isinstance(op, ModuleOp):
            raise PassFailure(op, "convert-triton-gpu-to-llvm runs on a builtin.module")
        for unit in lowering_units(op):
            ModuleLowering(unit, NvidiaHooks(self.compute_capability, self.ptx_version)).run()
