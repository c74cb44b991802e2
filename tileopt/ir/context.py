"""The xDSL context with every dialect tileopt reads and writes.

Upstream dialects come from xDSL, except ``arith``, whose comparison, select and cast ops
tileopt redefines for tensors (``tileopt/dialects/arith.py``).
"""

from __future__ import annotations

import importlib

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.cf import Cf
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.scf import Scf
from xdsl.dialects.ub import UB

from tileopt.dialects.arith import arith_dialect
from tileopt.dialects.llvm_ext import LLVM_EXT

# tileopt's own dialects: (module, exported Dialect name). Each module defines one
# xDSL ``Dialect`` object under that name.
_TILEOPT_DIALECTS = [
    ("tileopt.dialects.tt", "TT"),
    ("tileopt.dialects.ttg", "TTG"),
    ("tileopt.dialects.ttng", "TTNG"),
    ("tileopt.dialects.amdgpu", "AMDGPU"),
    ("tileopt.dialects.rocdl", "ROCDL"),
    ("tileopt.dialects.nvvm", "NVVM"),
]


def _tileopt_dialects():
    for module_name, attr in _TILEOPT_DIALECTS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name == module_name:
                continue  # not written yet
            raise
        yield getattr(module, attr)


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    # LLVM_EXT is xDSL's llvm dialect with the ops Triton's lowering needs added or fixed.
    for dialect in (Builtin, arith_dialect(), Math, Scf, Cf, Func, UB, LLVM_EXT):
        ctx.load_dialect(dialect)
    for dialect in _tileopt_dialects():
        ctx.load_dialect(dialect)
    return ctx
