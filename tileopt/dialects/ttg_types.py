"""TritonGPU types: ``!ttg.memdesc`` (a view of a shared-memory buffer) and ``!ttg.async.token``.

``!ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>`` is printed as Triton's
``MemDescType::print`` does: shape and element type, encoding, memory space, ``mutable`` when
the buffer may be written, and the allocation shape only when it differs from the shape
(``!ttg.memdesc<64x32xf16, #shared, #smem, mutable, 2x64x32>`` for a view into a bigger
buffer). Inside some ops Triton prints the same type without its ``!ttg.memdesc`` prefix
(``-> <64x32xf16, #shared, #smem, mutable>``); ``parse_memdesc_body``/``print_memdesc_body``
serve those.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, ContainerType, IntAttr, ShapedType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.ttg_attrs import (
    PaddedSharedEncodingAttr,
    int_array,
    ints_of,
    is_shared_layout,
)


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute, ShapedType, ContainerType[Attribute]):
    """``!ttg.memdesc<shape x elementType, encoding, memorySpace[, mutable][, allocShape]>``."""

    name = "ttg.memdesc"

    shape: ArrayAttr[IntAttr]
    elementType: Attribute
    encoding: Attribute
    memorySpace: Attribute
    mutableMemory: IntAttr
    allocShape: ArrayAttr[IntAttr]

    @classmethod
    def get(
        cls,
        shape: Sequence[int],
        elementType: Attribute,
        encoding: Attribute,
        memorySpace: Attribute,
        mutableMemory: bool = False,
        allocShape: Sequence[int] | None = None,
    ) -> MemDescType:
        return cls(
            int_array(shape),
            elementType,
            encoding,
            memorySpace,
            IntAttr(int(mutableMemory)),
            int_array(allocShape if allocShape is not None else shape),
        )

    # ShapedType / ContainerType
    def get_num_dims(self) -> int:
        return len(self.shape.data)

    def get_shape(self) -> tuple[int, ...]:
        return ints_of(self.shape)

    def get_element_type(self) -> Attribute:
        return self.elementType

    @property
    def is_mutable(self) -> bool:
        return bool(self.mutableMemory.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return parse_memdesc_body(parser)

    def print_parameters(self, printer: Printer) -> None:
        print_memdesc_body(printer, self)

    def verify(self) -> None:
        shape, alloc = ints_of(self.shape), ints_of(self.allocShape)
        # Every dimension but the first (kept free for pipelining buffers) is a power of 2.
        if not isinstance(self.encoding, PaddedSharedEncodingAttr) and not all(
            _is_power_of_two(d) for d in shape[1:]
        ):
            raise VerifyException(
                f"!ttg.memdesc shape must have power-of-2 dimensions; got {list(shape)}"
            )
        if len(alloc) < len(shape):
            raise VerifyException(
                "!ttg.memdesc alloc shape must have at least as many dimensions as shape"
            )
        if any(s > a for s, a in zip(shape, alloc[len(alloc) - len(shape) :])):
            raise VerifyException(
                "!ttg.memdesc shape must be less than or equal to allocShape. "
                f"shape = {list(shape)}, allocShape = {list(alloc)}"
            )
        if not is_shared_layout(self.encoding) and not _is_tmem_encoding(self.encoding):
            raise VerifyException(
                f"!ttg.memdesc encoding must be a shared-memory layout, got {self.encoding}"
            )


def _is_tmem_encoding(attr: Attribute) -> bool:
    # Blackwell tensor-memory encodings live in ttng; accept them by name until modelled.
    return getattr(attr, "name", "").startswith("ttng.")


def parse_memdesc_body(parser: AttrParser, opened: bool = False) -> list[Attribute]:
    """Parse ``<3x128x64xf16, #shared, #smem, mutable[, allocShape]>`` into parameters.

    ``opened``: the caller has already consumed the ``<``.
    """
    start = parser.pos
    if not opened:
        parser.parse_punctuation("<")
    dims, element_type = parser.parse_ranked_shape()
    parser.parse_punctuation(",")
    encoding = parser.parse_attribute()
    parser.parse_punctuation(",")
    memory_space = parser.parse_attribute()
    mutable = 0
    alloc = list(dims)
    if parser.parse_optional_punctuation(","):
        if parser.parse_optional_keyword("mutable"):
            mutable = 1
            if parser.parse_optional_punctuation(","):
                alloc = parser.parse_dimension_list()
        else:
            alloc = parser.parse_dimension_list()
        if not alloc:
            parser.raise_error("expected 'mutable' or an allocation shape in !ttg.memdesc")
    parser.parse_punctuation(">")
    params = [
        int_array(dims),
        element_type,
        encoding,
        memory_space,
        IntAttr(mutable),
        int_array(alloc),
    ]
    try:
        MemDescType.new(params)
    except VerifyException as err:
        parser.raise_error(str(err), start, parser.pos)
    return params


def print_memdesc_body(printer: Printer, memdesc: MemDescType) -> None:
    shape, alloc = ints_of(memdesc.shape), ints_of(memdesc.allocShape)
    printer.print_string("<")
    for dim in shape:
        printer.print_string(f"{dim}x")
    printer.print_attribute(memdesc.elementType)
    printer.print_string(", ")
    printer.print_attribute(memdesc.encoding)
    printer.print_string(", ")
    printer.print_attribute(memdesc.memorySpace)
    if memdesc.mutableMemory.data:
        printer.print_string(", mutable")
    if alloc != shape:
        printer.print_string(", " + "x".join(str(d) for d in alloc))
    printer.print_string(">")


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """``!ttg.async.token``: links async copies to the commit groups and waits that use them."""

    name = "ttg.async.token"


TTG_TYPES = [MemDescType, AsyncTokenType]
