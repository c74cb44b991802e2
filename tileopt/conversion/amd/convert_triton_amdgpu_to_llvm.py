"""``convert-triton-amdgpu-to-llvm``: TritonGPU IR -> LLVM dialect + ``rocdl`` for AMD GPUs.

Triton's pass of the same name (``third_party/amd/lib/TritonAMDGPUToLLVM``, options
``arch`` and ``ftz`` from its ``Passes.td``). The lowering is the one NVIDIA uses
(``tileopt/conversion/triton_gpu_to_llvm/``) with the AMD target hooks (``hooks.py``) and
the AMD-only ``amdg`` buffer operations (``buffer_ops.py``). The result holds no
TritonGPU op: ``tileopt-translate --emit=hsaco --arch=...`` takes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

# Registers the lowering of the amdg buffer operations, in_thread_transpose and the hints.
from tileopt.conversion.amd import buffer_ops, register_ops  # noqa: F401
from tileopt.conversion.amd.hooks import AmdHooks
from tileopt.conversion.amd.isa import AmdIsa
from tileopt.conversion.triton_gpu_to_llvm.module_lowering import ModuleLowering, lowering_units
from tileopt.ir import TileoptError
from tileopt.passes import Pass, PassFailure, option, register_pass


@register_pass
@dataclass(frozen=True)
class ConvertTritonAMDGPUToLLVM(Pass):
    """Convert TritonGPU to LLVM (AMD: rocdl ops and LLVM's AMDGPU intrinsics)."""

    name = "convert-triton-amdgpu-to-llvm"

    arch: str = option("", "gfx target device architecture, e.g. gfx942")
    ftz: bool = option(True, "flush denorms for math functions")

    def apply(self, ctx: Context, op: Operation) -> None:
        if not isinstance(op, ModuleOp):
            raise PassFailure(op, "convert-triton-amdgpu-to-llvm runs on a builtin.module")
        for unit in lowering_units(op):
            arch = self.arch or _module_arch(unit)
            try:
                isa = AmdIsa.of(arch)
            except TileoptError as err:
                raise PassFailure(unit, str(err)) from None
            ModuleLowering(unit, AmdHooks(isa)).run()


def _module_arch(module: ModuleOp) -> str:
    """The arch of the module's ``ttg.target = "hip:gfx942"``, or '' when it names none."""
    target = module.attributes.get("ttg.target")
    text = getattr(target, "data", "")
    return text.split(":", 1)[1] if text.startswith("hip:") else ""
