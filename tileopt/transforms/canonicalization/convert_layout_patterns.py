"""Canonicalization of ``ttg.convert_layout`` (Triton's ``ConvertLayoutOp`` patterns).

A conversion disappears or folds into a neighbour when that costs nothing:

- ``convert(x)`` to the type ``x`` already has is ``x``;
- ``convert(convert(x))`` is one conversion from ``x``;
- an op that can produce any layout (``splat``, ``make_range``, a splat constant,
  ``histogram``, ``local_load``) produces the converted layout directly;
- an op that reads any layout (``local_alloc``, ``local_store``, the source of a gather
  without an optimised layout, ``histogram``) reads the unconverted value;
- ``trans``/``reshape`` of a conversion between two spellings of one layout (decided with
  linear layouts) skip the conversion;
- ``split`` of a conversion reads the unconverted value when that splits to the same layout.

A conversion to a dot operand from an NVIDIA MMA layout is left alone (Triton keeps it for
fused attention). Each pattern is attached to the op it is rooted at, for ``canonicalize``;
``remove-layout-conversions`` runs ``CONVERT_LAYOUT_PATTERNS`` alone.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from tileopt.dialects import tt, ttg
from tileopt.dialects.canonicalization import add_canonicalization_patterns
from tileopt.dialects.tt_canonicalize import dense_splat, splat_value
from tileopt.dialects.ttg import ConvertLayoutOp
from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr, NvidiaMmaEncodingAttr
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.layouts.linear_layout import LayoutError
from tileopt.transforms.utils.tensor_layouts import (conversion_is_trivial, encoding,
                                                     split_result_encoding)


def is_expensive_view(src: TensorType, dst: TensorType) -> bool:
    """A reshape between these types moves data between threads (Triton's
    ``isExpensiveView``): threads would hold different numbers of elements or of copies."""
    try:
        src_ll, dst_ll = linear_layout_of(src), linear_layout_of(dst)
    except LayoutError:
        return True
    if src_ll.get_free_variable_masks() != dst_ll.get_free_variable_masks():
        return True
    return src_ll.in_dim_size("register") != dst_ll.in_dim_size("register")


def recreate_with_result_type(op: Operation, result_type: Attribute,
                              operands=None) -> Operation:
    """A copy of the single-result, region-free ``op`` that produces ``result_type``."""
    return type(op).create(
        operands=list(op.operands if operands is None else operands),
        result_types=[result_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )


def _is_convert(op: Operation | None) -> bool:
    return isinstance(op, ConvertLayoutOp)


def _producer(value) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


class FoldConvertIntoProducer(RewritePattern):
    """``convert(x)`` folded away, into another conversion, or into ``x``'s producer."""

    def restricted_to(self, op_type: type[Operation]) -> RewritePattern | None:
        """For the greedy driver (``greedy_driver``): conversions only."""
        return self if issubclass(op_type, ConvertLayoutOp) else None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ConvertLayoutOp):
            return
        src, dst = op.src.type, op.result.type
        if src == dst:
            rewriter.replace(op, [], [op.src])
            return
        if isinstance(encoding(dst), DotOperandEncodingAttr) and isinstance(
                encoding(src), NvidiaMmaEncodingAttr):
            return
        producer = _producer(op.src)
        if producer is None:
            return
        name = producer.name
        if name == "tt.reshape":
            if ("allow_reorder" not in producer.properties
                    or "efficient_layout" in producer.properties
                    or is_expensive_view(producer.operands[0].type, dst)
                    or isinstance(encoding(src), DotOperandEncodingAttr)
                    or isinstance(encoding(dst), DotOperandEncodingAttr)):
                return
            rewriter.replace(op, recreate_with_result_type(producer, dst))
            return
        if name == "tt.histogram":
            rewriter.replace(op, recreate_with_result_type(producer, dst))
            return
        if name == "ttg.local_load":
            # Load where the original load was: memory effects may sit in between.
            new = recreate_with_result_type(producer, dst)
            rewriter.insert(new, InsertPoint.before(producer))
            rewriter.replace(op, [], new.results)
            return
        if _is_convert(producer):
            rewriter.replace(op, ConvertLayoutOp(producer.operands[0], dst))
            return
        if name in ("tt.splat", "tt.make_range"):
            rewriter.replace(op, recreate_with_result_type(producer, dst))
            return
        if name == "arith.constant":
            value = producer.properties.get("value")
            if isinstance(value, DenseIntOrFPElementsAttr) and splat_value(value) is not None:
                new = type(producer).create(
                    result_types=[dst], properties={"value": dense_splat(dst, splat_value(value))})
                rewriter.replace(op, new)


