"""The options every NVIDIA pass of the lowering takes (Triton's ``Passes.td`` spelling)."""

from __future__ import annotations

from dataclasses import dataclass

from tileopt.passes import Pass, option


@dataclass(frozen=True)
class NvidiaPass(Pass):
    """Base of the NVIDIA lowering passes: the GPU's compute capability and PTX version."""

    compute_capability: int = option(80, "device compute capability")
    ptx_version: int = option(80, "PTX version")
