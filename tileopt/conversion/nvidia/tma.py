"""TMA and mbarriers (sm_90): the lowering of the ops ``triton-nvidia-tma-lowering`` and the
pipeliner's TMA path leave, as inline PTX (PTX ISA: "tensormap.replace",
"cp.async.bulk.tensor", "mbarrier").

- ``ttng.tensormap_create``: warp 0 zeroes the op's 128 bytes of shared scratch, thread 0
  writes each field with ``tensormap.replace.tile.*`` (global address, rank - 1, box and
  global sizes, byte strides of the outer dimensions, element strides, element type,
  interleave / fill mode when not 0, swizzle mode), then warp 0 copies it to the global
  scratch with ``tensormap.cp_fenceproxy`` (as Triton 3.9's ``.llir`` does).
- ``ttng.tensormap_fenceproxy_acquire``: warp 0 acquires the tensormap proxy and waits for
  the copy, then the CTA syncs. ``ttng.reinterpret_tensor_descriptor``: the scratch address
  as a generic pointer.
- mbarriers: ``init_barrier`` / ``inval_barrier`` / ``barrier_expect`` by thread 0 (an
  init is followed by ``fence.proxy.async``), ``wait_barrier`` by every thread (a
  ``try_wait.parity`` loop).
- ``async_tma_copy_global_to_local``: thread 0 issues one ``cp.async.bulk.tensor`` per box
  of the block (the box is the block cut to the swizzle span along the innermost
  dimension, ``tma_lowering.tma_box``), box ``i`` at the shared offset of block column
  ``i * box``; Triton spreads the boxes over warps, one thread each.
- ``async_tma_copy_local_to_global``: a CTA barrier (every thread's writes to the buffer
  done), then thread 0 stores each box and commits a bulk group; ``async_tma_store_wait``
  waits for the groups' reads (thread 0 issued them).
"""

from __future__ import annotations

from xdsl.dialects.builtin import i8
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.llvm_builder import ptr_type
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.triton_gpu_to_llvm.shared_view import SharedView, view_of
from tileopt.dialects import nvvm
from tileopt.layouts.encodings import OFFSET
from tileopt.transforms.nvidia.tma_lowering import tma_box

DESCRIPTOR_BYTES = 128


def _asm(fl: FunctionLowering, text: str, constraints: str, operands: list[SSAValue]) -> None:
    fl.b.inline_asm(text, constraints, operands, None)


def _thread_below(fl: FunctionLowering, count: int) -> SSAValue:
    return fl.b.icmp("ult", fl.ids.thread, fl.b.i32(count))


def _thread0(fl: FunctionLowering, pred: SSAValue | None = None) -> SSAValue:
    first = fl.b.icmp("eq", fl.ids.thread, fl.b.i32(0))
    return first if pred is None else fl.b.int_op("and", first, pred)


