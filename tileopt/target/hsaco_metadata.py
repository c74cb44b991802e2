"""The resources of each kernel in an AMD code object: registers, LDS, scratch, wave size.

Two places carry the same figures, and both are read here so that a comparison takes both
sides from one reader:

- an hsaco (or the relocatable object LLVM emits before ``ld.lld``): an ELF file for
  ``EM_AMDGPU`` whose note of owner ``AMDGPU`` and type ``NT_AMDGPU_METADATA`` (32) holds
  the code object metadata (v3 and later) as MessagePack;
- AMDGCN assembly (Triton's ``.amdgcn``, ``tileopt-translate --emit=amdgcn``): the same
  metadata as YAML between ``.amdgpu_metadata`` and ``.end_amdgpu_metadata``.

The keys are those of LLVM's AMDGPUUsage "Code Object V3+ Metadata" table
(``.vgpr_count``, ``.group_segment_fixed_size``, ...). On gfx90a and later (gfx942) the
register file is unified: ``.vgpr_count`` already counts the AGPRs (after the VGPRs rounded
up to 4), and ``.agpr_count`` says how many of them are AGPRs.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import msgpack
import yaml
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from tileopt.conversion.shared_memory import TOTAL_ATTR
from tileopt.ir import TileoptError
from tileopt.target.amdgpu_occupancy import ARCHES, occupancy

EM_AMDGPU = 224
NT_AMDGPU_METADATA = 32
_SHT_NOTE = 7
_NOTE_OWNER = b"AMDGPU"
_METADATA_BLOCK = re.compile(r"^\s*\.amdgpu_metadata\s*$(.*?)^\s*\.end_amdgpu_metadata",
                             re.M | re.S)


@dataclass(frozen=True)
class KernelResources:
    """One kernel's entry of ``amdhsa.kernels``."""

    name: str
    kernarg_segment_size: int
    wavefront_size: int
    group_segment_size: int  # static LDS bytes; Triton's LDS is dynamic (launch-time) on top
    private_segment_size: int  # scratch bytes per work-item
    vgpr_count: int  # on a unified register file (gfx942) VGPRs and AGPRs together
    sgpr_count: int
    agpr_count: int
    vgpr_spill_count: int
    sgpr_spill_count: int
    max_flat_workgroup_size: int


def _kernel(entry: dict) -> KernelResources:
    def get(key: str, default: int | None = None) -> int:
        value = entry.get(f".{key}", default)
        if value is None:
            raise TileoptError(f"kernel '{entry.get('.name', '?')}' metadata has no .{key}")
        return int(value)

    return KernelResources(
        name=str(entry.get(".name", "?")),
        kernarg_segment_size=get("kernarg_segment_size"),
        wavefront_size=get("wavefront_size"),
        group_segment_size=get("group_segment_fixed_size"),
        private_segment_size=get("private_segment_fixed_size"),
        vgpr_count=get("vgpr_count"),
        sgpr_count=get("sgpr_count"),
        agpr_count=get("agpr_count", 0),  # absent where the GPU has no AGPRs (gfx1100)
        vgpr_spill_count=get("vgpr_spill_count", 0),
        sgpr_spill_count=get("sgpr_spill_count", 0),
        max_flat_workgroup_size=get("max_flat_workgroup_size"),
    )


def kernels_of_metadata(metadata: object, source: str) -> list[KernelResources]:
    """The kernels of a decoded metadata map (``amdhsa.kernels``)."""
    kernels = metadata.get("amdhsa.kernels") if isinstance(metadata, dict) else None
    if not isinstance(kernels, list):
        raise TileoptError("the AMDGPU metadata has no amdhsa.kernels list", source)
    return [_kernel(entry) for entry in kernels]


def _notes(data: bytes, offset: int, size: int):
    """(owner, type, descriptor) of each ELF note in ``data[offset:offset+size]``."""
    end = offset + size
    while offset + 12 <= end:
        namesz, descsz, kind = struct.unpack_from("<III", data, offset)
        name_at = offset + 12
        desc_at = name_at + (namesz + 3) // 4 * 4
        yield (data[name_at:name_at + namesz].rstrip(b"\0"), kind,
               data[desc_at:desc_at + descsz])
        offset = desc_at + (descsz + 3) // 4 * 4


def metadata_of_hsaco(data: bytes, source: str = "<hsaco>") -> dict:
    """The decoded ``NT_AMDGPU_METADATA`` note of an AMDGPU ELF (hsaco or object)."""
    if len(data) < 64 or data[:4] != b"\x7fELF":
        raise TileoptError("not an AMDGPU code object: not an ELF file", source)
    if data[4] != 2 or data[5] != 1:
        raise TileoptError("not an AMDGPU code object: not 64-bit little-endian ELF", source)
    (machine,) = struct.unpack_from("<H", data, 18)
    if machine != EM_AMDGPU:
        raise TileoptError(f"not an AMDGPU code object: ELF machine {machine}, "
                           f"expected EM_AMDGPU ({EM_AMDGPU})", source)
    try:
        desc = _metadata_note(data)
    except struct.error:
        raise TileoptError("not an AMDGPU code object: truncated ELF", source) from None
    if desc is None:
        raise TileoptError("not an AMDGPU code object: no AMDGPU metadata note (code object "
                           "v3 or later)", source)
    try:
        return msgpack.unpackb(desc, strict_map_key=False)
    except (ValueError, msgpack.UnpackException) as err:
        raise TileoptError(f"the AMDGPU metadata note is not MessagePack: {err}",
                           source) from None


