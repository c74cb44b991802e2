"""Which GPU a translation is for: the architecture names people type, and what LLVM needs.

``sm_90a``, ``sm90``, ``cuda:90`` (Triton's ``ttg.target``) name an NVIDIA GPU;
``gfx942``, ``hip:gfx942`` an AMD one. A ``GPUTarget`` carries the LLVM triple, CPU name and
feature string that Triton 3.6 hands LLVM for that GPU, so that tileopt's PTX and AMDGCN
come from the same code generator settings as Triton's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.ir import Operation

from tileopt.dialects.ttg import target_name
from tileopt.ir import TileoptError

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
AMDGCN_TRIPLE = "amdgcn-amd-amdhsa"

# Triton 3.6 with CUDA 12.8+ asks LLVM for PTX ISA 8.7 (``.version 8.7`` in every corpus
# PTX file); LLVM 22 supports it for every architecture up to sm_120a.
DEFAULT_PTX_VERSION = 87

# Wave size of each AMD generation family (RDNA gfx10/gfx11/gfx12 run wave32 by default).
_WAVE32_PREFIXES = ("gfx10", "gfx11", "gfx12")


@dataclass(frozen=True)
class GPUTarget:
    vendor: str  # "nvidia" or "amd"
    arch: str  # LLVM CPU name: "sm_90a", "gfx942"
    ptx_version: int = DEFAULT_PTX_VERSION
    amd_features: str = ""  # "+sramecc,-xnack" from "gfx942:sramecc+:xnack-"

    @property
    def is_nvidia(self) -> bool:
        return self.vendor == "nvidia"

    @property
    def is_amd(self) -> bool:
        return self.vendor == "amd"

    @property
    def triple(self) -> str:
        return NVPTX_TRIPLE if self.is_nvidia else AMDGCN_TRIPLE

    @property
    def features(self) -> str:
        """The LLVM feature string Triton uses: the PTX ISA version, nothing for AMD."""
        return f"+ptx{self.ptx_version}" if self.is_nvidia else self.amd_features

    @property
    def capability(self) -> int | None:
        """``90`` for ``sm_90a``; None for AMD."""
        if not self.is_nvidia:
            return None
        return int(re.match(r"sm_(\d+)", self.arch).group(1))

    @property
    def warp_size(self) -> int:
        if self.is_nvidia:
            return 32
        return 32 if self.arch.startswith(_WAVE32_PREFIXES) else 64


def _nvidia_arch_from_capability(capability: int) -> str:
    # Triton compiles sm_90 and newer for the architecture-specific "a" variant (wgmma, TMA).
    return f"sm_{capability}a" if capability >= 90 else f"sm_{capability}"


def parse_arch(arch: str) -> GPUTarget:
    """``sm_90a`` / ``sm90`` / ``cuda:90`` / ``gfx942`` / ``hip:gfx942`` -> ``GPUTarget``."""
    text = arch.strip().lower()
    if match := re.fullmatch(r"(?:cuda:)(\d+)", text):
        return GPUTarget("nvidia", _nvidia_arch_from_capability(int(match.group(1))))
    if match := re.fullmatch(r"sm_?(\d+)([af]?)", text):
        return GPUTarget("nvidia", f"sm_{match.group(1)}{match.group(2)}")
    if match := re.fullmatch(r"(?:hip:)?(gfx[0-9a-f]+)((?::[a-z-]+[+-])*)", text):
        # Target-id feature suffixes (``:sramecc+:xnack-``) become LLVM features.
        features = ",".join(f"{f[-1]}{f[:-1]}" for f in match.group(2).split(":") if f)
        return GPUTarget("amd", match.group(1), amd_features=features)
    raise TileoptError(
        f"unknown GPU architecture '{arch}' (expected e.g. sm_80, sm_90a, cuda:90, gfx942, "
        "gfx1100 or hip:gfx942)")


def target_of_module(module: Operation) -> GPUTarget | None:
    """The target named by a module's ``ttg.target`` attribute (``cuda:90``), if any."""
    value = target_name(module)
    if not value:
        return None
    try:
        return parse_arch(value)
    except TileoptError:
        return None
