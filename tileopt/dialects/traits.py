"""Op traits the Triton dialects share, as Triton declares them (``TritonOps.td``,
``mlir/IR/OpBase.td``), and the facts MLIR's ``arith``/``math`` carry that xDSL's lack.

Passes ask an op ``op.has_trait(Elementwise)`` instead of keeping lists of op names. xDSL's
``SameOperandsAndResultType`` and ``Commutative`` are used as they are; the traits below are
the ones xDSL does not have.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from xdsl.dialects import arith as xarith
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer
from xdsl.traits import Commutative, OpTrait
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.tt_types import element_type, encoding_of, shape_of


def type_str(ty: Attribute) -> str:
    """A type as people read it in messages (``tensor<4xf32>``, ``!tt.ptr<f32>``)."""
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(ty)
    return stream.getvalue()


@dataclass(frozen=True)
class Elementwise(OpTrait):
    """MLIR's ``Elementwise``: each result element depends only on the operand elements
    at the same position (every ``arith`` op but ``arith.constant``, every ``math`` op and
    the ``tt`` ops Triton marks). A marker: ``verify_elementwise_shapes`` is MLIR's rule,
    for the ops whose own checks do not already cover their shapes."""


def verify_elementwise_shapes(op: Operation) -> None:
    """MLIR's ``Elementwise`` verifier: the tensor operands and results share one shape,
    and there is a tensor result exactly when there is a tensor operand (scalar operands
    broadcast)."""
    operands = [t for t in op.operand_types if isinstance(t, TensorType)]
    results = [t for t in op.result_types if isinstance(t, TensorType)]
    if not operands and not results:
        return
    if len(results) != len(op.result_types) or (op.operands and not operands) or (
            operands and not results):
        raise VerifyException(
            "an elementwise op has tensor results exactly when it has tensor operands, "
            f"got {_listed(op)}"
        )
    if len({shape_of(t) for t in (*operands, *results)}) > 1:
        raise VerifyException(
            f"all non-scalar operands and results must have the same shape, got {_listed(op)}"
        )


def _listed(op: Operation) -> str:
    return (", ".join(type_str(t) for t in op.operand_types) + " -> "
            + ", ".join(type_str(t) for t in op.result_types))


def is_elementwise(op: Operation) -> bool:
    return op.has_trait(Elementwise, value_if_unregistered=False)


@dataclass(frozen=True)
class SameOperandsAndResultShape(OpTrait):
    """All operands and results have one shape (all scalars, or tensors of one shape)."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        types = [*op.operand_types, *op.result_types]
        shapes = {shape_of(t) for t in types}
        if len(shapes) > 1:
            listed = ", ".join(type_str(t) for t in types)
            raise VerifyException(
                f"requires the same shape for all operands and results, got {listed}"
            )


def _check_one_encoding(types, what: str) -> None:
    # A tensor without an encoding goes with any (Triton's verifySameEncoding).
    encodings = {encoding_of(t) for t in types if isinstance(t, TensorType)} - {None}
    if len(encodings) > 1:
        raise VerifyException(f"requires the same encoding for all {what}")


@dataclass(frozen=True)
class SameOperandsAndResultEncoding(OpTrait):
    """All tensor operands and results carry the same layout encoding (or none)."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        _check_one_encoding([*op.operand_types, *op.result_types], "operands and results")


@dataclass(frozen=True)
class BroadcastEncoding(SameOperandsAndResultEncoding):
    """``tt.broadcast``: one encoding (a layout pass propagates it as such), or, as Triton
    3.9 writes, two layouts that keep every element in its thread
    (``broadcast_stays_in_threads``)."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        (src,), (dst,) = op.operand_types, op.result_types
        if encoding_of(src) == encoding_of(dst) or not layouts_known(src, dst):
            super().verify(op)
            return
        if not broadcast_keeps_threads(src, dst):
            raise VerifyException("requires the same encoding for all operands and "
                                  "results, or layouts that keep each element in its thread")


def layouts_known(*types: Attribute) -> bool:
    return all(hasattr(encoding_of(ty), "to_encoding") for ty in types)


def broadcast_keeps_threads(src: Attribute, dst: Attribute) -> bool:
    """Whether ``tt.broadcast`` may go from tensor type ``src`` to ``dst`` with no data
    movement (Triton 3.9; see ``broadcast_stays_in_threads``)."""
    if encoding_of(src) == encoding_of(dst):
        return True
    if not layouts_known(src, dst):
        return False
    # here: a run over Triton IR without layouts never imports the layout algebra
    from tileopt.layouts.encodings import broadcast_stays_in_threads
    from tileopt.layouts.linear_layout import LayoutError

    try:
        return broadcast_stays_in_threads(encoding_of(src).to_encoding(), shape_of(src),
                                          encoding_of(dst).to_encoding(), shape_of(dst))
    except LayoutError:
        return False


@dataclass(frozen=True)
class SameLoadStoreOperandsAndResultEncoding(OpTrait):
    """Triton's trait for ``tt.load``/``tt.store``: pointer, mask, other/value (and the
    loaded result) carry one encoding. Kept apart from ``SameOperandsAndResultEncoding``
    as in Triton: layout passes treat loads and stores on their own."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        _check_one_encoding([*op.operand_types, *op.result_types], "operands and results")


@dataclass(frozen=True)
class SameOperandsEncoding(OpTrait):
    """All tensor operands carry the same layout encoding (or none)."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        _check_one_encoding(op.operand_types, "operands")


@dataclass(frozen=True)
class SameOperandsAndResultElementType(OpTrait):
    """All operands and results share one element type."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        elements = {element_type(t) for t in [*op.operand_types, *op.result_types]}
        if len(elements) > 1:
            raise VerifyException(
                "requires the same element type for all operands and results"
            )


# MLIR's arith and math ops carry these traits; xDSL 0.74's do not (of arith, only
# addi/muli/andi/ori/xori are Commutative). xDSL lets a class gain a trait after the fact.
for _op in xarith.Arith.operations:
    if _op is not xarith.ConstantOp:
        _op.traits.add_trait(Elementwise())
for _op in xmath.Math.operations:
    _op.traits.add_trait(Elementwise())
for _op in (
    xarith.MaxSIOp, xarith.MaxUIOp, xarith.MinSIOp, xarith.MinUIOp, xarith.AddfOp,
    xarith.MulfOp, xarith.MaximumfOp, xarith.MinimumfOp, xarith.MaxnumfOp, xarith.MinnumfOp,
):
    _op.traits.add_trait(Commutative())
del _op
