"""``optimize-amd-lds-usage``: split the layout conversions that push a kernel past its LDS.

Triton 3.6 runs it first in the AMD ``llir`` stage (``OptimizeAMDLDSUsage`` in
``TritonAMDGPUToLLVM``). When the module's shared memory, as the allocator will lay it out
(:class:`~tileopt.analysis.allocation.ModuleAllocation` with the scratch tileopt's lowering
gives each op, ``shared_memory.scratch_bytes``, under the AMD rules), exceeds the LDS of a
workgroup (``lds-limit``, else the architecture's: ``AmdIsa.lds_bytes``):

- every ``ttg.convert_layout`` of a kernel whose scratch is live while the kernel holds more
  than the limit is a candidate; its target is its scratch less the excess at that point
  (optimistic: it assumes whatever lies above it can move down);
- a candidate becomes two conversions, ``src -> tmp -> dst``, through the temporary layout
  whose larger scratch of the two is the smallest, provided that fits the target. The
  temporaries are the source layout, the destination layout and a plain blocked layout
  (one element per thread), each with every split of the warps over the tensor's
  dimensions; the two scratch buffers are never live together.

Otherwise the IR stays as it is (the allocator then reports the overflow as Triton does).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from tileopt.analysis.allocation import AllocationError, ModuleAllocation
from tileopt.conversion.amd.allocate_shared_memory import AMD_SHARED_MEMORY
from tileopt.conversion.amd.isa import AmdIsa
from tileopt.conversion.shared_memory import scratch_bytes
from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg import ConvertLayoutOp, num_warps, threads_per_warp
from tileopt.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    SliceEncodingAttr,
    int_array,
)
from tileopt.ir import TileoptError
from tileopt.ir.walks import ops_in_walk_order
from tileopt.layouts.encodings import get_order
from tileopt.layouts.linear_layout import LayoutError
from tileopt.passes import Pass, PassFailure, option, register_pass

# The lowering's patterns register their scratch rules (shared_memory.SCRATCH_RULES).
import tileopt.conversion.triton_gpu_to_llvm.module_lowering  # noqa: E402,F401  isort: skip


def warp_splits(num_warps: int, rank: int) -> Iterator[tuple[int, ...]]:
    """Every ``warpsPerCTA`` of ``rank`` powers of two whose product is ``num_warps`` (a
    power of two), the first dimension varying slowest."""
    if num_warps & (num_warps - 1) or num_warps < 1:
        raise ValueError(f"{num_warps} warps is not a power of two")
    if rank == 1:
        yield (num_warps,)
        return
    first = 1
    while first <= num_warps:
        for rest in warp_splits(num_warps // first, rank - 1):
            yield (first, *rest)
        first *= 2


def with_warps(layout: Attribute, warps: Sequence[int]) -> Attribute | None:
    """``layout`` with its warps spread as ``warps`` (None: no such layout is tried).
    A slice keeps its parent's warps, which cannot be derived from the sliced shape."""
    if isinstance(layout, (BlockedEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)):
        return _replace(layout, "warpsPerCTA", int_array(warps))
    if isinstance(layout, DotOperandEncodingAttr):
        parent = with_warps(layout.parent, warps)
        return None if parent is None else _replace(layout, "parent", parent)
    if isinstance(layout, SliceEncodingAttr):
        return layout
    return None


def _replace(layout: Attribute, field: str, value: Attribute) -> Attribute:
    return type(layout)(*(value if f.name == field else getattr(layout, f.name)
                          for f in layout.FIELDS))


def fallback_layout(ty: TensorType, wave: int) -> BlockedEncodingAttr:
    """One element per thread, the wave as 8 rows of ``wave / 8`` lanes over the two
    fastest-numbered dimensions (all of it along a 1-D tensor), in the source's order."""
    shape = tuple(ty.get_shape())
    rank = len(shape)
    lanes = [1] * rank
    if rank == 1:
        lanes[0] = wave
    else:
        lanes[-1], lanes[-2] = wave // 8, 8
    source = ty.encoding
    cta = {name: getattr(source, name) for name in ("CTAsPerCGA", "CTASplitNum", "CTAOrder")
           if hasattr(source, name)}
    return BlockedEncodingAttr.get(sizePerThread=[1] * rank, threadsPerWarp=lanes,
                                   warpsPerCTA=[1] * rank,
                                   order=get_order(encoding_of(ty), shape), **cta)


