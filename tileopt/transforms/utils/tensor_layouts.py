"""Layouts of TritonGPU tensor values, seen through linear layouts.

The layout passes keep asking the same questions about a ``tensor<...xT, #layout>``: what
is its encoding, what is the same tensor in another encoding, and what would a
``ttg.convert_layout`` between two encodings cost. The last question is answered the way
Triton 3.6 does (``minimalCvtLayout`` in ``lib/Analysis/Utility.cpp``), with linear
layouts instead of one rule per pair of layout kinds:

- the conversion map ``dst^-1 . src`` sends each (register, lane, warp, block) of the
  destination to where the element lives in the source;
- block, warp and lane are divided out of it, slowest first, as long as the map is the
  identity on them;
- what is left says where data moves: nothing at all (two spellings of one layout), only
  registers inside each thread (free), or across lanes/warps (shuffles or shared memory).

The module attributes that size a kernel (``ttg.num-warps``, ``ttg.threads-per-warp``,
``ttg.num-ctas``) are read by ``tileopt.dialects.ttg`` (``num_warps`` and friends).
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.analysis.layout_conversion import ConversionPath, conversion_path
from tileopt.dialects.layout_of import encoding_of, linear_layout_of
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, LinearEncodingAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.encodings import get_elems_per_thread, get_order, get_thread_order
from tileopt.layouts.linear_layout import LayoutError, LinearLayout
from tileopt.transforms.utils.blocked_layouts import split_blocked

# Input dimensions of a distributed linear layout, fastest to slowest.
HARDWARE_DIMS = ("register", "lane", "warp", "block")


def tensor_type(value_or_type: SSAValue | Attribute) -> TensorType | None:
    ty = value_or_type.type if isinstance(value_or_type, SSAValue) else value_or_type
    return ty if isinstance(ty, TensorType) else None


def encoding(value_or_type: SSAValue | Attribute) -> Attribute | None:
    """The layout of a ranked tensor value or type (None for scalars and plain tensors)."""
    ty = tensor_type(value_or_type)
    if ty is None or isinstance(ty.encoding, NoneAttr):
        return None
    return ty.encoding


def with_encoding(ty: TensorType, layout: Attribute) -> TensorType:
    """``ty`` with its layout replaced (Triton's ``cloneWithEncoding``)."""
    return TensorType(ty.element_type, ty.get_shape(), layout)


def with_shape(ty: TensorType, shape, layout: Attribute | None = None) -> TensorType:
    return TensorType(ty.element_type, shape, ty.encoding if layout is None else layout)


def retype(value: SSAValue, ty: Attribute) -> None:
    """Give ``value`` a new type in place, keeping its identity and uses (MLIR's
    ``Value::setType``). xDSL only offers replacement by a new value, which would orphan
    the per-value tables the layout passes keep while they rewrite."""
    value._type = ty  # noqa: SLF001 - see docstring


def elems_per_thread(ty: TensorType) -> list[int]:
    """Registers each thread holds, attributed to each dim (Triton's ``getElemsPerThread``)."""
    return get_elems_per_thread(encoding_of(ty), ty.get_shape())


@lru_cache(maxsize=None)
def _minimal_conversion(src_ty: TensorType, dst_layout: Attribute) -> LinearLayout:
    src = linear_layout_of(src_ty)
    dst = linear_layout_of(with_encoding(src_ty, dst_layout))
    conversion = dst.invert_and_compose(src)
    for dim in reversed(HARDWARE_DIMS):
        if not conversion.has_in_dim(dim):
            continue
        reduced = conversion.quotient([dim])
        if reduced is None:
            break
        conversion = reduced
    return conversion


def minimal_conversion(src: TensorType, dst: TensorType) -> LinearLayout | None:
    """The part of a src -> dst conversion that moves data (Triton's ``minimalCvtLayout``).

    None when the layouts cannot be related (a layout with no linear form, or shapes that
    are not powers of two): such a conversion is treated as moving data.
    """
    try:
        return _minimal_conversion(src, dst.encoding)
    except LayoutError:
        return None


def conversion_is_trivial(src: TensorType, dst: TensorType) -> bool:
    """src and dst are two spellings of one layout: converting moves nothing."""
    if src == dst:
        return True
    conversion = minimal_conversion(src, dst)
    return conversion is not None and not conversion.out_dims


def conversion_reorders_registers(src: TensorType, dst: TensorType) -> bool:
    """Converting only permutes registers inside each thread (Triton's ``cvtReordersRegisters``)."""
    if src == dst:
        return True
    conversion = minimal_conversion(src, dst)
    return conversion is not None and list(conversion.out_dims) in ([], ["register"])


def conversion_needs_shared_memory(src: TensorType, dst: TensorType) -> bool:
    """Converting goes through shared memory (Triton's ``cvtNeedsSharedMemory``): data
    moves between warps (or CTAs), or inside warps by a permutation that shuffles cannot do
    in one round (two or more mixed register/lane transpositions). Decided by
    ``tileopt.analysis.layout_conversion``, which the allocation and the lowering ask too.
    """
    if conversion_reorders_registers(src, dst):
        return False
    try:
        src_enc, dst_enc = encoding_of(src), encoding_of(dst)
    except LayoutError:
        return True
    path = conversion_path(src_enc, dst_enc, list(src.get_shape()))
    return path is ConversionPath.SHARED_MEMORY


def split_result_encoding(src: TensorType) -> Attribute | None:
    """The layout ``tt.split`` gives its results from ``src`` (Triton's
    ``inferSplitOpEncoding``), None where it has none. A blocked source gives a blocked
    result; any other source a ``#ttg.linear`` one: the register basis that moves along the
    split (last) dimension is dropped, and the last coordinate of every other basis, which
    must be zero (each thread holds both halves)."""
    layout_attr = encoding(src)
    if isinstance(layout_attr, BlockedEncodingAttr):
        return split_blocked(layout_attr)
    try:
        layout = linear_layout_of(src)
    except LayoutError:
        return None
    rank = len(src.get_shape())
    pair = tuple(int(d == rank - 1) for d in range(rank))
    registers = list(layout.get_bases("register")) if layout.has_in_dim("register") else []
    if pair not in registers:
        return None
    registers.remove(pair)
    bases = {"register": registers}
    for dim in HARDWARE_DIMS[1:]:
        bases[dim] = list(layout.get_bases(dim)) if layout.has_in_dim(dim) else []
    if any(b[-1] for dim_bases in bases.values() for b in dim_bases):
        return None
    return LinearEncodingAttr.get(*([b[:-1] for b in bases[dim]] for dim in HARDWARE_DIMS))


def order_for_memory(ty: TensorType | MemDescType) -> list[int]:
    """Dim order of a shared buffer holding a register tensor (Triton's
    ``getOrderForMemory``): the element order, unless each thread holds a single element
    along the lanes' fastest dim, in which case the lanes' order is the better guide. A
    buffer's own order for a memdesc."""
    layout, shape = encoding_of(ty.encoding), list(ty.get_shape())
    order = get_order(layout, shape)
    if isinstance(ty, MemDescType):
        return order
    thread_order = get_thread_order(layout, shape)
    if order == thread_order:
        return order
    if get_elems_per_thread(layout, shape)[thread_order[0]] == 1:
        return thread_order
    return order


def module_of(op: Operation) -> ModuleOp | None:
    while op is not None and not isinstance(op, ModuleOp):
        op = op.parent_op()
    return op
