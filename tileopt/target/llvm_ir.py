"""An xDSL module in the LLVM dialect (with ``nvvm``/``rocdl`` ops) -> LLVM IR text.

The counterpart of ``mlir-translate --mlir-to-llvmir``. xDSL's own converter
(``xdsl.backend.llvm``) is one ``match`` over a few dozen ops with no address-space-aware
globals, kernel conventions, atomics, GPU intrinsics or debug info, so this module builds
the ``llvmlite.ir`` module itself: globals and function declarations first (so any op can
refer to any symbol), then each function's blocks (block arguments become phis), then each
op through the converter that ``llvm_ops``/``nvvm_ops``/``rocdl_ops`` registered for its name
in ``conversion_table`` (``function_emitter`` is what those converters work with).

The text llvmlite prints is parsed back and verified by LLVM, which also gives it LLVM's
canonical form (intrinsic names mangled, attribute groups, values numbered): here for
``--emit=llvm-ir``, in the LLVM worker when code is generated (``module_to_code``). With a ``GPUTarget`` the module
also gets that target's triple, data layout, kernel attributes and module flags, as
Triton's ``make_llir`` adds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from llvmlite import ir
from xdsl.dialects import builtin, llvm
from xdsl.ir import Operation

from tileopt.ir import TileoptError
from tileopt.target import llvm_backend
from tileopt.target.llvm_backend import TRANSLATED, TranslatedIR
from tileopt.target import llvmlite_additions as add
from tileopt.target.conversion_table import CONVERTERS
from tileopt.target.debug_info import DebugInfoBuilder
from tileopt.target.function_emitter import FunctionEmitter, TranslationState, error_at, op_name
from tileopt.target.gpu_target import GPUTarget, parse_arch, target_of_module
from tileopt.target.kernel_attrs import ModuleLaunchInfo, apply_function_attributes, is_kernel
from tileopt.target.llvm_ops import constant_value
from tileopt.target.missing_stage import not_llvm_dialect_message
from tileopt.target.llvm_types import UnsupportedType, convert_type

MODULE_NAME = "LLVMDialectModule"
_T = TypeVar("_T")


class ModuleTranslation(TranslationState):
    """One xDSL ``builtin.module`` -> one ``llvmlite.ir.Module``."""

    def __init__(self, module: builtin.ModuleOp, target: GPUTarget | None, debug_info: bool):
        llvm_module = add.Module(MODULE_NAME)
        super().__init__(llvm_module, target,
                         DebugInfoBuilder(llvm_module) if debug_info else None)
        self.source = module
        self.launch = ModuleLaunchInfo.of(module)

    def convert_op(self, op: Operation, e: FunctionEmitter) -> bool:
        converter = CONVERTERS.lookup(op.name)
        if converter is None:
            return False
        converter(op, e)
        return True

    def translate(self) -> ir.Module:
        self._set_triple_and_layout()
        functions: list[llvm.FuncOp] = []
        for op in self.source.ops:
            if isinstance(op, llvm.GlobalOp):
                self._global(op)
            elif isinstance(op, llvm.FuncOp):
                functions.append(op)
            else:
                raise error_at(op, not_llvm_dialect_message(op, self.source))
        declared = [(op, self._declare(op)) for op in functions]
        for op, function in declared:
            if op.body.blocks:
                FunctionEmitter(self, op, function).emit()
        self._module_flags()
        return self.module

    # ----------------------------------------------------------------- module level

    def _set_triple_and_layout(self) -> None:
        self.module.triple = ""  # llvmlite's default is "unknown-unknown-unknown"
        if self.target is not None:
            self.module.triple = self.target.triple
            self.module.data_layout = llvm_backend.data_layout(self.target)
            return
        for name, field in (("llvm.target_triple", "triple"), ("llvm.data_layout", "data_layout")):
            if isinstance(value := self.source.attributes.get(name), builtin.StringAttr):
                setattr(self.module, field, value.data)

    def _module_flags(self) -> None:
        if self.target is None:
            return
        i32 = ir.IntType(32)
        if self.target.is_nvidia:
            # Triton sets it so that libdevice's __nvvm_reflect("__CUDA_FTZ") flushes denormals.
            flag = [i32(4), "nvvm-reflect-ftz", i32(1)]
        else:
            flag = [i32(1), "amdhsa_code_object_version", i32(500)]
        self.module.add_named_metadata("llvm.module.flags", flag)

    def _global(self, op: llvm.GlobalOp) -> None:
        try:
            value_type = convert_type(op.global_type)
        except UnsupportedType as err:
            raise error_at(op, str(err)) from None
        variable = ir.GlobalVariable(self.module, value_type, name=op.sym_name.data,
                                     addrspace=op.addr_space.value.data)
        linkage = op.linkage.linkage.data
        variable.linkage = "" if linkage == "external" and op.value is not None else linkage
        variable.global_constant = op.constant is not None
        if op.alignment is not None:
            variable.align = op.alignment.value.data
        if op.section is not None:
            variable.section = op.section.data
        if op.value is not None:
            if isinstance(op.value, builtin.StringAttr):
                raw = op.value.data.encode()
                variable.initializer = ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)),
                                                   bytearray(raw))
            else:
                variable.initializer = constant_value(_GlobalContext(op), op, value_type, op.value)
        elif op.body.blocks:
            raise error_at(op, "globals with an initializer region are not supported")

    def _declare(self, op: llvm.FuncOp) -> ir.Function:
        try:
            fn_type = convert_type(op.function_type)
        except UnsupportedType as err:
            raise error_at(op, f"function @{op.sym_name.data}: {err}") from None
        name = op.sym_name.data
        if name in self.module.globals:
            raise error_at(op, f"symbol @{name} is defined twice")
        function = ir.Function(self.module, fn_type, name=name)
        apply_function_attributes(function, op, self.target, self.launch)
        if self.target is not None and op.body.blocks and not is_kernel(op) \
                and "noinline" not in function.attributes:
            function.attributes.add("alwaysinline")  # Triton inlines every helper
        return function



class _GlobalContext:
    """What ``constant_value`` needs to report an error for a global's initializer."""

    def __init__(self, op: Operation):
        self.op = op

    def error(self, op: Operation, message: str) -> TileoptError:
        return error_at(op, message)