def _metadata_note(data: bytes) -> bytes | None:
    """The descriptor of the ``NT_AMDGPU_METADATA`` note, found through the section headers;
    struct.error where the headers point past the end of ``data``."""
    (shoff,) = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    for index in range(shnum):
        header = shoff + index * shentsize
        (sh_type,) = struct.unpack_from("<I", data, header + 4)
        if sh_type != _SHT_NOTE:
            continue
        sh_offset, sh_size = struct.unpack_from("<QQ", data, header + 24)
        if sh_offset + sh_size > len(data):
            raise struct.error("a note section ends past the end of the file")
        for owner, kind, desc in _notes(data, sh_offset, sh_size):
            if owner == _NOTE_OWNER and kind == NT_AMDGPU_METADATA:
                return desc
    return None


def read_hsaco(data: bytes, source: str = "<hsaco>") -> list[KernelResources]:
    """The kernels of an hsaco (or of LLVM's relocatable AMDGPU object)."""
    return kernels_of_metadata(metadata_of_hsaco(data, source), source)


def metadata_of_amdgcn(text: str, source: str = "<amdgcn>") -> dict:
    """The ``.amdgpu_metadata`` YAML block of AMDGCN assembly, decoded."""
    block = _METADATA_BLOCK.search(text)
    if block is None:
        raise TileoptError("no .amdgpu_metadata block in the AMDGCN assembly", source)
    try:
        return yaml.safe_load(block.group(1).strip())
    except yaml.YAMLError as err:
        raise TileoptError(f"the .amdgpu_metadata block is not YAML: {err}", source) from None


def read_amdgcn(text: str, source: str = "<amdgcn>") -> list[KernelResources]:
    """The kernels of AMDGCN assembly, from its ``.amdgpu_metadata``."""
    return kernels_of_metadata(metadata_of_amdgcn(text, source), source)


def target_of_metadata(metadata: dict) -> str:
    """``gfx942`` from ``amdhsa.target: amdgcn-amd-amdhsa--gfx942[:features]``."""
    target = str(metadata.get("amdhsa.target", ""))
    return target.rsplit("--", 1)[-1].split(":", 1)[0]


def resource_usage(kernels: list[KernelResources], arch: str, dynamic_lds: int = 0,
                   where: str = "") -> str:
    """The lines ``--print-resource-usage`` prints: LLVM's ``kernel-resource-usage`` remarks
    (``clang -Rpass-analysis=kernel-resource-usage``), one block per kernel. ``dynamic_lds``
    is the LDS the launch adds (Triton's ``ttg.shared``); occupancy counts it, for workgroups
    of the kernel's maximum flat size (Triton launches num-warps waves, and says so there)."""
    prefix = f"remark: {where}: " if where else "remark: "
    lines = []
    for kernel in kernels:
        lds = kernel.group_segment_size + dynamic_lds
        if arch in ARCHES:
            waves = str(occupancy(arch, kernel.vgpr_count, kernel.sgpr_count, lds,
                                  kernel.max_flat_workgroup_size))
        else:
            waves = f"unknown (no occupancy rules for '{arch}')"
        lines += [f"Function Name: {kernel.name}",
                  f"    SGPRs: {kernel.sgpr_count}",
                  f"    VGPRs: {kernel.vgpr_count}",
                  f"    AGPRs: {kernel.agpr_count}",
                  f"    ScratchSize [bytes/lane]: {kernel.private_segment_size}",
                  f"    Occupancy [waves/SIMD]: {waves}",
                  f"    SGPRs Spill: {kernel.sgpr_spill_count}",
                  f"    VGPRs Spill: {kernel.vgpr_spill_count}",
                  f"    LDS Size [bytes/block]: {lds}"]
    return "".join(f"{prefix}{line}\n" for line in lines)


def resource_usage_of(code: str | bytes, dynamic_lds: int = 0, where: str = "") -> str:
    """``resource_usage`` of an hsaco (bytes) or AMDGCN assembly (text)."""
    metadata = metadata_of_hsaco(code, where) if isinstance(code, bytes) else \
        metadata_of_amdgcn(code, where)
    return resource_usage(kernels_of_metadata(metadata, where), target_of_metadata(metadata),
                          dynamic_lds, where)


def launch_lds(module: ModuleOp) -> int:
    """The LDS bytes Triton's launcher adds to every workgroup: the module's ``ttg.shared``
    (Triton's AMD kernels address LDS through an external global of size zero)."""
    attr = module.attributes.get(TOTAL_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0