@lowers("ttng.tensormap_create")
def _tensormap_create(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    smem = b.gep(shared_memory_base(fl), b.i32(fl.module.shared.offset(op, DESCRIPTOR_BYTES)),
                 i8)
    warp0 = _thread_below(fl, DESCRIPTOR_BYTES // 4)
    word = b.gep(smem, b.int_op("mul", fl.ids.thread, b.i32(4)), i8)
    _asm(fl, "@$2 st.shared::cta.b32 [ $0 + 0 ], $1;", "r,r,b", [word, b.i32(0), warp0])
    b.insert(nvvm.BarWarpSyncOp.create(operands=[b.i32(-1)]))
    rank = len(op.box_dim)
    with b.guarded(_thread0(fl)):
        replace = "tensormap.replace.tile.{}.shared::cta.b1024.{} [ $0 + 0 ], {};"
        _asm(fl, replace.format("global_address", "b64", "$1"), "l,l",
             [smem, fl.scalar(op.global_address)])
        _asm(fl, replace.format("rank", "b32", f"0x{rank - 1:x}"), "l", [smem])
        for field, values, width in (("box_dim", op.box_dim, "b32"),
                                     ("global_dim", op.global_dim, "b32"),
                                     ("global_stride", op.global_stride, "b64"),
                                     ("element_stride", op.element_stride, "b32")):
            for i, value in enumerate(values):
                _asm(fl, replace.format(field, width, f"0x{i:x}, $1"),
                     "l,l" if width == "b64" else "l,r", [smem, fl.scalar(value)])
        for field in ("elem_type", "interleave_layout", "swizzle_mode", "fill_mode"):
            code = op.properties[field].value.data
            if code or field in ("elem_type", "swizzle_mode"):
                name = {"elem_type": "elemtype"}.get(field, field)
                _asm(fl, replace.format(name, "b32", f"0x{code:x}"), "l", [smem])
    b.insert(nvvm.BarWarpSyncOp.create(operands=[b.i32(-1)]))
    _asm(fl, "@$2 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu"
             f".sync.aligned [ $0 + 0 ], [ $1 + 0 ], 0x{DESCRIPTOR_BYTES:x};", "l,l,b",
         [fl.scalar(op.desc_ptr), smem, warp0])


@lowers("ttng.tensormap_fenceproxy_acquire")
def _tensormap_fenceproxy_acquire(fl: FunctionLowering, op: Operation) -> None:
    warp0 = _thread_below(fl, DESCRIPTOR_BYTES // 4)
    _asm(fl, f"@$1 fence.proxy.tensormap::generic.acquire.gpu [ $0 + 0 ], "
             f"0x{DESCRIPTOR_BYTES:x};\n\t@$2 cp.async.bulk.commit_group ;\n\t"
             "@$3 cp.async.bulk.wait_group.read 0 ;", "l,b,b,b",
         [fl.scalar(op.operands[0]), warp0, warp0, warp0])
    fl.hooks.barrier(fl.b)


@lowers("ttng.reinterpret_tensor_descriptor")
def _reinterpret_tensor_descriptor(fl: FunctionLowering, op: Operation) -> None:
    generic = fl.b.cast("addrspacecast", fl.scalar(op.operands[0]), ptr_type(0))
    fl.set(op.results[0], [generic])


# ------------------------------------------------------------------ mbarriers


def _barrier_address(fl: FunctionLowering, op: Operation, value: SSAValue) -> SSAValue:
    """The address of the mbarrier ``op`` uses (``value``: a whole buffer)."""
    view = view_of(fl, value)
    if not view.is_whole_frame() and view.static_offsets(fl) != (0,) * len(view.offsets):
        raise fl.error(op, "an mbarrier must be a whole buffer")
    return view.base


@lowers("ttng.init_barrier")
def _init_barrier(fl: FunctionLowering, op: Operation) -> None:
    count = op.properties["count"].value.data
    _asm(fl, f"@$0 mbarrier.init.shared::cta.b64 [$1], {count};", "b,r",
         [_thread0(fl), _barrier_address(fl, op, op.operands[0])])
    # Shared memory written through the generic proxy so far (the barrier, a tensormap's
    # scratch that a TMA buffer may reuse) is ordered before the TMA copies' async proxy
    # (Triton 3.9's proxy-fence-insertion puts one fence before the first copy instead).
    fl.b.insert(nvvm.FenceProxyOp.create(properties={
        "kind": nvvm.ProxyKindAttr(nvvm.ProxyKind.ASYNC_SHARED),
        "space": nvvm.SharedSpaceAttr(nvvm.SharedSpace("cta"))}))


@lowers("ttng.inval_barrier")
def _inval_barrier(fl: FunctionLowering, op: Operation) -> None:
    _asm(fl, "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r",
         [_thread0(fl), _barrier_address(fl, op, op.operands[0])])


@lowers("ttng.barrier_expect")
def _barrier_expect(fl: FunctionLowering, op: Operation) -> None:
    size = op.properties["size"].value.data
    _asm(fl, f"@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], {size};", "b,r",
         [_thread0(fl, fl.scalar(op.pred)), _barrier_address(fl, op, op.operands[0])])


@lowers("ttng.wait_barrier")
def _wait_barrier(fl: FunctionLowering, op: Operation) -> None:
    bar = _barrier_address(fl, op, op.operands[0])
    phase = fl.scalar(op.operands[1])
    wait = ("{\n\t.reg .pred complete;\n\twaitLoop:\n\t"
            "mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;\n\t"
            "@!complete bra.uni waitLoop;\n}\n")
    if len(op.operands) > 2:
        with fl.b.guarded(fl.scalar(op.operands[2])):
            _asm(fl, wait, "r,r", [bar, phase])
    else:
        _asm(fl, wait, "r,r", [bar, phase])


# ------------------------------------------------------------------ TMA copies


def _boxes(fl: FunctionLowering, op: Operation, desc_type, view: SharedView,
           coords: list[SSAValue]) -> list[tuple[SSAValue, list[SSAValue]]]:
    """(shared address, coordinates innermost first) of each box of the block."""
    block = desc_type.block_type
    box = tma_box(block, block.encoding)
    shape = list(block.get_shape())
    if view.static_offsets(fl) != (0,) * len(view.offsets) or tuple(view.shape) != \
            tuple(shape):
        raise fl.error(op, "a TMA copy must move a whole buffer of the block's shape")
    inverse = view.layout().invert()
    b = fl.b
    out = []
    for i in range(shape[-1] // box[0]):
        column = i * box[0]
        point = {dim: 0 for dim in inverse.in_dims}
        point[inverse.in_dims[len(shape) - 1]] = column
        offset = inverse.apply(point)[OFFSET] * view.element_bytes
        address = b.gep(view.base, b.i32(offset), i8) if offset else view.base
        inner = coords[-1] if not column else b.int_op("add", coords[-1], b.i32(column))
        out.append((address, [inner, *coords[-2::-1]]))
    return out


def _coords_text(first: int, count: int) -> str:
    return "{" + ", ".join(f"${first + i}" for i in range(count)) + "}"


@lowers("ttng.async_tma_copy_global_to_local")
def _tma_load(fl: FunctionLowering, op: Operation) -> None:
    desc = fl.scalar(op.desc)
    coords = [fl.scalar(c) for c in op.coord]
    view = view_of(fl, op.result)
    bar = _barrier_address(fl, op, op.barrier)
    pred = _thread0(fl, fl.scalar(op.pred))
    rank = len(coords)
    for address, box_coords in _boxes(fl, op, op.desc.type, view, coords):
        _asm(fl, f"@$0 cp.async.bulk.tensor.{rank}d.shared::cta.global.mbarrier::"
                 f"complete_tx::bytes [$1], [$2, {_coords_text(3, rank)}], [${3 + rank}];",
             "b,r,l," + ",".join("r" * rank) + ",r", [pred, address, desc, *box_coords, bar])


@lowers("ttng.async_tma_copy_local_to_global")
def _tma_store(fl: FunctionLowering, op: Operation) -> None:
    desc = fl.scalar(op.desc)
    coords = [fl.scalar(c) for c in op.coord]
    view = view_of(fl, op.src)
    fl.hooks.barrier(fl.b)  # every thread's writes to the buffer are done
    pred = _thread0(fl)
    rank = len(coords)
    for address, box_coords in _boxes(fl, op, op.desc.type, view, coords):
        _asm(fl, f"@$0 cp.async.bulk.tensor.{rank}d.global.shared::cta.bulk_group "
                 f"[$1, {_coords_text(2, rank)}], [${2 + rank}];",
             "b,l," + ",".join("r" * rank) + ",r", [pred, desc, *box_coords, address])
    _asm(fl, "@$0 cp.async.bulk.commit_group;", "b", [pred])


@lowers("ttng.async_tma_store_wait")
def _tma_store_wait(fl: FunctionLowering, op: Operation) -> None:
    pendings = op.properties["pendings"].value.data
    _asm(fl, f"@$0 cp.async.bulk.wait_group.read {pendings};", "b", [_thread0(fl)])
    fl.hooks.barrier(fl.b)  # the buffer may be reused once the reads are done
