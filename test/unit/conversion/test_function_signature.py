"""The LLVM signature of a lowered function, and which modules a lowering pass lowers.

Expected types are what Triton 3.6's type converter gives the same parameters (its
``convert-triton-gpu-to-llvm`` run through its Python bindings on the same input).
"""

from __future__ import annotations

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, f32, i32

from tileopt.conversion.llvm_builder import ptr_type
from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.conversion.triton_gpu_to_llvm.lowering import ModuleState
from tileopt.conversion.triton_gpu_to_llvm.module_lowering import lowering_units
from tileopt.ir import parse_module
from tileopt.passes import PassFailure

_ATTRS = ('"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
          'ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32')

_SIGNATURE = f"""
#b1 = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#b2 = #ttg.blocked<{{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#shared = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>
#smem = #ttg.shared_memory
module attributes {{{_ATTRS}}} {{
  tt.func public @k(%a: tensor<128xf32, #b1>, %b: tensor<256x!tt.ptr<f16>, #b2>, %n: i32,
                    %t: !ttg.async.token, %m: !ttg.memdesc<4x4xi64, #shared, #smem>) {{
    tt.return
  }}
}}
"""


def test_parameter_types_are_tritons():
    module = parse_module(_SIGNATURE)
    func = next(op for op in module.ops if op.name == "tt.func")
    state = ModuleState(module, NvidiaHooks())
    types = [state.parameter_type(ty) for ty in func.properties["function_type"].inputs]
    struct = llvm.LLVMStructType.from_type_list
    assert types == [
        struct([f32]),  # one register per thread is a struct too
        struct([ptr_type(1)] * 2),
        i32,
        i32,  # a token
        struct([ptr_type(3), i32, i32]),  # a memdesc: its base and one offset per dim
    ]


def _modules(*bodies: str) -> str:
    return "\n".join(f"module attributes {{{_ATTRS}}} {{\n{body}\n}}" for body in bodies)


_KERNEL = "  tt.func public @k() {\n    tt.return\n  }"


def test_lowering_units_are_the_inner_modules():
    outer = parse_module(_modules(_KERNEL, "  llvm.func @f() {\n    llvm.return\n  }"))
    inner = [op for op in outer.ops if isinstance(op, ModuleOp)]
    assert len(inner) == 2 and lowering_units(outer) == inner
    single = parse_module(_modules(_KERNEL))
    assert lowering_units(single) == [single]


def test_lowering_units_check_what_sits_beside_the_modules():
    beside = "\nllvm.func @f() {\n  llvm.return\n}\n"
    outer = parse_module(_modules(_KERNEL) + beside)
    assert lowering_units(outer) == [outer.ops.first]  # an LLVM function may sit there
    with pytest.raises(PassFailure, match="cannot lower 'arith.constant' at module level"):
        lowering_units(parse_module(_modules(_KERNEL) + "\n%0 = arith.constant 1 : i32\n"))
