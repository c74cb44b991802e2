"""The TMA ops of the ``ttng`` dialect: what Triton's ``triton-nvidia-tma-lowering`` makes
of tensor descriptors on Hopper.

A device-side descriptor (``tt.make_tensor_descriptor``) becomes 128 bytes of global scratch
(``ttg.global_scratch_alloc``) that ``ttng.tensormap_create`` fills and
``ttng.tensormap_fenceproxy_acquire`` publishes to the TMA unit;
``ttng.reinterpret_tensor_descriptor`` reads that pointer as a ``!tt.tensordesc`` again.
``ttng.async_tma_copy_global_to_local`` loads a block into shared memory (completing on an
mbarrier), ``ttng.async_tma_copy_local_to_global`` stores one, and
``ttng.async_tma_store_wait`` waits for the stores' reads of shared memory. Syntax from
Triton's ``TritonNvidiaGPUOps.td``; checked against the ``desc_matmul`` kernel of the 3.9
corpus.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i1, i32, i64
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import (
    parse_attr_dict_split,
    parse_cache_keywords,
    print_attr_dict,
    print_cache_keywords,
    print_types,
)
from tileopt.dialects.effects import (
    GLOBAL, READ, SHARED, WRITE, ReadsWritesGlobal, Synchronizes, effects,
)
from tileopt.dialects.tt.common import _parse_operand_list_in_brackets
from tileopt.dialects.tt.memory import (
    _parse_desc_and_indices,
    _print_desc_and_indices,
    _print_desc_store,
)
from tileopt.dialects.tt_types import PointerType, TensorDescType
from tileopt.dialects.traits import type_str
from tileopt.dialects.ttg_attrs import NVMMASharedEncodingAttr
from tileopt.dialects.ttg_types import MemDescType

_TENSORMAP_GROUPS = ("box_dim", "global_dim", "global_stride", "element_stride")


@irdl_op_definition
class TensormapCreateOp(IRDLOperation):
    """``ttng.tensormap_create %desc_ptr, %base, [box], [sizes], [strides], [element
    strides] {elem_type, swizzle_mode, ...} : (...) -> ()``: write a TMA descriptor."""

    name = "ttng.tensormap_create"

    desc_ptr = operand_def(PointerType)
    global_address = operand_def(PointerType)
    box_dim = var_operand_def(i32)
    global_dim = var_operand_def(i32)
    global_stride = var_operand_def(i64)
    element_stride = var_operand_def(i32)
    elem_type = prop_def(IntegerAttr)
    interleave_layout = prop_def(IntegerAttr)
    swizzle_mode = prop_def(IntegerAttr)
    fill_mode = prop_def(IntegerAttr)

    traits = traits_def(ReadsWritesGlobal())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TensormapCreateOp:
        desc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        base = parser.parse_unresolved_operand()
        groups = []
        for _ in _TENSORMAP_GROUPS:
            parser.parse_punctuation(",")
            groups.append(_parse_operand_list_in_brackets(parser))
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        parser.parse_punctuation("(")
        parser.parse_punctuation(")")
        names = [desc, base, *(v for group in groups for v in group)]
        if len(types) != len(names):
            parser.raise_error(f"expected {len(names)} operand types, got {len(types)}")
        values = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
        operands, at = [values[0], values[1]], 2
        for group in groups:
            operands.append(values[at:at + len(group)])
            at += len(group)
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.desc_ptr, self.global_address], printer.print_operand)
        for group in _TENSORMAP_GROUPS:
            printer.print_string(", [")
            printer.print_list(getattr(self, group), printer.print_operand)
            printer.print_string("]")
        print_attr_dict(printer, self)
        printer.print_string(" : (")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        printer.print_string(") -> ()")


@irdl_op_definition
class TensormapFenceproxyAcquireOp(IRDLOperation):
    """``ttng.tensormap_fenceproxy_acquire %desc_ptr : !tt.ptr<i8>``: make a descriptor
    written through the generic proxy visible to the TMA unit."""

    name = "ttng.tensormap_fenceproxy_acquire"

    desc_ptr = operand_def(PointerType)

    traits = traits_def(Synchronizes())
    assembly_format = "$desc_ptr attr-dict `:` type($desc_ptr)"


@irdl_op_definition
class ReinterpretTensorDescOp(IRDLOperation):
    """``ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<...>``"""

    name = "ttng.reinterpret_tensor_descriptor"

    rawDesc = operand_def(PointerType)
    result = result_def(TensorDescType)

    assembly_format = "$rawDesc attr-dict `:` type($rawDesc) `to` type($result)"


@irdl_op_definition
class AsyncTMACopyGlobalToLocalOp(IRDLOperation):
    """``ttng.async_tma_copy_global_to_local %desc[%i, %j] %buf, %bar, %pred : desc, bar
    -> buf``: TMA load of one block into shared memory, completing on mbarrier ``%bar``."""

    name = "ttng.async_tma_copy_global_to_local"

    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    offsets = var_operand_def()
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(i1)
    multicast = opt_prop_def()
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    isVolatile = opt_prop_def(IntegerAttr)

    traits = traits_def(effects((READ, GLOBAL), (WRITE, SHARED))())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTMACopyGlobalToLocalOp:
        desc, coord = _parse_desc_and_indices(parser)
        if parser.parse_optional_keyword("offsets") is not None:
            parser.raise_error("ttng.async_tma_copy_global_to_local: im2col offsets are not "
                               "supported")
        result = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        barrier = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        cache_props = parse_cache_keywords(parser)
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        desc_type = parser.parse_type()
        parser.parse_punctuation(",")
        barrier_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(operands=[parser.resolve_operand(desc, desc_type),
                                   [parser.resolve_operand(c, i32) for c in coord], [],
                                   parser.resolve_operand(barrier, barrier_type),
                                   parser.resolve_operand(result, result_type),
                                   parser.resolve_operand(pred, i1)],
                         properties={**cache_props, **props}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_desc_and_indices(printer, self.desc, self.coord)
        printer.print_string(" ")
        printer.print_list([self.result, self.barrier, self.pred], printer.print_operand)
        print_cache_keywords(printer, self)
        # isVolatile is a DefaultValuedAttr: MLIR leaves ``false`` out of the text.
        print_attr_dict(printer, self, elide=("cache", "evict"),
                        defaults={"isVolatile": IntegerAttr(0, i1)})
        print_types(printer, [self.desc.type, self.barrier.type])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if len(self.coord) != len(self.desc.type.block_type.get_shape()):
            raise VerifyException(f"{self.name}: expected one coordinate per dimension of "
                                  "the descriptor's block")
        if not isinstance(self.result.type.encoding, NVMMASharedEncodingAttr):
            raise VerifyException(
                f"{self.name}: TMA result must have NVMMA shared layout (the layout TMA "
                f"writes), got {type_str(self.result.type.encoding)}"
            )


@irdl_op_definition
class AsyncTMACopyLocalToGlobalOp(IRDLOperation):
    """``ttng.async_tma_copy_local_to_global %desc[%i, %j] %src : desc, src``: TMA store
    of one block from shared memory."""

    name = "ttng.async_tma_copy_local_to_global"

    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)

    traits = traits_def(effects((READ, GLOBAL), (WRITE, GLOBAL), (READ, SHARED))())

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTMACopyLocalToGlobalOp:
        desc, coord = _parse_desc_and_indices(parser)
        src = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        desc_type = parser.parse_type()
        parser.parse_punctuation(",")
        src_type = parser.parse_type()
        return cls.build(operands=[parser.resolve_operand(desc, desc_type),
                                   [parser.resolve_operand(c, i32) for c in coord],
                                   parser.resolve_operand(src, src_type)],
                         properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_desc_store(printer, self, self.coord, " ")


@irdl_op_definition
class AsyncTMAStoreWaitOp(IRDLOperation):
    """``ttng.async_tma_store_wait {pendings = 0 : i32}``: wait until at most ``pendings``
    TMA stores still read their shared memory."""

    name = "ttng.async_tma_store_wait"

    pendings = prop_def(IntegerAttr)

    traits = traits_def(Synchronizes())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


TMA_OPS = [
    TensormapCreateOp,
    TensormapFenceproxyAcquireOp,
    ReinterpretTensorDescOp,
    AsyncTMACopyGlobalToLocalOp,
    AsyncTMACopyLocalToGlobalOp,
    AsyncTMAStoreWaitOp,
]

__all__ = ["TMA_OPS", *[op.__name__ for op in TMA_OPS]]
