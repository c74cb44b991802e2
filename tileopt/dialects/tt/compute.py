"""Ops that compute on tensor values: casts and elementwise math, elementwise calls into
external code (``tt.extern_elementwise``, ``tt.elementwise_inline_asm``), dot products
(``tt.dot``, ``tt.dot_scaled``), reductions and scans (``tt.reduce``, ``tt.scan``), and the
debugging ops ``tt.print`` and ``tt.assert``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    i1, i32, i64, DenseArrayBase, Float8E4M3FNType, IntegerAttr, StringAttr, TensorType,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr, AttrSizedOperandSegments, IRDLOperation, ParsePropInAttrDict, VarConstraint,
    irdl_op_definition, operand_def, opt_operand_def, opt_prop_def, prop_def, region_def,
    result_def, traits_def, var_operand_def, var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    ConditionallySpeculatable, EffectInstance, HasParent, IsTerminator, MemoryEffect, Pure,
    ReturnLike, SameOperandsAndResultType,
)
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import (
    parse_attr_dict_split, parse_attrs_and_types, parse_dot_types, parse_operands,
    print_attr_dict, print_dot_types, print_types,
)
from tileopt.dialects.effects import GLOBAL, READ, WRITE, WritesGlobal
from tileopt.dialects.traits import (
    Elementwise, SameOperandsAndResultEncoding, SameOperandsAndResultShape,
    SameOperandsEncoding, type_str, verify_elementwise_shapes,
)
from tileopt.dialects.tt_types import (
    INPUT_PRECISION, PROPAGATE_NAN, ROUNDING_MODE, SCALE_DOT_ELEM_TYPE, InputPrecision,
    PointerType, PropagateNan, RoundingMode, ScaleDotElemType, bit_width, element_type,
    encoding_of,
    is_bool_like, is_float, is_int, is_ptr_like, num_elements, shape_of,
)
from tileopt.dialects.tt.common import _SrcToResultOp, _require_tensor


# ---------------------------------------------------------------------------------------
# Casts and elementwise math
# ---------------------------------------------------------------------------------------


class _CastOp(_SrcToResultOp):
    """``tt.bitcast %x : tensor<4xi32> -> tensor<4xf32>`` and friends."""

    traits = traits_def(
        Pure(), Elementwise(), SameOperandsAndResultShape(), SameOperandsAndResultEncoding()
    )


@irdl_op_definition
class IntToPtrOp(_CastOp):
    name = "tt.int_to_ptr"

    def verify_(self) -> None:
        if element_type(self.src.type) != i64:
            raise VerifyException(
                f"source must be i64 or a tensor of i64, got {type_str(self.src.type)}"
            )
        if not is_ptr_like(self.result.type):
            raise VerifyException(
                f"result must be a pointer or a tensor of pointers, got "
                f"{type_str(self.result.type)}"
            )


@irdl_op_definition
class PtrToIntOp(_CastOp):
    name = "tt.ptr_to_int"

    def verify_(self) -> None:
        if not is_ptr_like(self.src.type):
            raise VerifyException(
                f"source must be a pointer or a tensor of pointers, got "
                f"{type_str(self.src.type)}"
            )
        if element_type(self.result.type) != i64:
            raise VerifyException(
                f"result must be i64 or a tensor of i64, got {type_str(self.result.type)}"
            )


@irdl_op_definition
class BitcastOp(_CastOp):
    name = "tt.bitcast"

    def verify_(self) -> None:
        src = element_type(self.src.type)
        dst = element_type(self.result.type)
        src_ptr, dst_ptr = isinstance(src, PointerType), isinstance(dst, PointerType)
        if src_ptr or dst_ptr:
            if not (src_ptr and dst_ptr):
                raise VerifyException("cannot bitcast pointer to non-pointer type")
            assert isinstance(src, PointerType) and isinstance(dst, PointerType)
            if src.address_space != dst.address_space:
                raise VerifyException(
                    "cannot bitcast pointer between different address spaces"
                )
            return
        src_bits, dst_bits = bit_width(src), bit_width(dst)
        if src_bits != dst_bits:
            raise VerifyException(
                f"cannot bitcast data-type of size {src_bits} to data-type of size "
                f"{dst_bits}"
            )


@irdl_op_definition
class FpToFpOp(_CastOp):
    """``tt.fp_to_fp %x, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FN>``"""

    name = "tt.fp_to_fp"

    rounding = opt_prop_def(IntegerAttr)

    assembly_format = None  # parse/print below: Triton writes attr-dict before the rounding

    def __init__(
        self,
        src: SSAValue | Operation,
        result_type: Attribute,
        rounding: RoundingMode | str | None = None,
    ):
        super().__init__(
            src,
            result_type,
            properties={"rounding": ROUNDING_MODE.attr(rounding) if rounding is not None else None},
        )

    def verify_(self) -> None:
        src = element_type(self.src.type)
        dst = element_type(self.result.type)
        if not is_float(src) or not is_float(dst):
            raise VerifyException(
                f"converts between floating-point types, got {type_str(src)} -> "
                f"{type_str(dst)}"
            )
        if self.rounding is not None:
            ROUNDING_MODE.verify(self.rounding, "rounding")
        src_bits, dst_bits = bit_width(src), bit_width(dst)
        if src_bits is not None and dst_bits is not None and dst_bits < src_bits and self.rounding is None:
            raise VerifyException(
                f"rounding mode is required for FP downcast ({type_str(src)} -> "
                f"{type_str(dst)})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FpToFpOp:
        src = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("rounding")
            parser.parse_punctuation("=")
            props["rounding"] = ROUNDING_MODE.parse(parser)
        elif "rounding" in attrs:
            # MLIR reads an inherent attribute written in the dictionary as the property
            # (`{rounding = 1 : i32}`, the enum's integer storage).
            props["rounding"] = attrs.pop("rounding")
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_attr_dict(printer, self, elide=("rounding",))
        if self.rounding is not None:
            printer.print_string(", rounding = ")
            ROUNDING_MODE.print(printer, self.rounding)
        print_types(printer, [self.src.type, self.result.type], " -> ")


def _verify_float_like(op: Operation) -> None:
    for ty in [*op.operand_types, *op.result_types]:
        if not is_float(element_type(ty)):
            raise VerifyException(
                f"operates on floats or tensors of floats, got {type_str(ty)}"
            )


@irdl_op_definition
class PreciseSqrtOp(IRDLOperation):
    """``tt.precise_sqrt %x : tensor<4xf32>``"""

    name = "tt.precise_sqrt"

    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise(), SameOperandsAndResultType())

    assembly_format = "$x attr-dict `:` type($x)"

    def __init__(self, x: SSAValue | Operation):
        x = SSAValue.get(x)
        super().__init__(operands=[x], result_types=[x.type])

    def verify_(self) -> None:
        _verify_float_like(self)


class _BinaryElementwiseOp(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise(), SameOperandsAndResultType())

    assembly_format = "$x `,` $y attr-dict `:` type($x)"

    def __init__(self, x: SSAValue | Operation, y: SSAValue | Operation):
        x = SSAValue.get(x)
        super().__init__(operands=[x, y], result_types=[x.type])


@irdl_op_definition
class PreciseDivFOp(_BinaryElementwiseOp):
    """``tt.precise_divf %x, %y : tensor<4xf32>``"""

    name = "tt.precise_divf"

    def verify_(self) -> None:
        _verify_float_like(self)


@irdl_op_definition
class MulhiUIOp(_BinaryElementwiseOp):
    """``tt.mulhiui %x, %y : tensor<4xi32>``: high half of the unsigned product."""

    name = "tt.mulhiui"

    def verify_(self) -> None:
        for ty in self.operand_types:
            if not is_int(element_type(ty)):
                raise VerifyException(
                    f"operates on integers or tensors of integers, got {type_str(ty)}"
                )


@irdl_op_definition
class ClampFOp(IRDLOperation):
    """``tt.clampf %x, %lo, %hi, propagateNan = all : tensor<4xf32>``"""

    name = "tt.clampf"

    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    min = operand_def(T)
    max = operand_def(T)
    propagateNan = prop_def(IntegerAttr)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise(), SameOperandsAndResultType())

    def __init__(
        self,
        x: SSAValue | Operation,
        lo: SSAValue | Operation,
        hi: SSAValue | Operation,
        propagate_nan: PropagateNan | str = PropagateNan.NONE,
    ):
        x = SSAValue.get(x)
        super().__init__(
            operands=[x, lo, hi],
            result_types=[x.type],
            properties={"propagateNan": PROPAGATE_NAN.attr(propagate_nan)},
        )

    def verify_(self) -> None:
        _verify_float_like(self)
        PROPAGATE_NAN.verify(self.propagateNan, "propagateNan")

    @classmethod
    def parse(cls, parser: Parser) -> ClampFOp:
        values = parse_operands(parser, 3)
        parser.parse_punctuation(",")
        parser.parse_keyword("propagateNan")
        parser.parse_punctuation("=")
        nan = PROPAGATE_NAN.parse(parser)
        attrs, ty = parse_attrs_and_types(parser)
        return cls.build(
            operands=[parser.resolve_operand(v, ty) for v in values],
            result_types=[ty],
            properties={"propagateNan": nan},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(", propagateNan = ")
        PROPAGATE_NAN.print(printer, self.propagateNan)
        print_attr_dict(printer, self, elide=("propagateNan",))
        print_types(printer, [self.result.type])


# ---------------------------------------------------------------------------------------
# External code: extern_elementwise, elementwise_inline_asm
# ---------------------------------------------------------------------------------------


class PureUnlessImpure(MemoryEffect):
    """No effects when the op's ``pure`` attribute is true, else read+write (Triton's
    extern_elementwise / elementwise_inline_asm)."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        pure = op.properties.get("pure")
        if isinstance(pure, IntegerAttr) and pure.value.data:
            return set()
        return {EffectInstance(READ, resource=GLOBAL), EffectInstance(WRITE, resource=GLOBAL)}


