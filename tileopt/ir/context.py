"""The xDSL context with every dialect tileopt reads and writes.

Upstream dialects come from xDSL, except ``arith``, whose comparison, select and cast ops
tileopt redefines for tensors (``tileopt/dialects/arith.py``), and ``llvm`` (``LLVM_EXT``:
xDSL's with the ops Triton's lowering needs added or fixed).

Only ``builtin`` is loaded up front: the others are registered by name and imported when
the first op, type or attribute of theirs is parsed (xDSL's ``register_dialect``), so a run
over a small file pays only for the dialects it uses.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.ir import Dialect

# One loader per dialect (imports in functions: each runs when its dialect is first used).


def _arith() -> Dialect:
    from tileopt.dialects.arith import arith_dialect

    return arith_dialect()


def _math() -> Dialect:
    from xdsl.dialects.math import Math

    from tileopt.dialects.tt import TTConstantMaterialization

    # math's folders give attributes; as in MLIR, arith.constant holds them.
    return Dialect("math", list(Math.operations), list(Math.attributes),
                   [*Math._interfaces, TTConstantMaterialization()])  # noqa: SLF001


def _scf() -> Dialect:
    from xdsl.dialects.scf import Scf

    return Scf


def _cf() -> Dialect:
    from xdsl.dialects.cf import Cf

    return Cf


def _func() -> Dialect:
    from xdsl.dialects.func import Func

    return Func


def _ub() -> Dialect:
    from xdsl.dialects.ub import UB

    return UB


def _llvm() -> Dialect:
    from tileopt.dialects.llvm_ext import LLVM_EXT

    return LLVM_EXT


def _tt() -> Dialect:
    from tileopt.dialects.tt import TT

    return TT


def _ttg() -> Dialect:
    from tileopt.dialects.ttg import TTG

    return TTG


def _ttng() -> Dialect:
    from tileopt.dialects.ttng import TTNG

    return TTNG


def _amdg() -> Dialect:
    from tileopt.dialects.amdgpu import AMDGPU

    return AMDGPU


def _rocdl() -> Dialect:
    from tileopt.dialects.rocdl import ROCDL

    return ROCDL


def _nvvm() -> Dialect:
    from tileopt.dialects.nvvm import NVVM

    return NVVM


def _gpu() -> Dialect:
    from tileopt.dialects.gpu import GPU

    return GPU


DIALECTS: dict[str, Callable[[], Dialect]] = {
    "arith": _arith,
    "math": _math,
    "scf": _scf,
    "cf": _cf,
    "func": _func,
    "ub": _ub,
    "llvm": _llvm,
    "tt": _tt,
    "ttg": _ttg,
    "ttng": _ttng,
    "amdg": _amdg,
    "rocdl": _rocdl,
    "nvvm": _nvvm,
    "gpu": _gpu,
}


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    ctx.load_dialect(Builtin)
    for name, load in DIALECTS.items():
        ctx.register_dialect(name, load)
    return ctx
