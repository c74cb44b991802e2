"""``tt.get_program_id`` and ``tt.get_num_programs``: the block index and grid size."""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers


@lowers("tt.get_program_id")
def _program_id(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], [fl.hooks.program_id(fl.b, op.axis_index)])


@lowers("tt.get_num_programs")
def _num_programs(fl: FunctionLowering, op: Operation) -> None:
    fl.set(op.results[0], [fl.hooks.num_programs(fl.b, op.axis_index)])
