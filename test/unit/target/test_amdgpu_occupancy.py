"""Occupancy rules (tileopt.target.amdgpu_occupancy), one test per rule.

The worked examples follow from the rule's numbers (registers per SIMD lane, granules, LDS
per CU) by hand; the per-SIMD register rules are also checked against the ``; Occupancy:``
line LLVM printed into every Triton corpus ``.amdgcn`` (no LDS known at compile time there:
Triton's LDS is dynamic, so registers alone set it).
"""

from __future__ import annotations

import re

import pytest

from tileopt.ir import TileoptError
from tileopt.target.amdgpu_occupancy import (
    limits_of,
    occupancy,
    waves_with_sgprs,
    waves_with_vgprs,
    workgroups_with_lds,
    workgroups_with_slots,
)

GFX942, GFX1100 = limits_of("gfx942"), limits_of("gfx1100")


@pytest.mark.parametrize(("limits", "vgprs", "waves"), [
    (GFX942, 7, 8),      # fewer than one granule of 8: the 8-wave ceiling
    (GFX942, 64, 8),     # 512 / 64 = 8
    (GFX942, 65, 7),     # rounded to 72: 512 // 72 = 7
    (GFX942, 140, 3),    # rounded to 144: 512 // 144 = 3 (Triton's matmul)
    (GFX942, 92, 5),     # 76 VGPRs + 16 AGPRs in the unified file, 512 // 96 = 5
    (GFX942, 512, 1),
    (GFX1100, 96, 16),   # 1536 / 96 = 16, the wave32 ceiling
    (GFX1100, 97, 12),   # rounded to 120 (granule 24): 1536 // 120 = 12
    (GFX1100, 253, 5),   # rounded to 264: 1536 // 264 = 5
])
def test_vgpr_rule(limits, vgprs, waves):
    assert waves_with_vgprs(limits, vgprs) == waves


@pytest.mark.parametrize(("limits", "sgprs", "waves"), [
    (GFX942, 35, 8),     # the table allows 10 up to 80 SGPRs; gfx942 holds 8 at most
    (GFX942, 100, 8),
    (GFX942, 101, 7),    # past 100 SGPRs: 7
    (GFX1100, 106, 16),  # RDNA: SGPRs never limit
])
def test_sgpr_rule(limits, sgprs, waves):
    assert waves_with_sgprs(limits, sgprs) == waves


@pytest.mark.parametrize(("limits", "lds", "workgroups"), [
    (GFX942, 0, None),       # no LDS, no limit
    (GFX942, 1, 128),        # one 512-byte granule of 64 KiB
    (GFX942, 16384, 4),
    (GFX942, 16385, 3),      # rounded to 16896: 65536 // 16896 = 3
    (GFX942, 65536, 1),
    (GFX942, 65537, 0),      # more than a CU has: never resident
    (GFX1100, 65536, 2),     # a WGP has 128 KiB
])
def test_lds_rule(limits, lds, workgroups):
    assert workgroups_with_lds(limits, lds) == workgroups


@pytest.mark.parametrize(("limits", "waves_per_workgroup", "workgroups"), [
    (GFX942, 1, 32),     # 8 waves x 4 SIMDs, no barrier needed
    (GFX942, 2, 16),     # 32 // 2 = 16, also the 16 barriers
    (GFX942, 4, 8),
    (GFX1100, 1, 64),
    (GFX1100, 2, 32),    # 64 // 2 = 32 = the WGP's 32 barriers
])
def test_slot_and_barrier_rule(limits, waves_per_workgroup, workgroups):
    assert workgroups_with_slots(limits, waves_per_workgroup) == workgroups


@pytest.mark.parametrize(("arch", "vgprs", "sgprs", "lds", "threads", "waves", "limit"), [
    # 140 VGPRs allow 3 waves per SIMD = 12 per CU: one 8-wave workgroup fits, 2 per SIMD.
    ("gfx942", 140, 35, 65536, 512, 2, "VGPRs"),
    ("gfx942", 10, 21, 0, 256, 8, "waves"),        # nothing but the wave slots
    ("gfx942", 32, 30, 16384, 256, 4, "LDS"),      # 4 workgroups of 4 waves on 4 SIMDs
    ("gfx942", 10, 21, 32768, 64, 0.5, "LDS"),     # 2 one-wave workgroups on 4 SIMDs
    # 256 VGPRs: 5 waves per SIMD = 20 per WGP, two 8-wave workgroups; LDS allows 2 too.
    ("gfx1100", 256, 26, 65536, 256, 4, "VGPRs"),
])
def test_occupancy_of_a_launch(arch, vgprs, sgprs, lds, threads, waves, limit):
    result = occupancy(arch, vgprs, sgprs, lds, threads)
    assert (result.waves_per_simd, result.limited_by) == (waves, limit)


def test_unknown_arch_is_an_error():
    with pytest.raises(TileoptError, match="no occupancy rules for 'gfx90a'"):
        limits_of("gfx90a")


def _comment(text: str, name: str) -> int | None:
    found = re.search(rf"^; {name}: (\d+)", text, re.M)
    return int(found.group(1)) if found else None


@pytest.mark.parametrize("target", ["hip-gfx942", "hip-gfx1100"])
def test_register_rules_give_llvms_occupancy(corpus, target):
    limits = limits_of(target.split("-")[1])
    files = sorted((corpus / target).glob("*.amdgcn"))
    assert files
    for path in files:
        text = path.read_text()
        # gfx942 prints the unified count (VGPRs + AGPRs) as TotalNumVgprs; gfx1100 has none.
        vgprs = _comment(text, "TotalNumVgprs") or _comment(text, "NumVgprs")
        ours = min(waves_with_vgprs(limits, vgprs),
                   waves_with_sgprs(limits, _comment(text, "NumSGPRsForWavesPerEU")))
        assert ours == _comment(text, "Occupancy"), path.name
