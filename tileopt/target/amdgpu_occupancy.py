"""Occupancy of an AMD kernel: how many waves each SIMD holds at once, and what limits it.

The rules are those of LLVM's AMDGPU back end (``IsaInfo`` in AMDGPUBaseInfo and
``AMDGPUSubtarget::getOccupancyWithWorkGroupSizes``), restated for the two GPUs tileopt
targets:

- VGPRs: a wave holds its VGPRs rounded up to the allocation granule; a SIMD has
  ``total_vgprs`` per lane. gfx942 (CDNA3) has one unified file of 512 for VGPRs and AGPRs
  together (granule 8, at most 8 waves); gfx1100 (RDNA3, wave32) has 1536 (granule 24, at most
  16 waves). This alone is the ``; Occupancy:`` LLVM prints in AMDGCN assembly when LDS and
  SGPRs do not limit.
- SGPRs: on GFX8/GFX9 (gfx942) a SIMD has 800 SGPRs and the number of waves steps down from 10
  at 80 SGPRs; from GFX10 on every wave has its own and SGPRs never limit.
- LDS: a workgroup holds its LDS rounded up to 512 bytes (128 dwords) for its whole life; a
  gfx942 CU has 64 KiB, a gfx1100 WGP (Triton's gfx1100 code runs in WGP mode) 128 KiB.
- Wave slots and barriers: a CU (WGP) runs at most ``max_waves * simds`` waves and, for
  workgroups of more than one wave, 16 (gfx942) or 32 (gfx1100 WGP) workgroups.

A workgroup is resident as a whole, so the kernel's occupancy for a launch is counted in
whole workgroups per CU, then spread over the SIMDs: ``waves_per_simd`` can be fractional
(one 64-thread workgroup per gfx942 CU is a quarter of a wave per SIMD).
"""

from __future__ import annotations

from dataclasses import dataclass

from tileopt.ir import TileoptError

LDS_GRANULE = 512  # bytes: 128 dwords on every GCN/CDNA/RDNA generation


@dataclass(frozen=True)
class ArchLimits:
    arch: str
    wave_size: int
    total_vgprs: int  # per lane of a SIMD
    vgpr_granule: int
    max_waves_per_simd: int
    sgprs_limit: bool  # GFX8/GFX9: a SIMD's 800 SGPRs are shared by its waves
    simds_per_cu: int
    lds_per_cu: int  # bytes (per WGP on gfx1100)
    max_workgroups_per_cu: int  # barrier resources, for workgroups of more than one wave


ARCHES = {
    "gfx942": ArchLimits("gfx942", 64, 512, 8, 8, True, 4, 64 * 1024, 16),
    "gfx1100": ArchLimits("gfx1100", 32, 1536, 24, 16, False, 4, 128 * 1024, 32),
}


def limits_of(arch: str) -> ArchLimits:
    try:
        return ARCHES[arch]
    except KeyError:
        raise TileoptError(f"no occupancy rules for '{arch}' (known: "
                           f"{', '.join(ARCHES)})") from None


def _align(value: int, granule: int) -> int:
    return -(-value // granule) * granule


def waves_with_vgprs(limits: ArchLimits, vgprs: int) -> int:
    """Waves per SIMD that ``vgprs`` per lane allow (on gfx942 VGPRs and AGPRs together)."""
    if vgprs < limits.vgpr_granule:
        return limits.max_waves_per_simd
    waves = limits.total_vgprs // _align(vgprs, limits.vgpr_granule)
    return min(max(waves, 1), limits.max_waves_per_simd)


# GFX8/GFX9: the most SGPRs a wave may hold for each number of waves per SIMD.
_SGPR_STEPS = ((80, 10), (88, 9), (100, 8))
_SGPR_FLOOR = 7


def waves_with_sgprs(limits: ArchLimits, sgprs: int) -> int:
    """Waves per SIMD that ``sgprs`` (the metadata's total, VCC and XNACK included) allow."""
    if not limits.sgprs_limit:
        return limits.max_waves_per_simd
    waves = next((w for most, w in _SGPR_STEPS if sgprs <= most), _SGPR_FLOOR)
    return min(waves, limits.max_waves_per_simd)


def workgroups_with_lds(limits: ArchLimits, lds_bytes: int) -> int | None:
    """Workgroups per CU that ``lds_bytes`` each allow; None where the kernel uses none."""
    if lds_bytes <= 0:
        return None
    return limits.lds_per_cu // _align(lds_bytes, LDS_GRANULE)


def workgroups_with_slots(limits: ArchLimits, waves_per_workgroup: int) -> int:
    """Workgroups per CU that the wave slots and barriers allow."""
    slots = limits.max_waves_per_simd * limits.simds_per_cu // waves_per_workgroup
    if waves_per_workgroup == 1:  # a one-wave workgroup needs no barrier
        return slots
    return min(slots, limits.max_workgroups_per_cu)


@dataclass(frozen=True)
class Occupancy:
    waves_per_simd: float
    workgroups_per_cu: int
    limited_by: str  # "VGPRs", "SGPRs", "LDS", "waves" (slots/barriers)

    def __str__(self) -> str:
        return f"{self.waves_per_simd:g}"


def occupancy(arch: str, vgprs: int, sgprs: int, lds_bytes: int,
              workgroup_size: int) -> Occupancy:
    """Resident waves per SIMD for a launch of ``workgroup_size`` threads per workgroup."""
    limits = limits_of(arch)
    waves_per_workgroup = max(1, -(-workgroup_size // limits.wave_size))

    def whole_workgroups(waves_per_simd: int) -> int:
        return waves_per_simd * limits.simds_per_cu // waves_per_workgroup

    candidates = [("waves", workgroups_with_slots(limits, waves_per_workgroup)),
                  ("VGPRs", whole_workgroups(waves_with_vgprs(limits, vgprs))),
                  ("SGPRs", whole_workgroups(waves_with_sgprs(limits, sgprs)))]
    if (by_lds := workgroups_with_lds(limits, lds_bytes)) is not None:
        candidates.append(("LDS", by_lds))
    # The first of the smallest names the limit: slots before the resources that hit them.
    limited_by, workgroups = min(candidates, key=lambda item: item[1])
    return Occupancy(workgroups * waves_per_workgroup / limits.simds_per_cu, workgroups,
                     limited_by)
