"""The xDSL context with every dialect tileopt reads and writes.

Upstream dialects come from xDSL, except ``arith``, whose comparison, select and cast ops
tileopt redefines for tensors (``tileopt/dialects/arith.py``).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.cf import Cf
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.scf import Scf
from xdsl.dialects.ub import UB

from tileopt.dialects.arith import arith_dialect
from tileopt.dialects.amdgpu import AMDGPU
from tileopt.dialects.gpu import GPU
from tileopt.dialects.llvm_ext import LLVM_EXT
from tileopt.dialects.nvvm import NVVM
from tileopt.dialects.rocdl import ROCDL
from tileopt.dialects.tt import TT
from tileopt.dialects.ttg import TTG
from tileopt.dialects.ttng import TTNG


def make_context(allow_unregistered: bool = False) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    # LLVM_EXT is xDSL's llvm dialect with the ops Triton's lowering needs added or fixed.
    for dialect in (Builtin, arith_dialect(), Math, Scf, Cf, Func, UB, LLVM_EXT,
                    TT, TTG, TTNG, AMDGPU, ROCDL, NVVM, GPU):
        ctx.load_dialect(dialect)
    return ctx
