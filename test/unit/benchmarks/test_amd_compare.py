"""benchmarks/amd/compare.py: the row logic on one kernel, and the mnemonic arithmetic, so the
benchmark cannot rot between the runs that print its whole table."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "amd"))

from compare import (  # noqa: E402
    SIDES,
    Figures,
    access_bits,
    compare_row,
    instruction_counts,
    kernel_body,
    markdown,
    memory_kind,
    memory_widths,
    text_table,
)

from tileopt.target import external_tools  # noqa: E402


@pytest.mark.parametrize(("mnemonic", "bits"), [
    ("global_load_dwordx4", 128),
    ("buffer_load_dwordx2", 64),
    ("buffer_store_dword", 32),
    ("global_store_short", 16),
    ("global_load_ubyte", 8),
    ("global_load_b128", 128),       # RDNA3 spelling
    ("ds_load_u16_d16_hi", 16),
    ("ds_read2_b64", 128),           # two 64-bit addresses
    ("ds_write2st64_b32", 64),
    ("ds_store_2addr_b32", 64),
    ("global_atomic_add", 32),
    ("global_atomic_add_f32", 32),
    ("global_atomic_cmpswap_x2", 64),
])
def test_access_bits(mnemonic, bits):
    assert access_bits(mnemonic) == bits


@pytest.mark.parametrize(("mnemonic", "kind"), [
    ("buffer_load_dword", ("global", "load")),
    ("flat_store_dword", ("global", "store")),
    ("global_atomic_add_u32", ("global", "atomic")),
    ("ds_read_b128", ("lds", "load")),
    ("ds_store_b16", ("lds", "store")),
    ("buffer_inv", None),          # cache maintenance
    ("buffer_gl0_inv", None),
    ("ds_bpermute_b32", None),     # cross-lane, not an LDS access
    ("s_load_dwordx2", None),      # scalar
    ("scratch_load_b32", None),    # spills: counted as scratch, not as the kernel's accesses
])
def test_memory_kind(mnemonic, kind):
    assert memory_kind(mnemonic) == kind


def test_instructions_of_a_kernel_body():
    text = ("\t.text\nk:\n\t.cfi_startproc\n; %bb.0:\n\ts_load_dwordx2 s[0:1], s[0:1], 0x0\n"
            "\tglobal_load_dwordx4 v[0:3], v4, s[0:1]\n.LBB0_1:  ; comment\n"
            "\tglobal_load_dwordx4 v[0:3], v4, s[0:1] offset:16\n\ts_endpgm\n"
            ".Lfunc_end0:\n\t.size k, .Lfunc_end0-k\n")
    counts = instruction_counts(kernel_body(text, "k"))
    assert counts == Counter({"s_load_dwordx2": 1, "global_load_dwordx4": 2, "s_endpgm": 1})
    assert memory_widths(counts) == Counter({("global", "load", 128): 2})


def _grep(text: str, mnemonic: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip().split(" ")[0] == mnemonic)


@pytest.mark.skipif("ld.lld" not in external_tools(), reason="no ld.lld (pip install ziglang)")
def test_row_of_one_kernel(corpus):
    row = compare_row(corpus, "hip-gfx942", "add")
    triton = row.sides["triton"]
    assert isinstance(triton, Figures)
    text = (corpus / "hip-gfx942" / "add.amdgcn").read_text()
    # Triton's add: 4 warps of 64, 10 VGPRs and no LDS: 8 waves per SIMD; 128-bit accesses.
    assert (triton.resources.vgpr_count, triton.lds, str(triton.occupancy)) == (10, 0, "8")
    assert triton.memory == Counter({
        ("global", "load", 128): _grep(text, "global_load_dwordx4"),
        ("global", "store", 128): _grep(text, "global_store_dwordx4")})
    assert triton.matrix == 0 and not row.is_dot
    assert row.unmet("triton") == "all met"
    assert isinstance(row.sides["llir"], Figures)
    assert row.sides["llir"].resources.name == triton.resources.name
    ours = row.sides["tileopt"]
    # Until convert-triton-amdgpu-to-llvm lands the row says why there is no code.
    assert isinstance(ours, Figures) or ours.startswith("no lowering: ")
    # A row with code names the targets it misses (or "all met"); one without, none.
    assert bool(row.unmet("tileopt")) == isinstance(ours, Figures)
    table = text_table([row])
    assert "ttgir" not in row.sides   # the lowering-alone row is the dot kernels'
    assert len(table.splitlines()) == 1 + len(SIDES) - 1
    assert markdown([row]).count("| hip-gfx942 | add |") == len(SIDES) - 1


@pytest.mark.skipif("ld.lld" not in external_tools(), reason="no ld.lld (pip install ziglang)")
def test_dot_row_measures_the_lowering_of_tritons_ttgir(corpus):
    """A dot kernel's ``ttgir`` row: Triton's .ttgir through tileopt's lowering alone, with
    the LDS of the .json and Triton's MFMA count per dot (4 on matmul_small: a 64x64 tile
    over 2x2 waves of 32x32x8, BLOCK_K 32)."""
    row = compare_row(corpus, "hip-gfx942", "matmul_small")
    ours = row.sides["ttgir"]
    assert row.is_dot and isinstance(ours, Figures)
    assert ours.lds == row.expected_lds == 8192
    ttgir = (corpus / "hip-gfx942" / "matmul_small.ttgir").read_text()
    assert ours.matrix == 4 * ttgir.count("tt.dot ")
    assert text_table([row]).count("matmul_small (11)") == len(SIDES)