def _resolve_target(module: builtin.ModuleOp, target: GPUTarget | str | None) -> GPUTarget | None:
    if isinstance(target, str):
        return parse_arch(target)
    if target is not None:
        return target
    return target_of_module(module)


def module_to_llvmlite(module: builtin.ModuleOp, target: GPUTarget | str | None = None,
                       *, debug_info: bool = True) -> ir.Module:
    """The ``llvmlite.ir.Module`` of an LLVM-dialect module (not yet verified by LLVM)."""
    return ModuleTranslation(module, _resolve_target(module, target), debug_info).translate()


def module_to_llvm_ir(module: builtin.ModuleOp, target: GPUTarget | str | None = None,
                      *, debug_info: bool = True, filename: str = "<llvm-dialect>") -> str:
    """LLVM IR text of an LLVM-dialect module, verified by LLVM.

    ``target`` (a ``GPUTarget`` or an arch such as ``"sm_90a"``/``"gfx942"``; by default the
    module's ``ttg.target``) adds the triple, data layout, kernel attributes and module
    flags of that GPU. Without one, the translation is target-neutral, like
    ``mlir-translate`` (``nvvm.kernel`` still gives a ``ptx_kernel``).
    """

    def canonical(translated: TranslatedIR) -> str:
        return llvm_backend.llvm_call(_canonical_text, (translated.text,),
                                      "the verification of the translated LLVM IR").decode()

    return module_to_code(module, target, canonical, debug_info=debug_info)


def _canonical_text(text: str) -> bytes:
    """A translation's text parsed and verified by LLVM, values unnamed, as LLVM prints it
    (where LLVM is: this process or its LLVM worker, ``llvm_backend.llvm_call``)."""
    parsed = llvm_backend.parse(text, TRANSLATED, current_debug_info=True)
    parsed.name = MODULE_NAME
    llvm_backend.drop_value_names(parsed)
    return str(parsed).encode()


def module_to_code(module: builtin.ModuleOp, target: GPUTarget | str | None,
                   generate: Callable[[TranslatedIR], _T], *, debug_info: bool = True) -> _T:
    """``generate`` of the module's translation (``nvptx.llvm_ir_to_ptx`` and the like take
    it as they take LLVM IR text): LLVM's errors in the translated text (their file is
    ``TRANSLATED``) become errors at the op that made the line."""
    translation = ModuleTranslation(module, _resolve_target(module, target), debug_info)
    text = str(translation.translate())
    try:
        return generate(TranslatedIR(text, translation.module))
    except TileoptError as err:
        if err.file != TRANSLATED:
            raise
        raise _blame_op(translation, text, err) from None


def _blame_op(translation: ModuleTranslation, text: str, err: TileoptError) -> TileoptError:
    """LLVM rejected the translated IR at some line: report it at the op that made it."""
    if err.line is not None:
        line = text.splitlines()[err.line - 1].strip()
        for instruction, op in ((i, op) for made, op in translation.origins for i in made):
            if str(instruction).strip() == line:
                return error_at(op, f"LLVM rejects the translation of '{op_name(op)}': "
                                    f"{err.message.removeprefix('invalid LLVM IR: ')}")
    return TileoptError(f"internal error: LLVM rejects the translated IR: {err.message}")

