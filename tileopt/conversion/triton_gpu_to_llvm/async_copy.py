"""Asynchronous copies into shared memory: ``ttg.async_copy_global_to_local``,
``ttg.async_commit_group``, ``ttg.async_wait`` (hooks ``async_copy``/``async_commit``/
``async_wait``; NVIDIA: ``cp.async``). Tokens carry no data (``shared_view.token``); the
barrier that makes other threads' copies visible after a wait is the barrier analysis'
(``analysis/membar.py`` puts one after every ``ttg.async_wait``)."""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.triton_gpu_to_llvm.shared_view import token


@lowers("ttg.async_commit_group")
def _commit(fl: FunctionLowering, op: Operation) -> None:
    fl.hooks.async_commit(fl.b)
    fl.set(op.results[0], [token(fl)])


@lowers("ttg.async_wait")
def _wait(fl: FunctionLowering, op: Operation) -> None:
    fl.hooks.async_wait(fl.b, op.num.value.data)
    fl.set(op.results[0], [token(fl)])
