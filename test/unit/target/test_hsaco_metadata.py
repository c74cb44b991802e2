"""The code object reader (tileopt.target.hsaco_metadata) against independent sources.

- Triton's ``.amdgcn``: the YAML metadata read here must say what LLVM's own comment lines
  in the same file say (``; NumVgprs:``, ``; ScratchSize:``, ...).
- An hsaco linked from a corpus ``.llir``: the MessagePack note must hold the figures of the
  ``.amdgpu_metadata`` in the assembly llvmlite emits for the same module (two paths through
  LLVM: the object writer's note, the assembly printer's YAML).
"""

from __future__ import annotations

import re
import struct

import pytest

from tileopt.ir import TileoptError
from tileopt.target import external_tools, llvm_ir_to_amdgcn, llvm_ir_to_hsaco
from tileopt.target.amdgpu import llvm_ir_to_amdgcn_object
from tileopt.target.hsaco_metadata import (
    metadata_of_hsaco,
    read_amdgcn,
    read_hsaco,
    target_of_metadata,
)

TARGETS = ("hip-gfx942", "hip-gfx1100")


needs_lld = pytest.mark.skipif("ld.lld" not in external_tools(),
                               reason="no ld.lld (pip install ziglang)")


def _comment(text: str, name: str) -> int:
    return int(re.search(rf"^; {name}: (\d+)", text, re.M).group(1))


@pytest.mark.parametrize("target", TARGETS)
def test_amdgcn_metadata_agrees_with_llvms_comments(corpus, target):
    files = sorted((corpus / target).glob("*.amdgcn"))
    assert len(files) == 14
    for path in files:
        text = path.read_text()
        (kernel,) = read_amdgcn(text, str(path))
        total_vgprs = re.search(r"^; TotalNumVgprs: (\d+)", text, re.M)
        assert kernel.vgpr_count == int((total_vgprs or re.search(
            r"^; NumVgprs: (\d+)", text, re.M)).group(1)), path.name
        assert kernel.sgpr_count == _comment(text, "TotalNumSgprs"), path.name
        assert kernel.private_segment_size == _comment(text, "ScratchSize"), path.name
        assert kernel.wavefront_size == (64 if target == "hip-gfx942" else 32)
        assert f"{kernel.name}:" in text


def test_corpus_figures(corpus):
    (matmul,) = read_amdgcn((corpus / "hip-gfx1100" / "matmul.amdgcn").read_text())
    # RDNA3's matmul spills: 147 VGPRs to 560 bytes of scratch per lane.
    assert (matmul.name, matmul.vgpr_count, matmul.vgpr_spill_count,
            matmul.private_segment_size, matmul.max_flat_workgroup_size) == \
        ("matmul_kernel", 256, 147, 560, 256)
    (dot,) = read_amdgcn((corpus / "hip-gfx942" / "block_ptr_matmul.amdgcn").read_text())
    assert (dot.vgpr_count, dot.agpr_count, dot.kernarg_segment_size) == (92, 16, 80)


@needs_lld
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", ("add", "softmax", "matmul_small", "atomic_hist"))
def test_hsaco_note_equals_assembly_metadata(corpus, target, kernel):
    arch = target.split("-")[1]
    llir = (corpus / target / f"{kernel}.llir").read_text()
    hsaco = llvm_ir_to_hsaco(llir, arch, opt_level=0)
    from_note = read_hsaco(hsaco)
    assert from_note == read_amdgcn(llvm_ir_to_amdgcn(llir, arch, opt_level=0))
    (triton,) = read_amdgcn((corpus / target / f"{kernel}.amdgcn").read_text())
    assert [(k.name, k.kernarg_segment_size) for k in from_note] == \
        [(triton.name, triton.kernarg_segment_size)]
    assert target_of_metadata(metadata_of_hsaco(hsaco)) == arch


def test_relocatable_object_carries_the_note_too(corpus):
    llir = (corpus / "hip-gfx942" / "add.llir").read_text()
    (kernel,) = read_hsaco(llvm_ir_to_amdgcn_object(llir, "gfx942", opt_level=0))
    assert (kernel.name, kernel.wavefront_size) == ("add_kernel", 64)


@pytest.mark.parametrize(("data", "message"), [
    (b"not an elf at all" * 8, "not an ELF file"),
    (b"\x7fELF\x01\x01" + bytes(58), "not 64-bit little-endian"),
])
def test_not_a_code_object(data, message):
    with pytest.raises(TileoptError, match=f"not an AMDGPU code object: {message}"):
        read_hsaco(data, "x.hsaco")


def test_other_machines_and_missing_notes_are_refused(corpus):
    obj = bytearray(llvm_ir_to_amdgcn_object(
        (corpus / "hip-gfx942" / "add.llir").read_text(), "gfx942", opt_level=0))
    x86 = bytearray(obj)
    struct.pack_into("<H", x86, 18, 62)  # EM_X86_64
    with pytest.raises(TileoptError, match=r"ELF machine 62, expected EM_AMDGPU \(224\)"):
        read_hsaco(bytes(x86))
    struct.pack_into("<H", obj, 60, 0)  # no section headers: no note
    with pytest.raises(TileoptError, match="no AMDGPU metadata note"):
        read_hsaco(bytes(obj))


def test_assembly_without_metadata_is_refused():
    with pytest.raises(TileoptError, match="no .amdgpu_metadata block"):
        read_amdgcn("\t.text\nk:\n\ts_endpgm\n", "k.s")


def test_truncated_code_object_is_refused(corpus):
    obj = llvm_ir_to_amdgcn_object((corpus / "hip-gfx942" / "add.llir").read_text(), "gfx942",
                                   opt_level=0)
    with pytest.raises(TileoptError, match="truncated ELF"):
        read_hsaco(obj[:len(obj) // 2])