class SpeculatableIfPure(ConditionallySpeculatable):
    @classmethod
    def is_speculatable(cls, op: Operation) -> bool:
        pure = op.properties.get("pure")
        return isinstance(pure, IntegerAttr) and bool(pure.value.data)


@irdl_op_definition
class ExternElementwiseOp(IRDLOperation):
    """``tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"}
    : (tensor<4xf32>) -> tensor<4xf32>``"""

    name = "tt.extern_elementwise"

    srcs = var_operand_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(IntegerAttr)
    result = result_def()

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(
        Elementwise(), SameOperandsAndResultEncoding(), PureUnlessImpure(), SpeculatableIfPure()
    )

    assembly_format = "$srcs attr-dict `:` functional-type($srcs, $result)"

    def verify_(self) -> None:
        verify_elementwise_shapes(self)


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """``tt.elementwise_inline_asm "asm" {constraints = "=r,r", packed_element = 1 : i32,
    pure = true} %x : tensor<4xi32> -> tensor<4xi32>``"""

    name = "tt.elementwise_inline_asm"

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(IntegerAttr)
    packed_element = prop_def(IntegerAttr)
    args = var_operand_def()
    result = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(
        Elementwise(), SameOperandsAndResultEncoding(), PureUnlessImpure(), SpeculatableIfPure()
    )

    assembly_format = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"

    def verify_(self) -> None:
        verify_elementwise_shapes(self)
        packed = self.packed_element.value.data
        if packed <= 0:
            raise VerifyException("packed_element must be positive")
        if self.args:
            first = self.args[0].type
            count = num_elements(first) if isinstance(first, TensorType) else 0
            if count % packed:
                raise VerifyException(
                    f"number of input elements {count} must be a "
                    f"multiple of the op's packed_element attribute, {packed}"
                )


