"""Canonicalization of ``arith`` ops as MLIR has it (``Dialect/Arith/IR/ArithOps.cpp`` folders,
``ArithCanonicalization.td`` patterns), for scalars and tensors.

xDSL 0.74 folds few ``arith`` ops, on scalars only, and its patterns match its own classes;
the tensor-capable ``cmpi``/``cmpf``/``select``/casts of ``tileopt.dialects.arith`` get none. One
pattern here dispatches on the op *name*, so it covers xDSL's classes and tileopt's alike.
For each op it first runs MLIR's folder, then the trait folds MLIR applies when the folder
fails (commutative ops move a constant operand to the right; a cast to its own type is its
input), then the op's canonicalization patterns. Constant operands are scalars or dense
tensors (splat or not), as MLIR's ``constFoldBinaryOp``/``constFoldCastOp`` take them; the
arithmetic is ``constant_folding``'s (APInt wrap-around, APFloat rounding per format).

folders (x, y values; c constants; "splat" means a scalar or a splat tensor)
  addi   x + 0 -> x; (a - b) + b -> a; b + (a - b) -> a; c + c
  subi   x - x -> 0; x - 0 -> x; (a + b) - b -> a; (a + b) - a -> b; c - c
  muli   x * 0 -> 0; x * 1 -> x; c * c
  divui, divsi   x / 1 -> x; (a * b) / b -> a when the muli has nuw (nsw); c / c unless
                 division by zero or signed overflow
  ceildivui, ceildivsi, floordivsi   x / 1 -> x; c / c (same guards)
  remui, remsi   x % 1 -> 0; c % c unless by zero
  andi   x & 0 -> 0; x & -1 -> x; x & ~x -> 0; a & (a & b) -> a & b; c & c
  ori    x | 0 -> x; x | -1 -> -1; x | ~x -> -1; c | c
  xori   x ^ 0 -> x; x ^ x -> 0; (x ^ a) ^ a -> x (all four forms); c ^ c
  shli, shrui, shrsi   x << 0 -> x; c << c when the shift is below the width
  maxsi, maxui, minsi, minui   m(x, x) -> x; the bound that absorbs / is neutral; m(c, c)
  addf   x + -0.0 -> x (not +0.0: -0.0 + +0.0 is +0.0); c + c
  subf   x - +0.0 -> x; c - c
  mulf   x * 1.0 -> x; x * 0.0 -> 0.0 only with fastmath nnan and nsz; c * c
  divf   x / 1.0 -> x; c / c
  remf   c % c (C's fmod: the sign of the dividend)
  maximumf x, -inf -> x; minimumf x, +inf -> x; maxnumf/minnumf x, NaN -> x; m(x, x) -> x;
         m(c, c)
  negf   -(-x) -> x; -c
  extui, extsi   ext(ext(x)) -> ext(x) (in place); ext(c)
  trunci trunci(ext(a)) -> trunci(a) / a; trunci(trunci(a)) -> trunci(a); trunci(c)
  extf   extf(c) when exact
  truncf truncf(extf(a)) -> truncf(a) / a when a's format fits in the middle one; truncf(c)
         only when exact (MLIR's convertFloatValue)
  sitofp, uitofp   c -> rounded to nearest even
  fptosi, fptoui   c -> truncated toward zero, unless NaN, infinite or out of range
  index_cast, index_castui   c -> sign/zero extended or truncated; cast(cast(x)) -> x when
         the middle type is at least as wide
  bitcast   c -> reinterpreted bits (scalars and tensors)
  cmpi   cmpi(x, x) -> by predicate; ext(i1 x) != 0 -> x (scalars, vectors); i1 x != 0 -> x;
         i1 x == 1 -> x; a constant lhs moves right with the mirrored predicate; c cmp c
  cmpf   c cmp c (scalars; a NaN operand decides alone)
  select select(_, x, x) -> x; select(true/false, ...) ; select(x, true, false) -> x (i1);
         select(cmpi eq/ne(a, b), a, b); select of non-splat constants elementwise
trait folds
  commutative (addi, muli, andi, ori, xori, max/min, addf, mulf, max/min f): a constant lhs
  moves right, in place
  casts: T to T -> input
patterns (ArithCanonicalization.td; "APIntAttr" ones take scalar constants only, as there)
  addi(addi(x, c0), c1) -> addi(x, c0 + c1); addi(subi(x, c0), c1) -> addi(x, c1 - c0);
  addi(subi(c0, x), c1) -> subi(c0 + c1, x); addi(x, muli(y, -1)) -> subi(x, y) and its
  mirror; muli(muli(x, c0), c1) -> muli(x, c0 * c1); the six subi-of-addi/subi constant
  forms; subi(subi(a, b), a) -> subi(0, b); xori(cmpi, true) -> cmpi(inverse);
  and/or/xor(ext(x), ext(y)) -> ext(op(x, y)); cmpi eq/ne(ext(a), ext(b)) -> cmpi(a, b);
  select(not p, a, b) -> select(p, b, a); select(p, select(p, a, b), c) -> select(p, a, c)
  and its mirror; select(p, false, true) -> not p; select(p, 1, 0) -> extui(p) (and 0, 1);
  index_cast(extsi(x)) -> index_cast(x); index_castui(extui(x)) -> index_castui(x);
  bitcast(bitcast(x)) -> bitcast(x); extsi(extui(x)) -> extui(x); trunci(extsi/extui(x))
  -> extsi/extui(x) when only extension bits go; trunci(shrsi(x, w - w')) ->
  trunci(shrui(...)); truncf(sitofp/uitofp(x)) -> sitofp/uitofp(x); mulf/divf(negf x,
  negf y) -> mulf/divf(x, y); cmpf(sitofp/uitofp(x), c) -> cmpi (CmpFIntToFPConst)

Not done (Triton IR does not produce them): the two-result extended ops, ub.poison.

Identical constants count as one value (``same_value``), as in MLIR, whose canonicalizer
unifies constants before it starts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import Commutative

from tileopt.dialects.canonicalization import add_canonicalization_patterns
from tileopt.dialects import arith as tarith
from tileopt.transforms.canonicalization import constant_folding as cf

# ---------------------------------------------------------------------------------------
# Fold results
# ---------------------------------------------------------------------------------------


@dataclass
class InPlace:
    """A fold that updates the op itself (MLIR folders returning their own result)."""

    operands: Sequence[SSAValue] | None = None
    properties: dict[str, Attribute] = field(default_factory=dict)


FoldResult = Sequence[SSAValue | Attribute] | InPlace | None


# ---------------------------------------------------------------------------------------
# Matchers
# ---------------------------------------------------------------------------------------


def same_value(a: SSAValue, b: SSAValue) -> bool:
    """``a`` and ``b`` are one value, counting equal constants as one (MLIR's
    canonicalizer keeps a single op per constant)."""
    if a is b:
        return True
    ca, cb = cf.constant_attr(a), cf.constant_attr(b)
    return ca is not None and ca == cb and a.type == b.type


def is_constant(value: SSAValue) -> bool:
    return cf.constant_attr(value) is not None


def int_splat(value: SSAValue) -> int | None:
    """The bits of a scalar or splat integer constant (``m_ConstantInt``)."""
    if cf.int_width(value.type) is None:
        return None
    return cf.splat_of(value)  # type: ignore[return-value]


def int_scalar(value: SSAValue) -> int | None:
    """The bits of a scalar integer constant (TableGen's ``APIntAttr``)."""
    attr = cf.constant_attr(value)
    if isinstance(attr, IntegerAttr):
        return cf.wrap(attr.value.data, cf.int_width(attr.type))  # type: ignore[arg-type]
    return None


def float_splat(value: SSAValue) -> float | None:
    if cf.float_format(value.type) is None:
        return None
    return cf.splat_of(value)  # type: ignore[return-value]


def width_of(value: SSAValue) -> int:
    width = cf.int_width(value.type)
    assert width is not None
    return width


def is_zero(value: SSAValue) -> bool:
    return int_splat(value) == 0


def is_one(value: SSAValue) -> bool:
    return int_splat(value) == 1


def is_all_ones(value: SSAValue) -> bool:
    bits = int_splat(value)
    return bits is not None and bits == cf.all_ones(width_of(value))


def owner(value: SSAValue, name: str) -> Operation | None:
    """The op defining ``value`` if it is named ``name``."""
    op = value.owner
    return op if isinstance(op, Operation) and op.name == name else None


def is_static(type_: Attribute) -> bool:
    if isinstance(type_, TensorType | VectorType):
        return all(d >= 0 for d in type_.get_shape())
    return True


def zero_attr(type_: Attribute) -> Attribute | None:
    return cf.encode(type_, [0]) if is_static(type_) else None


# ---------------------------------------------------------------------------------------
# Constant folding of whole ops
# ---------------------------------------------------------------------------------------


def fold_int_binary(op: Operation, compute: Callable[[int, int, int], int | None]) -> FoldResult:
    lhs, rhs = cf.constant_of(op.operands[0]), cf.constant_of(op.operands[1])
    if lhs is None or rhs is None:
        return None
    width = width_of(op.operands[0])
    attr = cf.fold_elementwise([lhs, rhs], op.results[0].type,
                               lambda a, b: compute(a, b, width))
    return None if attr is None else [attr]


def fold_float_binary(op: Operation, compute: Callable[[float, float, cf.FloatFormat], float]
                      ) -> FoldResult:
    fmt = cf.float_format(op.results[0].type)
    lhs, rhs = cf.constant_of(op.operands[0]), cf.constant_of(op.operands[1])
    if fmt is None or lhs is None or rhs is None:
        return None
    attr = cf.fold_elementwise([lhs, rhs], op.results[0].type,
                               lambda a, b: compute(a, b, fmt))
    return None if attr is None else [attr]


def fold_cast(op: Operation, compute: Callable[[cf.Element], cf.Element | None]) -> FoldResult:
    source = cf.constant_of(op.operands[0])
    if source is None:
        return None
    attr = cf.fold_elementwise([source], op.results[0].type, compute)
    return None if attr is None else [attr]


# ---------------------------------------------------------------------------------------
# Integer folders
# ---------------------------------------------------------------------------------------


def fold_addi(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    if is_zero(rhs):
        return [lhs]
    if (sub := owner(lhs, "arith.subi")) is not None and same_value(rhs, sub.operands[1]):
        return [sub.operands[0]]
    if (sub := owner(rhs, "arith.subi")) is not None and same_value(lhs, sub.operands[1]):
        return [sub.operands[0]]
    return fold_int_binary(op, lambda a, b, w: cf.wrap(a + b, w))


def fold_subi(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    if same_value(lhs, rhs) and (zero := zero_attr(op.results[0].type)) is not None:
        return [zero]
    if is_zero(rhs):
        return [lhs]
    if (add := owner(lhs, "arith.addi")) is not None:
        if same_value(rhs, add.operands[1]):
            return [add.operands[0]]
        if same_value(rhs, add.operands[0]):
            return [add.operands[1]]
    return fold_int_binary(op, lambda a, b, w: cf.wrap(a - b, w))


def fold_muli(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    if is_zero(rhs):
        return [rhs]
    if is_one(rhs):
        return [lhs]
    return fold_int_binary(op, lambda a, b, w: cf.wrap(a * b, w))


def _overflow_flags(op: Operation) -> frozenset:
    flags = op.properties.get("overflowFlags")
    return flags.data if isinstance(flags, xarith.IntegerOverflowAttr) else frozenset()


def _fold_div_mul(lhs: SSAValue, rhs: SSAValue, flag: xarith.IntegerOverflowFlag
                  ) -> SSAValue | None:
    """(a * b) / b -> a when the multiplication cannot wrap (``foldDivMul``)."""
    mul = owner(lhs, "arith.muli")
    if mul is None or flag not in _overflow_flags(mul):
        return None
    if mul.operands[0] is rhs:
        return mul.operands[1]
    if mul.operands[1] is rhs:
        return mul.operands[0]
    return None


def _division_folder(compute: Callable[[int, int, int], int | None],
                     no_wrap: xarith.IntegerOverflowFlag | None = None):
    def fold(op: Operation) -> FoldResult:
        lhs, rhs = op.operands
        if is_one(rhs):
            return [lhs]
        if no_wrap is not None and (value := _fold_div_mul(lhs, rhs, no_wrap)) is not None:
            return [value]
        return fold_int_binary(op, compute)
    return fold


def _remainder_folder(compute: Callable[[int, int, int], int | None]):
    def fold(op: Operation) -> FoldResult:
        if is_one(op.operands[1]) and (zero := zero_attr(op.results[0].type)) is not None:
            return [zero]
        return fold_int_binary(op, compute)
    return fold


def _is_not_of(value: SSAValue, x: SSAValue) -> Operation | None:
    """``value`` is ``xori(x, all-ones)``: the xori, else None."""
    xor = owner(value, "arith.xori")
    if xor is not None and xor.operands[0] is x and is_all_ones(xor.operands[1]):
        return xor
    return None


def fold_andi(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    if is_zero(rhs):
        return [rhs]
    if is_all_ones(rhs):
        return [lhs]
    if _is_not_of(rhs, lhs) or _is_not_of(lhs, rhs):
        return [zero_attr(op.results[0].type)] if is_static(op.results[0].type) else None
    # and(a, and(a, b)) -> and(a, b)
    for previous_value, other in ((lhs, rhs), (rhs, lhs)):
        previous = owner(previous_value, "arith.andi")
        if previous is not None and (other is previous.operands[0]
                                     or other is previous.operands[1]):
            return [previous_value]
    return fold_int_binary(op, lambda a, b, w: a & b)


def fold_ori(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    if (bits := int_splat(rhs)) is not None:
        if bits == 0:
            return [lhs]
        if bits == cf.all_ones(width_of(rhs)):
            return [rhs]
    if (xor := _is_not_of(rhs, lhs)) is not None:
        return [xor.operands[1]]
    if (xor := _is_not_of(lhs, rhs)) is not None:
        return [xor.operands[1]]
    return fold_int_binary(op, lambda a, b, w: a | b)


def fold_xori(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    if is_zero(rhs):
        return [lhs]
    if same_value(lhs, rhs) and (zero := zero_attr(op.results[0].type)) is not None:
        return [zero]
    if (previous := owner(lhs, "arith.xori")) is not None:
        if previous.operands[1] is rhs:
            return [previous.operands[0]]
        if previous.operands[0] is rhs:
            return [previous.operands[1]]
    if (previous := owner(rhs, "arith.xori")) is not None:
        if previous.operands[1] is lhs:
            return [previous.operands[0]]
        if previous.operands[0] is lhs:
            return [previous.operands[1]]
    return fold_int_binary(op, lambda a, b, w: a ^ b)


def _shift_folder(compute: Callable[[int, int, int], int | None]):
    def fold(op: Operation) -> FoldResult:
        if is_zero(op.operands[1]):
            return [op.operands[0]]
        return fold_int_binary(op, compute)
    return fold


def _min_max_folder(signed: bool, maximum: bool):
    def fold(op: Operation) -> FoldResult:
        lhs, rhs = op.operands
        if same_value(lhs, rhs):
            return [rhs]
        if (bits := int_splat(rhs)) is not None:
            width = width_of(rhs)
            if signed:
                value = cf.to_signed(bits, width)
                top, bottom = cf.signed_max(width), cf.signed_min(width)
            else:
                value, top, bottom = bits, cf.all_ones(width), 0
            absorbing, neutral = (top, bottom) if maximum else (bottom, top)
            if value == absorbing:
                return [rhs]
            if value == neutral:
                return [lhs]

        def compute(a: int, b: int, w: int) -> int:
            if signed:
                a_value, b_value = cf.to_signed(a, w), cf.to_signed(b, w)
            else:
                a_value, b_value = a, b
            pick_a = a_value >= b_value if maximum else a_value <= b_value
            return a if pick_a else b
        return fold_int_binary(op, compute)
    return fold


# ---------------------------------------------------------------------------------------
# Float folders
# ---------------------------------------------------------------------------------------


def _is_float(value: SSAValue, predicate: Callable[[float], bool]) -> bool:
    x = float_splat(value)
    return x is not None and predicate(x)


def _negative(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def fold_addf(op: Operation) -> FoldResult:
    if _is_float(op.operands[1], lambda x: x == 0.0 and _negative(x)):
        return [op.operands[0]]
    return fold_float_binary(op, cf.addf)


def fold_subf(op: Operation) -> FoldResult:
    if _is_float(op.operands[1], lambda x: x == 0.0 and not _negative(x)):
        return [op.operands[0]]
    return fold_float_binary(op, cf.subf)


def _fastmath(op: Operation) -> frozenset:
    flags = op.properties.get("fastmath")
    return flags.data if isinstance(flags, xarith.FastMathFlagsAttr) else frozenset()


def fold_mulf(op: Operation) -> FoldResult:
    if _is_float(op.operands[1], lambda x: x == 1.0):
        return [op.operands[0]]
    flags = _fastmath(op)
    if (xarith.FastMathFlag.NO_NANS in flags and xarith.FastMathFlag.NO_SIGNED_ZEROS in flags
            and _is_float(op.operands[1], lambda x: x == 0.0)):
        return [op.operands[1]]
    return fold_float_binary(op, cf.mulf)


def fold_divf(op: Operation) -> FoldResult:
    if _is_float(op.operands[1], lambda x: x == 1.0):
        return [op.operands[0]]
    return fold_float_binary(op, cf.divf)


def _float_min_max_folder(compute, neutral: Callable[[float], bool]):
    def fold(op: Operation) -> FoldResult:
        lhs, rhs = op.operands
        if same_value(lhs, rhs):
            return [rhs]
        if _is_float(rhs, neutral):
            return [lhs]
        return fold_float_binary(op, compute)
    return fold


def fold_negf(op: Operation) -> FoldResult:
    if (inner := owner(op.operands[0], "arith.negf")) is not None:
        return [inner.operands[0]]
    return fold_cast(op, lambda x: -x)


# ---------------------------------------------------------------------------------------
# Cast folders
# ---------------------------------------------------------------------------------------


def _result_width(op: Operation) -> int:
    return width_of(op.results[0])


def fold_extui(op: Operation) -> FoldResult:
    if (inner := owner(op.operands[0], "arith.extui")) is not None:
        return InPlace(operands=[inner.operands[0]])
    return fold_cast(op, lambda bits: bits)


def fold_extsi(op: Operation) -> FoldResult:
    if (inner := owner(op.operands[0], "arith.extsi")) is not None:
        return InPlace(operands=[inner.operands[0]])
    width, new_width = width_of(op.operands[0]), _result_width(op)
    return fold_cast(op, lambda bits: cf.sext(bits, width, new_width))


def fold_trunci(op: Operation) -> FoldResult:
    source = op.operands[0]
    inner = owner(source, "arith.extui") or owner(source, "arith.extsi")
    if inner is not None:
        original = inner.operands[0]
        if width_of(original) > _result_width(op):
            return InPlace(operands=[original])
        if cf.element_type(original.type) == cf.element_type(op.results[0].type):
            return [original]
    if (inner := owner(source, "arith.trunci")) is not None:
        return InPlace(operands=[inner.operands[0]])
    new_width = _result_width(op)
    return fold_cast(op, lambda bits: cf.wrap(bits, new_width))


def _fits(narrow: cf.FloatFormat, wide: cf.FloatFormat) -> bool:
    """Every value of ``narrow`` is a value of ``wide`` (APFloat's isRepresentableBy)."""
    return (wide.max_exponent >= narrow.max_exponent
            and wide.min_exponent <= narrow.min_exponent
            and wide.fraction_bits >= narrow.fraction_bits)


def fold_extf(op: Operation) -> FoldResult:
    fmt = cf.float_format(op.results[0].type)
    if fmt is None:
        return None
    return fold_cast(op, lambda x: cf.convert_exact(x, fmt))


def fold_truncf(op: Operation) -> FoldResult:
    fmt = cf.float_format(op.results[0].type)
    if fmt is None:
        return None
    if (ext := owner(op.operands[0], "arith.extf")) is not None:
        original = ext.operands[0]
        source_fmt = cf.float_format(original.type)
        middle_fmt = cf.float_format(ext.results[0].type)
        if source_fmt is not None and middle_fmt is not None and _fits(source_fmt, middle_fmt):
            if source_fmt.width > fmt.width:
                return InPlace(operands=[original])
            if cf.element_type(original.type) == cf.element_type(op.results[0].type):
                return [original]
    return fold_cast(op, lambda x: cf.convert_exact(x, fmt))


def _int_to_float_folder(signed: bool):
    def fold(op: Operation) -> FoldResult:
        fmt = cf.float_format(op.results[0].type)
        if fmt is None:
            return None
        width = width_of(op.operands[0])
        return fold_cast(op, lambda bits: cf.int_to_float(bits, width, signed, fmt))
    return fold


def _float_to_int_folder(signed: bool):
    def fold(op: Operation) -> FoldResult:
        width = _result_width(op)
        return fold_cast(op, lambda x: cf.float_to_int(x, width, signed))
    return fold


def _index_cast_folder(signed: bool):
    def fold(op: Operation) -> FoldResult:
        width, new_width = width_of(op.operands[0]), _result_width(op)
        extend = cf.sext if signed else cf.zext
        folded = fold_cast(op, lambda bits: cf.wrap(extend(bits, width, max(width, new_width)),
                                                    new_width))
        if folded is not None:
            return folded
        # cast(cast(x : A) : B) : A -> x when B is at least as wide as A
        if (inner := owner(op.operands[0], op.name)) is not None:
            original = inner.operands[0]
            if original.type == op.results[0].type and width >= width_of(original):
                return [original]
        return None
    return fold


def fold_bitcast(op: Operation) -> FoldResult:
    """Constants are reinterpreted bit for bit (dense tensors element by element)."""
    source = cf.constant_of(op.operands[0])
    result_type = op.results[0].type
    result_fmt = cf.float_format(result_type)
    if source is None or (result_fmt is None and cf.int_width(result_type) is None):
        return None
    source_fmt = cf.float_format(source.type)

    def reinterpret(value: cf.Element) -> cf.Element:
        bits = cf.float_to_bits(value, source_fmt) if source_fmt else value
        return cf.bits_to_float(bits, result_fmt) if result_fmt else bits  # type: ignore[arg-type]
    return fold_cast(op, reinterpret)


# ---------------------------------------------------------------------------------------
# cmpi, cmpf, select
# ---------------------------------------------------------------------------------------


_MIRRORED = {"slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle", "ult": "ugt",
             "ugt": "ult", "ule": "uge", "uge": "ule", "eq": "eq", "ne": "ne"}
_INVERTED = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
             "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}
_TRUE_FOR_EQUAL = {"eq", "sle", "sge", "ule", "uge"}


def cmpi_predicate(op: Operation) -> str:
    return cf.CMPI_PREDICATES[op.properties["predicate"].value.data]  # type: ignore[union-attr]


def _cmpf_predicate(op: Operation) -> str:
    return cf.CMPF_PREDICATES[op.properties["predicate"].value.data]  # type: ignore[union-attr]


def _predicate_attr(name: str) -> IntegerAttr:
    return IntegerAttr(cf.CMPI_PREDICATES.index(name), i64)


def fold_cmpi(op: Operation) -> FoldResult:
    lhs, rhs = op.operands
    predicate = cmpi_predicate(op)
    result_type = op.results[0].type
    if same_value(lhs, rhs):
        return [cf.bool_attr(result_type, predicate in _TRUE_FOR_EQUAL)] if is_static(
            result_type) else None
    lhs_is_i1 = cf.int_width(lhs.type) == 1 and isinstance(
        cf.element_type(lhs.type), IntegerType)
    if is_zero(rhs):
        for ext_name in ("arith.extsi", "arith.extui"):
            ext = owner(lhs, ext_name)
            # MLIR reads the width of integers and vectors only, not tensors.
            if (ext is not None and predicate == "ne"
                    and not isinstance(ext.operands[0].type, TensorType)
                    and cf.int_width(ext.operands[0].type) == 1):
                return [ext.operands[0]]
        if lhs_is_i1 and predicate == "ne":
            return [lhs]
    if is_one(rhs) and lhs_is_i1 and predicate == "eq":
        return [lhs]
    if is_constant(lhs) and not is_constant(rhs):
        return InPlace(operands=[rhs, lhs],
                       properties={"predicate": _predicate_attr(_MIRRORED[predicate])})
    left, right = cf.constant_of(lhs), cf.constant_of(rhs)
    if left is None or right is None:
        return None
    width = width_of(lhs)
    attr = cf.fold_elementwise([left, right], result_type,
                               lambda a, b: int(cf.cmpi(predicate, a, b, width)))
    return None if attr is None else [attr]


def fold_cmpf(op: Operation) -> FoldResult:
    # Scalars only, as MLIR's folder (FloatAttr operands).
    lhs_attr, rhs_attr = cf.constant_attr(op.operands[0]), cf.constant_attr(op.operands[1])
    lhs = lhs_attr.value.data if isinstance(lhs_attr, FloatAttr) else None
    rhs = rhs_attr.value.data if isinstance(rhs_attr, FloatAttr) else None
    if lhs is not None and math.isnan(lhs):
        rhs = lhs
    if rhs is not None and math.isnan(rhs):
        lhs = rhs
    if lhs is None or rhs is None:
        return None
    predicate = _cmpf_predicate(op)
    return [IntegerAttr(-1 if cf.cmpf(predicate, lhs, rhs) else 0, i1)]


def fold_select(op: Operation) -> FoldResult:
    cond, true_value, false_value = op.operands
    if same_value(true_value, false_value):
        return [true_value]
    condition = int_splat(cond)
    if condition == 1:
        return [true_value]
    if condition == 0:
        return [false_value]
    result_type = op.results[0].type
    if (isinstance(result_type, IntegerType) and result_type.width.data == 1
            and is_one(true_value) and is_zero(false_value)):
        return [cond]
    if (cmp := owner(cond, "arith.cmpi")) is not None:
        predicate = cmpi_predicate(cmp)
        if predicate in ("eq", "ne"):
            a, b = cmp.operands
            if ((same_value(a, true_value) and same_value(b, false_value))
                    or (same_value(b, true_value) and same_value(a, false_value))):
                return [true_value if predicate == "ne" else false_value]
    conditions = cf.constant_of(cond)
    trues, falses = cf.constant_of(true_value), cf.constant_of(false_value)
    if conditions is not None and conditions.shaped and trues is not None and \
            falses is not None and trues.shaped and falses.shaped:
        attr = cf.fold_elementwise([conditions, trues, falses], result_type,
                                   lambda c, t, f: t if c else f)
        return None if attr is None else [attr]
    return None


# ---------------------------------------------------------------------------------------
# The folder table and trait folds
# ---------------------------------------------------------------------------------------

CASTS = frozenset({
    "arith.extui", "arith.extsi", "arith.trunci", "arith.extf", "arith.truncf",
    "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.index_cast",
    "arith.index_castui", "arith.bitcast",
})

_NSW, _NUW = xarith.IntegerOverflowFlag.NSW, xarith.IntegerOverflowFlag.NUW

FOLDERS: dict[str, Callable[[Operation], FoldResult]] = {
    "arith.addi": fold_addi,
    "arith.subi": fold_subi,
    "arith.muli": fold_muli,
    "arith.divui": _division_folder(cf.udiv, _NUW),
    "arith.divsi": _division_folder(cf.sdiv, _NSW),
    "arith.ceildivui": _division_folder(cf.ceildivui),
    "arith.ceildivsi": _division_folder(cf.ceildivsi),
    "arith.floordivsi": _division_folder(cf.floordivsi),
    "arith.remui": _remainder_folder(cf.urem),
    "arith.remsi": _remainder_folder(cf.srem),
    "arith.andi": fold_andi,
    "arith.ori": fold_ori,
    "arith.xori": fold_xori,
    "arith.shli": _shift_folder(cf.shl),
    "arith.shrui": _shift_folder(cf.lshr),
    "arith.shrsi": _shift_folder(cf.ashr),
    "arith.maxsi": _min_max_folder(signed=True, maximum=True),
    "arith.maxui": _min_max_folder(signed=False, maximum=True),
    "arith.minsi": _min_max_folder(signed=True, maximum=False),
    "arith.minui": _min_max_folder(signed=False, maximum=False),
    "arith.addf": fold_addf,
    "arith.subf": fold_subf,
    "arith.mulf": fold_mulf,
    "arith.divf": fold_divf,
    "arith.remf": lambda op: fold_float_binary(op, cf.remf),
    "arith.maximumf": _float_min_max_folder(cf.maximumf, lambda x: x == -math.inf),
    "arith.minimumf": _float_min_max_folder(cf.minimumf, lambda x: x == math.inf),
    "arith.maxnumf": _float_min_max_folder(cf.maxnumf, math.isnan),
    "arith.minnumf": _float_min_max_folder(cf.minnumf, math.isnan),
    "arith.negf": fold_negf,
    "arith.extui": fold_extui,
    "arith.extsi": fold_extsi,
    "arith.trunci": fold_trunci,
    "arith.extf": fold_extf,
    "arith.truncf": fold_truncf,
    "arith.sitofp": _int_to_float_folder(signed=True),
    "arith.uitofp": _int_to_float_folder(signed=False),
    "arith.fptosi": _float_to_int_folder(signed=True),
    "arith.fptoui": _float_to_int_folder(signed=False),
    "arith.index_cast": _index_cast_folder(signed=True),
    "arith.index_castui": _index_cast_folder(signed=False),
    "arith.bitcast": fold_bitcast,
    "arith.cmpi": fold_cmpi,
    "arith.cmpf": fold_cmpf,
    "arith.select": fold_select,
}


def fold_traits(op: Operation) -> FoldResult:
    """MLIR's trait folds, tried when the op's own folder fails."""
    if op.has_trait(Commutative):
        lhs, rhs = op.operands
        if is_constant(lhs) and not is_constant(rhs):
            return InPlace(operands=[rhs, lhs])
    if op.name in CASTS and op.operands[0].type == op.results[0].type:
        return [op.operands[0]]
    return None


# ---------------------------------------------------------------------------------------
# Canonicalization patterns (ArithCanonicalization.td and ArithOps.cpp)
# ---------------------------------------------------------------------------------------

Rewrite = Callable[[Operation, PatternRewriter], bool]
"""A pattern: rewrites ``op`` and returns True, or returns False and leaves it alone."""


def _merged_flags(a: Operation, b: Operation) -> xarith.IntegerOverflowAttr:
    return xarith.IntegerOverflowAttr(_overflow_flags(a) & _overflow_flags(b))


def _int_constant(type_: Attribute, bits: int) -> xarith.ConstantOp:
    width = cf.int_width(type_)
    assert width is not None
    return xarith.ConstantOp(cf.encode(type_, [cf.wrap(bits, width)]), type_)


def _binary(name: str, lhs: SSAValue, rhs: SSAValue,
            flags: xarith.IntegerOverflowAttr | None = None) -> Operation:
    cls = {"arith.addi": xarith.AddiOp, "arith.subi": xarith.SubiOp,
           "arith.muli": xarith.MuliOp, "arith.andi": xarith.AndIOp,
           "arith.ori": xarith.OrIOp, "arith.xori": xarith.XOrIOp}[name]
    if flags is not None:
        return cls(lhs, rhs, None, flags)
    return cls(lhs, rhs)


def _reassociate(inner_name: str, inner_on_left: bool,
                 inner_constant_on_left: bool,
                 build: Callable[[SSAValue, int, int, int], tuple[str, bool, int]],
                 merge_flags: bool = True) -> Rewrite:
    """The constant-reassociation patterns of ArithCanonicalization.td. The matched form
    is outer(inner(...), c1) or outer(c1, inner(...)), the inner op having one constant
    operand c0 (on the left or right). ``build(x, c0, c1, width)`` gives the new op's
    name, whether the new constant goes on the left, and the new constant's bits."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        inner_value, c1_value = (op.operands[0], op.operands[1]) if inner_on_left else (
            op.operands[1], op.operands[0])
        inner = owner(inner_value, inner_name)
        c1 = int_scalar(c1_value)
        if inner is None or c1 is None:
            return False
        c0_value, x = (inner.operands[0], inner.operands[1]) if inner_constant_on_left else (
            inner.operands[1], inner.operands[0])
        c0 = int_scalar(c0_value)
        if c0 is None:
            return False
        result_type = op.results[0].type
        name, constant_on_left, bits = build(x, c0, c1, width_of(op.results[0]))
        constant = _int_constant(result_type, bits)
        flags = _merged_flags(inner, op) if merge_flags else xarith.IntegerOverflowAttr("none")
        operands = (constant.result, x) if constant_on_left else (x, constant.result)
        rewriter.replace(op, [constant, _binary(name, *operands, flags)])
        return True
    return rewrite


def _add_mul_negative_one(mul_on_right: bool) -> Rewrite:
    """addi(x, muli(y, -1)) -> subi(x, y); addi(muli(x, -1), y) -> subi(y, x)."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        other, mul_value = (op.operands[0], op.operands[1]) if mul_on_right else (
            op.operands[1], op.operands[0])
        mul = owner(mul_value, "arith.muli")
        if mul is None or not is_all_ones(mul.operands[1]):
            return False
        rewriter.replace(op, _binary("arith.subi", other, mul.operands[0],
                                     xarith.IntegerOverflowAttr("none")))
        return True
    return rewrite


def _sub_sub_lhs_rhs_lhs(op: Operation, rewriter: PatternRewriter) -> bool:
    """subi(subi(a, b), a) -> subi(0, b)."""
    inner = owner(op.operands[0], "arith.subi")
    if inner is None or inner.operands[0] is not op.operands[1]:
        return False
    y = inner.operands[1]
    zero = zero_attr(y.type)
    if zero is None:
        return False
    constant = xarith.ConstantOp(zero, y.type)
    rewriter.replace(op, [constant, _binary("arith.subi", constant.result, y,
                                            _merged_flags(inner, op))])
    return True


def _xori_not_cmpi(op: Operation, rewriter: PatternRewriter) -> bool:
    """xori(cmpi(p, a, b), true) -> cmpi(!p, a, b)."""
    cmp = owner(op.operands[0], "arith.cmpi")
    attr = cf.constant_attr(op.operands[1])
    if cmp is None or not (isinstance(attr, IntegerAttr) and attr.type == i1
                           and attr.value.data != 0):
        return False
    a, b = cmp.operands
    rewriter.replace(op, tarith.CmpiOp(a, b, _INVERTED[cmpi_predicate(cmp)]))
    return True


def _logic_of_extensions(name: str) -> Rewrite:
    """and/or/xor(ext(x), ext(y)) -> ext(and/or/xor(x, y)) for x, y of one type."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        for ext_name, cls in (("arith.extui", tarith.ExtUIOp), ("arith.extsi", tarith.ExtSIOp)):
            left, right = owner(op.operands[0], ext_name), owner(op.operands[1], ext_name)
            if left is None or right is None:
                continue
            x, y = left.operands[0], right.operands[0]
            if x.type != y.type:
                continue
            inner = _binary(name, x, y)
            rewriter.replace(op, [inner, cls(inner.results[0], op.results[0].type)])
            return True
        return False
    return rewrite


def _cmpi_of_extensions(op: Operation, rewriter: PatternRewriter) -> bool:
    """cmpi eq/ne(ext(a), ext(b)) -> cmpi eq/ne(a, b) for a, b of one type."""
    predicate = cmpi_predicate(op)
    if predicate not in ("eq", "ne"):
        return False
    for ext_name in ("arith.extsi", "arith.extui"):
        left, right = owner(op.operands[0], ext_name), owner(op.operands[1], ext_name)
        if left is None or right is None or left.operands[0].type != right.operands[0].type:
            continue
        rewriter.replace(op, tarith.CmpiOp(left.operands[0], right.operands[0], predicate))
        return True
    return False


def _select_not_condition(op: Operation, rewriter: PatternRewriter) -> bool:
    """select(xori(p, -1), a, b) -> select(p, b, a) (the -1 a scalar constant)."""
    xor = owner(op.operands[0], "arith.xori")
    if xor is None:
        return False
    ones = int_scalar(xor.operands[1])
    if ones is None or ones != cf.all_ones(width_of(xor.operands[1])):
        return False
    rewriter.replace(op, tarith.SelectOp(xor.operands[0], op.operands[2], op.operands[1]))
    return True


def _redundant_select(nested_is_true: bool) -> Rewrite:
    """select(p, select(p, a, b), c) -> select(p, a, c); select(p, a, select(p, b, c)) ->
    select(p, a, c)."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        cond, true_value, false_value = op.operands
        nested = owner(true_value if nested_is_true else false_value, "arith.select")
        if nested is None or nested.operands[0] is not cond:
            return False
        if nested_is_true:
            new = tarith.SelectOp(cond, nested.operands[1], false_value)
        else:
            new = tarith.SelectOp(cond, true_value, nested.operands[2])
        rewriter.replace(op, new)
        return True
    return rewrite


def _i1_scalar(value: SSAValue) -> int | None:
    attr = cf.constant_attr(value)
    if isinstance(attr, IntegerAttr) and attr.type == i1:
        return 1 if attr.value.data else 0
    return None


def _select_i1_to_not(op: Operation, rewriter: PatternRewriter) -> bool:
    """select(p, false, true) -> xori(p, true)."""
    if _i1_scalar(op.operands[1]) != 0 or _i1_scalar(op.operands[2]) != 1:
        return False
    true = xarith.ConstantOp(IntegerAttr(-1, i1), i1)
    rewriter.replace(op, [true, xarith.XOrIOp(op.operands[0], true.result)])
    return True


def _select_to_extui(op: Operation, rewriter: PatternRewriter) -> bool:
    """select(p, 1, 0) -> extui(p); select(p, 0, 1) -> extui(xori(p, true)) (scalar
    integers wider than i1)."""
    result_type = op.results[0].type
    if not isinstance(result_type, IntegerType) or result_type.width.data == 1:
        return False
    cond, true_value, false_value = op.operands
    if is_one(true_value) and is_zero(false_value):
        rewriter.replace(op, tarith.ExtUIOp(cond, result_type))
        return True
    if is_zero(true_value) and is_one(false_value):
        true = xarith.ConstantOp(IntegerAttr(-1, cond.type), cond.type)
        negated = xarith.XOrIOp(cond, true.result)
        rewriter.replace(op, [true, negated, tarith.ExtUIOp(negated.result, result_type)])
        return True
    return False


def _cast_of(inner_name: str, build: Callable[[SSAValue, Attribute], Operation]) -> Rewrite:
    """cast(inner(x)) -> build(x, result type): index_cast(extsi(x)), index_castui(extui(x)),
    bitcast(bitcast(x)), extsi(extui(x)), truncf(sitofp/uitofp(x))."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        inner = owner(op.operands[0], inner_name)
        if inner is None:
            return False
        rewriter.replace(op, build(inner.operands[0], op.results[0].type))
        return True
    return rewrite


def _element_width(type_: Attribute) -> int:
    element = cf.element_type(type_)
    if isinstance(element, IntegerType):
        return element.width.data
    fmt = cf.float_format(element)
    return fmt.width if fmt is not None else -1


def _trunci_of_extension(ext_name: str, cls) -> Rewrite:
    """trunci(ext(x)) -> ext(x) when only extension bits are dropped."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        ext = owner(op.operands[0], ext_name)
        if ext is None:
            return False
        x = ext.operands[0]
        ext_width, trunc_width, x_width = (_element_width(ext.results[0].type),
                                           _element_width(op.results[0].type),
                                           _element_width(x.type))
        if not (ext_width > trunc_width > x_width > 0):
            return False
        rewriter.replace(op, cls(x, op.results[0].type))
        return True
    return rewrite


def _trunci_of_shrsi(op: Operation, rewriter: PatternRewriter) -> bool:
    """trunci(shrsi(x, c)) -> trunci(shrui(x, c)) when c is the number of dropped bits."""
    shift = owner(op.operands[0], "arith.shrsi")
    if shift is None:
        return False
    x, amount = shift.operands
    amount_bits = int_splat(amount)
    attr = cf.constant_attr(amount)
    if amount_bits is None or attr is None:
        return False
    if _element_width(x.type) - _element_width(op.results[0].type) != amount_bits:
        return False
    constant = xarith.ConstantOp(attr, amount.type)
    shrui = xarith.ShRUIOp(x, constant.result)
    rewriter.replace(op, [constant, shrui, tarith.TruncIOp(shrui.result, op.results[0].type)])
    return True


def _of_negations(cls) -> Rewrite:
    """mulf/divf(negf(x), negf(y)) -> mulf/divf(x, y), keeping the fastmath flags."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> bool:
        left, right = owner(op.operands[0], "arith.negf"), owner(op.operands[1], "arith.negf")
        if left is None or right is None:
            return False
        x, y = left.operands[0], right.operands[0]
        if x.type != y.type:
            return False
        rewriter.replace(op, cls(x, y, op.properties.get("fastmath")))
        return True
    return rewrite


_CMPF_TO_CMPI = {"oeq": "eq", "ueq": "eq", "ogt": "gt", "ugt": "gt", "oge": "ge", "uge": "ge",
                 "olt": "lt", "ult": "lt", "ole": "le", "ule": "le", "one": "ne", "une": "ne"}


def _cmpf_of_int_to_float(op: Operation, rewriter: PatternRewriter) -> bool:
    """MLIR's CmpFIntToFPConst: cmpf(sitofp/uitofp(x), c) -> cmpi(x, c') or a constant,
    when the comparison with the converted integer is decided exactly."""
    attr = cf.constant_attr(op.operands[1])
    if not isinstance(attr, FloatAttr):
        return False
    rhs = attr.value.data
    fmt = cf.float_format(attr.type)
    if math.isnan(rhs) or fmt is None:
        return False
    mantissa_width = fmt.fraction_bits + 1
    if (cast := owner(op.operands[0], "arith.sitofp")) is not None:
        unsigned = False
    elif (cast := owner(op.operands[0], "arith.uitofp")) is not None:
        unsigned = True
    else:
        return False
    int_value = cast.operands[0]
    if not isinstance(int_value.type, IntegerType):
        return False
    int_width = int_value.type.width.data
    value_bits = int_width if unsigned else int_width - 1
    if int_width > mantissa_width:
        if math.isinf(rhs):
            largest_exponent = fmt.max_exponent
            if largest_exponent < value_bits:
                return False
        elif rhs != 0.0:
            exponent = math.frexp(abs(rhs))[1] - 1
            if mantissa_width <= exponent <= value_bits:
                return False
    predicate_name = _cmpf_predicate(op)

    def constant(value: bool) -> bool:
        rewriter.replace(op, xarith.ConstantOp(IntegerAttr(-1 if value else 0, i1), i1))
        return True

    if predicate_name == "ord":
        return constant(True)
    if predicate_name == "uno":
        return constant(False)
    if predicate_name not in _CMPF_TO_CMPI:
        return False
    relation = _CMPF_TO_CMPI[predicate_name]
    prefix = "u" if unsigned else "s"
    predicate = relation if relation in ("eq", "ne") else prefix + relation
    low, high = (0, cf.all_ones(int_width)) if unsigned else (cf.signed_min(int_width),
                                                              cf.signed_max(int_width))
    if cf.round_to(high, fmt) < rhs:
        return constant(predicate in ("ne", prefix + "lt", prefix + "le"))
    if cf.round_to(low, fmt) > rhs:
        return constant(predicate in ("ne", prefix + "gt", prefix + "ge"))
    if math.isinf(rhs):
        return False
    rhs_int = int(rhs)  # toward zero
    if not low <= rhs_int <= high:
        return False
    if rhs != 0.0 and cf.round_to(rhs_int, fmt) != rhs:
        outcome = _NON_INTEGER_RHS.get(predicate, (predicate, predicate))[0 if rhs < 0 else 1]
        if isinstance(outcome, bool):
            return constant(outcome)
        predicate = outcome
    int_constant = _int_constant(int_value.type, rhs_int)
    rewriter.replace(op, [int_constant, tarith.CmpiOp(int_value, int_constant.result,
                                                      predicate)])
    return True


# cmpi against a constant that is not an integer (rounded toward zero to rhs_int): per
# predicate, what it becomes for a negative and for a positive constant (a result, or the
# predicate to compare with rhs_int), as MLIR's CmpFIntToFPConst decides.
_NON_INTEGER_RHS: dict[str, tuple[bool | str, bool | str]] = {
    "eq": (False, False), "ne": (True, True),
    "ule": (False, "ule"), "ult": (False, "ule"), "uge": (True, "ugt"), "ugt": (True, "ugt"),
    "sle": ("slt", "sle"), "slt": ("slt", "sle"), "sge": ("sge", "sgt"), "sgt": ("sge", "sgt"),
}


PATTERNS: dict[str, tuple[Rewrite, ...]] = {
    "arith.addi": (
        # addi(addi(x, c0), c1) -> addi(x, c0 + c1)
        _reassociate("arith.addi", True, False,
                     lambda x, c0, c1, w: ("arith.addi", False, c0 + c1)),
        # addi(subi(x, c0), c1) -> addi(x, c1 - c0)
        _reassociate("arith.subi", True, False,
                     lambda x, c0, c1, w: ("arith.addi", False, c1 - c0)),
        # addi(subi(c0, x), c1) -> subi(c0 + c1, x)
        _reassociate("arith.subi", True, True,
                     lambda x, c0, c1, w: ("arith.subi", True, c0 + c1)),
        _add_mul_negative_one(mul_on_right=True),
        _add_mul_negative_one(mul_on_right=False),
    ),
    "arith.subi": (
        # subi(addi(x, c0), c1) -> addi(x, c0 - c1), flags dropped as in MLIR
        _reassociate("arith.addi", True, False,
                     lambda x, c0, c1, w: ("arith.addi", False, c0 - c1), merge_flags=False),
        # subi(c1, addi(x, c0)) -> subi(c1 - c0, x)
        _reassociate("arith.addi", False, False,
                     lambda x, c0, c1, w: ("arith.subi", True, c1 - c0)),
        # subi(subi(x, c0), c1) -> subi(x, c0 + c1)
        _reassociate("arith.subi", True, False,
                     lambda x, c0, c1, w: ("arith.subi", False, c0 + c1)),
        # subi(subi(c0, x), c1) -> subi(c0 - c1, x)
        _reassociate("arith.subi", True, True,
                     lambda x, c0, c1, w: ("arith.subi", True, c0 - c1)),
        # subi(c1, subi(x, c0)) -> subi(c0 + c1, x)
        _reassociate("arith.subi", False, False,
                     lambda x, c0, c1, w: ("arith.subi", True, c0 + c1)),
        # subi(c1, subi(c0, x)) -> addi(x, c1 - c0)
        _reassociate("arith.subi", False, True,
                     lambda x, c0, c1, w: ("arith.addi", False, c1 - c0)),
        _sub_sub_lhs_rhs_lhs,
    ),
    "arith.muli": (
        # muli(muli(x, c0), c1) -> muli(x, c0 * c1)
        _reassociate("arith.muli", True, False,
                     lambda x, c0, c1, w: ("arith.muli", False, c0 * c1)),
    ),
    "arith.xori": (_xori_not_cmpi, _logic_of_extensions("arith.xori")),
    "arith.andi": (_logic_of_extensions("arith.andi"),),
    "arith.ori": (_logic_of_extensions("arith.ori"),),
    "arith.cmpi": (_cmpi_of_extensions,),
    "arith.cmpf": (_cmpf_of_int_to_float,),
    "arith.select": (_redundant_select(False), _redundant_select(True), _select_not_condition,
                     _select_i1_to_not, _select_to_extui),
    "arith.index_cast": (_cast_of("arith.extsi", tarith.IndexCastOp),),
    "arith.index_castui": (_cast_of("arith.extui", tarith.IndexCastUIOp),),
    "arith.bitcast": (_cast_of("arith.bitcast", xarith.BitcastOp),),
    "arith.extsi": (_cast_of("arith.extui", tarith.ExtUIOp),),
    "arith.trunci": (_trunci_of_extension("arith.extsi", tarith.ExtSIOp),
                     _trunci_of_extension("arith.extui", tarith.ExtUIOp), _trunci_of_shrsi),
    "arith.truncf": (_cast_of("arith.sitofp", tarith.SIToFPOp),
                     _cast_of("arith.uitofp", tarith.UIToFPOp)),
    "arith.mulf": (_of_negations(xarith.MulfOp),),
    "arith.divf": (_of_negations(xarith.DivfOp),),
}


# ---------------------------------------------------------------------------------------
# The pattern
# ---------------------------------------------------------------------------------------


def _apply(op: Operation, result: FoldResult, rewriter: PatternRewriter) -> bool:
    if result is None:
        return False
    if isinstance(result, InPlace):
        if result.operands is not None:
            op.operands = list(result.operands)
        op.properties.update(result.properties)
        rewriter.notify_op_modified(op)
        return True
    new_ops: list[Operation] = []
    values: list[SSAValue] = []
    for item, old in zip(result, op.results, strict=True):
        if isinstance(item, SSAValue):
            values.append(item)
        else:
            constant = xarith.ConstantOp(item, old.type)  # type: ignore[arg-type]
            new_ops.append(constant)
            values.append(constant.result)
    rewriter.replace(op, new_ops, values)
    return True


@dataclass(frozen=True)
class ArithCanonicalization(RewritePattern):
    """One ``arith`` op's folder, trait folds and canonicalization patterns, in that order.

    The folder runs as a pattern, not through ``HasFolder``: it may rewrite the op in
    place (``InPlace``), which an xDSL folder may not."""

    folder: Callable[[Operation], FoldResult]
    patterns: tuple[Rewrite, ...]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if _apply(op, self.folder(op), rewriter) or _apply(op, fold_traits(op), rewriter):
            return
        for pattern in self.patterns:
            if pattern(op, rewriter):
                return


# Attached to the xDSL class and to tileopt's tensor one (``tileopt.dialects.arith``) of each name.
for _op in {*xarith.Arith.operations, *tarith.arith_dialect().operations}:
    if _op.name in FOLDERS:
        add_canonicalization_patterns(
            _op, ArithCanonicalization(FOLDERS[_op.name], PATTERNS.get(_op.name, ())))


class ArithFolding(RewritePattern):
    """Only the folders and trait folds of ``arith`` ops, none of their canonicalization
    patterns: what MLIR's greedy driver does given the arith *dialect's* (empty) pattern
    list, as Triton's AMD pipeliner does."""

    def restricted_to(self, op_type: type[Operation]) -> RewritePattern | None:
        """For the greedy driver (``greedy_driver``): nothing to do on ops without a folder."""
        return self if op_type.name in FOLDERS else None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        folder = FOLDERS.get(op.name)
        if folder is not None and not _apply(op, folder(op), rewriter):
            _apply(op, fold_traits(op), rewriter)
