"""``convert-triton-to-tritongpu``: give every tensor a layout (Triton's TritonToTritonGPU).

Triton IR tensors have no layout; TritonGPU IR tensors all carry one. This pass, the first
of Triton's ``make_ttgir`` stage, records the target and thread counts on the module
(``ttg.target``, ``"ttg.num-warps"``, ``"ttg.threads-per-warp"``, ``"ttg.num-ctas"``) and
gives each tensor the *default* blocked layout of its shape (one element per thread, last
dim fastest; see :mod:`blocked_layouts`), except where an op determines its result layout
from its operands:

- ``tt.expand_dims`` converts its operand to a slice of a blocked layout with the new dim
  inserted (order ``0, 1, ...``) and yields that blocked layout;
- ``tt.broadcast`` keeps its operand's layout; ``tt.reduce`` yields a slice of it;
  ``tt.scan`` the same layout; ``tt.trans``, ``tt.join`` and ``tt.split`` the layout their
  result-type inference gives; ``tt.cat`` widens the per-thread size;
- ``tt.dot`` computes in a blocked layout with a 2x2 or 4x4 tile per thread and converts its
  operands to ``#ttg.dot_op`` of it.

It mirrors MLIR's dialect conversion as Triton drives it: every op that still has a tensor
without a layout is rewritten (ops in pre-order), and an op that wants an operand in the
default layout of its shape while the producer gave another gets a ``ttg.convert_layout``,
placed right after the producer and shared by all users wanting that layout (MLIR's target
materialization). Ops with nothing to convert are left alone.

References: ``lib/Conversion/TritonToTritonGPU/TritonToTritonGPUPass.cpp`` and
``TritonGPUConversion.cpp`` of Triton 3.6.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    TensorType,
    UnrealizedConversionCastOp,
    i32,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.ttg import ConvertLayoutOp
from tileopt.dialects.ttg_attrs import (
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    SliceEncodingAttr,
    ints_of,
)
from tileopt.ir import TileoptError
from tileopt.ir.locations import value_location
from tileopt.passes import Pass, PassFailure, option, register_pass
from tileopt.transforms.utils.blocked_layouts import (blocked_for_shape,
                                                     default_blocked_encoding, make_blocked,
                                                     split_blocked)

# Dialects whose ops are rewritten when they hold a tensor without a layout (Triton marks
# them dynamically legal on exactly that condition); ops of other dialects are left alone.
_CONVERTED_DIALECTS = ("arith", "math", "tt", "scf", "cf", "ub")


def _needs_layout(ty: Attribute) -> bool:
    return isinstance(ty, TensorType) and isinstance(ty.encoding, NoneAttr)


def _with_encoding(ty: TensorType, encoding: Attribute, shape: Sequence[int] | None = None
                   ) -> TensorType:
    return TensorType(ty.element_type, list(shape if shape is not None else ty.get_shape()),
                      encoding)


class _Conversion:
    """One run of the conversion over a module (state: original types, materializations)."""

    def __init__(self, num_warps: int, threads_per_warp: int, num_ctas: int,
                 source_remat: bool):
        self.num_warps = num_warps
        self.threads_per_warp = threads_per_warp
        self.num_ctas = num_ctas
        self.source_remat = source_remat
        self.original_type: dict[SSAValue, Attribute] = {}
        self.materialized: dict[tuple[SSAValue, Attribute], SSAValue] = {}
        self._default_encodings: dict[tuple[int, ...], BlockedEncodingAttr] = {}

    # ------------------------------------------------------------------ types

    def default_encoding(self, shape: Sequence[int]) -> BlockedEncodingAttr:
        # one layout object per shape (building and verifying one is most of the pass)
        key = tuple(shape)
        encoding = self._default_encodings.get(key)
        if encoding is None:
            encoding = self._default_encodings[key] = default_blocked_encoding(
                shape, self.num_warps, self.threads_per_warp, self.num_ctas)
        return encoding

    def convert_type(self, ty: Attribute) -> Attribute:
        """The type converter: tensors without a layout get the default one."""
        if _needs_layout(ty):
            return _with_encoding(ty, self.default_encoding(ty.get_shape()))
        return ty

    def original(self, value: SSAValue) -> Attribute:
        return self.original_type.get(value, value.type)

    def set_type(self, value: SSAValue, ty: Attribute) -> SSAValue:
        """Give ``value`` a new type in place (its uses follow); returns the new value."""
        if value.type == ty:
            return value
        location = getattr(value, "location", None)
        new = Rewriter.replace_value_with_new_type(value, ty)
        if isinstance(new, BlockArgument) and location is not None:
            new.location = location
        self.original_type[new] = self.original(value)
        return new

    # ------------------------------------------------------------------ legality

    def is_legal(self, op: Operation) -> bool:
        if op.name == "tt.func":
            ftype = op.properties["function_type"]
            return not any(_needs_layout(t) for t in (*ftype.inputs.data, *ftype.outputs.data))
        if op.dialect_name() not in _CONVERTED_DIALECTS:
            return True
        if op.name == "tt.dot":
            return all(isinstance(getattr(self.original(v), "encoding", None),
                                  DotOperandEncodingAttr) for v in op.operands[:2])
        types = [self.original(v) for v in (*op.operands, *op.results)]
        for region in op.regions:
            for block in region.blocks:
                types.extend(self.original(a) for a in block.args)
        return not any(_needs_layout(t) for t in types)

    # ------------------------------------------------------------------ materialization

    def remap_operands(self, op: Operation, indices: Sequence[int] | None = None) -> None:
        """Give each operand the converted type of its original type, converting the
        layout where the producer chose another (shared per value and layout)."""
        for i, value in enumerate(op.operands):
            if indices is not None and i not in indices:
                continue
            wanted = self.convert_type(self.original(value))
            if value.type == wanted:
                continue
            op.operands[i] = self.materialize(value, wanted, op.location)

    def materialize(self, value: SSAValue, ty: Attribute, location) -> SSAValue:
        key = (value, ty)
        if key not in self.materialized:
            convert = ConvertLayoutOp(value, ty)
            convert.location = location
            if isinstance(value, BlockArgument):
                first = value.block.first_op
                point = (InsertPoint.before(first) if first is not None
                         else InsertPoint.at_end(value.block))
            else:
                point = InsertPoint.after(value.owner)
            Rewriter.insert_op(convert, point)
            self.materialized[key] = convert.result
        return self.materialized[key]

    def convert_before(self, op: Operation, value: SSAValue, ty: Attribute,
                       location=None) -> SSAValue:
        """An explicit ``ttg.convert_layout`` a pattern creates right before ``op``."""
        convert = ConvertLayoutOp(value, ty)
        convert.location = op.location if location is None else location
        Rewriter.insert_op(convert, InsertPoint.before(op))
        return convert.result

    def convert_region_types(self, op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    self.set_type(arg, self.convert_type(arg.type))

    def set_results(self, op: Operation, types: Sequence[Attribute]) -> None:
        for result, ty in zip(list(op.results), types):
            self.set_type(result, ty)

    def set_default_results(self, op: Operation) -> None:
        self.set_results(op, [self.convert_type(r.type) for r in op.results])

    # ------------------------------------------------------------------ driver

    def run(self, module: Operation) -> None:
        ops = list(module.walk())
        for op in ops:
            for value in op.results:
                self.original_type[value] = value.type
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self.original_type[arg] = arg.type
        for op in ops:
            if op is module or self.is_legal(op):
                continue
            handler = _PATTERNS.get(op.name, _generic)
            handler(self, op)


# ---------------------------------------------------------------------------- patterns


def _generic(conv: _Conversion, op: Operation) -> None:
    """Operands in the default layout of their shape, results in the default layout."""
    if conv.source_remat and op.name not in _KNOWN_GENERIC and op.dialect_name() != "tt":
        _keep_with_casts(conv, op)
        return
    conv.remap_operands(op)
    conv.set_default_results(op)


def _keep_with_casts(conv: _Conversion, op: Operation) -> None:
    """Source materialization: an op without a pattern keeps its layout-less operand types
    through ``builtin.unrealized_conversion_cast`` (Triton's ``enable-source-remat``)."""
    for i, value in enumerate(op.operands):
        original = conv.original(value)
        if value.type != original:
            cast = UnrealizedConversionCastOp.get([value], [original])
            cast.location = op.location
            Rewriter.insert_op(cast, InsertPoint.before(op))
            op.operands[i] = cast.results[0]


def _constant(conv: _Conversion, op: Operation) -> None:
    ty = conv.convert_type(op.results[0].type)
    value = op.properties["value"]
    if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(ty, TensorType):
        op.properties["value"] = DenseIntOrFPElementsAttr(ty, value.data)
    conv.set_results(op, [ty])


def _expand_dims(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    src = op.operands[0]
    encoding = src.type.encoding
    if not isinstance(encoding, BlockedEncodingAttr):
        raise PassFailure(op, "tt.expand_dims expects a blocked operand layout")
    axis = op.properties["axis"].value.data

    def insert(values: Sequence[int], value: int) -> list[int]:
        values = list(values)
        values.insert(axis, value)
        return values

    cta_order = [o + 1 if o >= axis else o for o in ints_of(encoding.CTAOrder)]
    result_encoding = make_blocked(
        insert(ints_of(encoding.sizePerThread), 1),
        insert(ints_of(encoding.threadsPerWarp), 1),
        insert(ints_of(encoding.warpsPerCTA), 1),
        list(range(encoding.rank + 1)),
        insert(ints_of(encoding.CTAsPerCGA), 1),
        insert(ints_of(encoding.CTASplitNum), 1),
        [axis, *cta_order],
    )
    sliced = _with_encoding(src.type, SliceEncodingAttr.get(axis, result_encoding))
    op.operands[0] = conv.convert_before(op, src, sliced)
    result = op.results[0]
    conv.set_results(op, [_with_encoding(result.type, result_encoding)])


def _broadcast(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    result = op.results[0]
    conv.set_results(op, [_with_encoding(result.type, op.operands[0].type.encoding)])


def _reduce(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    axis = op.properties["axis"].value.data
    types = []
    for src in op.operands:
        shape = list(src.type.get_shape())
        del shape[axis]
        if not shape:
            types.append(src.type.element_type)
        else:
            types.append(TensorType(src.type.element_type, shape,
                                    SliceEncodingAttr.get(axis, src.type.encoding)))
    conv.set_results(op, types)


def _scan(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    conv.set_results(op, [v.type for v in op.operands])


def _trans(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    src = op.operands[0]
    order = [int(v) for v in op.properties["order"].get_values()]
    encoding = src.type.encoding
    if not isinstance(encoding, BlockedEncodingAttr):
        conv.set_default_results(op)
        return
    inverse = [0] * len(order)
    for i, o in enumerate(order):
        inverse[o] = i

    def permute(values: Sequence[int]) -> list[int]:
        return [values[o] for o in order]

    result_encoding = make_blocked(
        permute(ints_of(encoding.sizePerThread)),
        permute(ints_of(encoding.threadsPerWarp)),
        permute(ints_of(encoding.warpsPerCTA)),
        [inverse[o] for o in ints_of(encoding.order)],
        permute(ints_of(encoding.CTAsPerCGA)),
        permute(ints_of(encoding.CTASplitNum)),
        [inverse[o] for o in ints_of(encoding.CTAOrder)],
    )
    result = op.results[0]
    conv.set_results(op, [_with_encoding(result.type, result_encoding)])


def _dot(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    result = op.results[0]
    shape = list(result.type.get_shape())
    rank = len(shape)
    per_thread = [1] * rank
    elements_per_thread = 1
    for s in shape:
        elements_per_thread *= s
    elements_per_thread //= conv.num_warps * conv.threads_per_warp
    # Enough work per thread: a 2x2, then 4x4, tile of the result per thread.
    for threshold, size in ((4, 2), (16, 4)):
        if elements_per_thread >= threshold:
            per_thread[-1] = per_thread[-2] = size
    per_thread[-1] = min(per_thread[-1], shape[-1])
    per_thread[-2] = min(per_thread[-2], shape[-2])
    order = list(reversed(range(rank)))
    d_encoding = blocked_for_shape(shape, per_thread, order, conv.num_warps,
                                   conv.threads_per_warp, conv.num_ctas)
    for index in (0, 1):
        operand = op.operands[index]
        if not isinstance(operand.type.encoding, DotOperandEncodingAttr):
            ty = _with_encoding(operand.type, DotOperandEncodingAttr.get(index, d_encoding))
            op.operands[index] = conv.convert_before(op, operand, ty, value_location(operand))
    acc = op.operands[2]
    acc_type = _with_encoding(acc.type, d_encoding)
    # Triton converts the accumulator unconditionally (a no-op convert is left for
    # canonicalization to remove).
    op.operands[2] = conv.convert_before(op, acc, acc_type, value_location(acc))
    conv.set_results(op, [acc_type])


def _cat(conv: _Conversion, op: Operation) -> None:
    from tileopt.layouts.encodings import Blocked, get_total_elems_per_thread

    conv.remap_operands(op)
    result = op.results[0]
    ret_type = conv.convert_type(result.type)
    encoding = ret_type.encoding

    def total(ty: TensorType) -> int:
        enc = ty.encoding
        blocked = Blocked(ints_of(enc.sizePerThread), ints_of(enc.threadsPerWarp),
                          ints_of(enc.warpsPerCTA), ints_of(enc.order))
        return get_total_elems_per_thread(blocked, list(ty.get_shape()))

    lhs, rhs = op.operands[0].type, op.operands[1].type
    wanted = total(lhs) + total(rhs)
    wanted = 1 << (wanted - 1).bit_length()  # next power of two
    per_thread = list(ints_of(encoding.sizePerThread))
    fastest = ints_of(encoding.order)[0]
    per_thread[fastest] *= wanted // total(ret_type)
    new_encoding = make_blocked(
        per_thread, ints_of(encoding.threadsPerWarp), ints_of(encoding.warpsPerCTA),
        ints_of(encoding.order), ints_of(encoding.CTAsPerCGA), ints_of(encoding.CTASplitNum),
        ints_of(encoding.CTAOrder))
    conv.set_results(op, [_with_encoding(result.type, new_encoding)])


def _join(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    encoding = op.operands[0].type.encoding
    rank = encoding.rank

    def minor_first(order: Sequence[int]) -> list[int]:
        return [rank, *order]

    result_encoding = make_blocked(
        [*ints_of(encoding.sizePerThread), 2], [*ints_of(encoding.threadsPerWarp), 1],
        [*ints_of(encoding.warpsPerCTA), 1], minor_first(ints_of(encoding.order)),
        [*ints_of(encoding.CTAsPerCGA), 1], [*ints_of(encoding.CTASplitNum), 1],
        minor_first(ints_of(encoding.CTAOrder)))
    result = op.results[0]
    conv.set_results(op, [_with_encoding(result.type, result_encoding)])


def _split(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    src = op.operands[0]
    encoding = src.type.encoding
    rank = len(src.type.get_shape())
    result_encoding = (split_blocked(encoding) if isinstance(encoding, BlockedEncodingAttr)
                       else None)
    if result_encoding is None:
        # The split dim must be a thread's innermost pair: build that from the default
        # layout of a result.
        base = conv.default_encoding(list(op.results[0].type.get_shape()))
        encoding = make_blocked(
            [*ints_of(base.sizePerThread), 2], [*ints_of(base.threadsPerWarp), 1],
            [*ints_of(base.warpsPerCTA), 1], [rank - 1, *ints_of(base.order)],
            [*ints_of(base.CTAsPerCGA), 1], [*ints_of(base.CTASplitNum), 1],
            [rank - 1, *ints_of(base.CTAOrder)])
        op.operands[0] = conv.convert_before(op, src, _with_encoding(src.type, encoding))
        result_encoding = split_blocked(encoding)
    conv.set_results(op, [_with_encoding(r.type, result_encoding) for r in op.results])


def _call(conv: _Conversion, op: Operation) -> None:
    """Operands and results in the default layout, as ``_func`` gives the callee's
    signature (Triton's call pattern converts both with the type converter)."""
    conv.remap_operands(op)
    conv.set_default_results(op)


def _region_op(conv: _Conversion, op: Operation) -> None:
    """scf.for / scf.if / scf.while: operands remapped, block arguments and results
    converted."""
    conv.remap_operands(op)
    conv.convert_region_types(op)
    conv.set_default_results(op)


def _func(conv: _Conversion, op: Operation) -> None:
    """Tensor arguments and results get the default layout (Triton converts the entry
    block only and keeps the old function type; both are converted here so the function
    stays consistent)."""
    ftype = op.properties["function_type"]
    op.properties["function_type"] = FunctionType.from_lists(
        [conv.convert_type(t) for t in ftype.inputs.data],
        [conv.convert_type(t) for t in ftype.outputs.data])
    if op.regions and op.regions[0].blocks:
        conv.convert_region_types(op)


def _branch(conv: _Conversion, op: Operation) -> None:
    conv.remap_operands(op)
    region = op.parent_region()
    if region is not None:
        for block in region.blocks:
            if block is not region.blocks.first:
                for arg in list(block.args):
                    conv.set_type(arg, conv.convert_type(arg.type))


_PATTERNS = {
    "arith.constant": _constant,
    "tt.expand_dims": _expand_dims,
    "tt.broadcast": _broadcast,
    "tt.reduce": _reduce,
    "tt.scan": _scan,
    "tt.trans": _trans,
    "tt.dot": _dot,
    "tt.cat": _cat,
    "tt.join": _join,
    "tt.split": _split,
    "tt.call": _call,
    "tt.func": _func,
    "scf.for": _region_op,
    "scf.if": _region_op,
    "scf.while": _region_op,
    "cf.br": _branch,
    "cf.cond_br": _branch,
}

# Ops Triton converts with its generic pattern (the rest of arith / math / scf / ub only
# get it here; Triton would fail on them unless source rematerialization is on).
_KNOWN_GENERIC = frozenset({
    "arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi",
    "arith.ceildivui", "arith.ceildivsi", "arith.floordivsi", "arith.remui", "arith.remsi",
    "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrui", "arith.shrsi",
    "arith.addf", "arith.subf", "arith.maximumf", "arith.maxnumf", "arith.maxsi",
    "arith.maxui", "arith.minimumf", "arith.minnumf", "arith.minsi", "arith.minui",
    "arith.mulf", "arith.divf", "arith.remf", "arith.cmpi", "arith.cmpf", "arith.select",
    "arith.trunci", "arith.truncf", "arith.extui", "arith.extsi", "arith.extf",
    "arith.sitofp", "arith.fptosi", "arith.fptoui", "arith.uitofp",
    "math.exp", "math.exp2", "math.floor", "math.ceil", "math.cos", "math.sin", "math.log",
    "math.log2", "math.erf", "math.absf", "math.absi", "math.sqrt", "math.rsqrt", "math.fma",
    "scf.yield", "scf.condition", "ub.poison",
})


@register_pass
class ConvertTritonToTritonGPU(Pass):
    """Give every tensor a TritonGPU layout and record the target on the module."""

    name = "convert-triton-to-tritongpu"

    target: str = option("", "the GPU target, e.g. cuda:80, hip:gfx942")
    num_warps: int = option(4, "number of warps")
    threads_per_warp: int = option(32, "number of threads per warp")
    num_ctas: int = option(1, "number of CTAs in a CGA")
    enable_source_remat: bool = option(
        False, "keep ops without a conversion pattern, casting their operands back "
        "(unrealized_conversion_cast) instead of giving them the default layout")

    def apply(self, ctx: Context, op: Operation) -> None:
        if not self.target:
            raise PassFailure(op, "'convert-triton-to-tritongpu' requires 'target' option "
                                  "to be set")
        for value, what in ((self.num_warps, "num-warps"),
                            (self.threads_per_warp, "threads-per-warp"),
                            (self.num_ctas, "num-ctas")):
            if value < 1 or value & (value - 1):
                raise TileoptError(f"convert-triton-to-tritongpu: {what} must be a power "
                                   f"of two, got {value}")
        op.attributes["ttg.num-warps"] = IntegerAttr(self.num_warps, i32)
        op.attributes["ttg.threads-per-warp"] = IntegerAttr(self.threads_per_warp, i32)
        op.attributes["ttg.num-ctas"] = IntegerAttr(self.num_ctas, i32)
        op.attributes["ttg.target"] = StringAttr(self.target)
        _Conversion(self.num_warps, self.threads_per_warp, self.num_ctas,
                    self.enable_source_remat).run(op)