# ---------------------------------------------------------------------------------------
# Dot products
# ---------------------------------------------------------------------------------------

_IEEE = INPUT_PRECISION.attr(InputPrecision.IEEE)
_ZERO_I32 = IntegerAttr(0, i32)


@irdl_op_definition
class DotOp(IRDLOperation):
    """``tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<MxKxf16> * tensor<KxNxf16> -> tensor<MxNxf32>``"""

    name = "tt.dot"

    a = operand_def()
    b = operand_def()
    c = operand_def()
    inputPrecision = prop_def(IntegerAttr, default_value=_IEEE)
    maxNumImpreciseAcc = prop_def(IntegerAttr, default_value=_ZERO_I32)
    d = result_def()

    traits = traits_def(Pure())

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "inputPrecision": _IEEE,
        "maxNumImpreciseAcc": _ZERO_I32,
    }

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        c: SSAValue | Operation,
        input_precision: InputPrecision | str = InputPrecision.IEEE,
        max_num_imprecise_acc: int = 0,
    ):
        c = SSAValue.get(c)
        super().__init__(
            operands=[a, b, c],
            result_types=[c.type],
            properties={
                "inputPrecision": INPUT_PRECISION.attr(input_precision),
                "maxNumImpreciseAcc": IntegerAttr(max_num_imprecise_acc, i32),
            },
        )

    @property
    def input_precision(self) -> InputPrecision:
        return INPUT_PRECISION.value_of(self.inputPrecision)

    def verify_(self) -> None:
        a = _require_tensor(self.a.type, "operand A", self.name)
        b = _require_tensor(self.b.type, "operand B", self.name)
        c = _require_tensor(self.c.type, "accumulator C", self.name)
        if self.d.type != c:
            raise VerifyException(
                f"result type {type_str(self.d.type)} must match the accumulator type "
                f"{type_str(c)}"
            )
        sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()
        if not (len(sa) == len(sb) == len(sc)) or len(sa) not in (2, 3):
            raise VerifyException(
                f"operands must all be 2D (or 3D, batched), got ranks {len(sa)}, "
                f"{len(sb)}, {len(sc)}"
            )
        if len(sa) == 3 and not (sa[0] == sb[0] == sc[0]):
            raise VerifyException(
                f"batch dimensions differ: A {sa[0]}, B {sb[0]}, C {sc[0]}"
            )
        (m, k), (k2, n), (mc, nc) = sa[-2:], sb[-2:], sc[-2:]
        if k != k2:
            raise VerifyException(
                f"K dimensions differ: A is {m}x{k} but B is {k2}x{n}"
            )
        if (m, n) != (mc, nc):
            raise VerifyException(
                f"accumulator C is {mc}x{nc} but A x B is {m}x{n}"
            )
        ea, eb = a.element_type, b.element_type
        for what, ty in (("A", ea), ("B", eb), ("C", c.element_type)):
            if not (is_float(ty) or is_int(ty)):
                raise VerifyException(
                    f"operand {what} must have float or integer elements, got {type_str(ty)}"
                )
        if bit_width(ea) != bit_width(eb):
            raise VerifyException(
                f"element types of operands A and B must have same bit width "
                f"({type_str(ea)} vs {type_str(eb)})"
            )
        if (encoding_of(a) is None) != (encoding_of(b) is None):
            raise VerifyException("mismatching encoding between A and B operands")
        if encoding_of(a) is not None and encoding_of(c) is None:
            raise VerifyException("miss encoding of C operand")
        INPUT_PRECISION.verify(self.inputPrecision, "inputPrecision")
        self._verify_operand_layouts(a, b, c)

    def _verify_operand_layouts(self, a: TensorType, b: TensorType, c: TensorType) -> None:
        """Triton's rules for a dot whose operands already have ``#ttg.dot_op`` layouts:
        one kWidth, and an ``#ttg.nvidia_mma`` parent on A, B and the result together,
        of one version that can run the dot's types."""
        layouts = [getattr(encoding_of(t), "to_encoding", None) for t in (a, b, c)]
        if any(layout is None for layout in layouts):
            return  # no layouts, or ones tileopt does not read
        la, lb, lc = (layout() for layout in layouts)
        # here (layouts are read): Triton IR without layouts needs no layout algebra
        from tileopt.layouts.encodings import DotOperand, NvidiaMma

        if not (isinstance(la, DotOperand) and isinstance(lb, DotOperand)):
            if isinstance(la, DotOperand) or isinstance(lb, DotOperand):
                raise VerifyException("mismatching encoding between A and B operands")
            return
        if la.k_width != lb.k_width:
            raise VerifyException(
                f"mismatching kWidth between A and B operands ({la.k_width} and "
                f"{lb.k_width})"
            )
        mmas = [x for x in (la.parent, lb.parent, lc) if isinstance(x, NvidiaMma)]
        if not mmas:
            return
        if len(mmas) != 3:
            raise VerifyException("mismatching MMA encoding: A's parent, B's parent and "
                                  "the result must all be #ttg.nvidia_mma")
        versions = {m.version_major for m in mmas}
        if len(versions) > 1:
            raise VerifyException(f"mismatched MMA version: {sorted(versions)}")
        from tileopt.dialects.tt.mma_support import supports_mma  # (needs ttg)

        if not supports_mma(self, lc.version_major):
            raise VerifyException(
                f"unsupported MMA version: mma v{lc.version_major} cannot multiply "
                f"{type_str(a.element_type)} by {type_str(b.element_type)} with input "
                f"precision {self.input_precision.value}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        a, b, c = parse_operands(parser, 3)
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("inputPrecision")
            parser.parse_punctuation("=")
            props["inputPrecision"] = INPUT_PRECISION.parse(parser)
        more, attrs = parse_attr_dict_split(parser, cls)
        props |= more
        a_type, _, b_type, _, d_type = parse_dot_types(parser)
        for name, default in cls._DEFAULTS.items():
            props.setdefault(name, default)
        return cls.build(
            operands=[
                parser.resolve_operand(a, a_type),
                parser.resolve_operand(b, b_type),
                parser.resolve_operand(c, d_type),
            ],
            result_types=[d_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.a, self.b, self.c), printer.print_operand)
        if self.inputPrecision != _IEEE:
            printer.print_string(", inputPrecision = ")
            INPUT_PRECISION.print(printer, self.inputPrecision)
        print_attr_dict(printer, self, elide=("inputPrecision",), defaults=self._DEFAULTS)
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)


