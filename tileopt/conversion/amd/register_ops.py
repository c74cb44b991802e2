"""AMD ops the dot kernels carry that need no memory: ``amdg.in_thread_transpose`` and the
scheduling hints Triton's AMD passes leave in the TritonGPU IR.

- ``amdg.in_thread_transpose`` changes only which register holds which element: every
  element stays in its thread (the pass that makes it guarantees so; checked here from the
  two linear layouts), so it is a renaming of registers and emits nothing.
- ``rocdl.s.setprio``, ``rocdl.sched.barrier`` and the id ops (``rocdl.workitem.id.x``) are
  already LLVM-level ``rocdl`` ops: they go through unchanged (``tileopt-translate`` makes
  them ``llvm.amdgcn.s.setprio`` and ``llvm.amdgcn.sched.barrier``).
- ``amdg.cond_barrier %pred`` branches around an ``s_barrier`` (as Triton 3.6's
  ``CondBarrierOpConversion``: the block is split at the op, the barrier in a block of its
  own).
"""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion import register_maps
from tileopt.conversion.amd.hooks import rocdl
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers


@lowers("amdg.in_thread_transpose")
def _in_thread_transpose(fl: FunctionLowering, op: Operation) -> None:
    src, dst = (fl.layouts.of(v.type) for v in (op.operands[0], op.results[0]))
    mapping = register_maps.register_map(src, dst)
    if mapping is None:
        raise fl.error(op, "amdg.in_thread_transpose between layouts that move elements "
                           "between threads (only registers may be permuted)")
    values = fl.get(op.operands[0])
    fl.set(op.results[0], [values[r] for r in mapping])


@lowers("rocdl.s.setprio", "rocdl.sched.barrier")
def _hint(fl: FunctionLowering, op: Operation) -> None:
    fl.b.insert(op.clone())


@lowers(*(f"rocdl.{kind}.id.{axis}" for kind in ("workitem", "workgroup") for axis in "xyz"))
def _id(fl: FunctionLowering, op: Operation) -> None:
    new = fl.b.insert(op.clone())
    fl.set(op.results[0], [new.results[0]])


@lowers("amdg.cond_barrier")
def _cond_barrier(fl: FunctionLowering, op: Operation) -> None:
    barrier, after = fl.new_block(), fl.new_block()
    fl.b.cond_br(fl.scalar(op.operands[0]), barrier, [], after, [])
    fl.place(barrier)
    rocdl(fl.b, "rocdl.s.barrier", [], None)
    fl.b.br(after)
    fl.place(after)
