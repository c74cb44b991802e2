"""Triton's layout attributes as plain dataclasses, and their maps to linear layouts.

Each dataclass mirrors one ``#ttg.*`` attribute with its parameters (snake_case names of
Triton's keys). :func:`to_linear_layout` gives, for a tensor (or shared-memory buffer) of
a given shape, the :class:`LinearLayout` Triton's ``toLinearLayout`` computes:

- distributed encodings map ``register, lane, warp, block`` to ``dim0, dim1, ...``; the
  tile described by the attribute is repeated in registers where the tensor is larger and
  broadcast (several threads holding one element) where it is smaller;
- shared encodings map ``offset, block`` (the element's position in memory) to the tensor
  coordinates stored there.

The constructions follow ``lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp`` of
Triton 3.6; the tests check each against a brute-force enumeration written from the
hardware definitions (PTX fragments, AMD's matrix-instruction tables, swizzle formulas).

Also here: the per-thread element queries lowering needs (``get_elems_per_thread``,
``get_contig_per_thread``, register / thread / warp orders), all read off the linear layout
as Triton's ``LinearEncodingAttr`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache, partial
from typing import ClassVar, Union

from tileopt.layouts.linear_layout import LayoutError, LinearLayout, log2_exact
from tileopt.layouts.tiling import (
    combine_cta_cga_with_shape,
    ensure_layout_not_larger_than,
    ensure_layout_not_smaller_than,
    identity_standard_nd,
    reshape_layout,
    standard_out_dim_names,
    transpose_linear_layout,
)

REGISTER, LANE, WARP, BLOCK, OFFSET = "register", "lane", "warp", "block", "offset"


def _ints(value) -> tuple[int, ...] | None:
    return None if value is None else tuple(int(v) for v in value)


class _Frozen:
    """Normalise list parameters (those typed ``tuple[int, ...]``) to tuples so instances
    are hashable and compare by value."""

    def __post_init__(self) -> None:
        for f in fields(self):
            if str(f.type).startswith("tuple[int, ...]"):
                object.__setattr__(self, f.name, _ints(getattr(self, f.name)))
        self.verify()

    def verify(self) -> None:
        """Raise :class:`LayoutError` when the parameters do not describe a valid layout."""


def _check_permutation(order: Sequence[int], what: str) -> None:
    if sorted(order) != list(range(len(order))):
        raise LayoutError(f"{what} {list(order)} is not a permutation of 0..{len(order) - 1}")


def _check_powers_of_2(values: Sequence[int], what: str) -> None:
    if any(v < 1 or v & (v - 1) for v in values):
        raise LayoutError(f"every element of {what} {list(values)} must be a power of two")


@dataclass(frozen=True)
class _CTAParams(_Frozen):
    """Shared handling of the optional CTAsPerCGA / CTASplitNum / CTAOrder parameters.

    The single-CTA default is stored as None whether or not it was spelled out, so two
    encodings of the same layout compare equal. They are keyword-only, so that each
    layout's own parameters come first, positionally.
    """

    ctas_per_cga: tuple[int, ...] | None = field(default=None, kw_only=True)
    cta_split_num: tuple[int, ...] | None = field(default=None, kw_only=True)
    cta_order: tuple[int, ...] | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        order = self.cta_order
        if (
            order is not None
            and self.ctas_per_cga == (1,) * len(order)
            and self.cta_split_num == (1,) * len(order)
            and order == tuple(range(len(order) - 1, -1, -1))
            and self._rank_without_cta() in (None, len(order))
        ):
            for name in ("ctas_per_cga", "cta_split_num", "cta_order"):
                object.__setattr__(self, name, None)

    def verify(self) -> None:
        given = [self.ctas_per_cga, self.cta_split_num, self.cta_order]
        if any(g is not None for g in given):
            if any(g is None for g in given):
                raise LayoutError("CTAsPerCGA, CTASplitNum and CTAOrder go together")
            if len({len(g) for g in given}) != 1:
                raise LayoutError("CTAsPerCGA, CTASplitNum and CTAOrder differ in rank")
            _check_permutation(self.cta_order, "CTAOrder")
            _check_powers_of_2(self.ctas_per_cga, "CTAsPerCGA")
            _check_powers_of_2(self.cta_split_num, "CTASplitNum")

    @property
    def rank(self) -> int:
        """The rank ``order`` gives (layouts without one say otherwise)."""
        return len(self.order)  # type: ignore[attr-defined]

    def _rank_without_cta(self) -> int | None:
        """The rank the other parameters imply, if any (None: they do not fix one)."""
        return self.rank

    def cta_params(self, rank: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        ctas = self.ctas_per_cga or (1,) * rank
        split = self.cta_split_num or (1,) * rank
        order = self.cta_order or tuple(range(rank - 1, -1, -1))
        return ctas, split, order


class _MmaParams(_CTAParams):
    """The accumulator layouts of matrix instructions (nvidia_mma, amd_mfma, amd_wmma):
    ``warps_per_cta`` fixes the rank, and its entries must be powers of two."""

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    def verify(self) -> None:
        super().verify()
        self._verify_instruction()
        _check_powers_of_2(self.warps_per_cta, "warpsPerCTA")

    def _verify_instruction(self) -> None:
        """Raise :class:`LayoutError` for an instruction the hardware does not have."""


# ---------------------------------------------------------------------- distributed


@dataclass(frozen=True)
class Blocked(_CTAParams):
    """``#ttg.blocked``: each thread holds a ``size_per_thread`` block; threads, then warps,
    tile the tensor, the fastest dimension being ``order[0]``."""

    size_per_thread: tuple[int, ...]
    threads_per_warp: tuple[int, ...]
    warps_per_cta: tuple[int, ...]
    order: tuple[int, ...]

    name: ClassVar[str] = "ttg.blocked"

    def verify(self) -> None:
        super().verify()
        lists = (self.size_per_thread, self.threads_per_warp, self.warps_per_cta, self.order)
        if len({len(v) for v in lists}) != 1:
            raise LayoutError(
                "sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank"
            )
        _check_permutation(self.order, "order")
        _check_powers_of_2(self.size_per_thread, "sizePerThread")
        _check_powers_of_2(self.threads_per_warp, "threadsPerWarp")
        _check_powers_of_2(self.warps_per_cta, "warpsPerCTA")


@dataclass(frozen=True)
class Slice(_Frozen):
    """``#ttg.slice``: the parent layout with dimension ``dim`` removed (a reduction result)."""

    dim: int
    parent: "Encoding"

    name: ClassVar[str] = "ttg.slice"

    @property
    def rank(self) -> int:
        return self.parent.rank - 1

    def verify(self) -> None:
        if not isinstance(self.parent, DISTRIBUTED_TYPES):
            raise LayoutError("the parent of a slice must be a distributed layout")
        rank = self.parent.rank
        if rank is not None and not 0 <= self.dim < rank:
            raise LayoutError(f"slice dim {self.dim} is outside the parent's rank {rank}")


