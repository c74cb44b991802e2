"""Shared-memory allocation: which ops need shared memory, for how long, and at what offset.

This is Triton 3.6's ``Allocation`` analysis (``lib/Analysis/Allocation.cpp``) with the
scratch-size rules of its NVIDIA and AMD back ends:

Buffers
  - *explicit*: each ``ttg.local_alloc`` in shared memory, its allocation size
    (``allocShape`` elements, plus the padding of a ``#ttg.padded_shared``), aligned to its
    ``alignment`` attribute or 16 bytes (1024 for ``#ttg.nvmma_shared``);
  - *scratch*, 128-byte aligned, owned by one op, live only while that op runs:
    ``ttg.convert_layout`` that goes through shared memory (decided with linear layouts,
    :mod:`~tileopt.analysis.layout_conversion`; sized as one round of the swizzled layout,
    :mod:`~tileopt.analysis.shared_swizzling`), ``tt.reduce`` and ``tt.scan`` across warps,
    atomics whose result every thread of a broadcast layout must see, ``tt.histogram``,
    ``tt.gather`` across warps and ``ttng.tensormap_create``;
  - *virtual*: a ``tt.call`` holds the callee's whole frame while it runs.

Liveness
  Ops are numbered in post order (a region op after everything inside it). A scratch
  buffer lives ``[id(op), id(op) + 1)``; an explicit buffer from its ``local_alloc`` to the
  last op where it, or any memdesc view or block argument aliasing it, is live (MLIR's
  ``Liveness``, over the CFG that ``convert-scf-to-cf`` leaves).

Offsets
  Buffers sorted by size (largest first) are packed by the interval algorithm Triton
  borrows from "Algorithms for Compile-Time Memory Optimization": each free slot is
  filled with a buffer whose lifetime meets the slot's, then first-fit colouring of the
  interference graph bumps buffers whose lifetimes and address ranges still overlap,
  until none do. The function's size is the highest end offset; the module's is the
  largest over its kernels (functions nobody calls).

The pass ``allocate-shared-memory-nv`` (and ``allocate-shared-memory`` /
``allocate-amdgpu-shared-memory``) writes the result as Triton does: ``allocation.offset``
on every op that owns a buffer and ``ttg.shared`` on the module. The lowering reads the
offsets back and calls :mod:`~tileopt.analysis.membar` with a :class:`ModuleAllocation`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import prod

from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileopt.analysis.layout_conversion import ConversionPath, conversion_path
from tileopt.analysis.shared_swizzling import scratch_elements, shared_access_tiles
from tileopt.analysis.structured_dominance import ancestor_in_block, is_before_in_block
from tileopt.dialects.layout_of import encoding_of, linear_layout_of
from tileopt.dialects.tt_types import PointerType
from tileopt.dialects.ttg import target_name, threads_per_warp
from tileopt.dialects.ttg_types import MemDescType
from tileopt.ir.walks import ops_and_blocks_in_walk_order, ops_in_walk_order
from tileopt.layouts.encodings import (
    Blocked,
    Encoding,
    get_contig_per_thread,
    get_shape_per_cta,
    get_threads_per_warp,
    get_warps_per_cta,
    to_linear_layout,
)
from tileopt.layouts.linear_layout import LayoutError

SCRATCH_ALIGNMENT = 128
"""Bytes every scratch and virtual buffer is aligned to (Triton's ``scratchAlignment``)."""

DEFAULT_LOCAL_ALLOC_ALIGNMENT = 16
NVMMA_SHARED_ALIGNMENT = 1024

POINTER_BITS = 64

# Ops whose memdesc result is a view of their first operand (Triton's MemDescViewTrait).
MEMDESC_VIEW_OPS = frozenset({
    "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret", "ttg.memdesc_subview",
})

FUNCTION_OPS = frozenset({"tt.func", "func.func", "llvm.func"})
CALL_OPS = frozenset({"tt.call", "func.call"})
AMD_PADDED_SCRATCH_ATTRS = ("amdgpu.use_padded_scratch_shmem", "amdgpu.shared_mem_padded")


class AllocationError(Exception):
    """An op the analysis cannot size (its lowering would fail the same way)."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


# ------------------------------------------------------------------ targets


@dataclass(frozen=True)
class SharedMemoryTarget:
    """What a back end adds to the scratch rules.

    ``vendor`` is ``"nvidia"`` (conversions may use ``ldmatrix`` from sm_75 and
    ``stmatrix`` from sm_90, which changes the swizzled layout), ``"amd"`` (plain
    loads/stores, or Triton's padded layout where the conversion asks for it) or
    ``"generic"`` (plain loads and stores: Triton's ``allocate-shared-memory``).
    """

    vendor: str = "generic"
    compute_capability: int = 0

    @classmethod
    def nvidia(cls, compute_capability: int) -> SharedMemoryTarget:
        return cls("nvidia", compute_capability)

    @classmethod
    def from_module(cls, module: Operation) -> SharedMemoryTarget:
        """Read ``ttg.target`` (``cuda:90``, ``hip:gfx942``)."""
        text = target_name(module) or ""
        if text.startswith("cuda:"):
            try:
                return cls.nvidia(int(text.split(":", 1)[1]))
            except ValueError:
                return cls.nvidia(80)
        if text.startswith("hip:"):
            return cls("amd")
        return cls()

    def conversion_tiles(self, bitwidth: int):
        if self.vendor != "nvidia":
            return None
        return shared_access_tiles(bitwidth, ldmatrix=self.compute_capability >= 75,
                                   stmatrix=self.compute_capability >= 90)


# ------------------------------------------------------------------ types


def element_bits(ty: Attribute) -> int:
    """Bits of a scalar type; pointers are 64 (Triton's ``kPtrBitWidth``)."""
    if isinstance(ty, PointerType):
        return POINTER_BITS
    if isinstance(ty, IntegerType):
        return ty.width.data
    if isinstance(ty, IndexType):
        return 64
    width = getattr(ty, "bitwidth", None)
    if isinstance(width, int):
        return width
    raise LayoutError(f"no bit width for type {ty}")


def tensor_bitwidth(ty: TensorType) -> int:
    """Triton's ``getBitwidth``: pointers 64, everything else at least 8 (i1 is a byte)."""
    elem = ty.element_type
    return POINTER_BITS if isinstance(elem, PointerType) else max(element_bits(elem), 8)


def _encoding(ty: TensorType) -> Encoding:
    if isinstance(ty.encoding, NoneAttr):
        raise LayoutError("tensor has no layout")
    return encoding_of(ty)


def _shape(ty: TensorType | MemDescType) -> tuple[int, ...]:
    return tuple(ty.get_shape())


def _pointee(ty: Attribute) -> Attribute:
    if isinstance(ty, TensorType):
        ty = ty.element_type
    if isinstance(ty, PointerType):
        return ty.pointee_type
    return ty


def _attr(op: Operation, name: str) -> Attribute | None:
    """A property or, failing that, an attribute (never ``or``: some attributes are falsy)."""
    attr = op.properties.get(name)
    return attr if attr is not None else op.attributes.get(name)


def _int_property(op: Operation, name: str) -> int:
    attr = _attr(op, name)
    if not isinstance(attr, IntegerAttr):
        raise AllocationError(op, f"'{op.name}' has no integer '{name}'")
    return attr.value.data


# ------------------------------------------------------------------ scratch sizes


def reduce_scratch_bytes(op: Operation) -> int:
    """``tt.reduce``: one partial result per warp along the axis, for every other element
    (Triton's ``ReduceOpHelper::getScratchSizeInBytes``); 0 when one warp holds the axis."""
    axis = _int_property(op, "axis")
    ty = op.operands[0].type
    assert isinstance(ty, TensorType)
    shape = _shape(ty)
    warps = get_warps_per_cta(_encoding(ty), shape)[axis]
    if warps == 1:
        return 0
    smem_shape = list(shape)
    smem_shape[axis] = warps
    bytes_per_elem = sum((element_bits(v.type.element_type) + 7) // 8 for v in op.operands)
    return bytes_per_elem * prod(smem_shape)


def scan_scratch_bytes(op: Operation) -> int:
    """``tt.scan`` across warps: each warp's partial per scan line and block (Triton's
    ``ScanLoweringHelper::getScratchSizeInBytes``); only blocked layouts are lowered."""
    axis = _int_property(op, "axis")
    ty = op.operands[0].type
    assert isinstance(ty, TensorType)
    encoding = _encoding(ty)
    if not isinstance(encoding, Blocked):
        return 0
    shape = _shape(ty)
    warps = get_warps_per_cta(encoding, shape)
    if warps[axis] == 1:
        return 0
    threads = get_threads_per_warp(encoding, shape)
    contig = get_contig_per_thread(encoding, shape)
    non_axis_threads = prod(threads) // threads[axis]
    non_axis_elems = prod(c for d, c in enumerate(contig) if d != axis)

    def blocks(d: int) -> int:
        return -(-shape[d] // (contig[d] * threads[d] * warps[d]))

    non_axis_blocks = prod(blocks(d) for d in range(len(shape)) if d != axis)
    elems = prod(warps) * non_axis_threads * non_axis_elems * blocks(axis) * non_axis_blocks
    return elems * sum((element_bits(v.type.element_type) + 7) // 8 for v in op.operands)


def convert_layout_scratch_bytes(op: Operation, target: SharedMemoryTarget) -> int:
    """``ttg.convert_layout`` through shared memory: one round of the swizzled layout
    (or, on AMD when asked for, Triton's padded layout)."""
    src, dst = op.operands[0].type, op.results[0].type
    if not isinstance(src, TensorType) or not isinstance(dst, TensorType):
        return 0
    padded = target.vendor == "amd" and any(a in op.attributes for a in AMD_PADDED_SCRATCH_ATTRS)
    return _conversion_scratch_bytes(src, dst, target, padded)


@lru_cache(maxsize=1024)
def _conversion_scratch_bytes(src: TensorType, dst: TensorType, target: SharedMemoryTarget,
                              padded: bool) -> int:
    # Remembered per types: the allocator, the lowering's allocation and its checks size
    # every conversion again (a failure is not remembered and fails again alike).
    shape = _shape(src)
    bits = tensor_bitwidth(src)
    src_enc, dst_enc = _encoding(src), _encoding(dst)
    path = conversion_path(src_enc, dst_enc, shape, bits)
    if path is not ConversionPath.SHARED_MEMORY:
        return 0
    if padded:
        return padded_conversion_elements(src_enc, dst_enc, shape) * bits // 8
    elems = scratch_elements(linear_layout_of(src), linear_layout_of(dst),
                             bits, target.conversion_tiles(bits))
    return elems * bits // 8


def padded_conversion_elements(src_enc: Encoding, dst_enc: Encoding,
                               shape: Sequence[int]) -> int:
    """AMD's padded scratch (``getNumScratchElemsPaddedCvt``): the larger of the two
    layouts' tiles, each row padded by one access to avoid bank conflicts."""
    from tileopt.analysis.layout_conversion import scratch_vector_lengths
    from tileopt.layouts.encodings import get_order

    def tile(enc: Encoding) -> list[int]:
        ll = to_linear_layout(enc, shape)
        per_dim = [1] * len(shape)
        for dim_name in ("register", "lane", "warp"):
            if not ll.has_in_dim(dim_name):
                continue
            for basis in ll.get_bases(dim_name):
                for d, v in enumerate(basis):
                    if v:
                        per_dim[d] = max(per_dim[d], 2 * v)
        return per_dim

    src_tile, dst_tile = tile(src_enc), tile(dst_enc)
    rep = [max(min(s, a), min(s, b)) for s, a, b in zip(shape, src_tile, dst_tile)]
    in_vec, out_vec = scratch_vector_lengths(src_enc, dst_enc, shape)
    out_order = get_order(dst_enc, shape)
    padded = list(rep)
    if len(shape) > 1 and prod(rep) != rep[out_order[0]]:
        padded[out_order[0]] += max(min(in_vec, 4), min(out_vec, 4))
    return prod(padded)


def atomic_scratch_bytes(op: Operation) -> int:
    """Atomics return one value that every thread holding a copy must see: a slot per
    element when the result layout broadcasts, one for a scalar result."""
    result = op.results[0]
    if not result.uses:
        return 0
    ty = result.type
    if isinstance(ty, TensorType):
        encoding = _encoding(ty)
        masks = linear_layout_of(ty).get_free_variable_masks()
        if not any(masks.values()):
            return 0
        elems = prod(get_shape_per_cta(encoding, _shape(ty)))
    else:
        elems = 1
    return elems * max(8, element_bits(_pointee(op.operands[0].type))) // 8


def histogram_scratch_bytes(op: Operation) -> int:
    ty = op.results[0].type
    assert isinstance(ty, TensorType)
    return max(prod(_shape(ty)), threads_per_warp(op)) * tensor_bitwidth(ty) // 8


def gather_scratch_bytes(op: Operation) -> int:
    """``tt.gather``: nothing when every column along the axis stays in one warp, else
    the whole source tensor."""
    src, idx = op.operands[0].type, op.operands[1].type
    axis = _int_property(op, "axis")
    if _gather_is_warp_local(src, idx, axis):
        return 0
    return prod(_shape(src)) * ((element_bits(src.element_type) + 7) // 8)


def _gather_is_warp_local(src: TensorType, idx: TensorType, axis: int) -> bool:
    src_ll, idx_ll = linear_layout_of(src), linear_layout_of(idx)
    gather_dim = f"dim{axis}"
    others = [f"dim{d}" for d in range(len(_shape(src))) if d != axis]
    hw = ["block", "warp"]
    if not src_ll.sublayout_is_zero(hw, [gather_dim]) or not idx_ll.sublayout_is_zero(
            hw, [gather_dim]):
        return False
    if src_ll.sublayout(hw, others) != idx_ll.sublayout(hw, others):
        return False
    return src_ll.sublayout(["lane"], others) == idx_ll.sublayout(["lane"], others)


def scratch_bytes(op: Operation, target: SharedMemoryTarget) -> int:
    """Bytes of scratch shared memory ``op`` needs while it runs (0: none)."""
    try:
        name = op.name
        if name == "tt.reduce":
            return reduce_scratch_bytes(op)
        if name == "tt.scan":
            return scan_scratch_bytes(op)
        if name == "ttg.convert_layout":
            return convert_layout_scratch_bytes(op, target)
        if name in ("tt.atomic_rmw", "tt.atomic_cas"):
            return atomic_scratch_bytes(op)
        if name == "tt.histogram":
            return histogram_scratch_bytes(op)
        if name == "tt.gather":
            return gather_scratch_bytes(op)
        if name == "ttng.tensormap_create":
            return 128
        if name == "ttg.warp_specialize":
            raise AllocationError(op, "warp specialization is not supported by the allocator")
    except LayoutError as err:
        raise AllocationError(op, f"cannot size the shared memory of '{op.name}': {err}") from err
    return 0


# ------------------------------------------------------------------ explicit buffers


def is_shared_memory_alloc(op: Operation) -> bool:
    if op.name != "ttg.local_alloc" or not op.results:
        return False
    ty = op.results[0].type
    return isinstance(ty, MemDescType) and ty.memorySpace.name == "ttg.shared_memory"


def local_alloc_bytes(op: Operation) -> int:
    ty = op.results[0].type
    assert isinstance(ty, MemDescType)
    elems = prod(ty.allocShape.data[i].data for i in range(len(ty.allocShape.data)))
    enc = ty.encoding
    if enc.name == "ttg.padded_shared":
        elems = padded_shared_elements(enc.as_dict()["intervals"], enc.as_dict()["paddings"],
                                       elems)
    return elems * element_bits(ty.get_element_type()) // 8


def padded_shared_elements(intervals: Sequence[int], paddings: Sequence[int], elems: int) -> int:
    """Elements of a ``#ttg.padded_shared`` buffer: ``padding`` after every ``interval``,
    none after the last element."""
    extra = 0
    for interval, padding in zip(intervals, paddings):
        extra += (elems // interval) * padding
        if elems % interval == 0:
            extra -= padding
    return elems + extra


def local_alloc_alignment(op: Operation) -> int:
    attr = _attr(op, "alignment")
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    ty = op.results[0].type
    if isinstance(ty, MemDescType) and ty.encoding.name == "ttg.nvmma_shared":
        return NVMMA_SHARED_ALIGNMENT
    return DEFAULT_LOCAL_ALLOC_ALIGNMENT


# ------------------------------------------------------------------ buffers


@dataclass(eq=False)
class Buffer:
    """One allocation: ``kind`` explicit/scratch/virtual, ``owner`` the op that owns it."""

    kind: str
    id: int
    owner: Operation
    size: int
    alignment: int = 4
    offset: int = 0

    def set_offset_aligned(self, offset: int) -> int:
        self.offset = -(-offset // self.alignment) * self.alignment
        return self.offset

    @property
    def interval(self) -> tuple[int, int]:
        return self.offset, self.offset + self.size


def intervals_intersect(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


UNBOUNDED = (0, 1 << 63)


# ------------------------------------------------------------------ liveness


def _ancestor_block_in_region(region, block: Block) -> Block | None:
    current: Block | None = block
    while current is not None:
        if current.parent_region() is region:
            return current
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    return None


class Liveness:
    """MLIR's ``Liveness`` for ``values`` (used in one op's regions): per block, which of
    them are live in and out (values used by nested ops count as used by their ancestor).
    Liveness is computed value by value, so leaving the others out changes nothing for
    these."""

    def __init__(self, root: Operation, values: Iterable[SSAValue]):
        self.blocks = ops_and_blocks_in_walk_order(root)[1]  # (the fixed point: any order)
        self.live_in: dict[Block, set[SSAValue]] = {}
        self.live_out: dict[Block, set[SSAValue]] = {}
        in_root = set(self.blocks)
        defs: dict[Block, set[SSAValue]] = {block: set() for block in self.blocks}
        uses: dict[Block, set[SSAValue]] = {block: set() for block in self.blocks}
        preds: dict[Block, list[Block]] = defaultdict(list)

        def enclosing_blocks(op: Operation):
            """The blocks of ``root`` that hold ``op`` or an op it is nested in."""
            block = op.parent_block()
            while block is not None:
                if block in in_root:
                    yield block
                parent = block.parent_op()
                if parent is None or parent is root:
                    return
                block = parent.parent_block()

        tracked = list(dict.fromkeys(values))
        for value in tracked:
            if not isinstance(value.owner, Operation):
                if value.owner in in_root:   # a block argument: defined in its block only
                    defs[value.owner].add(value)
            else:
                for block in enclosing_blocks(value.owner):
                    defs[block].add(value)
            for use in value.uses:
                for block in enclosing_blocks(use.operation):
                    uses[block].add(value)
        for block in self.blocks:
            region = block.parent_region()
            out: set[SSAValue] = set()
            for value in tracked:
                owner = value.owner
                if (owner if not isinstance(owner, Operation) else owner.parent_block()) \
                        is not block:
                    continue
                for use in value.uses:
                    owner_block = _ancestor_block_in_region(region, use.operation.parent_block())
                    if owner_block is not block:
                        out.add(value)
                        break
            uses[block] -= defs[block]
            self.live_out[block] = out
            self.live_in[block] = set()
            terminator = block.last_op
            if terminator is not None:
                for succ in terminator.successors:
                    preds[succ].append(block)
        work = list(self.blocks)
        for block in self.blocks:
            self.live_in[block] = uses[block] | (self.live_out[block] - defs[block])
        while work:
            block = work.pop()
            terminator = block.last_op
            if terminator is not None:
                for succ in terminator.successors:
                    self.live_out[block] |= self.live_in.get(succ, set())
            new_in = uses[block] | (self.live_out[block] - defs[block])
            if new_in != self.live_in[block]:
                self.live_in[block] = new_in
                work.extend(p for p in preds[block] if p not in work)

    def live_ops(self, value: SSAValue) -> list[Operation]:
        """Every op (of every block it is live in) during which ``value`` is live
        (MLIR's ``resolveLiveness``)."""
        owner = value.owner
        first = owner.parent_block() if isinstance(owner, Operation) else owner
        to_process = [first]
        visited = {first}
        for use in value.uses:
            blk = use.operation.parent_block()
            if blk not in visited:
                visited.add(blk)
                to_process.append(blk)
        result: list[Operation] = []
        while to_process:
            block = to_process.pop()
            if block is None or block.first_op is None:
                continue
            start = self._start(block, value)
            end = self._end(block, value, start)
            op = start
            while True:
                result.append(op)
                if op is end or op.next_op is None:
                    break
                op = op.next_op
            terminator = block.last_op
            for succ in terminator.successors if terminator is not None else ():
                if value in self.live_in.get(succ, ()) and succ not in visited:
                    visited.add(succ)
                    to_process.append(succ)
        return result

    def _start(self, block: Block, value: SSAValue) -> Operation:
        owner = value.owner
        if value in self.live_in.get(block, ()) or not isinstance(owner, Operation):
            return block.first_op
        return owner

    def _end(self, block: Block, value: SSAValue, start: Operation) -> Operation:
        if value in self.live_out.get(block, ()):
            return block.last_op
        end = start
        for use in value.uses:
            anc = ancestor_in_block(use.operation, block)
            if anc is not None and is_before_in_block(end, anc):
                end = anc
        return end


# ------------------------------------------------------------------ aliasing


def shared_memory_aliases(root: Operation) -> dict[SSAValue, set[SSAValue]]:
    """For every memdesc value, the ``local_alloc`` results it may point into (Triton's
    ``SharedMemoryAliasAnalysis``): views forward their source's buffers; branch operands,
    loop-carried values and region results join what flows into them."""
    aliases: dict[SSAValue, set[SSAValue]] = defaultdict(set)
    edges: list[tuple[SSAValue, SSAValue]] = []

    def edge(src: SSAValue, dst: SSAValue) -> None:
        if isinstance(dst.type, MemDescType):
            edges.append((src, dst))

    for op in ops_in_walk_order(root):
        if is_shared_memory_alloc(op):
            aliases[op.results[0]].add(op.results[0])
        elif op.name in MEMDESC_VIEW_OPS and op.operands and op.results:
            edge(op.operands[0], op.results[0])
        for succ_index, succ in enumerate(op.successors):
            for operand, arg in zip(_successor_operands(op, succ_index), succ.args):
                edge(operand, arg)
        if op.name == "scf.for":
            body = op.regions[0].blocks[0]
            inits = op.operands[3:]
            for init, arg, res in zip(inits, body.args[1:], op.results):
                edge(init, arg)
                edge(init, res)
            yield_op = body.last_op
            for value, arg, res in zip(yield_op.operands, body.args[1:], op.results):
                edge(value, arg)
                edge(value, res)
        elif op.name == "scf.if":
            for region in op.regions:
                for block in region.blocks:
                    if block.last_op is not None and block.last_op.name == "scf.yield":
                        for value, res in zip(block.last_op.operands, op.results):
                            edge(value, res)
        elif op.name == "scf.while":
            before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
            for init, arg in zip(op.operands, before.args):
                edge(init, arg)
            cond = before.last_op
            for value, arg, res in zip(cond.operands[1:], after.args, op.results):
                edge(value, arg)
                edge(value, res)
            for value, arg in zip(after.last_op.operands, before.args):
                edge(value, arg)
    changed = True
    while changed:
        changed = False
        for src, dst in edges:
            new = aliases.get(src, set()) - aliases[dst]
            if new:
                aliases[dst] |= new
                changed = True
    return {v: s for v, s in aliases.items() if s}


def _successor_operands(op: Operation, index: int) -> Sequence[SSAValue]:
    """The operands ``op`` passes to its ``index``-th successor (cf.br / cf.cond_br)."""
    if op.name == "cf.br":
        return op.operands
    if op.name == "cf.cond_br":
        then_ops = getattr(op, "then_arguments", None)
        else_ops = getattr(op, "else_arguments", None)
        if then_ops is not None and else_ops is not None:
            return then_ops if index == 0 else else_ops
    return ()


# ------------------------------------------------------------------ the analysis


class FunctionAllocation:
    """The buffers of one function and their offsets (Triton's ``Allocation``)."""

    def __init__(self, func: Operation, target: SharedMemoryTarget,
                 callee_size: Callable[[Operation], int] = lambda op: 0,
                 scratch_size: Callable[[Operation], int] | None = None):
        self.func = func
        self.target = target
        self.buffers: list[Buffer] = []
        self.op_scratch: dict[Operation, Buffer] = {}
        self.op_virtual: dict[Operation, Buffer] = {}
        self.value_buffer: dict[SSAValue, Buffer] = {}
        self.alias_buffers: dict[SSAValue, list[Buffer]] = {}
        self.ranges: dict[Buffer, tuple[int, int]] = {}
        self.shared_memory_size = 0
        self.op_ids: dict[Operation, int] = {}
        self._scratch_size = scratch_size or (lambda op: scratch_bytes(op, target))
        self._collect(callee_size)
        self._resolve_liveness()
        self._compute_offsets()

    # -- queries

    def scratch_buffer(self, op: Operation) -> Buffer | None:
        """The scratch (or virtual, for calls) buffer ``op`` owns."""
        return self.op_scratch.get(op) or self.op_virtual.get(op)

    def buffers_of(self, value: SSAValue) -> list[Buffer]:
        """The explicit buffers a memdesc value may point into."""
        if value in self.alias_buffers:
            return self.alias_buffers[value]
        buffer = self.value_buffer.get(value)
        return [buffer] if buffer is not None else []

    def offset_of(self, op: Operation) -> int | None:
        """The ``allocation.offset`` Triton writes on ``op`` (None: it owns nothing)."""
        buffer = self.scratch_buffer(op)
        if buffer is None and len(op.results) == 1:
            buffer = self.value_buffer.get(op.results[0])
        return buffer.offset if buffer is not None else None

    def live_buffers(self, op: Operation) -> list[Buffer]:
        """The buffers whose lifetime holds ``op`` (its own scratch included; Triton's
        ``getLiveBuffers``)."""
        where = self.op_ids[op]
        return [b for b, (start, end) in self.ranges.items() if start <= where < end]

    # -- building

    def _add(self, kind: str, owner: Operation, size: int, alignment: int) -> Buffer:
        buffer = Buffer(kind, len(self.buffers), owner, size, alignment)
        self.buffers.append(buffer)
        return buffer

    def _collect(self, callee_size: Callable[[Operation], int]) -> None:
        for op in ops_in_walk_order(self.func):
            if is_shared_memory_alloc(op):
                size = local_alloc_bytes(op)
                self.value_buffer[op.results[0]] = self._add(
                    "explicit", op, size, local_alloc_alignment(op))
            if op is self.func:
                continue
            if op.name in CALL_OPS:
                size = callee_size(op)
                if size > 0:
                    self.op_virtual[op] = self._add("virtual", op, size, SCRATCH_ALIGNMENT)
                continue
            size = self._scratch_size(op)
            if size > 0:
                self.op_scratch[op] = self._add("scratch", op, size, SCRATCH_ALIGNMENT)
        for value, allocs in shared_memory_aliases(self.func).items():
            buffers = [self.value_buffer[a] for a in allocs if a in self.value_buffer]
            if buffers:
                self.alias_buffers[value] = sorted(buffers, key=lambda b: b.id)

    def _resolve_liveness(self) -> None:
        op_id = self.op_ids = {}
        for op in _post_order(self.func):
            op_id[op] = len(op_id)
        liveness = Liveness(self.func, [*self.value_buffer, *self.alias_buffers])

        def value_range(value: SSAValue) -> tuple[int, int]:
            ops = liveness.live_ops(value)
            if not ops:
                return UNBOUNDED
            return min(op_id[o] for o in ops), max(op_id[o] for o in ops) + 1

        for value, buffer in self.value_buffer.items():
            self.ranges[buffer] = value_range(value)
        for value, buffers in self.alias_buffers.items():
            start, end = value_range(value)
            for buffer in buffers:
                if buffer in self.ranges:
                    old = self.ranges[buffer]
                    start, end = min(start, old[0]), max(end, old[1])
                self.ranges[buffer] = (start, end)
        for table in (self.op_scratch, self.op_virtual):
            for op, buffer in table.items():
                self.ranges[buffer] = (op_id[op], op_id[op] + 1)

    def _compute_offsets(self) -> None:
        # Range insertion order, as Triton's MapVector: explicit, aliases, scratch, virtual.
        buffers = list(self.ranges)
        buffers.sort(key=lambda b: -b.size)  # stable: ties keep that order
        self._calculate_starts(buffers)
        interference = self._interference(buffers)
        while True:
            self._allocate(buffers, interference)
            interference = self._interference(buffers)
            if not interference:
                break

    def _calculate_starts(self, buffers: list[Buffer]) -> None:
        # Slots: (offset, live range), taken lowest offset first, ties in insertion order.
        slots: list[tuple[int, tuple[int, int]]] = [(0, UNBOUNDED)]
        pending = list(buffers)
        while pending and slots:
            index = min(range(len(slots)), key=lambda i: slots[i][0])
            offset, live = slots.pop(index)
            chosen = None
            for buffer in pending:
                x = self.ranges[buffer]
                if not intervals_intersect(x, live):
                    continue
                if all(not intervals_intersect(s[1], x) for s in slots):
                    chosen = buffer
                    break
            if chosen is None:
                continue
            x = self.ranges[chosen]
            aligned = chosen.set_offset_aligned(offset)
            self._insert_slot(slots, aligned + chosen.size, (max(live[0], x[0]), min(live[1], x[1])))
            if live[0] < x[0]:
                self._insert_slot(slots, offset, (live[0], x[1]))
            if x[1] < live[1]:
                self._insert_slot(slots, offset, (x[0], live[1]))
            pending.remove(chosen)

    @staticmethod
    def _insert_slot(slots: list, offset: int, live: tuple[int, int]) -> None:
        # std::multimap::insert: after every slot with an equal key.
        position = len(slots)
        for i, (key, _) in enumerate(slots):
            if key > offset:
                position = i
                break
        slots.insert(position, (offset, live))

    def _interference(self, buffers: list[Buffer]) -> dict[Buffer, list[Buffer]]:
        graph: dict[Buffer, list[Buffer]] = {}
        for x in buffers:
            for y in buffers:
                if x is y:
                    continue
                if intervals_intersect(self.ranges[x], self.ranges[y]) and intervals_intersect(
                        x.interval, y.interval):
                    graph.setdefault(x, []).append(y)
        return graph

    def _allocate(self, buffers: list[Buffer], interference: dict[Buffer, list[Buffer]]) -> None:
        self.shared_memory_size = 0
        colors = {b: (0 if b is buffers[0] else -1) for b in buffers}
        for x in buffers:
            taken = {colors[y] for y in interference.get(x, ()) if colors[y] >= 0}
            color = 0
            while color in taken:
                color += 1
            colors[x] = color
        for x in buffers:
            new_offset = 0
            for y in interference.get(x, ()):
                new_offset = max(new_offset, y.offset + y.size)
            if colors[x] != 0:
                x.set_offset_aligned(new_offset)
            self.shared_memory_size = max(self.shared_memory_size, x.offset + x.size)


def _post_order(op: Operation) -> Iterable[Operation]:
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from _post_order(inner)
    yield op


def _functions(module: ModuleOp) -> list[Operation]:
    found = []
    for op in ops_in_walk_order(module):
        if op.name in FUNCTION_OPS:
            found.append(op)
    return found


def _symbol_name(func: Operation) -> str | None:
    attr = _attr(func, "sym_name")
    return attr.data if isinstance(attr, StringAttr) else None


def _callee_name(call: Operation) -> str | None:
    attr = _attr(call, "callee")
    root = getattr(attr, "root_reference", None)
    return root.data if root is not None else None


@dataclass
class ModuleAllocation:
    """Every function's allocation, callees first (Triton's ``ModuleAllocation``)."""

    module: ModuleOp
    target: SharedMemoryTarget = field(default_factory=SharedMemoryTarget)
    # Bytes of scratch per op (default: Triton's rules, ``scratch_bytes``); the lowering's
    # allocator passes its own (``conversion/shared_memory.py``).
    scratch_size: Callable[[Operation], int] | None = None
    functions: dict[Operation, FunctionAllocation] = field(init=False)
    roots: list[Operation] = field(init=False)
    """The kernels: functions nobody calls (all of them where every one is called)."""
    shared_memory_size: int = field(init=False)

    def __post_init__(self) -> None:
        funcs = _functions(self.module)
        by_name = {_symbol_name(f): f for f in funcs}
        callees: dict[Operation, list[Operation]] = {
            f: [by_name[n] for n in (_callee_name(c) for c in ops_in_walk_order(f) if c.name in CALL_OPS)
                if n in by_name] for f in funcs}
        called = {c for cs in callees.values() for c in cs}
        self.functions = {}
        visiting: set[Operation] = set()

        def visit(func: Operation) -> None:
            if func in self.functions:
                return
            if func in visiting:
                raise AllocationError(func, "recursive calls cannot be given shared memory")
            visiting.add(func)
            for callee in callees[func]:
                visit(callee)
            visiting.discard(func)

            def callee_size(call: Operation) -> int:
                callee = by_name.get(_callee_name(call))
                return self.functions[callee].shared_memory_size if callee in self.functions else 0

            self.functions[func] = FunctionAllocation(func, self.target, callee_size,
                                                      self.scratch_size)

        for func in funcs:
            visit(func)
        self.roots = [f for f in funcs if f not in called] or funcs
        self.shared_memory_size = max((self.functions[f].shared_memory_size for f in self.roots),
                                      default=0)

    def function(self, func: Operation) -> FunctionAllocation:
        return self.functions[func]

    def function_of(self, op: Operation) -> FunctionAllocation | None:
        current: Operation | None = op
        while current is not None:
            if current in self.functions:
                return self.functions[current]
            current = current.parent_op()
        return None


def attach_allocation_attributes(module: ModuleOp, allocation: ModuleAllocation) -> None:
    """Write ``allocation.offset`` on every buffer owner and ``ttg.shared`` on the module,
    as Triton's ``attachAllocationSizeAndOffsetAttr`` does."""
    i32 = IntegerType(32)
    for func, func_alloc in allocation.functions.items():
        for op in ops_in_walk_order(func):
            if op is func:
                continue
            offset = func_alloc.offset_of(op)
            if offset is not None:
                op.attributes["allocation.offset"] = IntegerAttr(offset, i32)
    module.attributes["ttg.shared"] = IntegerAttr(allocation.shared_memory_size, i32)
