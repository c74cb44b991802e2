"""What the AMD lowering needs to know about each GPU generation, in one place.

``AmdIsa.of("gfx942")`` gives the wave size, the ISA family and its capabilities, and the
constant word of a buffer resource descriptor (the values Triton 3.6 builds for each
family, as its ``.llir`` shows: ``make.buffer.rsrc(base, 0, 0x7FFFFFFE, FLAGS)``).
``DppControl`` spells the ``dpp_ctrl`` operand of ``update.dpp`` (the DPP_CTRL field of
the GCN/CDNA/RDNA instruction encodings).
"""

from __future__ import annotations

from dataclasses import dataclass

from tileopt.ir import TileoptError


class DppControl:
    """DPP_CTRL encodings."""

    ROW_SHL0 = 0x100
    ROW_SHR0 = 0x110
    ROW_ROR0 = 0x120
    ROW_MIRROR = 0x140
    ROW_HALF_MIRROR = 0x141
    ROW_BCAST15 = 0x142  # CDNA only: lane 15 of each row to the next row
    ROW_BCAST31 = 0x143  # CDNA only: lane 31 to rows 2 and 3
    # ds_swizzle in bitmask mode: and 0x1F, or 0, xor 0x10 (swap halves of 32 lanes).
    SWIZZLE_XOR_16 = 0x401F

    @staticmethod
    def quad_perm(*lanes: int) -> int:
        """Each lane of a group of four reads lane ``lanes[i]`` of its group."""
        assert len(lanes) == 4 and all(0 <= lane < 4 for lane in lanes)
        return sum(lane << (2 * i) for i, lane in enumerate(lanes))

    @staticmethod
    def row_shl(n: int) -> int:
        assert 1 <= n <= 15
        return DppControl.ROW_SHL0 + n

    @staticmethod
    def row_shr(n: int) -> int:
        assert 1 <= n <= 15
        return DppControl.ROW_SHR0 + n


@dataclass(frozen=True)
class AmdIsa:
    """One AMD GPU generation as the lowering sees it."""

    arch: str                      # gfx942, gfx1100, ...
    family: str                    # CDNA3, RDNA3
    wave_size: int
    has_dpp: bool
    has_dpp_row_broadcast: bool    # row_bcast15/31 (CDNA); RDNA uses permlanex16
    buffer_resource_flags: int     # the fourth dword of a raw buffer resource
    lds_bytes: int                 # LDS one workgroup may allocate (Triton's getSharedMemorySize)

    @staticmethod
    def of(arch: str) -> AmdIsa:
        name = arch.split(":")[-1].strip()
        for prefix, isa in _FAMILIES.items():
            if name.startswith(prefix):
                return AmdIsa(name, *isa)
        known = ", ".join(sorted(_EXAMPLES))
        raise TileoptError(f"unknown AMD architecture '{arch}' (tileopt lowers {known})")


# arch prefix -> (family, wave size, DPP, DPP row broadcasts, buffer resource flags, LDS
# per workgroup: 64 KiB on CDNA3, and on RDNA3 although its WGP holds 128 KiB)
_FAMILIES = {
    "gfx94": ("CDNA3", 64, True, True, 0x00027000, 64 * 1024),
    "gfx11": ("RDNA3", 32, True, False, 0x31014000, 64 * 1024),
}
_EXAMPLES = ("gfx942", "gfx1100")

# Past this byte offset a raw buffer access with Triton's descriptor is out of range: a
# load gives 0, a store or atomic does nothing. Triton masks buffer accesses with it.
BUFFER_NUM_RECORDS = 0x7FFFFFFE
BUFFER_OUT_OF_RANGE_OFFSET = 0x80000000

__all__ = ["AmdIsa", "DppControl", "BUFFER_NUM_RECORDS", "BUFFER_OUT_OF_RANGE_OFFSET"]