@dataclass(frozen=True)
class DotOperand(_Frozen):
    """``#ttg.dot_op``: operand ``op_idx`` (0 = A, 1 = B) of a dot whose result has ``parent``."""

    op_idx: int
    parent: "Encoding"
    k_width: int = 0

    name: ClassVar[str] = "ttg.dot_op"

    @property
    def rank(self) -> int:
        return self.parent.rank

    def verify(self) -> None:
        if self.op_idx not in (0, 1):
            raise LayoutError(f"opIdx must be 0 or 1, got {self.op_idx}")
        if not isinstance(self.parent, (Blocked, NvidiaMma, AmdMfma, AmdWmma)):
            raise LayoutError("the parent of a dot_op must be blocked or an mma layout")
        if not isinstance(self.parent, Blocked) and self.k_width < 1:
            raise LayoutError("a dot_op of an mma layout needs kWidth >= 1")


@dataclass(frozen=True)
class NvidiaMma(_MmaParams):
    """``#ttg.nvidia_mma``: the accumulator of ``mma.sync`` (v2, Ampere) or ``wgmma`` (v3);
    ``instr_shape`` is one instruction's m, n (and k for wgmma)."""

    version_major: int
    version_minor: int
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]

    name: ClassVar[str] = "ttg.nvidia_mma"

    def _verify_instruction(self) -> None:
        if self.version_major not in (2, 3):
            raise LayoutError(f"nvidia_mma versionMajor {self.version_major} is not supported (2 or 3)")

    @property
    def is_ampere(self) -> bool:
        return self.version_major == 2

    @property
    def is_hopper(self) -> bool:
        return self.version_major == 3


@dataclass(frozen=True)
class AmdMfma(_MmaParams):
    """``#ttg.amd_mfma``: the accumulator of CDNA ``v_mfma`` instructions."""

    version: int
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]
    is_transposed: bool
    tiles_per_warp: tuple[int, ...] | None = None
    element_bit_width: int = 32

    name: ClassVar[str] = "ttg.amd_mfma"

    @property
    def tiles(self) -> tuple[int, ...]:
        return self.tiles_per_warp or (1,) * self.rank

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.tiles_per_warp is not None and all(t == 1 for t in self.tiles_per_warp):
            object.__setattr__(self, "tiles_per_warp", None)  # the default, however spelled

    def _verify_instruction(self) -> None:
        if tuple(self.instr_shape[:2]) not in ((32, 32), (16, 16), (64, 4), (4, 64)):
            raise LayoutError(f"instrShape {list(self.instr_shape)} is not an MFMA shape")
        if self.element_bit_width not in (32, 64):
            raise LayoutError("elementBitWidth must be 32 or 64")


@dataclass(frozen=True)
class AmdWmma(_MmaParams):
    """``#ttg.amd_wmma``: the accumulator of RDNA ``v_wmma`` instructions (wave32)."""

    version: int
    is_transposed: bool
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...] = (16, 16, 16)

    name: ClassVar[str] = "ttg.amd_wmma"

    def _verify_instruction(self) -> None:
        if not 1 <= self.version <= 3:
            raise LayoutError(f"amd_wmma version {self.version} is not supported (1 to 3)")


@dataclass(frozen=True)
class Linear(_Frozen):
    """``#ttg.linear``: a distributed layout given directly by its bases."""

    register: tuple[tuple[int, ...], ...]
    lane: tuple[tuple[int, ...], ...]
    warp: tuple[tuple[int, ...], ...]
    block: tuple[tuple[int, ...], ...] = ()

    name: ClassVar[str] = "ttg.linear"

    def __post_init__(self) -> None:
        for dim in (REGISTER, LANE, WARP, BLOCK):
            object.__setattr__(self, dim, tuple(tuple(int(v) for v in b) for b in getattr(self, dim)))
        lengths = {len(b) for dim in (REGISTER, LANE, WARP, BLOCK) for b in getattr(self, dim)}
        if len(lengths) > 1:
            raise LayoutError("all bases of a linear layout must have the same length")
        for dim in (REGISTER, LANE, WARP, BLOCK):
            for b in getattr(self, dim):
                if sum(1 for v in b if v) > 1:
                    raise LayoutError(
                        "in a distributed layout each basis must move in at most one dimension"
                    )

    @property
    def rank(self) -> int | None:
        for dim in (REGISTER, LANE, WARP, BLOCK):
            if getattr(self, dim):
                return len(getattr(self, dim)[0])
        return None

    @classmethod
    def from_layout(cls, layout: LinearLayout) -> "Linear":
        """The ``#ttg.linear`` encoding of a register layout (Triton's ``toLinearEncoding``)."""
        if layout.out_dims != standard_out_dim_names(layout.num_out_dims()):
            raise LayoutError(f"a linear encoding needs output dims dim0, dim1, ...; got {layout.out_dims}")
        unknown = [d for d in layout.in_dims if d not in (REGISTER, LANE, WARP, BLOCK)]
        if unknown:
            raise LayoutError(f"a linear encoding has no input dimension '{unknown[0]}'")
        return cls(*(layout.get_bases(d) if layout.has_in_dim(d) else () for d in (REGISTER, LANE, WARP, BLOCK)))

    def layout(self, rank: int | None = None) -> LinearLayout:
        """The bases as a layout, output sizes inferred (Triton requires it surjective)."""
        rank = self.rank if self.rank is not None else rank
        if rank is None:
            raise LayoutError("a #ttg.linear layout with no bases needs the tensor rank")
        return LinearLayout(
            {d: getattr(self, d) for d in (REGISTER, LANE, WARP, BLOCK)},
            standard_out_dim_names(rank),
        )


# ---------------------------------------------------------------------- shared


