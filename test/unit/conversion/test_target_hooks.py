"""The vendor interface of the lowering: which hooks a vendor must write, and NVIDIA's
device-library hook (inline where tileopt writes the function out, else a declared call)."""

from __future__ import annotations

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float32Type
from xdsl.ir import Block

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.conversion.target_hooks import TargetHooks


class _Symbols:
    def __init__(self):
        self.declared = {}

    def declare(self, name, inputs, output):
        self.declared[name] = (list(inputs), output)

    def string(self, b, prefix, text):
        raise AssertionError("not used here")


def test_vendor_hooks_are_abstract():
    assert {"printf", "assert_fail", "library_function", "shared_memory_banks"} \
        <= TargetHooks.__abstractmethods__


def test_missing_hook_is_named():
    written = {name: (lambda self, *args: None)
               for name in TargetHooks.__abstractmethods__ - {"printf"}}
    partial = type("Partial", (TargetHooks,), written)
    with pytest.raises(TypeError, match="printf"):
        partial()


def _builder():
    block = Block(arg_types=[Float32Type()])
    return block, LLVMBuilder(block)


def test_nvidia_library_function_declares_and_calls():
    block, b = _builder()
    symbols = _Symbols()
    f32 = Float32Type()
    result = NvidiaHooks().library_function(b, symbols, "__nv_sinf", [block.args[0]], f32)
    assert symbols.declared == {"__nv_sinf": ([f32], f32)}
    assert isinstance(result.owner, llvm.CallOp) and result.type == f32


def test_nvidia_library_function_writes_erff_out():
    block, b = _builder()
    symbols = _Symbols()
    NvidiaHooks().library_function(b, symbols, "__nv_erff", [block.args[0]], Float32Type())
    assert symbols.declared == {}
    assert not any(isinstance(op, llvm.CallOp) for op in block.ops)


def test_nvidia_shared_memory_banks():
    banks = NvidiaHooks().shared_memory_banks
    assert (banks.count, banks.width) == (32, 4)