def _operand_convert(op: Operation) -> Operation | None:
    """The ``ttg.convert_layout`` that produces ``op``'s first operand, if one does."""
    convert = _producer(op.operands[0])
    return convert if _is_convert(convert) else None


def _read_before_convert(op: Operation, convert: Operation, rewriter: PatternRewriter) -> None:
    """``op`` rebuilt on the conversion's source (same result type)."""
    rewriter.replace(op, recreate_with_result_type(op, op.results[0].type,
                                                   [convert.operands[0]]))


class _NamedRoots(RewritePattern):
    """A pattern that leaves every op but those named ``roots`` alone."""

    roots: tuple[str, ...] = ()

    def restricted_to(self, op_type: type[Operation]) -> RewritePattern | None:
        """For the greedy driver (``greedy_driver``): the ops named ``roots`` only."""
        return self if op_type.name in self.roots else None


class FoldTrivialConvertIntoReshape(_NamedRoots):
    """``reshape(convert(x))`` reads ``x`` when the conversion is trivial or the reshape may
    reorder elements anyway."""

    roots = ("tt.reshape",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "tt.reshape" or (convert := _operand_convert(op)) is None:
            return
        src = convert.operands[0]
        if not conversion_is_trivial(src.type, convert.results[0].type):
            if is_expensive_view(src.type, op.results[0].type):
                return
            if "allow_reorder" not in op.properties:
                return
        _read_before_convert(op, convert, rewriter)


class FoldTrivialConvertIntoTrans(_NamedRoots):
    """``trans(x, identity)`` is a conversion; ``trans(convert(x))`` reads ``x`` when the
    conversion is trivial."""

    roots = ("tt.trans",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "tt.trans":
            return
        order = [int(v) for v in op.properties["order"].get_values()]
        if order == list(range(len(order))):
            rewriter.replace(op, ConvertLayoutOp(op.operands[0], op.results[0].type))
            return
        convert = _operand_convert(op)
        if convert is None or not conversion_is_trivial(convert.operands[0].type,
                                                        convert.results[0].type):
            return
        _read_before_convert(op, convert, rewriter)


class FoldConvertIntoLayoutFreeUser(_NamedRoots):
    """Ops that accept any register layout read the value before its conversion:
    ``histogram``, ``local_alloc``, ``local_store`` and a gather's source (unless the
    gather has an optimised layout)."""

    roots = ("tt.histogram", "ttg.local_alloc", "ttg.local_store", "tt.gather")

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        name = op.name
        if name not in self.roots:
            return
        if name == "tt.gather" and "efficient_layout" in op.properties:
            return
        if not op.operands or (convert := _operand_convert(op)) is None:
            return
        operands = list(op.operands)
        operands[0] = convert.operands[0]
        new = type(op).create(
            operands=operands,
            result_types=[r.type for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        rewriter.replace(op, new)


class FoldConvertIntoSplit(RewritePattern):
    """``split(convert(x))`` splits ``x`` when the split of ``x``'s layout is the layout the
    results already have (several layouts split to the same one)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tt.SplitOp) or (convert := _operand_convert(op)) is None:
            return
        source = convert.operands[0]
        if split_result_encoding(source.type) != encoding(op.results[0].type):
            return
        rewriter.replace(op, tt.SplitOp.create(
            operands=[source], result_types=[r.type for r in op.results],
            attributes=dict(op.attributes)))


CONVERT_LAYOUT_PATTERNS: tuple[RewritePattern, ...] = (
    FoldConvertIntoProducer(),
    FoldTrivialConvertIntoReshape(),
    FoldTrivialConvertIntoTrans(),
    FoldConvertIntoLayoutFreeUser(),
)

# Triton registers them as ``ConvertLayoutOp``'s canonicalization; each is attached to the
# op it is rooted at.
add_canonicalization_patterns(ConvertLayoutOp, FoldConvertIntoProducer())
add_canonicalization_patterns(tt.ReshapeOp, FoldTrivialConvertIntoReshape())
add_canonicalization_patterns(tt.TransOp, FoldTrivialConvertIntoTrans())
add_canonicalization_patterns(tt.SplitOp, FoldConvertIntoSplit())
for _op in (tt.HistogramOp, ttg.LocalAllocOp, ttg.LocalStoreOp, tt.GatherOp):
    add_canonicalization_patterns(_op, FoldConvertIntoLayoutFreeUser())