@dataclass(frozen=True)
class SwizzledShared(_CTAParams):
    """``#ttg.swizzled_shared``: rows of the two fastest dims, ``vec``-element chunks XORed
    with the row's phase ``(row // per_phase) % max_phase``."""

    vec: int
    per_phase: int
    max_phase: int
    order: tuple[int, ...]

    name: ClassVar[str] = "ttg.swizzled_shared"

    def verify(self) -> None:
        super().verify()
        _check_permutation(self.order, "order")
        _check_powers_of_2((self.vec, self.per_phase, self.max_phase), "vec/perPhase/maxPhase")


@dataclass(frozen=True)
class AmdRotatingShared(SwizzledShared):
    """``#ttg.amd_rotating_shared``: swizzled, with the phase pattern rotated every
    ``per_phase * max_phase`` rows (XORed with that block number)."""

    name: ClassVar[str] = "ttg.amd_rotating_shared"


@dataclass(frozen=True)
class NvmmaShared(_CTAParams):
    """``#ttg.nvmma_shared``: the 32/64/128-byte swizzled tiles TMA and wgmma read."""

    swizzling_byte_width: int
    transposed: bool
    element_bit_width: int | None
    fp4_padded: bool = False

    name: ClassVar[str] = "ttg.nvmma_shared"

    @property
    def rank(self) -> int:
        # Triton gives the attribute a rank-2 CTA layout unless one is spelled out.
        return len(self.cta_order) if self.cta_order else 2

    def _rank_without_cta(self) -> int | None:
        return 2  # only a rank-2 CTA layout is the default

    def verify(self) -> None:
        super().verify()
        if self.swizzling_byte_width not in (0, 32, 64, 128):
            raise LayoutError(f"swizzlingByteWidth {self.swizzling_byte_width} is not 0, 32, 64 or 128")
        if self.element_bit_width is not None and self.element_bit_width not in (4, 8, 16, 32, 64):
            raise LayoutError(f"elementBitWidth {self.element_bit_width} is not supported")

    def vec(self, bits: int) -> int:
        return 1 if self.swizzling_byte_width == 0 else 128 // bits

    @property
    def per_phase(self) -> int:
        return 1 if self.swizzling_byte_width == 0 else 128 // self.swizzling_byte_width

    @property
    def max_phase(self) -> int:
        return 1 if self.swizzling_byte_width == 0 else self.swizzling_byte_width // 16


DistributedEncoding = Union[Blocked, Slice, DotOperand, NvidiaMma, AmdMfma, AmdWmma, Linear]
SharedEncoding = Union[SwizzledShared, AmdRotatingShared, NvmmaShared]
Encoding = Union[DistributedEncoding, SharedEncoding]

DISTRIBUTED_TYPES = (Blocked, Slice, DotOperand, NvidiaMma, AmdMfma, AmdWmma, Linear)
SHARED_TYPES = (SwizzledShared, AmdRotatingShared, NvmmaShared)


def is_distributed(encoding: Encoding) -> bool:
    return isinstance(encoding, DISTRIBUTED_TYPES)


def is_shared(encoding: Encoding) -> bool:
    return isinstance(encoding, SHARED_TYPES)


# ---------------------------------------------------------------------- orders


def get_matrix_order(rank: int, row_major: bool) -> list[int]:
    """``[rank-1, ..., 0]``; column-major swaps the two fastest dims."""
    order = list(range(rank - 1, -1, -1))
    if rank >= 2 and not row_major:
        order[0], order[1] = order[1], order[0]
    return order


def get_order_for_dot_operand(op_idx: int, rank: int, k_contig: bool) -> list[int]:
    """Operand A is ``[.., m, k]``, B is ``[.., k, n]``; ``k_contig`` puts k fastest."""
    return get_matrix_order(rank, row_major=bool(op_idx) != k_contig)


def _mma_rep_order_for_operand(op_idx: int, rank: int) -> list[int]:
    return get_order_for_dot_operand(op_idx, rank, k_contig=True)


def get_rep_order(encoding: DistributedEncoding) -> list[int]:
    """The order in which a layout's tile repeats over a larger tensor (minor first)."""
    if isinstance(encoding, Blocked):
        return list(encoding.order)
    if isinstance(encoding, (NvidiaMma, AmdMfma, AmdWmma)):
        return get_matrix_order(encoding.rank, row_major=True)
    if isinstance(encoding, DotOperand):
        if isinstance(encoding.parent, Blocked):
            return list(encoding.parent.order)
        return _mma_rep_order_for_operand(encoding.op_idx, encoding.rank)
    if isinstance(encoding, Slice):
        parent = get_rep_order(encoding.parent)
        return [d if d < encoding.dim else d - 1 for d in parent if d != encoding.dim]
    if isinstance(encoding, Linear):
        return _order_per_dim(encoding.layout(), REGISTER, _default_order(encoding.rank or 1))
    raise LayoutError(f"no repetition order for {type(encoding).__name__}")


def _default_order(rank: int) -> list[int]:
    return list(range(rank - 1, -1, -1))


def _order_per_dim(layout: LinearLayout, in_dim: str, default: Sequence[int]) -> list[int]:
    """Output dims in the order the bases of ``in_dim`` first move them, then ``default``."""
    order: list[int] = []
    for basis in layout.get_bases(in_dim) if layout.has_in_dim(in_dim) else ():
        for k, v in enumerate(basis):
            if v:
                if k not in order:
                    order.append(k)
                break
    for k in default:
        if k not in order:
            order.append(k)
    return order


def _bases_per_dim(layout: LinearLayout, in_dim: str, skip_broadcast: bool = True) -> list[int]:
    """How many distinct steps ``in_dim`` takes along each output dim (a product per dim)."""
    ret = [1] * layout.num_out_dims()
    last = 0
    for basis in layout.get_bases(in_dim) if layout.has_in_dim(in_dim) else ():
        nonzero = next((k for k, v in enumerate(basis) if v), None)
        if nonzero is not None:
            last = nonzero
            ret[nonzero] *= 2
        elif not skip_broadcast:
            ret[last] *= 2
    return ret


# ---------------------------------------------------------------------- CTA helpers


def _cta_split_num(encoding: Encoding, rank: int) -> tuple[int, ...]:
    if isinstance(encoding, DotOperand):
        split = list(_cta_split_num(encoding.parent, rank))
        split[rank - 1 if encoding.op_idx == 0 else rank - 2] = 1  # never split along K
        return tuple(split)
    if isinstance(encoding, _CTAParams):
        return encoding.cta_params(rank)[1]
    return (1,) * rank


