"""Axis information: what is known, per dimension, about the integers a tensor holds.

A forward dataflow analysis over integer and pointer values, as Triton's
``lib/Analysis/AxisInfo.cpp`` computes it. For every dimension ``d`` of a value it tracks

- ``contiguity[d]``: the length of the shortest run of consecutive integers (``x, x+1, ...``)
  along ``d``; the tensor splits into runs of exactly that many;
- ``divisibility[d]``: the largest power of two dividing the first element of every such run
  (for pointers: the byte address);
- ``constancy[d]``: the length of the shortest run of equal values along ``d``;

and, when the whole value is one known integer, that ``constant_value``. A scalar has rank 1.

Passes ask it how wide a load or store may be: ``tritongpu-coalesce`` (vector width and
order of its blocked layout), buffer-op conversion and the load/store lowering.

Semantics follow Triton 3.6 op by op (the rules are quirky in places, e.g. ``make_range``
starting at 0 is divisible by ``2**30``, Triton's "largest power of two dividing 0" for
its unsigned 32-bit start; a product of two known constants through ``maxsi`` has constancy
1); values Triton has no rule for get the pessimistic state (all ones), function arguments
read ``tt.divisibility`` / ``tt.contiguity`` / ``tt.constancy``, and the results and block
arguments of ``scf.for`` / ``scf.if`` / ``scf.while`` are the join (gcd) of what flows into
them, iterated to a fixpoint for loops. A function body of several blocks (``scf`` loops
after ``convert-scf-to-cf``) is a dataflow over its CFG: a block argument is the join of
what every ``cf.br`` / ``cf.cond_br`` / ``cf.switch`` passes to it, iterated to a fixpoint.
Any op may carry the same three attributes as hints that override what the rules computed.

Not mirrored: MLIR's dead-code analysis (branches of an ``scf.if`` on a constant are both
visited here) and the order-dependent details of MLIR's solver; calls update a private map
of callee argument hints instead of writing ``tt.*`` attributes onto the callee, as Triton does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.tt_canonicalize import first_element
from tileopt.dialects.tt_types import PointerType
from tileopt.ir.walks import ops_in_walk_order

MAX_DIVISOR = 1 << 62
"""Triton's ``highestPowOf2Divisor<int64_t>(0)``: "divisible by anything" (and "unknown")."""

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
HINT_NAMES = ("tt.contiguity", "tt.divisibility", "tt.constancy")


# --------------------------------------------------------------------------- arithmetic


def highest_pow2_divisor(n: int, bits: int = 64) -> int:
    """Largest power of two dividing ``n``; for 0, ``2**(bits-2)`` as Triton's template gives."""
    if n == 0:
        return 1 << (bits - 2)
    return n & -n


def gcd(*values: int) -> int:
    """Triton's variadic gcd: a zero argument is ignored (gcd(0, x) = x)."""
    result = 0
    for v in values:
        result = abs(v) if result == 0 else (result if v == 0 else math.gcd(result, v))
    return result


def _multiply_divisor(lhs: int, rhs: int) -> int:
    """``lhs * rhs`` saturated at MAX_DIVISOR."""
    if rhs and lhs > MAX_DIVISOR // rhs:
        return MAX_DIVISOR
    return lhs * rhs


def _wrap64(value: int) -> int:
    """C++ int64 wrap-around (Triton folds constants in int64_t)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value > _INT64_MAX else value


def _is_pow2(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


# --------------------------------------------------------------------------- lattice


@dataclass(frozen=True)
class AxisInfo:
    """The lattice value of one SSA value (see the module docstring)."""

    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    constant_value: int | None = None

    def __post_init__(self) -> None:
        assert len(self.contiguity) == len(self.divisibility) == len(self.constancy)

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    @staticmethod
    def pessimistic(rank: int) -> AxisInfo:
        """Nothing known: every run has length 1, only 1 divides."""
        ones = (1,) * rank
        return AxisInfo(ones, ones, ones)

    @staticmethod
    def unknown(rank: int) -> AxisInfo:
        """Not yet known (the identity of :meth:`join`), Triton's state for control flow."""
        top = (MAX_DIVISOR,) * rank
        return AxisInfo(top, top, top)

    def join(self, other: AxisInfo | None) -> AxisInfo:
        """What holds for a value that is either ``self`` or ``other``."""
        if other is None or other.rank == 0:
            return self
        if self.rank == 0:
            return other
        rank = min(self.rank, other.rank)
        same_constant = (self.constant_value is not None
                         and self.constant_value == other.constant_value)
        return AxisInfo(
            tuple(gcd(self.contiguity[d], other.contiguity[d]) for d in range(rank)),
            tuple(_divisibility_of_either(self, other, d) for d in range(rank)),
            tuple(gcd(self.constancy[d], other.constancy[d]) for d in range(rank)),
            self.constant_value if same_constant else None,
        )

    def __str__(self) -> str:
        constant = "<none>" if self.constant_value is None else str(self.constant_value)
        return (f"contiguity = {list(self.contiguity)}, divisibility = "
                f"{list(self.divisibility)}, constancy = {list(self.constancy)}, "
                f"constant_value = {constant}")


