"""Triton's own LLVM IR (corpus hip ``.llir``) through the AMDGPU back end and ``ld.lld``.

The hsaco must be what HIP loads and what Triton makes: a shared object (``ET_DYN``) for
``EM_AMDGPU`` with the HSA OS ABI, code object v5, and the ``e_flags`` of the
``.amdgcn_target`` that Triton's ``.amdgcn`` names (machine number, and "any" xnack/sramecc
where the GPU has those features, since Triton names no feature). The AMDGCN text must
carry the same kernel metadata as Triton's where it does not depend on register
allocation (kernel name, target id, argument bytes, LDS, wave size, work-group size).
"""

from __future__ import annotations

import re
import struct

import pytest

from tileopt.ir import TileoptError
from tileopt.target import llvm_ir_to_amdgcn, llvm_ir_to_hsaco
from tileopt.target.amdgpu import find_lld, llvm_ir_to_amdgcn_object

KERNELS = ("add", "add_nodiv", "atomic_hist", "axpy_f16", "block_ptr_matmul", "cumsum", "gelu",
           "layernorm_fwd", "matmul", "matmul_small", "softmax", "sum_cols", "sum_rows",
           "transpose")
TARGETS = ("hip-gfx942", "hip-gfx1100")

ET_REL, ET_DYN = 1, 3
EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64
ELFABIVERSION_AMDGPU_HSA_V5 = 3
# From LLVM's ELF.h: the machine numbers, and the code object v4+ feature fields.
EF_AMDGPU_MACH = {"gfx942": 0x4C, "gfx1100": 0x41}
EF_AMDGPU_FEATURE_XNACK_ANY_V4 = 0x100
EF_AMDGPU_FEATURE_SRAMECC_ANY_V4 = 0x400
HAS_XNACK_AND_SRAMECC = {"gfx942"}  # CDNA3 has both; RDNA3 has neither

STABLE_METADATA = ("kernarg_segment_size", "group_segment_fixed_size", "wavefront_size",
                   "max_flat_workgroup_size", "kernarg_segment_align")


def expected_flags(target_id: str) -> int:
    """``e_flags`` for a target id such as ``amdgcn-amd-amdhsa--gfx942`` (no feature suffix)."""
    gfx = target_id.rsplit("--", 1)[1]
    flags = EF_AMDGPU_MACH[gfx]
    if gfx in HAS_XNACK_AND_SRAMECC:
        flags |= EF_AMDGPU_FEATURE_XNACK_ANY_V4 | EF_AMDGPU_FEATURE_SRAMECC_ANY_V4
    return flags


def elf_header(data: bytes) -> dict[str, int]:
    assert data[:4] == b"\x7fELF"
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    (e_flags,) = struct.unpack_from("<I", data, 48)
    return {"osabi": data[7], "abiversion": data[8], "type": e_type, "machine": e_machine,
            "flags": e_flags}


def amdgcn_target(text: str) -> str:
    return re.search(r'\.amdgcn_target "([^"]+)"', text).group(1)


def metadata(text: str) -> dict[str, str | None]:
    found = {key: (m.group(1) if (m := re.search(rf"\.{key}:\s+(\S+)", text)) else None)
             for key in STABLE_METADATA}
    found["name"] = re.search(r"\.name:\s+(\w+)", text.split("amdhsa.kernels:")[1]).group(1)
    found["code_object_version"] = re.search(r"\.amdhsa_code_object_version (\d+)", text).group(1)
    return found


def _lld_available() -> bool:
    try:
        find_lld()
        return True
    except TileoptError:
        return False


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", KERNELS)
def test_amdgcn_metadata_matches_triton(corpus, target, kernel):
    arch = target.split("-")[1]
    ours = llvm_ir_to_amdgcn((corpus / target / f"{kernel}.llir").read_text(), arch, opt_level=0)
    triton = (corpus / target / f"{kernel}.amdgcn").read_text()
    assert amdgcn_target(ours) == amdgcn_target(triton)
    assert metadata(ours) == metadata(triton)


@pytest.mark.parametrize("target", TARGETS)
def test_object_is_relocatable_amdgpu_elf(corpus, target):
    arch = target.split("-")[1]
    obj = llvm_ir_to_amdgcn_object((corpus / target / "add.llir").read_text(), arch, opt_level=0)
    header = elf_header(obj)
    assert header["type"] == ET_REL
    assert header["machine"] == EM_AMDGPU


@pytest.mark.skipif(not _lld_available(), reason="no ld.lld (pip install ziglang)")
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", ("add", "softmax", "matmul", "gelu"))
def test_hsaco_elf_header_is_tritons(corpus, target, kernel):
    arch = target.split("-")[1]
    hsaco = llvm_ir_to_hsaco((corpus / target / f"{kernel}.llir").read_text(), arch, opt_level=0)
    triton_target = amdgcn_target((corpus / target / f"{kernel}.amdgcn").read_text())
    assert elf_header(hsaco) == {
        "osabi": ELFOSABI_AMDGPU_HSA,
        "abiversion": ELFABIVERSION_AMDGPU_HSA_V5,
        "type": ET_DYN,
        "machine": EM_AMDGPU,
        "flags": expected_flags(triton_target),
    }