def _cta_params(encoding: Encoding, rank: int):
    if isinstance(encoding, DotOperand):
        ctas, _, order = _cta_params(encoding.parent, rank)
        return ctas, _cta_split_num(encoding, rank), order
    if isinstance(encoding, _CTAParams):
        return encoding.cta_params(rank)
    return (1,) * rank, (1,) * rank, tuple(range(rank - 1, -1, -1))


def _combine(cta_layout: LinearLayout, encoding: Encoding, shape: Sequence[int]) -> LinearLayout:
    ctas, split, order = _cta_params(encoding, len(shape))
    return combine_cta_cga_with_shape(cta_layout, shape, ctas, split, order)


def get_shape_per_cta(encoding: Encoding, shape: Sequence[int]) -> list[int]:
    split = _cta_split_num(encoding, len(shape))
    return [s // min(s, k) for s, k in zip(shape, split)]


# ---------------------------------------------------------------------- conversions


def _blocked_to_ll(enc: Blocked, shape: Sequence[int]) -> LinearLayout:
    cta = (
        identity_standard_nd(REGISTER, enc.size_per_thread, enc.order)
        * identity_standard_nd(LANE, enc.threads_per_warp, enc.order)
        * identity_standard_nd(WARP, enc.warps_per_cta, enc.order)
    )
    return _combine(cta, enc, shape)


def _slice_to_ll(enc: Slice, shape: Sequence[int]) -> LinearLayout:
    parent_shape = list(shape)
    parent_shape.insert(enc.dim, 1)
    parent = to_linear_layout(enc.parent, parent_shape)
    names = standard_out_dim_names(len(shape) + 1)
    # Project the parent's outputs onto the slice's, dropping dim `enc.dim`.
    transform = LinearLayout.empty()
    for idx, out_dim in enumerate(parent.out_dims):
        size = parent.out_dim_size(out_dim)
        if idx == enc.dim:
            transform = transform * LinearLayout.zeros_1d(size, out_dim, names[0])
        else:
            target = names[idx - (0 if idx < enc.dim else 1)]
            transform = transform * LinearLayout.identity_1d(size, out_dim, target)
    sliced = parent.compose(transform)
    # Registers that only walked the removed dim now hold copies: drop them.
    bases = sliced.bases
    bases[REGISTER] = [b for b in bases[REGISTER] if any(b)]
    return LinearLayout(bases, sliced.out_dims)


def _nvidia_mma_tile(
    tile_shape: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]
) -> LinearLayout:
    """One mma fragment: ``k_width`` registers and 4 lanes along the inner dim, 8 lanes along
    the outer dim, then registers repeating it to ``tile_shape``."""
    rank = len(rep_order)
    names = standard_out_dim_names(rank)
    layout = identity_standard_nd(REGISTER, [1] * rank, rep_order)
    inner, outer = order[0], order[1]
    m, n = tile_shape[outer], tile_shape[inner]
    if m % 8 or n % (k_width * 4):
        raise LayoutError(f"mma tile {list(tile_shape)} does not fit k_width {k_width}")
    return (
        layout
        * LinearLayout.identity_1d(k_width, REGISTER, names[inner])
        * LinearLayout.identity_1d(4, LANE, names[inner])
        * LinearLayout.identity_1d(8, LANE, names[outer])
        * LinearLayout.identity_1d(m // 8, REGISTER, names[outer])
        * LinearLayout.identity_1d(n // (k_width * 4), REGISTER, names[inner])
    )


def _nvidia_mma_to_ll(enc: NvidiaMma, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    if enc.is_ampere:
        tile_shape = list(enc.instr_shape)
    elif enc.is_hopper:
        tile_shape = [enc.instr_shape[0], enc.instr_shape[1]]
    else:
        raise LayoutError(f"nvidia_mma version {enc.version_major} is not supported")
    if len(tile_shape) != rank:
        raise LayoutError(f"nvidia_mma instrShape {list(enc.instr_shape)} does not fit rank {rank}")
    order = get_matrix_order(rank, row_major=True)
    cta = _nvidia_mma_tile(tile_shape, 2, order, get_matrix_order(rank, row_major=True))
    warp_order = get_matrix_order(rank, row_major=not enc.is_hopper)
    cta = cta * identity_standard_nd(WARP, enc.warps_per_cta, warp_order).transpose_outs(
        cta.out_dims
    )
    return _combine(cta, enc, shape)


def _broadcasted_dot_operand_layout(
    shape: Sequence[int], order: Sequence[int], k_dim: int, in_dim: str
) -> LinearLayout:
    """Threads or warps of a dot operand: identity on M/N, broadcast along K."""
    names = standard_out_dim_names(len(shape))
    layout = LinearLayout.empty()
    for d in order:
        if d == k_dim:
            layout = layout * LinearLayout.zeros_1d(shape[d], in_dim, names[d])
        else:
            layout = layout * LinearLayout.identity_1d(shape[d], in_dim, names[d])
    return layout


def _nvidia_dot_to_ll(enc: DotOperand, shape: Sequence[int]) -> LinearLayout:
    mma: NvidiaMma = enc.parent  # type: ignore[assignment]
    rank = len(shape)
    is_a = enc.op_idx == 0
    tile_shape = [1] * rank
    if is_a:
        tile_shape[rank - 2], tile_shape[rank - 1] = 16, enc.k_width * 8
    else:
        if not mma.is_ampere:
            raise LayoutError("a Hopper (v3) mma takes operand B from shared memory only")
        tile_shape[rank - 2], tile_shape[rank - 1] = enc.k_width * 8, 8
    order = get_order_for_dot_operand(enc.op_idx, rank, k_contig=True)
    cta = _nvidia_mma_tile(tile_shape, enc.k_width, order, get_rep_order(enc))
    k_dim = rank - 1 if is_a else rank - 2
    warp_order = get_matrix_order(rank, row_major=not mma.is_hopper)
    cta = cta * _broadcasted_dot_operand_layout(
        mma.warps_per_cta, warp_order, k_dim, WARP
    ).transpose_outs(cta.out_dims)
    return _combine(cta, enc, shape)


def _fma_dot_to_ll(enc: DotOperand, shape: Sequence[int]) -> LinearLayout:
    blocked: Blocked = enc.parent  # type: ignore[assignment]
    rank = len(shape)
    order = list(blocked.order)
    k_dim = rank - 1 if enc.op_idx == 0 else rank - 2
    thread_size = list(blocked.size_per_thread)
    thread_size[k_dim] = shape[k_dim]
    rep_names = [standard_out_dim_names(rank)[d] for d in blocked.order]
    registers = identity_standard_nd(REGISTER, thread_size, order)
    lanes = _broadcasted_dot_operand_layout(blocked.threads_per_warp, order, k_dim, LANE)
    warps = _broadcasted_dot_operand_layout(blocked.warps_per_cta, order, k_dim, WARP)
    cta = (
        registers.transpose_outs(rep_names)
        * lanes.transpose_outs(rep_names)
        * warps.transpose_outs(rep_names)
    )
    return _combine(cta, enc, shape)


def _amd_mfma_to_ll(enc: AmdMfma, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    if rank != enc.rank:
        raise LayoutError(f"amd_mfma of rank {enc.rank} used with a tensor of rank {rank}")
    has_batch = rank == 3
    m_index, n_index = int(has_batch), 1 + int(has_batch)
    names = standard_out_dim_names(rank)
    order = get_matrix_order(rank, row_major=True)
    dim_m, dim_n = names[order[1]], names[order[0]]
    m_dim, n_dim = enc.instr_shape[0], enc.instr_shape[1]
    if (m_dim, n_dim) not in ((32, 32), (16, 16), (64, 4), (4, 64)):
        raise LayoutError(f"amd_mfma instrShape {list(enc.instr_shape)} is not a known MFMA")
    height = 1 if enc.element_bit_width == 64 else 4
    warp_size = 64
    tiles = (m_dim * n_dim) // (warp_size * height)
    # Within one instruction: `height` consecutive registers along M (N if transposed),
    # lanes along N then M, and more registers for the rest of the output tile.
    if not enc.is_transposed:
        tile = LinearLayout.identity_1d(height, REGISTER, dim_m) * (
            LinearLayout.identity_1d(n_dim, LANE, dim_n)
            * LinearLayout.identity_1d(warp_size // n_dim, LANE, dim_m)
        )
        if tiles > 0:
            tile = tile * LinearLayout.identity_1d(tiles, REGISTER, dim_m)
    else:
        tile = LinearLayout.identity_1d(height, REGISTER, dim_n) * (
            LinearLayout.identity_1d(m_dim, LANE, dim_m)
            * LinearLayout.identity_1d(warp_size // m_dim, LANE, dim_n)
        )
        if tiles > 0:
            tile = tile * LinearLayout.identity_1d(tiles, REGISTER, dim_n)
    tile = tile.transpose_outs([dim_n, dim_m])
    # Tiles are numbered N-contiguously across the whole tensor (the dot lowering expects it).
    tiles_m, tiles_n = enc.tiles[m_index], enc.tiles[n_index]
    warps_m, warps_n = enc.warps_per_cta[m_index], enc.warps_per_cta[n_index]
    tile = tile * LinearLayout.identity_1d(tiles_n, REGISTER, dim_n)
    tile = tile * LinearLayout.identity_1d(warps_n, WARP, dim_n)
    tile = tile * LinearLayout.identity_1d(shape[n_index] // (n_dim * warps_n * tiles_n), REGISTER, dim_n)
    tile = tile * LinearLayout.identity_1d(tiles_m, REGISTER, dim_m)
    tile = tile * LinearLayout.identity_1d(warps_m, WARP, dim_m)
    if has_batch:
        batch = names[order[2]]
        tile = (
            tile
            * LinearLayout.identity_1d(1, REGISTER, batch)
            * LinearLayout.identity_1d(1, LANE, batch)
            * LinearLayout.identity_1d(enc.warps_per_cta[0], WARP, batch)
        )
    return _combine(tile, enc, shape)


def _amd_mfma_dot_to_ll(enc: DotOperand, shape: Sequence[int]) -> LinearLayout:
    mfma: AmdMfma = enc.parent  # type: ignore[assignment]
    rank = len(shape)
    has_batch = rank == 3
    k_width = enc.k_width
    non_k_index = rank - 2 if enc.op_idx == 0 else rank - 1
    k_index = rank - 1 if enc.op_idx == 0 else rank - 2
    m_dim, n_dim = mfma.instr_shape[0], mfma.instr_shape[1]
    non_k_dim = m_dim if enc.op_idx == 0 else n_dim
    warp_size = 64
    names = standard_out_dim_names(rank)
    order = get_order_for_dot_operand(enc.op_idx, rank, k_contig=True)
    dim_k, dim_non_k = names[order[0]], names[order[1]]
    # k_width consecutive K elements per lane; lanes along M/N, then along K.
    tile = LinearLayout.identity_1d(k_width, REGISTER, dim_k) * (
        LinearLayout.identity_1d(non_k_dim, LANE, dim_non_k)
        * LinearLayout.identity_1d(warp_size // non_k_dim, LANE, dim_k)
    )
    k_tile = warp_size // non_k_dim * k_width
    if (m_dim, n_dim, enc.op_idx) in ((64, 4, 0), (4, 64, 1)):
        tile = tile * LinearLayout.identity_1d(16, REGISTER, dim_k)
        k_tile *= 16
    if shape[k_index] > k_tile:
        tile = tile * LinearLayout.identity_1d(shape[k_index] // k_tile, REGISTER, dim_k)
    tile = tile * LinearLayout.identity_1d(mfma.tiles[non_k_index], REGISTER, dim_non_k)
    tile = tile.transpose_outs([dim_k, dim_non_k])
    if has_batch:
        tile = (
            tile
            * LinearLayout.identity_1d(1, REGISTER, names[order[2]])
            * LinearLayout.identity_1d(1, LANE, names[order[2]])
        )
    # Warps are laid out as for the result; the ones along K end up broadcast when the
    # tile is fitted to the shape (their K coordinates fall outside the tensor).
    warps = identity_standard_nd(WARP, mfma.warps_per_cta, get_matrix_order(rank, row_major=True))
    return _combine(tile * warps, enc, shape).transpose_outs(names)


def _amd_wmma_to_ll(enc: AmdWmma, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    if rank != enc.rank:
        raise LayoutError(f"amd_wmma of rank {enc.rank} used with a tensor of rank {rank}")
    if not 1 <= enc.version <= 3:
        raise LayoutError(f"amd_wmma version {enc.version} is not supported")
    names = standard_out_dim_names(rank)
    thread_order = get_matrix_order(rank, row_major=not enc.is_transposed)
    outs = [names[thread_order[0]], names[thread_order[1]]]
    if enc.version == 1:
        # 16 lanes along N, lane 16 starts the next row; registers every other row.
        tile = LinearLayout(
            {REGISTER: [(0, 2), (0, 4), (0, 8)], LANE: [(1, 0), (2, 0), (4, 0), (8, 0), (0, 1)]},
            outs,
        )
    else:
        # 8 consecutive rows per lane; lanes 16..31 take rows 8..15.
        tile = LinearLayout(
            {REGISTER: [(0, 1), (0, 2), (0, 4)], LANE: [(1, 0), (2, 0), (4, 0), (8, 0), (0, 8)]},
            outs,
        )
    if rank == 3:
        tile = (
            tile
            * LinearLayout.identity_1d(1, REGISTER, names[0])
            * LinearLayout.identity_1d(1, LANE, names[0])
        )
    warps = identity_standard_nd(WARP, enc.warps_per_cta, get_matrix_order(rank, row_major=True))
    rep_names = [names[d] for d in get_matrix_order(rank, row_major=True)]
    cta = tile.transpose_outs(rep_names) * warps.transpose_outs(rep_names)
    return _combine(cta, enc, shape)


def _amd_wmma_dot_to_ll(enc: DotOperand, shape: Sequence[int]) -> LinearLayout:
    wmma: AmdWmma = enc.parent  # type: ignore[assignment]
    rank = len(shape)
    names = standard_out_dim_names(rank)
    order = get_order_for_dot_operand(enc.op_idx, rank, k_contig=True)
    dim_k, dim_non_k = names[order[0]], names[order[1]]
    k_dim = wmma.instr_shape[2]
    non_k_dim = wmma.instr_shape[0] if enc.op_idx == 0 else wmma.instr_shape[1]
    depth = 32 // non_k_dim
    tile = LinearLayout.identity_1d(enc.k_width, REGISTER, dim_k) * LinearLayout.identity_1d(
        non_k_dim, LANE, dim_non_k
    )
    # Version 1 repeats the same K values in the upper half-wave; later versions continue K.
    if wmma.version == 1:
        tile = tile * LinearLayout.zeros_1d(depth, LANE, dim_k)
    else:
        tile = tile * LinearLayout.identity_1d(depth, LANE, dim_k)
    tile = tile * LinearLayout.identity_1d(k_dim // (depth * enc.k_width), REGISTER, dim_k)
    if rank == 3:
        tile = (
            tile
            * LinearLayout.identity_1d(1, REGISTER, names[order[2]])
            * LinearLayout.identity_1d(1, LANE, names[order[2]])
        )
    k_idx = rank - 1 if enc.op_idx == 0 else rank - 2
    warps = _broadcasted_dot_operand_layout(
        wmma.warps_per_cta, get_matrix_order(rank, row_major=True), k_idx, WARP
    )
    rep_names = [names[d] for d in _mma_rep_order_for_operand(enc.op_idx, rank)]
    cta = tile.transpose_outs(rep_names) * warps.transpose_outs(rep_names)
    return _combine(cta, enc, shape)


def _dot_operand_to_ll(enc: DotOperand, shape: Sequence[int]) -> LinearLayout:
    if enc.op_idx not in (0, 1):
        raise LayoutError(f"dot_op opIdx must be 0 or 1, got {enc.op_idx}")
    parent = enc.parent
    to_layout = _DOT_OPERAND_TO_LINEAR_LAYOUT.get(type(parent))
    if to_layout is not None:
        return to_layout(enc, shape)
    raise LayoutError(f"dot_op with a {type(parent).__name__} parent is not supported")


def _linear_to_ll(enc: Linear, shape: Sequence[int]) -> LinearLayout:
    layout = enc.layout(len(shape))
    if layout.num_out_dims() != len(shape):
        raise LayoutError(f"linear layout of rank {layout.num_out_dims()} used with rank {len(shape)}")
    canonical = layout.out_dims
    rep_order = _order_per_dim(layout, REGISTER, _default_order(len(shape)))
    permuted = [canonical[d] for d in rep_order]
    named = {canonical[d]: shape[d] for d in range(len(shape))}
    layout = layout.transpose_outs(permuted)
    layout = ensure_layout_not_smaller_than(layout, named)
    layout = ensure_layout_not_larger_than(layout, named, broadcast_registers=False)
    return layout.transpose_outs(canonical)


def _swizzled_shared_to_ll(enc: SwizzledShared, shape: Sequence[int], rotating: bool) -> LinearLayout:
    rank = len(shape)
    names = standard_out_dim_names(rank)
    # Triton sizes the swizzled tile per CTA; the rotating variant uses the full shape.
    per_cta = list(shape) if rotating else get_shape_per_cta(enc, shape)
    if rank == 1:
        return _combine(LinearLayout.identity_1d(per_cta[0], OFFSET, names[0]), enc, shape)
    col_dim, row_dim = enc.order[0], enc.order[1]
    num_cols, num_rows = per_cta[col_dim], per_cta[row_dim]
    bases = [(0, 1 << i) for i in range(log2_exact(num_cols))]
    for i in range(log2_exact(num_rows)):
        row = 1 << i
        phase = (row // enc.per_phase) % enc.max_phase
        if rotating:
            phase ^= (row // enc.max_phase // enc.per_phase) % enc.max_phase
        bases.append((row, (enc.vec * phase) % num_cols))
    cta = LinearLayout({OFFSET: bases}, [names[row_dim], names[col_dim]])
    for dim in enc.order[2:]:
        cta = cta * LinearLayout.identity_1d(per_cta[dim], OFFSET, names[dim])
    return _combine(cta, enc, shape)


def get_tma_block_shape(
    shape_per_cta: Sequence[int],
    element_bit_width: int,
    swizzle_bytes: int,
    fp4_padded: bool,
    transposed: bool,
    packed_size: bool,
) -> list[int]:
    """The box one TMA copy moves: at most 256 per dim, the contiguous dim one swizzle row."""
    block = list(shape_per_cta)
    contig = 0 if transposed else len(block) - 1
    if fp4_padded:
        block[contig] *= 2
    block = [min(s, 256) for s in block]
    if swizzle_bytes:
        contig_size = 8 * swizzle_bytes // element_bit_width
        if block[contig] < contig_size:
            raise LayoutError(
                f"shape {list(shape_per_cta)} is too small for a {swizzle_bytes}-byte swizzle"
            )
        block[contig] = contig_size
    if fp4_padded and packed_size:
        block[contig] //= 2
    return block


def _nvmma_core_matrix(enc: NvmmaShared, bits: int, disable_swizzle: bool = False) -> LinearLayout:
    """One swizzle atom: 8 rows of ``max(16, swizzle)`` bytes, 16-byte chunks XOR the row phase."""
    tile_rows = 8
    tile_cols = 8 * max(16, enc.swizzling_byte_width) // bits
    vec = enc.vec(bits)
    bases = []
    col = 1
    while col < tile_cols:
        bases.append((0, col // 16 * 8 + col % 8 if enc.fp4_padded else col))
        col *= 2
    row = 1
    while row < tile_rows:
        phase_col = vec * ((row // enc.per_phase) % enc.max_phase)
        if disable_swizzle:
            bases.append((row, 0))
        elif enc.fp4_padded:
            bases.append((row, phase_col // 16 * 8 + phase_col % 8))
        else:
            bases.append((row, phase_col))
        row *= 2
    return LinearLayout({OFFSET: bases}, standard_out_dim_names(2))


def _nvmma_shared_to_ll(enc: NvmmaShared, shape: Sequence[int], bits: int | None) -> LinearLayout:
    rank = len(shape)
    bits = enc.element_bit_width or bits
    if not bits:
        raise LayoutError("nvmma_shared needs the element bit width")
    per_cta = get_shape_per_cta(enc, shape)
    tma = get_tma_block_shape(per_cta, bits, enc.swizzling_byte_width, enc.fp4_padded, enc.transposed, True)
    names = standard_out_dim_names(rank)
    if enc.swizzling_byte_width == 0:
        layout = LinearLayout.identity_1d(tma[rank - 1], OFFSET, names[rank - 1])
        for i in range(rank - 2, -1, -1):
            layout = layout * LinearLayout.identity_1d(tma[i], OFFSET, names[i])
        layout = ensure_layout_not_smaller_than(layout, dict(zip(names, per_cta)))
        return _combine(layout, enc, shape)
    if rank < 2:
        raise LayoutError("a swizzled nvmma_shared layout needs rank >= 2")
    collapsed = [1, tma[-1]]
    for size in tma[:-1]:
        collapsed[0] *= size
    if enc.transposed:
        collapsed.reverse()
    tile = _nvmma_core_matrix(enc, bits)
    names2 = standard_out_dim_names(2)
    packing = 2 if enc.fp4_padded else 1
    if collapsed[1] * packing < tile.out_dim_size(names2[1]) or collapsed[0] < tile.out_dim_size(names2[0]):
        raise LayoutError(
            f"shape {list(shape)} is smaller than one {enc.swizzling_byte_width}-byte swizzle tile"
        )
    layout = ensure_layout_not_smaller_than(tile, dict(zip(names2, collapsed)))
    target = list(tma)
    if enc.transposed:
        target = target[1:] + target[:1]
    layout = reshape_layout(layout, target)
    if enc.transposed:
        layout = transpose_linear_layout(layout, [rank - 1] + list(range(rank - 1)))
    layout = ensure_layout_not_smaller_than(layout, dict(zip(names, per_cta)))
    return _combine(layout, enc, shape)


# The construction for each encoding (and for a dot operand, each kind of parent).
_TO_LINEAR_LAYOUT = {
    Blocked: _blocked_to_ll,
    Slice: _slice_to_ll,
    DotOperand: _dot_operand_to_ll,
    NvidiaMma: _nvidia_mma_to_ll,
    AmdMfma: _amd_mfma_to_ll,
    AmdWmma: _amd_wmma_to_ll,
    Linear: _linear_to_ll,
    SwizzledShared: partial(_swizzled_shared_to_ll, rotating=False),
    AmdRotatingShared: partial(_swizzled_shared_to_ll, rotating=True),
}
_DOT_OPERAND_TO_LINEAR_LAYOUT = {
    Blocked: _fma_dot_to_ll,
    AmdMfma: _amd_mfma_dot_to_ll,
    AmdWmma: _amd_wmma_dot_to_ll,
    NvidiaMma: _nvidia_dot_to_ll,
}


def to_linear_layout(
    encoding: Encoding, shape: Sequence[int], element_bit_width: int | None = None
) -> LinearLayout:
    """The linear layout of a tensor of ``shape`` in ``encoding`` (Triton's ``toLinearLayout``).

    ``element_bit_width`` is only consulted by encodings that depend on the element type
    without recording it (an ``NvmmaShared`` whose ``element_bit_width`` is None).
    Every size in ``shape`` must be a power of two.
    """
    return _to_linear_layout_cached(encoding, tuple(int(s) for s in shape), element_bit_width)


@lru_cache(maxsize=4096)
def _to_linear_layout_cached(
    encoding: Encoding, shape_key: tuple[int, ...], element_bit_width: int | None
) -> LinearLayout:
    # Encodings and layouts are immutable, so one layout per (encoding, shape) is shared.
    shape = list(shape_key)
    for size in shape:
        if size < 1 or size & (size - 1):
            raise LayoutError(f"tensor shape {shape} has a size that is not a power of two")
    rank = getattr(encoding, "rank", None)
    if rank is not None and rank != len(shape):
        raise LayoutError(
            f"{encoding.name} layout of rank {rank} used with a tensor of rank {len(shape)}"
        )
    if isinstance(encoding, NvmmaShared):
        return _nvmma_shared_to_ll(encoding, shape, element_bit_width)
    to_layout = _TO_LINEAR_LAYOUT.get(type(encoding))
    if to_layout is not None:
        return to_layout(encoding, shape)
    raise LayoutError(f"no linear layout for {type(encoding).__name__}")


def broadcast_stays_in_threads(src: Encoding, src_shape: Sequence[int], dst: Encoding,
                               dst_shape: Sequence[int]) -> bool:
    """Whether a broadcast from ``src_shape`` in ``src`` to ``dst_shape`` in ``dst`` leaves
    every element in the thread that holds it (Triton 3.9 lets ``tt.broadcast`` change its
    layout so): each lane, warp and block basis of the result, its broadcast dims read at
    0, is the source's, and each result register reads a source register."""
    source = to_linear_layout(src, src_shape)
    result = to_linear_layout(dst, dst_shape)
    wide = {d for d, (a, b) in enumerate(zip(src_shape, dst_shape)) if a != b}

    def at_source(basis: Sequence[int]) -> tuple[int, ...]:
        return tuple(0 if d in wide else v for d, v in enumerate(basis))

    for dim in (LANE, WARP, BLOCK):
        theirs = result.get_bases(dim) if result.has_in_dim(dim) else ()
        ours = source.get_bases(dim) if source.has_in_dim(dim) else ()
        if len(theirs) != len(ours) or any(at_source(t) != tuple(o)
                                           for t, o in zip(theirs, ours)):
            return False
    held = {tuple(0 for _ in src_shape)}  # what a thread's registers cover (XOR span)
    for basis in source.get_bases(REGISTER):
        held |= {tuple(a ^ b for a, b in zip(coords, basis)) for coords in held}
    return all(at_source(basis) in held for basis in result.get_bases(REGISTER))


def split_last_dim(encoding: Encoding, shape: Sequence[int]) -> LinearLayout:
    """The layout of each half that ``tt.split`` takes from a ``shape`` (last dim 2) tensor
    in ``encoding``, as Triton infers it: the two halves of an element pair must sit in
    one thread's registers (a register basis reaching the last dim's index 1); that basis
    goes, and every other basis keeps its coordinates in the remaining dims. Raises
    LayoutError when no register basis holds the pair."""
    axis = len(shape) - 1
    whole = to_linear_layout(encoding, shape)
    bases: dict[str, list[list[int]]] = {}
    found = False
    for in_dim, in_bases in whole.bases.items():
        bases[in_dim] = []
        for basis in in_bases:
            if in_dim == REGISTER and basis[axis] == 1:
                found = True
                continue
            bases[in_dim].append(list(basis[:axis]))
    if not found:
        raise LayoutError("the layout does not hold both elements of the last dimension "
                          "(size 2) in one thread's registers")
    return LinearLayout(bases, list(zip(whole.out_dims[:axis], shape[:axis])))


def subslice_splits_swizzle(encoding: Encoding, alloc_shape: Sequence[int],
                            src_shape: Sequence[int], dst_shape: Sequence[int]) -> int | None:
    """The first dim along which a sub-tile of ``dst_shape`` cut from a ``src_shape``
    buffer (allocated as ``alloc_shape``) in shared ``encoding`` breaks the swizzling
    pattern, or None (Triton's ``memdesc_subslice`` rule): each step between tiles,
    ``dst`` elements times a power of two along that dim, must start at an offset
    that is a power of two, so every tile is laid out as the first one."""
    rank = len(src_shape)
    inverse = to_linear_layout(encoding, alloc_shape[-rank:]).invert()
    for dim, (src, dst) in enumerate(zip(src_shape, dst_shape)):
        step = dst
        while step < src:
            coords = {f"dim{d}": step if d == dim else 0 for d in range(rank)}
            offset = inverse.apply(coords)[OFFSET]
            if offset & (offset - 1):
                return dim
            step *= 2
    return None


def layouts_equivalent(a: Encoding, b: Encoding, shape: Sequence[int]) -> bool:
    """Whether two encodings place a ``shape`` tensor's elements alike (Triton's
    ``areLayoutsEquivalent``: equal linear layouts)."""
    return a == b or to_linear_layout(a, shape) == to_linear_layout(b, shape)


# ---------------------------------------------------------------------- per-thread queries


def get_order(encoding: Encoding, shape: Sequence[int]) -> list[int]:
    """Dims from fastest to slowest within a thread's registers (Triton's ``getOrder``)."""
    if isinstance(encoding, (SwizzledShared, AmdRotatingShared)):
        return list(encoding.order)
    if isinstance(encoding, NvmmaShared):
        return [0] if len(shape) == 1 else get_matrix_order(len(shape), not encoding.transposed)
    layout = to_linear_layout(encoding, shape)
    return _order_per_dim(layout, REGISTER, _default_order(len(shape)))


def get_thread_order(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    """Dims in the order consecutive lanes walk them."""
    layout = to_linear_layout(encoding, shape)
    return _order_per_dim(layout, LANE, get_order(encoding, shape))


def get_warp_order(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    """Dims in the order consecutive warps walk them."""
    layout = to_linear_layout(encoding, shape)
    return _order_per_dim(layout, WARP, get_order(encoding, shape))


def get_elems_per_thread(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    """Registers per thread, attributed per dim (copies count, as in Triton)."""
    return _bases_per_dim(to_linear_layout(encoding, shape), REGISTER, skip_broadcast=False)


def get_total_elems_per_thread(encoding: DistributedEncoding, shape: Sequence[int]) -> int:
    return to_linear_layout(encoding, shape).in_dim_size(REGISTER)


def get_threads_per_warp(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    """Distinct lane positions per dim (lanes holding copies are not counted)."""
    return _bases_per_dim(to_linear_layout(encoding, shape), LANE)


def get_warps_per_cta(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    return _bases_per_dim(to_linear_layout(encoding, shape), WARP)


def _contig(layout: LinearLayout, in_dim: str, lower: list[int], order: Sequence[int]) -> list[int]:
    contig = list(lower)
    bases = list(layout.get_bases(in_dim))
    pos = 0
    rank = len(order)
    for dim in order:
        expected = [0] * rank
        expected[dim] = contig[dim]
        while pos < len(bases) and list(bases[pos]) == expected:
            contig[dim] *= 2
            expected[dim] *= 2
            pos += 1
    return contig


def get_contig_per_thread(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    """Per dim, how many consecutive elements a thread holds in consecutive registers.

    Only the leading registers count: the run along the fastest dim, then (once that dim is
    done) the next one. This bounds the vector width of loads and stores.
    """
    layout = to_linear_layout(encoding, shape)
    order = _order_per_dim(layout, REGISTER, _default_order(len(shape)))
    return _contig(layout, REGISTER, [1] * len(shape), order)


def get_contig_per_warp(encoding: DistributedEncoding, shape: Sequence[int]) -> list[int]:
    layout = to_linear_layout(encoding, shape)
    order = _order_per_dim(layout, REGISTER, _default_order(len(shape)))
    return _contig(layout, LANE, _contig(layout, REGISTER, [1] * len(shape), order), order)


__all__ = [
    "AmdMfma", "AmdRotatingShared", "AmdWmma", "Blocked", "DotOperand", "Encoding", "Linear",
    "NvidiaMma", "NvmmaShared", "Slice", "SwizzledShared", "broadcast_stays_in_threads",
    "get_contig_per_thread", "get_contig_per_warp", "get_elems_per_thread",
    "get_matrix_order", "get_order", "get_order_for_dot_operand", "get_rep_order",
    "get_shape_per_cta", "get_thread_order", "get_threads_per_warp",
    "get_total_elems_per_thread", "get_warp_order", "get_warps_per_cta",
    "is_distributed", "is_shared", "to_linear_layout",
]
