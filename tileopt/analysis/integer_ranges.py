"""Signed integer value ranges, as Triton's AMD ``TritonIntegerRangeAnalysis``
(``third_party/amd/lib/Analysis/RangeAnalysis.cpp``) computes them for buffer-op
conversion, and as ``triton-algebraic-simplify`` needs them to prove values non-negative.

For an integer (or integer tensor) value the analysis gives the closed interval
``[lo, hi]`` of signed values it may hold (every element, for a tensor), following MLIR's
``IntegerRangeAnalysis`` rules with Triton's additions:

- constants: their value (the minimum and maximum element of a dense constant);
- ``tt.make_range``: ``[start, end - 1]``; ``tt.get_program_id``: ``[0, 2^31 - 1]``
  (Triton's ``kDefaultMaxPrograms``); ``tt.get_num_programs``: ``[1, 2^31 - 1]``;
  ``tt.histogram``: non-negative;
- shape ops (splat, broadcast, expand_dims, reshape, trans, convert_layout, ...) keep the
  range; ``join``/``cat``/``select`` take the union;
- ``addi``/``subi``/``muli``/shifts by constants: interval arithmetic; a result that may
  leave the type's range may wrap, so it is the full range (no ``nsw`` assumed);
- ``divsi``/``divui``/``remsi``/``remui``/``andi``/``ori``/``xori``/``maxsi``/``minsi``/
  extensions/truncation: the usual interval rules;
- ``scf.for`` induction variables: ``[lb.lo, ub.hi - 1]`` for a positive step;
  ``scf.if`` results: the union of what both branches yield;
- ``llvm.intr.assume(cmpi(x, constant))`` (``tl.assume``) narrows ``x`` anywhere;
- anything else (function arguments, loaded values, loop-carried values): the full range.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileopt.dialects.tt_types import bit_width, element_type


@dataclass(frozen=True)
class Range:
    """``lo <= value <= hi`` for every element, as signed integers."""

    lo: int
    hi: int

    @property
    def non_negative(self) -> bool:
        return self.lo >= 0

    def union(self, other: Range) -> Range:
        return Range(min(self.lo, other.lo), max(self.hi, other.hi))

    def intersection(self, other: Range) -> Range:
        return Range(max(self.lo, other.lo), min(self.hi, other.hi))


def int_bit_width(ty: Attribute) -> int | None:
    """Width of an integer or index element type (index counts as 64 bits); None for
    anything else."""
    element = element_type(ty)
    return bit_width(element) if isinstance(element, IntegerType | IndexType) else None


def full_range(width: int) -> Range:
    return Range(-(1 << (width - 1)), (1 << (width - 1)) - 1)


def signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if width > 0 and value >> (width - 1) else value


def _clamped(lo: int, hi: int, width: int) -> Range:
    """``[lo, hi]`` if it fits the signed range of ``width`` bits, else all of it (the
    operation may wrap)."""
    full = full_range(width)
    if lo < full.lo or hi > full.hi:
        return full
    return Range(lo, hi)


_FORWARD = frozenset({
    "tt.splat", "tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.split",
    "ttg.convert_layout", "amdg.extract_slice", "arith.extsi", "arith.index_cast",
    "arith.index_castui",
})
_UNION = frozenset({"tt.join", "tt.cat"})
MAX_PROGRAMS = 1 << 31


class IntegerRanges:
    """Ranges of the integer values under ``root``, computed on demand and cached."""

    def __init__(self, root: Operation):
        self._cache: dict[SSAValue, Range | None] = {}
        self._active: set[SSAValue] = set()
        self._assumed: dict[SSAValue, Range] = {}
        for op in root.walk():
            if op.name == "llvm.intr.assume" and op.operands:
                self._collect_assumption(op.operands[0])

    def of(self, value: SSAValue) -> Range | None:
        """The range of ``value``, or None if it is not an integer (tensor)."""
        width = int_bit_width(value.type)
        if width is None:
            return None
        if value in self._cache:
            return self._cache[value]
        if value in self._active:
            return full_range(width)  # a cycle through loop-carried values
        self._active.add(value)
        try:
            found = self._compute(value, width)
        finally:
            self._active.discard(value)
        if value in self._assumed:
            narrowed = found.intersection(self._assumed[value])
            found = narrowed if narrowed.lo <= narrowed.hi else found
        self._cache[value] = found
        return found

    def non_negative(self, value: SSAValue) -> bool:
        found = self.of(value)
        return found is not None and found.non_negative

    # -- assumptions ---------------------------------------------------------------

    def _collect_assumption(self, condition: SSAValue) -> None:
        cmp = condition.owner
        if not isinstance(cmp, Operation) or cmp.name != "arith.cmpi":
            return
        predicate = cmp.properties["predicate"].value.data  # type: ignore[union-attr]
        names = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
        name = names[predicate]
        lhs, rhs = cmp.operands
        for anchor, other, flipped in ((lhs, rhs, False), (rhs, lhs, True)):
            constant = _constant_range(other)
            width = int_bit_width(anchor.type)
            if constant is None or constant.lo != constant.hi or width is None:
                continue
            c = constant.lo
            if flipped:  # c <op> x  is  x <flipped op> c
                name = {"slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
                        "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}.get(name, name)
            full = full_range(width)
            bounds = {"eq": (c, c), "sge": (c, full.hi), "sgt": (c + 1, full.hi),
                      "sle": (full.lo, c), "slt": (full.lo, c - 1),
                      "uge": (c, full.hi) if c >= 0 else None,
                      "ugt": (c + 1, full.hi) if c >= 0 else None,
                      "ule": (0, c) if c >= 0 else None, "ult": (0, c - 1) if c > 0 else None}
            bound = bounds.get(name)
            if bound is None:
                return
            assumed = Range(*bound)
            old = self._assumed.get(anchor)
            self._assumed[anchor] = assumed if old is None else old.intersection(assumed)
            return

    # -- transfer functions --------------------------------------------------------

    def _compute(self, value: SSAValue, width: int) -> Range:
        owner = value.owner
        full = full_range(width)
        if isinstance(owner, Block):
            return self._block_argument(owner, value, width)
        name = owner.name
        operands = owner.operands
        if name == "arith.constant":
            return _constant_range(value) or full
        if name == "tt.make_range":
            start = owner.properties["start"].value.data  # type: ignore[union-attr]
            end = owner.properties["end"].value.data  # type: ignore[union-attr]
            return _clamped(start, end - 1, width)
        if name == "tt.get_program_id":
            return _clamped(0, MAX_PROGRAMS - 1, width)
        if name == "tt.get_num_programs":
            return _clamped(1, MAX_PROGRAMS - 1, width)
        if name == "tt.histogram":
            return Range(0, full.hi)
        if name in _FORWARD or name == "tt.gather":
            source = self.of(operands[0])
            return source if source is not None else full
        if name in _UNION or name == "arith.select":
            parts = [self.of(v) for v in (operands if name in _UNION else operands[1:])]
            if any(p is None for p in parts):
                return full
            result = parts[0]
            for part in parts[1:]:
                result = result.union(part)  # type: ignore[union-attr]
            return result  # type: ignore[return-value]
        if name == "scf.if":
            return self._if_result(owner, value, width)
        binary = _BINARY.get(name)
        if binary is not None and len(operands) == 2:
            a, b = self.of(operands[0]), self.of(operands[1])
            if a is None or b is None:
                return full
            return binary(a, b, width)
        if name == "arith.extui":
            source = self.of(operands[0])
            source_width = int_bit_width(operands[0].type) or width
            if source is not None and source.non_negative:
                return source
            return Range(0, (1 << source_width) - 1)
        if name == "arith.trunci":
            source = self.of(operands[0])
            if source is not None and full.lo <= source.lo and source.hi <= full.hi:
                return source
            return full
        return full

    def _block_argument(self, block: Block, value: SSAValue, width: int) -> Range:
        full = full_range(width)
        parent = block.parent_op()
        if parent is not None and parent.name == "scf.for" and value is block.args[0]:
            lb, ub, step = (self.of(v) for v in parent.operands[:3])
            if lb is None or ub is None or step is None or step.lo <= 0:
                return full
            if ub.hi - 1 < lb.lo:
                return Range(lb.lo, lb.lo)
            return Range(lb.lo, ub.hi - 1)
        return full

    def _if_result(self, op: Operation, value: SSAValue, width: int) -> Range:
        index = list(op.results).index(value)
        result: Range | None = None
        for region in op.regions:
            block = region.blocks.first
            if block is None or block.last_op is None:
                return full_range(width)
            part = self.of(block.last_op.operands[index])
            if part is None:
                return full_range(width)
            result = part if result is None else result.union(part)
        return result if result is not None else full_range(width)


def _constant_range(value: SSAValue) -> Range | None:
    owner = value.owner
    if not isinstance(owner, Operation) or owner.name != "arith.constant":
        return None
    attr = owner.properties.get("value")
    width = int_bit_width(value.type)
    if width is None:
        return None
    if isinstance(attr, IntegerAttr):
        v = signed(attr.value.data, width)
        return Range(v, v)
    if isinstance(attr, DenseIntOrFPElementsAttr) and len(attr) > 0:
        values = [signed(int(v), width) for v in attr.get_values()]
        return Range(min(values), max(values))
    return None


def _corners(a: Range, b: Range, fn) -> tuple[int, int]:
    values = [fn(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(values), max(values)


def _add(a: Range, b: Range, w: int) -> Range:
    return _clamped(a.lo + b.lo, a.hi + b.hi, w)


def _sub(a: Range, b: Range, w: int) -> Range:
    return _clamped(a.lo - b.hi, a.hi - b.lo, w)


def _mul(a: Range, b: Range, w: int) -> Range:
    return _clamped(*_corners(a, b, lambda x, y: x * y), w)


def _truncated_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def _divsi(a: Range, b: Range, w: int) -> Range:
    if b.lo <= 0 <= b.hi:
        return full_range(w)  # the divisor may be zero
    return _clamped(*_corners(a, b, _truncated_div), w)


def _divui(a: Range, b: Range, w: int) -> Range:
    if not (a.non_negative and b.lo > 0):
        return full_range(w)
    return Range(a.lo // b.hi, a.hi // b.lo)


def _remsi(a: Range, b: Range, w: int) -> Range:
    if b.lo <= 0 <= b.hi:
        return full_range(w)
    limit = max(abs(b.lo), abs(b.hi)) - 1
    if a.non_negative:
        return Range(0, min(a.hi, limit))
    if a.hi <= 0:
        return Range(max(a.lo, -limit), 0)
    return Range(-limit, limit)


def _remui(a: Range, b: Range, w: int) -> Range:
    if not (a.non_negative and b.lo > 0):
        return full_range(w)
    return Range(0, min(a.hi, b.hi - 1))


def _andi(a: Range, b: Range, w: int) -> Range:
    highs = [r.hi for r in (a, b) if r.non_negative]
    if not highs:
        return full_range(w)
    return Range(0, min(highs))


def _ori(a: Range, b: Range, w: int) -> Range:
    if not (a.non_negative and b.non_negative):
        return full_range(w)
    return Range(max(a.lo, b.lo), (1 << max(a.hi, b.hi).bit_length()) - 1)


def _xori(a: Range, b: Range, w: int) -> Range:
    if not (a.non_negative and b.non_negative):
        return full_range(w)
    return Range(0, (1 << max(a.hi, b.hi).bit_length()) - 1)


def _ceildivsi(a: Range, b: Range, w: int) -> Range:
    truncated = _divsi(a, b, w)
    if truncated == full_range(w):
        return truncated
    return _clamped(truncated.lo, truncated.hi + 1, w)


def _shift_amount(b: Range, w: int) -> int | None:
    return b.lo if b.lo == b.hi and 0 <= b.lo < w else None


def _shli(a: Range, b: Range, w: int) -> Range:
    k = _shift_amount(b, w)
    return full_range(w) if k is None else _clamped(a.lo << k, a.hi << k, w)


def _shrsi(a: Range, b: Range, w: int) -> Range:
    k = _shift_amount(b, w)
    return full_range(w) if k is None else Range(a.lo >> k, a.hi >> k)


def _shrui(a: Range, b: Range, w: int) -> Range:
    k = _shift_amount(b, w)
    if k is None:
        return full_range(w)
    if a.non_negative:
        return Range(a.lo >> k, a.hi >> k)
    return Range(0, ((1 << w) - 1) >> k) if k > 0 else full_range(w)


def _maxsi(a: Range, b: Range, w: int) -> Range:
    return Range(max(a.lo, b.lo), max(a.hi, b.hi))


def _minsi(a: Range, b: Range, w: int) -> Range:
    return Range(min(a.lo, b.lo), min(a.hi, b.hi))


def _unsigned(rule):
    def apply(a: Range, b: Range, w: int) -> Range:
        if a.non_negative and b.non_negative:
            return rule(a, b, w)
        return full_range(w)
    return apply


_BINARY = {
    "arith.addi": _add, "arith.subi": _sub, "arith.muli": _mul,
    "arith.divsi": _divsi, "arith.divui": _divui, "arith.remsi": _remsi,
    "arith.remui": _remui, "arith.andi": _andi, "arith.ori": _ori, "arith.xori": _xori,
    "arith.shli": _shli, "arith.shrsi": _shrsi, "arith.shrui": _shrui,
    "arith.maxsi": _maxsi, "arith.minsi": _minsi,
    "arith.maxui": _unsigned(_maxsi), "arith.minui": _unsigned(_minsi),
    "arith.ceildivsi": _ceildivsi,
}