@register_pass
class OptimizeAMDLDSUsage(Pass):
    """Split the layout conversions at a kernel's LDS peak so that the kernel fits."""

    name = "optimize-amd-lds-usage"

    target_arch: str = option("", "gfx target architecture, e.g. gfx942", name="target-arch")
    lds_limit: int = option(0, "LDS bytes a workgroup may use (0: the architecture's)",
                            name="lds-limit")

    def apply(self, ctx: Context, root: Operation) -> None:
        if not isinstance(root, ModuleOp):
            raise PassFailure(root, f"{self.name} runs on a builtin.module")
        limit = self._limit(root)
        allocation = _allocation(root)
        if allocation.shared_memory_size <= limit:
            return
        for func in allocation.roots:
            for op, target in _bottlenecks(allocation, func, limit):
                _split(op, target, limit)

    def _limit(self, module: ModuleOp) -> int:
        if self.lds_limit:
            return self.lds_limit
        if not self.target_arch:
            raise PassFailure(module, f"missing gfx* target for pass {self.name} "
                                      "(give target-arch or lds-limit)")
        try:
            return AmdIsa.of(self.target_arch).lds_bytes
        except TileoptError as err:
            raise PassFailure(module, err.message) from None


def _scratch(op: Operation) -> int:
    return scratch_bytes(op, AMD_SHARED_MEMORY)


def _allocation(module: ModuleOp) -> ModuleAllocation:
    try:
        return ModuleAllocation(module, AMD_SHARED_MEMORY, scratch_size=_scratch)
    except AllocationError as err:
        raise PassFailure(err.op, err.message) from err


def _bottlenecks(allocation: ModuleAllocation, func: Operation,
                 limit: int) -> list[tuple[Operation, int]]:
    """The conversions of ``func`` live where it holds more than ``limit`` bytes, each with
    the scratch it would have to shrink to (the excess taken out of it)."""
    found = []
    analysis = allocation.function(func)
    for op in ops_in_walk_order(func):
        buffer = analysis.op_scratch.get(op) if op.name == "ttg.convert_layout" else None
        if buffer is None:
            continue
        peak = max(b.offset + b.size for b in analysis.live_buffers(op))
        target = max(0, buffer.size - (peak - limit))
        if buffer.size > target:
            found.append((op, target))
    return found


def _candidates(op: ConvertLayoutOp) -> list[Attribute]:
    src, dst = op.src.type, op.result.type
    rank = len(src.get_shape())
    fallback = fallback_layout(src, threads_per_warp(op))
    layouts = []
    for warps in warp_splits(num_warps(op), rank):
        for base in (src.encoding, dst.encoding, fallback):
            if (layout := with_warps(base, warps)) is not None:
                layouts.append(layout)
    return layouts


def _insert_pair(op: ConvertLayoutOp, tmp: Attribute) -> tuple[ConvertLayoutOp, ConvertLayoutOp]:
    src = op.src.type
    first = ConvertLayoutOp(op.src, TensorType(src.element_type, src.get_shape(), tmp))
    second = ConvertLayoutOp(first.result, op.result.type)
    for new in (first, second):
        new.location = op.location
        op.parent_block().insert_op_before(new, op)
    return first, second


def _pair_bytes(op: ConvertLayoutOp, tmp: Attribute) -> int | None:
    """The larger scratch of ``src -> tmp`` and ``tmp -> dst`` (None: not a layout the
    lowering can convert through). The two are put in place to be measured as the
    allocator will measure them, then taken out."""
    first, second = _insert_pair(op, tmp)
    try:
        return max(_scratch(first), _scratch(second))
    except (AllocationError, LayoutError):
        return None
    finally:
        for probe in (second, first):
            probe.parent_block().erase_op(probe)


def _split(op: ConvertLayoutOp, target: int, limit: int) -> None:
    best, best_bytes = None, 2 * limit  # as Triton: nothing that needs twice the LDS
    for tmp in _candidates(op):
        size = _pair_bytes(op, tmp)
        if size is not None and size < best_bytes:
            best, best_bytes = tmp, size
    if best is None or best_bytes > target:
        return
    _, second = _insert_pair(op, best)
    op.result.replace_all_uses_with(second.result)
    op.parent_block().erase_op(op)
