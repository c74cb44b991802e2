"""Types of the TritonGPU -> LLVM lowering: what each TritonGPU value becomes per thread.

A scalar becomes one LLVM value. A distributed tensor (``tensor<...xT, #layout>``) becomes
the list of the elements one thread holds, in the order of the ``register`` index of its
linear layout, each of LLVM type ``T``. Triton packs that list into an ``!llvm.struct``;
here it stays a Python list of SSA values for the whole conversion (no insertvalue/
extractvalue pairs to create, print and parse again), and only control flow spells it out,
as one block argument per element. A function's parameters and results are Triton's
structs (:func:`parameter_type`): a launcher or a lit test written for Triton's signature
fits.

Element types map as Triton's ``TritonGPUToLLVMTypeConverter`` maps them: integers and
floats stay, ``index`` is i32, 8-bit float formats are i8, ``!tt.ptr<T, as>`` is
``!llvm.ptr<as>``.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    NoneAttr,
    TensorType,
    i8,
    i32,
)
from xdsl.ir import Attribute

from tileopt.conversion.llvm_builder import int_type, ptr_type
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.tt_types import PointerType, element_type
from tileopt.dialects.tt_types import bit_width as scalar_bit_width
from tileopt.dialects.ttg_types import AsyncTokenType, MemDescType
from tileopt.layouts.linear_layout import LinearLayout

_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)


class UnsupportedType(Exception):
    """A type the lowering has no LLVM form for (the pass turns it into a diagnostic)."""


def convert_scalar_type(ty: Attribute) -> Attribute:
    """The LLVM type of one element of type ``ty``."""
    if isinstance(ty, IntegerType) or isinstance(ty, _FLOATS):
        if isinstance(ty, IntegerType) and ty.signedness.data.value != "signless":
            return int_type(ty.width.data)
        return ty
    if isinstance(ty, IndexType):
        return i32
    if isinstance(ty, PointerType):
        if ty.is_block_pointer:
            raise UnsupportedType(f"block pointer {ty} (rewrite-tensor-pointer removes them)")
        return ptr_type(ty.address_space.data)
    if isinstance(ty, llvm.LLVMPointerType) or isinstance(ty, llvm.LLVMStructType):
        return ty
    name = getattr(ty, "name", "")
    if name.startswith("f8") or type(ty).__name__.startswith("Float8"):
        return i8
    raise UnsupportedType(f"type {ty}")


def bit_width(ty: Attribute) -> int:
    """Bits of one element in memory (pointers: 64)."""
    ty = convert_scalar_type(element_type(ty))
    return 64 if isinstance(ty, llvm.LLVMPointerType) else scalar_bit_width(ty)


def boundary_types(ty: Attribute, shared_address_space: int) -> list[Attribute] | None:
    """The LLVM values a memdesc or async token is spelled with (None: other types).

    A memdesc is its frame's base address and one i32 offset per dim; a token an i32
    (see ``triton_gpu_to_llvm/shared_view.py``)."""
    if isinstance(ty, MemDescType):
        return [ptr_type(shared_address_space), *[i32] * len(ty.get_shape())]
    if isinstance(ty, AsyncTokenType):
        return [i32]
    return None


def is_packed_parameter(ty: Attribute) -> bool:
    """Whether a function parameter of type ``ty`` is one LLVM struct of the values the
    thread holds (a tensor, even of one register per thread, or a memdesc's handle), as
    Triton's type converter gives it; a scalar or an async token is one plain value."""
    return isinstance(ty, (TensorType, MemDescType))


def parameter_type(ty: Attribute, flat: list[Attribute]) -> Attribute:
    """The LLVM type of a function parameter (or result) of type ``ty``, whose values are
    ``flat`` (the lowering's ``ModuleState.flat_types``): see :func:`is_packed_parameter`."""
    if is_packed_parameter(ty):
        return llvm.LLVMStructType.from_type_list(flat)
    [single] = flat
    return single


def is_float(ty: Attribute) -> bool:
    return isinstance(element_type(ty), _FLOATS)


def is_tensor(ty: Attribute) -> bool:
    return isinstance(ty, TensorType)


class TensorLayouts:
    """The lowering's view of tensor layouts: ``linear_layout_of`` (which caches), with the
    lowering's own error for a tensor that has no layout yet."""

    def __init__(self) -> None:
        # id(type) -> (type, layout): ``linear_layout_of``'s cache hashes the whole type
        # on every call; the lowering asks for the same type objects over and over.
        self._by_id: dict[int, tuple[Attribute, LinearLayout]] = {}

    def of(self, ty: TensorType) -> LinearLayout:
        known = self._by_id.get(id(ty))
        if known is not None and known[0] is ty:
            return known[1]
        if isinstance(ty.encoding, NoneAttr):
            raise UnsupportedType(f"tensor {ty} has no layout (run the TritonGPU passes first)")
        layout = linear_layout_of(ty)
        self._by_id[id(ty)] = (ty, layout)
        return layout

    def num_registers(self, ty: Attribute) -> int:
        """How many values one thread holds: 1 for a scalar (a memdesc: its base and
        offsets, see ``boundary_types``)."""
        if isinstance(ty, MemDescType):
            return 1 + len(ty.get_shape())
        if not isinstance(ty, TensorType):
            return 1
        return self.of(ty).in_dim_size("register")