@irdl_op_definition
class DotScaledOp(IRDLOperation):
    """``tt.dot_scaled %a scale %as, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false}
    : tensor<..>, tensor<..> * tensor<..> -> tensor<..>`` (microscaling dot)."""

    name = "tt.dot_scaled"

    a = operand_def()
    b = operand_def()
    c = operand_def()
    a_scale = opt_operand_def()
    b_scale = opt_operand_def()
    a_elem_type = prop_def(IntegerAttr)
    b_elem_type = prop_def(IntegerAttr)
    fastMath = prop_def(IntegerAttr)
    d = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        c = _require_tensor(self.c.type, "accumulator C", self.name)
        if self.d.type != c:
            raise VerifyException("result type must match the accumulator type")
        a = _require_tensor(self.a.type, "operand A", self.name)
        if len(a.get_shape()) < 2:
            raise VerifyException("operands must be at least 2D")
        SCALE_DOT_ELEM_TYPE.verify(self.a_elem_type, "lhs")
        SCALE_DOT_ELEM_TYPE.verify(self.b_elem_type, "rhs")
        self._verify_shapes(a, _require_tensor(self.b.type, "operand B", self.name), c)

    def _k_packed(self, side: str) -> bool:
        """Whether an e2m1 operand packs its two values per byte along K (Triton's
        ``lhs_k_pack``/``rhs_k_pack``, true unless set false) rather than along M or N."""
        elem = self.a_elem_type if side == "lhs" else self.b_elem_type
        if SCALE_DOT_ELEM_TYPE.value_of(elem) != ScaleDotElemType.E2M1:
            return False
        flag = self.attributes.get(f"{side}_k_pack", self.properties.get(f"{side}_k_pack"))
        return not (isinstance(flag, IntegerAttr) and flag.value.data == 0)

    def _verify_shapes(self, a: TensorType, b: TensorType, c: TensorType) -> None:
        """Triton's shape rules, in logical (unpacked) sizes: an e2m1 operand holds two
        values per element along K when k-packed, else along M (A) or N (B); a scale
        holds one value per 32 of K (16 when it is f8E4M3FN) for each row of M or N."""
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
        if not len(a_shape) == len(b_shape) == len(c_shape):
            raise VerifyException("expected all operands to have the same rank")
        e2m1 = {side: SCALE_DOT_ELEM_TYPE.value_of(elem) == ScaleDotElemType.E2M1
                for side, elem in (("lhs", self.a_elem_type), ("rhs", self.b_elem_type))}
        a_k = a_shape[-1] * (2 if self._k_packed("lhs") else 1)
        b_k = b_shape[-2] * (2 if self._k_packed("rhs") else 1)
        if a_k != b_k:
            raise VerifyException(
                "expected the last dimension of the first operand to be equal to the "
                f"second-to-last dimension of the second operand (K: {a_k} and {b_k}, "
                "e2m1 operands packed two to a byte)"
            )
        m = a_shape[-2] * (2 if e2m1["lhs"] and not self._k_packed("lhs") else 1)
        n = b_shape[-1] * (2 if e2m1["rhs"] and not self._k_packed("rhs") else 1)
        if (m, n) != tuple(c_shape[-2:]):
            raise VerifyException(
                f"expected the output shape to be {m}x{n} (M of the first operand, N of "
                f"the second), got {'x'.join(map(str, c_shape[-2:]))}"
            )
        for scale, rows, what in ((self.a_scale, m, "M"), (self.b_scale, n, "N")):
            if scale is None:
                continue
            shape = _require_tensor(scale.type, "scale", self.name).get_shape()
            per = 16 if isinstance(element_type(scale.type), Float8E4M3FNType) else 32
            if len(shape) < 2 or shape[-2] != rows:
                raise VerifyException(
                    f"scales {what} dimension must match the operand {what} dimension "
                    f"({rows}), got scale shape {list(shape)}"
                )
            if shape[-1] != a_k // per:
                raise VerifyException(
                    "scales K dimension must match the operand K divided by the scale "
                    f"factor: {a_k} / {per} = {a_k // per}, got {shape[-1]}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> DotScaledOp:
        a = parser.parse_unresolved_operand()
        a_scale = b_scale = None
        if parser.parse_optional_keyword("scale") is not None:
            a_scale = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("scale") is not None:
            b_scale = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        parser.parse_keyword("lhs")
        parser.parse_punctuation("=")
        lhs = SCALE_DOT_ELEM_TYPE.parse(parser)
        parser.parse_keyword("rhs")
        parser.parse_punctuation("=")
        rhs = SCALE_DOT_ELEM_TYPE.parse(parser)
        props, attrs = parse_attr_dict_split(parser, cls)
        props |= {"a_elem_type": lhs, "b_elem_type": rhs}
        a_type, a_scale_type, b_type, b_scale_type, d_type = parse_dot_types(
            parser, a_scale is not None, b_scale is not None
        )
        return cls.build(
            operands=[
                parser.resolve_operand(a, a_type),
                parser.resolve_operand(b, b_type),
                parser.resolve_operand(c, d_type),
                [parser.resolve_operand(a_scale, a_scale_type)] if a_scale is not None else [],
                [parser.resolve_operand(b_scale, b_scale_type)] if b_scale is not None else [],
            ],
            result_types=[d_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        if self.a_scale is not None:
            printer.print_string(" scale ")
            printer.print_operand(self.a_scale)
        printer.print_string(", ")
        printer.print_operand(self.b)
        if self.b_scale is not None:
            printer.print_string(" scale ")
            printer.print_operand(self.b_scale)
        printer.print_string(", ")
        printer.print_operand(self.c)
        printer.print_string(" lhs = ")
        SCALE_DOT_ELEM_TYPE.print(printer, self.a_elem_type)
        printer.print_string(" rhs = ")
        SCALE_DOT_ELEM_TYPE.print(printer, self.b_elem_type)
        print_attr_dict(printer, self, elide=("a_elem_type", "b_elem_type"))
        print_dot_types(
            printer,
            self.a.type,
            self.b.type,
            self.d.type,
            self.a_scale.type if self.a_scale is not None else None,
            self.b_scale.type if self.b_scale is not None else None,
        )


# ---------------------------------------------------------------------------------------
# Reductions and scans (printed generically, as Triton prints them)
# ---------------------------------------------------------------------------------------


def _verify_combine_region(op: Operation, region: Region, return_type: type[Operation]) -> None:
    """Triton's verifyRegionsImpl: the combiner takes 2 scalars per operand and returns one
    per operand, each of the operand's element type."""
    elements = [element_type(t) for t in op.operand_types]
    n = len(elements)
    block = region.blocks.first
    if block is None:
        raise VerifyException(f"combine region must have a block")
    if len(block.args) != 2 * n:
        raise VerifyException(
            f"nested block must take {2 * n} arguments, but given block with "
            f"{len(block.args)} arguments"
        )
    for i, arg in enumerate(block.args):
        if arg.type != elements[i % n]:
            raise VerifyException(
                f"type mismatch on combine operation. Expected argument {i} to have "
                f"type {type_str(elements[i % n])} but got {type_str(arg.type)}"
            )
    terminator = block.last_op
    if not isinstance(terminator, return_type):
        raise VerifyException(
            f"combine operation must be terminated with a {return_type.name}"
        )
    if len(terminator.operands) != n:
        raise VerifyException(
            f"expected combine operation to return {n} values but got "
            f"{len(terminator.operands)}"
        )
    for i, value in enumerate(terminator.operands):
        if value.type != elements[i]:
            raise VerifyException(
                f"type mismatch on combine operation. Expected result {i} to have "
                f"type {type_str(elements[i])} but got {type_str(value.type)}"
            )


def _verify_reduce_scan_operands(op: Operation, axis: int) -> None:
    if not op.operands:
        raise VerifyException(f"must have at least 1 operand")
    if len(op.operands) != len(op.results):
        raise VerifyException(f"must have the same number of inputs as outputs")
    ranks = set()
    for ty in op.operand_types:
        tensor = _require_tensor(ty, "operand", op.name)
        rank = len(tensor.get_shape())
        if not 0 <= axis < rank:
            raise VerifyException(f"axis {axis} out of bounds for operand rank {rank}")
        ranks.add(rank)
    if len(ranks) > 1:
        raise VerifyException(
            f"all operands must have the same rank, got ranks {sorted(ranks)}"
        )
    shapes = {t.get_shape() for t in op.operand_types}  # type: ignore[union-attr]
    if len(shapes) > 1:
        raise VerifyException(f"requires the same shape for all operands")


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """``"tt.reduce"(%x) <{axis = 0 : i32}> ({ ^bb0(%a: f32, %b: f32): ... }) : (tensor<..>) -> f32``"""

    name = "tt.reduce"

    srcs = var_operand_def()
    axis = prop_def(IntegerAttr)
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(Pure(), SameOperandsEncoding())

    def __init__(
        self,
        srcs: Sequence[SSAValue | Operation],
        axis: int,
        combine: Region,
        result_types: Sequence[Attribute] | None = None,
    ):
        values = [SSAValue.get(s) for s in srcs]
        if result_types is None:
            result_types = [_reduced_type(v.type, axis) for v in values]
        super().__init__(
            operands=[values],
            result_types=[result_types],
            properties={"axis": IntegerAttr(axis, i32)},
            regions=[combine],
        )

    def verify_(self) -> None:
        axis = self.axis.value.data
        _verify_reduce_scan_operands(self, axis)
        for src, res in zip(self.srcs, self.result):
            expected = _reduced_type(src.type, axis)
            if element_type(res.type) != element_type(src.type):
                raise VerifyException(f"operand types and result types must agree")
            if shape_of(res.type) != shape_of(expected):
                raise VerifyException(
                    f"result {type_str(res.type)} must have the operand's shape "
                    f"without axis {axis}: {type_str(expected)}"
                )
        _verify_combine_region(self, self.combineOp, ReduceReturnOp)


def _reduced_type(ty: Attribute, axis: int) -> Attribute:
    """The operand type with ``axis`` removed (a scalar if nothing is left); the layout
    (a slice of the operand's) is for the ttg dialect to infer, so none is attached."""
    assert isinstance(ty, TensorType)
    shape = list(ty.get_shape())
    del shape[axis]
    if not shape:
        return ty.element_type
    return TensorType(ty.element_type, shape)


class _CombineReturnOp(IRDLOperation):
    """``tt.reduce.return %x : f32`` / ``tt.scan.return``: ends a combine region."""

    result = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class ReduceReturnOp(_CombineReturnOp):
    name = "tt.reduce.return"

    traits = traits_def(HasParent(ReduceOp))


@irdl_op_definition
class ScanOp(IRDLOperation):
    """``"tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({...}) : (tensor<..>) -> tensor<..>``"""

    name = "tt.scan"

    srcs = var_operand_def()
    axis = prop_def(IntegerAttr)
    reverse = prop_def(IntegerAttr)
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(
        Pure(), SameOperandsAndResultEncoding(), SameOperandsAndResultShape()
    )

    def __init__(
        self, srcs: Sequence[SSAValue | Operation], axis: int, reverse: bool, combine: Region
    ):
        values = [SSAValue.get(s) for s in srcs]
        super().__init__(
            operands=[values],
            result_types=[[v.type for v in values]],
            properties={"axis": IntegerAttr(axis, i32), "reverse": IntegerAttr(int(reverse), i1)},
            regions=[combine],
        )

    def verify_(self) -> None:
        _verify_reduce_scan_operands(self, self.axis.value.data)
        for src, res in zip(self.srcs, self.result):
            if src.type != res.type:
                raise VerifyException("operand types and result types must agree")
        _verify_combine_region(self, self.combineOp, ScanReturnOp)


@irdl_op_definition
class ScanReturnOp(_CombineReturnOp):
    name = "tt.scan.return"

    traits = traits_def(HasParent(ScanOp))


# ---------------------------------------------------------------------------------------
# Debugging: print, assert
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class PrintOp(IRDLOperation):
    """``tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<4xi32>``"""

    name = "tt.print"

    prefix = prop_def(StringAttr)
    hex = prop_def(IntegerAttr)
    args = var_operand_def()
    isSigned = prop_def(DenseArrayBase)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(WritesGlobal())

    assembly_format = "$prefix attr-dict (`:` $args^ `:` type($args))?"

    def verify_(self) -> None:
        # Triton has no verifier here (its tests print no arguments with isSigned = [0]);
        # the lowering needs an entry for each argument, extra ones are not read.
        if len(self.isSigned.get_values()) < len(self.args):
            raise VerifyException(
                f"isSigned must have an entry for each argument ({len(self.args)}), got "
                f"{len(self.isSigned.get_values())}"
            )


@irdl_op_definition
class AssertOp(IRDLOperation):
    """``tt.assert %cond, "message" : tensor<4xi1>``"""

    name = "tt.assert"

    condition = operand_def()
    message = prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(WritesGlobal())

    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"

    def verify_(self) -> None:
        if not is_bool_like(self.condition.type):
            raise VerifyException(
                f"condition must be i1 or a tensor of i1, got "
                f"{type_str(self.condition.type)}"
            )
