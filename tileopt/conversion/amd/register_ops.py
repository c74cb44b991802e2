"""AMD ops the dot kernels carry that need no memory: ``amdg.in_thread_transpose`` and the
scheduling hints Triton's AMD passes leave in the TritonGPU IR.

- ``amdg.in_thread_transpose`` changes only which register holds which element: every
  element stays in its thread (the pass that makes it guarantees so; checked here from the
  two linear layouts), so it is a renaming of registers and emits nothing.
- ``rocdl.s.setprio`` and ``rocdl.sched.barrier`` are already LLVM-level ``rocdl`` ops: they
  go through unchanged (``tileopt-translate`` makes them ``llvm.amdgcn.s.setprio`` and
  ``llvm.amdgcn.sched.barrier``).
"""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion import register_maps
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