def _divisibility_of_either(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    """Divisibility of a value that is, element-wise, one of two values.

    When the contiguities differ, runs of one cut through runs of the other, so run starts
    of the result need not be aligned beyond the contiguities either: [[0, 1], [4, 5]] and
    [16, 17, 18, 19] give contiguity 2 but only divisibility 2 (18 is not a multiple of 4).
    """
    lc, rc = lhs.contiguity[d], rhs.contiguity[d]
    if lc == rc or lc == MAX_DIVISOR or rc == MAX_DIVISOR:
        return gcd(lhs.divisibility[d], rhs.divisibility[d])
    return gcd(lhs.divisibility[d], rhs.divisibility[d], lc, rc)


# --------------------------------------------------------------------------- type helpers


def _shape(ty: Attribute) -> tuple[int, ...] | None:
    return tuple(ty.get_shape()) if isinstance(ty, TensorType) else None


def value_rank(ty: Attribute) -> int:
    """Rank of the lattice of a value of type ``ty`` (scalars and scalar pointers: 1)."""
    if isinstance(ty, TensorType):
        return len(ty.get_shape())
    if isinstance(ty, PointerType) and isinstance(ty.pointee_type, TensorType):
        return len(ty.pointee_type.get_shape())
    return 1


def _int_width(ty: Attribute) -> int | None:
    if isinstance(ty, IntegerType):
        return ty.width.data
    if isinstance(ty, IndexType):
        return 64
    return None


def element_bit_width(ty: Attribute) -> int:
    """Bit width of what a value of type ``ty`` (pointers: what it points to) holds."""
    if isinstance(ty, TensorType):
        ty = ty.element_type
    if isinstance(ty, PointerType):
        ty = ty.pointee_type
        if isinstance(ty, TensorType):
            ty = ty.element_type
    if isinstance(ty, PointerType):
        return 64
    width = _int_width(ty)
    if width is not None:
        return width
    bitwidth = getattr(ty, "bitwidth", None)
    return bitwidth if isinstance(bitwidth, int) else 32


def _zext_constant(value: int, ty: Attribute) -> int:
    """The integer as Triton reads it: ``APInt::getZExtValue`` then int64_t."""
    width = _int_width(ty)
    if width is None or width >= 64:
        return _wrap64(value)
    return value & ((1 << width) - 1)


# --------------------------------------------------------------------------- op rules
#
# Each rule gets the op and the lattice values of its operands (never None) and returns the
# result's AxisInfo, or None when Triton has no rule (the results then get the pessimistic
# state). Rules are registered by op name in _RULES.

Rule = Callable[[Operation, list[AxisInfo]], "AxisInfo | None"]
_RULES: dict[str, Rule] = {}


def _rule(*names: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for name in names:
            _RULES[name] = fn
        return fn
    return register


def _attr(op: Operation, name: str) -> Attribute | None:
    """A property or attribute of ``op`` (xDSL attributes may be falsy: test for None)."""
    value = op.properties.get(name)
    return value if value is not None else op.attributes.get(name)


def _result_shape(op: Operation) -> tuple[int, ...] | None:
    return _shape(op.results[0].type) if op.results else None


@_rule("arith.extsi", "arith.extui", "arith.trunci", "ttg.convert_layout", "tt.bitcast",
       "builtin.unrealized_conversion_cast")
def _cast(op: Operation, operands: list[AxisInfo]) -> AxisInfo | None:
    return operands[0]


@_rule("tt.make_range")
def _make_range(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    start = op.properties["start"].value.data & 0xFFFFFFFF
    end = op.properties["end"].value.data & 0xFFFFFFFF
    # Triton's start is a uint32_t: "the largest power of two dividing 0" is 2**30 here.
    return AxisInfo((end - start,), (highest_pow2_divisor(start, 32),), (1,))


@_rule("ub.poison")
def _poison(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    # A poison value is never read: anything may be assumed.
    return AxisInfo.unknown(value_rank(op.results[0].type))


@_rule("arith.constant")
def _constant(op: Operation, operands: list[AxisInfo]) -> AxisInfo | None:
    attr = _attr(op, "value")
    if isinstance(attr, IntegerAttr):
        value = _zext_constant(attr.value.data, attr.type)
        return AxisInfo((1,), (highest_pow2_divisor(value),), (1,), value)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        ty = attr.get_type()
        element = ty.get_element_type() if hasattr(ty, "get_element_type") else None
        if _int_width(element) is None or not attr.is_splat():
            return None
        value = _zext_constant(int(first_element(attr)), element)
        shape = tuple(ty.get_shape())
        return AxisInfo((1,) * len(shape), (highest_pow2_divisor(value),) * len(shape),
                        shape, value)
    return None


def _binary(
    contiguity: Callable[[Operation, AxisInfo, AxisInfo, int], int] | None = None,
    divisibility: Callable[[Operation, AxisInfo, AxisInfo, int], int] | None = None,
    constancy: Callable[[Operation, AxisInfo, AxisInfo, int], int] | None = None,
    constant: Callable[[Operation, AxisInfo, AxisInfo], int | None] | None = None,
) -> Rule:
    """Triton's BinaryOpVisitorImpl: per dim, or a known constant for the whole value."""

    def rule(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
        lhs, rhs = operands[0], operands[1]
        value = constant(op, lhs, rhs) if constant else None
        if value is not None:
            value = _wrap64(value)
        contig, div, const = [], [], []
        for d in range(lhs.rank):
            if value is not None:
                contig.append(1)
                const.append(max(lhs.constancy[d], rhs.constancy[d]))
                div.append(highest_pow2_divisor(value))
            else:
                contig.append(contiguity(op, lhs, rhs, d) if contiguity else 1)
                div.append(divisibility(op, lhs, rhs, d) if divisibility else 1)
                const.append(constancy(op, lhs, rhs, d) if constancy else 1)
        return AxisInfo(tuple(contig), tuple(div), tuple(const), value)

    return rule


def _gcd_constancy(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return gcd(lhs.constancy[d], rhs.constancy[d])


def _both_constant(lhs: AxisInfo, rhs: AxisInfo) -> bool:
    return lhs.constant_value is not None and rhs.constant_value is not None


def _pointee_bytes(op: Operation) -> int:
    return max(1, element_bit_width(op.operands[0].type) // 8)


def _add_sub_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # Contiguity means increasing runs: a contiguous rhs gives nothing for subtraction.
    if op.name == "arith.subi":
        return gcd(lhs.contiguity[d], rhs.constancy[d])
    return max(gcd(lhs.constancy[d], rhs.contiguity[d]), gcd(lhs.contiguity[d], rhs.constancy[d]))


def _add_sub_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    rhs_div = rhs.divisibility[d]
    if op.name == "tt.addptr":
        # The offset counts elements; the pointer's divisibility is in bytes.
        rhs_div = _multiply_divisor(rhs_div, _pointee_bytes(op))
    return gcd(lhs.divisibility[d], rhs_div)


def _add_sub_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if not _both_constant(lhs, rhs):
        return None
    if op.name == "arith.addi":
        return lhs.constant_value + rhs.constant_value
    if op.name == "arith.subi":
        return lhs.constant_value - rhs.constant_value
    return lhs.constant_value + rhs.constant_value * _pointee_bytes(op)


_RULES["arith.addi"] = _RULES["arith.subi"] = _RULES["tt.addptr"] = _binary(
    _add_sub_contiguity, _add_sub_divisibility, _gcd_constancy, _add_sub_constant)


def _is_one(info: AxisInfo) -> bool:
    return info.constant_value == 1


def _mul_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return max(lhs.contiguity[d] if _is_one(rhs) else 1, rhs.contiguity[d] if _is_one(lhs) else 1)


def _mul_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # A run [2^n, 2^n + 1, ...] only guarantees divisibility 1 element-wise.
    lhs_div = 1 if lhs.contiguity[d] > 1 and not _is_one(rhs) else lhs.divisibility[d]
    rhs_div = 1 if rhs.contiguity[d] > 1 and not _is_one(lhs) else rhs.divisibility[d]
    return _multiply_divisor(lhs_div, rhs_div)


def _mul_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    return lhs.constant_value * rhs.constant_value if _both_constant(lhs, rhs) else None


_RULES["arith.muli"] = _binary(_mul_contiguity, _mul_divisibility, _gcd_constancy, _mul_constant)


def _c_div(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _c_rem(a: int, b: int) -> int:
    return a - _c_div(a, b) * b


def _is_contiguous_dim(info: AxisInfo, shape: Sequence[int], d: int) -> bool:
    return info.contiguity[d] == shape[d]


def _is_constant_dim(info: AxisInfo, shape: Sequence[int], d: int) -> bool:
    return info.constancy[d] == shape[d]


def _div_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return lhs.contiguity[d] if _is_one(rhs) else 1


def _div_constancy(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is None:
        return 1
    constancy = gcd(lhs.constancy[d], rhs.constancy[d])
    # A run of contiguous values divided by one constant stays constant over
    # gcd(contiguity, both divisibilities) elements.
    if _is_contiguous_dim(lhs, shape, d) and _is_constant_dim(rhs, shape, d):
        constancy = max(constancy, gcd(lhs.contiguity[d], lhs.divisibility[d],
                                       rhs.divisibility[d]))
    return constancy


def _div_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    if lhs.constant_value == 0 or _is_one(rhs):
        return lhs.divisibility[d]
    if (rhs.constant_value is not None and _is_pow2(abs(rhs.constant_value))
            and lhs.contiguity[d] == 1):
        return max(1, lhs.divisibility[d] // abs(rhs.constant_value))
    return 1


def _div_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if _both_constant(lhs, rhs) and rhs.constant_value != 0:
        return _c_div(lhs.constant_value, rhs.constant_value)
    return None


_RULES["arith.divsi"] = _RULES["arith.divui"] = _binary(
    _div_contiguity, _div_divisibility, _div_constancy, _div_constant)


def _rem_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is None:
        return 1
    if _is_contiguous_dim(lhs, shape, d) and _is_constant_dim(rhs, shape, d):
        return gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d])
    return 1


def _rem_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # With a (locally) constant divisor the remainder keeps their common divisibility;
    # otherwise nothing: [2, 2, 4, 4] % [0, 1, 2, 3] = [0, 0, 0, 1].
    if rhs.constancy[d] > 1:
        return gcd(lhs.divisibility[d], rhs.divisibility[d])
    return 1


def _rem_constancy(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is None:
        return 1
    return shape[d] if _is_one(rhs) else gcd(lhs.constancy[d], rhs.constancy[d])


def _rem_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if _both_constant(lhs, rhs) and rhs.constant_value != 0:
        return _c_rem(lhs.constant_value, rhs.constant_value)
    if _is_one(rhs):
        return 0
    return None


_RULES["arith.remsi"] = _RULES["arith.remui"] = _binary(
    _rem_contiguity, _rem_divisibility, _rem_constancy, _rem_constant)


def _logical_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if not _both_constant(lhs, rhs):
        return None
    a, b = lhs.constant_value, rhs.constant_value
    return {"arith.andi": a & b, "arith.ori": a | b, "arith.xori": a ^ b}[op.name]


_RULES["arith.andi"] = _RULES["arith.ori"] = _RULES["arith.xori"] = _binary(
    None, None, _gcd_constancy, _logical_constant)


def _shift_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return lhs.contiguity[d] if rhs.constant_value == 0 else 1


def _shift_amount(info: AxisInfo) -> int:
    shift = info.constant_value or 0
    return shift if 0 <= shift < 63 else 0


def _shl_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shift = _shift_amount(rhs)
    lhs_div = 1 if lhs.contiguity[d] > 1 and shift else lhs.divisibility[d]
    return _multiply_divisor(lhs_div, 1 << shift)


def _shl_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if _both_constant(lhs, rhs) and 0 <= rhs.constant_value < 64:
        return lhs.constant_value << rhs.constant_value
    return None


def _shr_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    if rhs.constant_value is None:
        return 1
    shift = _shift_amount(rhs)
    lhs_div = 1 if lhs.contiguity[d] > 1 and shift else lhs.divisibility[d]
    return max(1, lhs_div // (1 << shift))


def _shr_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if _both_constant(lhs, rhs) and 0 <= rhs.constant_value < 64:
        return lhs.constant_value >> rhs.constant_value
    return None


_RULES["arith.shli"] = _binary(_shift_contiguity, _shl_divisibility, _gcd_constancy,
                               _shl_constant)
_RULES["arith.shrui"] = _RULES["arith.shrsi"] = _binary(
    _shift_contiguity, _shr_divisibility, _gcd_constancy, _shr_constant)


@_rule("tt.splat")
def _splat(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    shape = _shape(op.results[0].type) or (1,)
    src = operands[0]
    return AxisInfo((1,) * len(shape), (src.divisibility[0],) * len(shape), shape,
                    src.constant_value)


@_rule("tt.load")
def _load(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    # Equal pointers under an equal mask load equal values.
    ptr = operands[0]
    mask = operands[1] if len(operands) > 1 else None
    return AxisInfo((1,) * ptr.rank, (1,) * ptr.rank,
                    tuple(gcd(ptr.constancy[d], mask.constancy[d] if mask else 0)
                          for d in range(ptr.rank)))


def _every_element_divisibility(src: AxisInfo) -> int:
    """A power of two dividing every element: a run [2^n, 2^n+1, ...] only guarantees 1."""
    if src.constant_value is not None:
        return highest_pow2_divisor(src.constant_value)
    every = 0
    for d in range(src.rank):
        every = gcd(every, 1 if src.contiguity[d] > 1 else src.divisibility[d])
    return every or 1


@_rule("tt.expand_dims")
def _expand_dims(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    src = operands[0]
    axis = _attr(op, "axis").value.data
    # The new dim's divisibility holds for every element.
    new_div = _every_element_divisibility(src)

    def insert(values: tuple[int, ...], value: int) -> tuple[int, ...]:
        return values[:axis] + (value,) + values[axis:]

    return AxisInfo(insert(src.contiguity, 1), insert(src.divisibility, new_div),
                    insert(src.constancy, 1), src.constant_value)


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return strides


@_rule("tt.reshape")
def _reshape(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    """Row-major reshape (Triton 3.9 writes one where 3.6 wrote expand_dims, e.g. in
    rewritten tensor descriptors). Each destination dim takes what survives of the source
    dim its unit step lies in: a contiguous run only where both dims start on the same
    element stride, a constant run over as many steps as it lasts; every dim keeps what
    divides every element."""
    src = operands[0]
    src_shape = _shape(op.operands[0].type)
    dst_shape = _shape(op.results[0].type)
    every = _every_element_divisibility(src)
    if src.constant_value is not None:
        return AxisInfo((1,) * len(dst_shape), (every,) * len(dst_shape), tuple(dst_shape),
                        src.constant_value)
    if op.properties.get("allow_reorder") is not None:  # elements may move: no runs kept
        ones = (1,) * len(dst_shape)
        return AxisInfo(ones, (every,) * len(dst_shape), ones)
    src_strides, dst_strides = _row_major_strides(src_shape), _row_major_strides(dst_shape)
    contiguity, divisibility, constancy = ([1] * len(dst_shape), [every] * len(dst_shape),
                                           [1] * len(dst_shape))
    for m, stride in enumerate(dst_strides):
        # leading size-1 dims lie past every source dim: the outermost stands for them
        i = next((i for i, st in enumerate(src_strides)
                  if st <= stride < st * src_shape[i]), 0)
        if src.contiguity[i] > 1:
            if stride == src_strides[i]:
                run = min(src.contiguity[i], dst_shape[m])
                # a cut run starts new runs inside the old one: only ``run`` divides them
                kept = src.divisibility[i] if run == src.contiguity[i] else min(
                    src.divisibility[i], run)
                contiguity[m], divisibility[m] = run, max(every, kept)
            continue
        end = src_strides[i] * src.constancy[i]
        if stride <= end:
            constancy[m] = min(dst_shape[m], end // stride)
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy))


@_rule("tt.broadcast")
def _broadcast(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    src = operands[0]
    src_shape = _shape(op.operands[0].type)
    dst_shape = _shape(op.results[0].type)
    return AxisInfo(
        tuple(1 if src_shape[d] == 1 else src.contiguity[d] for d in range(len(dst_shape))),
        tuple(src.divisibility[d] for d in range(len(dst_shape))),
        tuple(dst_shape[d] if src_shape[d] == 1 else src.constancy[d]
              for d in range(len(dst_shape))),
        src.constant_value,
    )


_CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _cmpi_predicate(op: Operation) -> str:
    attr = _attr(op, "predicate")
    return _CMPI_PREDICATES[attr.value.data]


def _compare(predicate: str, a: int, b: int) -> bool:
    if predicate.startswith("u"):
        a, b = a & ((1 << 64) - 1), b & ((1 << 64) - 1)
    return {
        "eq": a == b, "ne": a != b,
        "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b,
        "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
    }[predicate]


@_rule("arith.cmpi")
def _cmpi(op: Operation, operands: list[AxisInfo]) -> AxisInfo | None:
    shape = _shape(op.results[0].type)
    if shape is None:
        return None
    lhs, rhs = operands
    predicate = _cmpi_predicate(op)
    constant = None
    constancy = []
    for d in range(len(shape)):
        if _both_constant(lhs, rhs):
            hint = lhs.constancy[d]
            constant = int(_compare(predicate, lhs.constant_value, rhs.constant_value))
        else:
            hint = gcd(lhs.constancy[d], rhs.constancy[d])
            # A constant compared with a contiguous run keeps its answer over aligned
            # stretches: 4 <= [4, 5, 6, 7] is all true, [4, 5, 6, 7] < 4 all false.
            if predicate in ("sgt", "ugt", "sle", "ule") and _is_constant_dim(lhs, shape, d):
                hint = max(hint, gcd(rhs.contiguity[d], lhs.divisibility[d],
                                     rhs.divisibility[d]))
            elif predicate in ("slt", "ult", "sge", "uge") and _is_constant_dim(rhs, shape, d):
                hint = max(hint, gcd(lhs.contiguity[d], lhs.divisibility[d],
                                     rhs.divisibility[d]))
        constancy.append(hint)
    ones = (1,) * len(shape)
    return AxisInfo(ones, ones, tuple(constancy), constant)


@_rule("arith.select")
def _select(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    cond, lhs, rhs = operands
    if cond.constant_value is not None:
        return rhs if cond.constant_value == 0 else lhs
    scalar_cond = not isinstance(op.operands[0].type, TensorType)
    contig, div, const = [], [], []
    for d in range(lhs.rank):
        if scalar_cond:
            const.append(gcd(lhs.constancy[d], rhs.constancy[d]))
            contig.append(gcd(lhs.contiguity[d], rhs.contiguity[d]))
        else:
            const.append(gcd(lhs.constancy[d], rhs.constancy[d], cond.constancy[d]))
            contig.append(gcd(lhs.contiguity[d], rhs.contiguity[d], cond.constancy[d]))
        div.append(_divisibility_of_either(lhs, rhs, d))
    same = lhs.constant_value is not None and lhs.constant_value == rhs.constant_value
    return AxisInfo(tuple(contig), tuple(div), tuple(const),
                    lhs.constant_value if same else None)


@_rule("arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui")
def _max_min(op: Operation, operands: list[AxisInfo]) -> AxisInfo:
    lhs, rhs = operands
    rank = lhs.rank
    if _both_constant(lhs, rhs):
        pick = max if op.name in ("arith.maxsi", "arith.maxui") else min
        ones = (1,) * rank
        return AxisInfo(ones, ones, ones, pick(lhs.constant_value, rhs.constant_value))
    return AxisInfo(
        tuple(gcd(lhs.contiguity[d], rhs.contiguity[d]) for d in range(rank)),
        tuple(_divisibility_of_either(lhs, rhs, d) for d in range(rank)),
        tuple(gcd(lhs.constancy[d], rhs.constancy[d]) for d in range(rank)),
    )


# --------------------------------------------------------------------------- hints


def _hint_vector(attr: Attribute | None, rank: int) -> tuple[int, ...] | None:
    """``tt.divisibility = 16`` (every dim) or ``dense<[1, 16]>`` (per dim)."""
    if isinstance(attr, IntegerAttr):
        return (attr.value.data & ((1 << 64) - 1),) * max(rank, 1)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = tuple(int(v) for v in attr.get_values())
        return values if len(values) == rank else None
    return None


def _with_hints(info: AxisInfo, hints: dict[str, Attribute]) -> AxisInfo:
    fields = [info.contiguity, info.divisibility, info.constancy]
    changed = False
    for i, name in enumerate(HINT_NAMES):
        vector = _hint_vector(hints.get(name), info.rank)
        if vector is not None:
            fields[i] = vector
            changed = True
    if not changed:
        return info
    return AxisInfo(fields[0], fields[1], fields[2], info.constant_value)


def _op_hints(op: Operation) -> dict[str, Attribute]:
    return {name: op.attributes[name] for name in HINT_NAMES if name in op.attributes}


# --------------------------------------------------------------------------- the analysis

_REGION_BRANCH_OPS = ("scf.for", "scf.if", "scf.while", "scf.execute_region")


class AxisInfoAnalysis:
    """Axis info of every value of every function of a module (Triton's ModuleAxisInfoAnalysis).

    ``analysis[value]`` (or :meth:`get`) gives the :class:`AxisInfo` of an SSA value; the
    ``*_alignment`` / :meth:`contiguity` helpers answer the vector-width questions Triton's
    passes and lowering ask.
    """

    def __init__(self, root: Operation):
        self._info: dict[SSAValue, AxisInfo] = {}
        # Argument hints callers give to callees: {func name: [{hint: value}] per argument}.
        self._call_hints: dict[str, list[dict[str, int]]] = {}
        for func in self._functions_callers_first(root):
            self._analyse_function(func)

    # ------------------------------------------------------------------ public queries

    def get(self, value: SSAValue) -> AxisInfo | None:
        return self._info.get(value)

    def __getitem__(self, value: SSAValue) -> AxisInfo:
        info = self._info.get(value)
        if info is None:
            info = self._pessimistic(value)
        return info

    def alignment(self, value: SSAValue, element_bits: int | None = None) -> int:
        """Elements that can be accessed as one aligned vector along the fastest dim.

        For a tensor of pointers, divisibility is in bytes and is divided by the pointee
        size; for an offsets tensor ``element_bits`` gives the accessed element size
        (Triton's ``getAlignment``).
        """
        ty = value.type
        if not isinstance(ty, TensorType):
            return 1
        if element_bits is None:
            element_bits = element_bit_width(ty)
        info = self[value]
        fastest = tensor_order(ty)[0]
        divisibility = info.divisibility[fastest]
        elem_bytes = max(element_bits // 8, 1)
        if isinstance(ty.element_type, PointerType):
            max_multiple = max(divisibility // elem_bytes, 1)
        else:
            max_multiple = divisibility
        return min(max_multiple, info.contiguity[fastest])

    def contiguity(self, value: SSAValue, element_bits: int | None = None) -> int:
        """Vector width of an access through ``value`` in its current layout: alignment,
        capped by the elements a thread holds contiguously (Triton's ``getContiguity``)."""
        ty = value.type
        if not isinstance(ty, TensorType):
            return 1
        align = self.alignment(value, element_bits)
        fastest = tensor_order(ty)[0]
        return min(align, tensor_contig_per_thread(ty)[fastest])

    def mask_alignment(self, mask: SSAValue) -> int:
        """How many consecutive elements along the fastest dim share one mask bit."""
        ty = mask.type
        if not isinstance(ty, TensorType):
            return 1
        fastest = tensor_order(ty)[0]
        return max(self[mask].constancy[fastest], 1)

    # ------------------------------------------------------------------ functions

    @staticmethod
    def _functions_callers_first(root: Operation) -> list[Operation]:
        # Lists rather than xDSL's nested generators: the analysis runs on whole modules
        # several times a compile (coalesce, the pipeliner, the lowering).
        funcs = [op for op in ops_in_walk_order(root) if op.name == "tt.func"]
        by_name = {f.properties["sym_name"].data: f for f in funcs}
        callees: dict[str, list[str]] = {}
        for func in funcs:
            name = func.properties["sym_name"].data
            callees[name] = [op.properties["callee"].root_reference.data
                             for op in ops_in_walk_order(func) if op.name == "tt.call"
                             and "callee" in op.properties]
        # Post-order over the call graph, then reversed: every caller before its callees.
        order: list[str] = []
        seen: set[str] = set()

        def visit(name: str) -> None:
            if name in seen or name not in by_name:
                return
            seen.add(name)
            for callee in callees.get(name, []):
                visit(callee)
            order.append(name)

        for func in funcs:
            visit(func.properties["sym_name"].data)
        return [by_name[name] for name in reversed(order)]

    def _analyse_function(self, func: Operation) -> None:
        if not func.regions or not func.regions[0].blocks:
            return
        entry = func.regions[0].blocks.first
        name = func.properties["sym_name"].data
        for i, arg in enumerate(entry.args):
            self._info[arg] = self._function_arg_info(func, name, i, arg)
        self._run_cfg(func.regions[0])
        for op in ops_in_walk_order(func):
            if op.name == "tt.call":
                self._record_call(op)

    def _function_arg_info(self, func: Operation, name: str, index: int,
                           arg: BlockArgument) -> AxisInfo:
        info = AxisInfo.pessimistic(value_rank(arg.type))
        arg_attrs = func.properties.get("arg_attrs")
        if arg_attrs is not None and index < len(arg_attrs.data):
            info = _with_hints(info, dict(arg_attrs.data[index].data))
        calls = self._call_hints.get(name)
        if calls is not None and index < len(calls):
            fields = [info.contiguity, info.divisibility, info.constancy]
            for i, hint in enumerate(HINT_NAMES):
                if hint in calls[index]:
                    fields[i] = (calls[index][hint],) * info.rank
            info = AxisInfo(*fields)
        return info

    def _record_call(self, call: Operation) -> None:
        """Give the callee's arguments the gcd of what every call passes."""
        callee = call.properties["callee"].root_reference.data
        hints = self._call_hints.setdefault(callee, [{} for _ in call.operands])
        for i, operand in enumerate(call.operands):
            info = self[operand]
            for name, values in zip(HINT_NAMES,
                                    (info.contiguity, info.divisibility, info.constancy)):
                hints[i][name] = gcd(hints[i].get(name, MAX_DIVISOR), values[0])

    # ------------------------------------------------------------------ dataflow

    def _pessimistic(self, value: SSAValue) -> AxisInfo:
        """Triton's entry state: 1s, or "unknown" (the join identity) for control flow."""
        rank = value_rank(value.type)
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op() if value.block else None
            if parent is not None and parent.name in _REGION_BRANCH_OPS:
                return AxisInfo.unknown(rank)
            return AxisInfo.pessimistic(rank)
        op = value.owner
        info = (AxisInfo.unknown(rank) if op.name in _REGION_BRANCH_OPS
                else AxisInfo.pessimistic(rank))
        return _with_hints(info, _op_hints(op))

    def _operand_info(self, value: SSAValue) -> AxisInfo:
        info = self._info.get(value)
        if info is None or info.rank == 0:
            info = self._pessimistic(value)
            self._info[value] = info
        return info

    def _join_into(self, value: SSAValue, info: AxisInfo) -> bool:
        """Join ``info`` into the lattice of ``value``; True if it changed."""
        old = self._info.get(value)
        new = info if old is None else old.join(info)
        if new != old:
            self._info[value] = new
            return True
        return False

    def _run_block(self, block: Block) -> None:
        for op in block.ops:
            self._visit(op)

    def _run_cfg(self, region: Region) -> None:
        """Run the blocks of ``region`` (its entry's arguments already set) to a fixpoint.

        After ``convert-scf-to-cf`` a loop is blocks and branches; its carried values are
        block arguments that only the branches define, so (as Triton's CFG dataflow does)
        each one is the join of the values every predecessor passes. Blocks run in reverse
        post-order, so a reachable block has had at least one predecessor join into its
        arguments before it runs; back edges then narrow them until nothing changes.
        """
        entry = region.blocks.first
        if entry is None:
            return
        if entry.next_block is None:
            self._run_block(entry)
            return
        order = _reverse_post_order(entry)
        for _ in range(64):
            changed = False
            for block in order:
                self._run_block(block)
                for successor, values in _branch_edges(block.last_op):
                    for i, arg in enumerate(successor.args):
                        # A branch we cannot read passes values we know nothing about.
                        info = (self._operand_info(values[i])
                                if values is not None and i < len(values)
                                else AxisInfo.pessimistic(value_rank(arg.type)))
                        changed |= self._join_into(arg, info)
            if not changed:
                return

    def _visit(self, op: Operation) -> None:
        if op.name in _REGION_BRANCH_OPS:
            # A dict of bound methods built per op cost more than the visit of most ops.
            handler = _CONTROL_FLOW_VISITS[op.name]
            handler(self, op)
            return
        # Regions of other ops (reduce / scan combiners, ...): arguments know nothing.
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    self._join_into(arg, AxisInfo.pessimistic(value_rank(arg.type)))
                self._run_block(block)
        if not op.results:
            return
        operands = [self._operand_info(v) for v in op.operands]
        rule = _RULES.get(op.name)
        info = rule(op, operands) if rule is not None else None
        if info is None or info.rank == 0:
            for result in op.results:
                self._join_into(result, self._pessimistic(result))
            return
        info = _with_hints(info, _op_hints(op))
        for result in op.results:
            self._join_into(result, info)

    def _yielded(self, block: Block) -> list[AxisInfo]:
        terminator = block.last_op
        if terminator is None or terminator.name not in ("scf.yield", "scf.condition"):
            return []
        values = terminator.operands
        if terminator.name == "scf.condition":
            values = values[1:]
        return [self._operand_info(v) for v in values]

    def _visit_for(self, op: Operation) -> None:
        lb, _ub, step = (self._operand_info(v) for v in op.operands[:3])
        inits = [self._operand_info(v) for v in op.operands[3:]]
        body = op.regions[0].blocks.first
        induction, *iter_args = body.args
        # The induction variable runs lb, lb + step, ...: divisible by gcd of both.
        self._join_into(induction, AxisInfo((1,), (gcd(lb.divisibility[0],
                                                       step.divisibility[0]),), (1,)))
        for arg, init in zip(iter_args, inits):
            self._join_into(arg, init)
        self._iterate(body, iter_args)
        for result, arg in zip(op.results, iter_args):
            self._join_into(result, self._info[arg])
        self._apply_result_hints(op)

    def _iterate(self, body: Block, loop_args: Sequence[SSAValue]) -> None:
        """Run ``body`` until what it yields back into ``loop_args`` stops changing."""
        for _ in range(64):
            self._run_block(body)
            changed = False
            for arg, info in zip(loop_args, self._yielded(body)):
                changed |= self._join_into(arg, info)
            if not changed:
                return

    def _visit_if(self, op: Operation) -> None:
        """scf.if (and scf.execute_region): results join what every region yields."""
        for operand in op.operands:
            self._operand_info(operand)
        branches = []
        for region in op.regions:
            if region.blocks:
                self._run_block(region.blocks.first)
                branches.append(self._yielded(region.blocks.first))
        for i, result in enumerate(op.results):
            for yielded in branches:
                if i < len(yielded):
                    self._join_into(result, yielded[i])
        self._apply_result_hints(op)

    def _visit_while(self, op: Operation) -> None:
        before = op.regions[0].blocks.first
        after = op.regions[1].blocks.first
        for arg, value in zip(before.args, op.operands):
            self._join_into(arg, self._operand_info(value))

        def run_after() -> None:
            for arg, info in zip(after.args, self._yielded(before)):
                self._join_into(arg, info)
            self._run_block(after)

        # The before region feeds the after region, whose yield feeds the before region.
        for _ in range(64):
            self._run_block(before)
            run_after()
            changed = False
            for arg, info in zip(before.args, self._yielded(after)):
                changed |= self._join_into(arg, info)
            if not changed:
                break
        for result, info in zip(op.results, self._yielded(before)):
            self._join_into(result, info)
        self._apply_result_hints(op)

    def _apply_result_hints(self, op: Operation) -> None:
        # Triton reads hints on control-flow ops only into their initial "unknown" state,
        # which then joins with what flows in.
        hints = _op_hints(op)
        if hints:
            for result in op.results:
                self._join_into(result, self._pessimistic(result))


# --------------------------------------------------------------------------- CFG helpers


# The control-flow ops' visits, by name (the names of ``_REGION_BRANCH_OPS``).
_CONTROL_FLOW_VISITS: dict[str, Callable[[AxisInfoAnalysis, Operation], None]] = {
    "scf.for": AxisInfoAnalysis._visit_for,  # noqa: SLF001
    "scf.if": AxisInfoAnalysis._visit_if,  # noqa: SLF001
    "scf.execute_region": AxisInfoAnalysis._visit_if,  # noqa: SLF001
    "scf.while": AxisInfoAnalysis._visit_while,  # noqa: SLF001
}
assert set(_CONTROL_FLOW_VISITS) == set(_REGION_BRANCH_OPS)


def _branch_edges(terminator: Operation | None) -> list[tuple[Block, Sequence[SSAValue] | None]]:
    """(successor, values passed to its arguments) for every edge leaving a block; None
    for the values of a terminator whose operand segments are not known here."""
    if terminator is None or not terminator.successors:
        return []
    if terminator.name == "cf.br":
        return [(terminator.successors[0], list(terminator.operands))]
    if terminator.name == "cf.cond_br":
        return [(terminator.successors[0], list(terminator.then_arguments)),
                (terminator.successors[1], list(terminator.else_arguments))]
    if terminator.name == "cf.switch":
        edges = [(terminator.default_block, list(terminator.default_operands))]
        cases = list(terminator.case_operands)
        start = 0
        for block, size in zip(terminator.case_blocks,
                               terminator.case_operand_segments.get_values()):
            edges.append((block, cases[start:start + size]))
            start += size
        return edges
    return [(successor, None) for successor in terminator.successors]


def _reverse_post_order(entry: Block) -> list[Block]:
    """Blocks reachable from ``entry``, every block after its forward-edge predecessors."""
    order: list[Block] = []
    seen = {entry}
    stack = [(entry, iter(_successors(entry)))]
    while stack:
        block, successors = stack[-1]
        for successor in successors:
            if successor not in seen:
                seen.add(successor)
                stack.append((successor, iter(_successors(successor))))
                break
        else:
            stack.pop()
            order.append(block)
    order.reverse()
    return order


def _successors(block: Block) -> list[Block]:
    return [successor for successor, _ in _branch_edges(block.last_op)]


# --------------------------------------------------------------------------- layout queries


def _encoding(ty: TensorType):
    """The tensor's layout as a :mod:`tileopt.layouts` encoding (None without one)."""
    if isinstance(ty.encoding, NoneAttr):
        return None
    return encoding_of(ty)


def tensor_order(ty: TensorType) -> list[int]:
    """Dims of ``ty`` from fastest to slowest in a thread's registers (Triton's getOrder of
    the linear layout); without a layout, the last dim is fastest."""
    from tileopt.layouts.encodings import get_order

    encoding = _encoding(ty)
    shape = list(ty.get_shape())
    if encoding is None:
        return list(reversed(range(len(shape))))
    return get_order(encoding, shape)


def tensor_contig_per_thread(ty: TensorType) -> list[int]:
    from tileopt.layouts.encodings import get_contig_per_thread

    encoding = _encoding(ty)
    if encoding is None:
        return [1] * len(ty.get_shape())
    return get_contig_per_thread(encoding, list(ty.get_shape()))


__all__ = [
    "AxisInfo", "AxisInfoAnalysis", "MAX_DIVISOR", "element_bit_width", "gcd",
    "highest_pow2_divisor", "tensor_contig_per_thread",
    "tensor_order", "value_rank",
]
