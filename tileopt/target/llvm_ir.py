"""An xDSL module in the LLVM dialect (with ``nvvm``/``rocdl`` ops) -> LLVM IR text.

The counterpart of ``mlir-translate --mlir-to-llvmir``. xDSL's own converter
(``xdsl.backend.llvm``) is one ``match`` over a few dozen ops with no address-space-aware
globals, kernel conventions, atomics, GPU intrinsics or debug info, so this module builds
the ``llvmlite.ir`` module itself: globals and function declarations first (so any op can
refer to any symbol), then each function's blocks (block arguments become phis), then each
op through the converter registered for its name in ``llvm_ops``/``nvvm_ops``/``rocdl_ops``.

The text llvmlite prints is parsed back and verified by LLVM, which also gives it LLVM's
canonical form (intrinsic names mangled, attribute groups). With a ``GPUTarget`` the module
also gets that target's triple, data layout, kernel attributes and module flags, as
Triton's ``make_llir`` adds them.
"""

from __future__ import annotations

from llvmlite import ir
from xdsl.dialects import builtin, llvm
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileopt.ir import TileoptError
from tileopt.target import llvm_backend
from tileopt.target import llvmlite_additions as add
from tileopt.target.conversion_table import ConversionTable
from tileopt.target.debug_info import DebugInfoBuilder, file_location
from tileopt.target.gpu_target import GPUTarget, parse_arch, target_from_module_attr
from tileopt.target.kernel_attrs import ModuleLaunchInfo, apply_function_attributes, is_kernel
from tileopt.target.llvm_ops import LLVM_CONVERSIONS, constant_value, convert_intrinsic_op
from tileopt.target.llvm_types import UnsupportedType, convert_type
from tileopt.target.nvvm_ops import NVVM_CONVERSIONS
from tileopt.target.rocdl_ops import ROCDL_CONVERSIONS, convert_matrix_op

CONVERTERS = ConversionTable({**LLVM_CONVERSIONS, **NVVM_CONVERSIONS, **ROCDL_CONVERSIONS})

MODULE_NAME = "LLVMDialectModule"


def op_name(op: Operation) -> str:
    """The name as written: unregistered ops keep theirs in ``op_name__``."""
    if isinstance(op, builtin.UnregisteredOp):
        return op.op_name.data
    return op.name


def error_at(op: Operation, message: str) -> TileoptError:
    """A TileoptError at ``op``'s ``loc(...)``, else where the parser read it (as MLIR)."""
    where = file_location(op.location)
    if where is not None:
        return TileoptError(message, where.filename.data, where.line.data, where.column.data)
    try:
        from tileopt.ir.parse import source_position
    except ImportError:  # an IR layer without parse positions
        return TileoptError(message)
    position = source_position(op)
    return TileoptError(message, *position) if position else TileoptError(message)


class ModuleTranslation:
    """One xDSL ``builtin.module`` -> one ``llvmlite.ir.Module``."""

    def __init__(self, module: builtin.ModuleOp, target: GPUTarget | None, debug_info: bool):
        self.source = module
        self.target = target
        self.module = add.Module(MODULE_NAME)
        self.debug = DebugInfoBuilder(self.module) if debug_info else None
        self.launch = ModuleLaunchInfo.of(module)
        # The op each instruction came from, to blame the op if LLVM rejects the result.
        self.origins: dict[int, tuple[ir.Instruction, Operation]] = {}
        self._intrinsics: dict[tuple[str, str], ir.Function] = {}

    def translate(self) -> ir.Module:
        self._set_triple_and_layout()
        functions: list[llvm.FuncOp] = []
        for op in self.source.ops:
            if isinstance(op, llvm.GlobalOp):
                self._global(op)
            elif isinstance(op, llvm.FuncOp):
                functions.append(op)
            else:
                raise error_at(op, f"'{op.name}' cannot be translated to LLVM IR "
                                   "(only llvm.func and llvm.mlir.global may be at module level)")
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

    def intrinsic(self, name: str, fn_type: ir.FunctionType) -> ir.Function:
        """The declaration of intrinsic ``name`` with this signature (created once).

        Names may be given without their type suffix (``llvm.smin``): LLVM's parser mangles
        intrinsic names itself. A second signature under the same name gets a unique
        spelling, which the parser also renames to the right mangled name.
        """
        key = (name, str(fn_type))
        if key in self._intrinsics:
            return self._intrinsics[key]
        spelled = name
        existing = self.module.globals.get(name)
        if existing is not None and getattr(existing, "function_type", None) != fn_type:
            spelled = f"{name}.tileopt{len(self._intrinsics)}"
        function = existing if spelled == name and existing is not None else \
            ir.Function(self.module, fn_type, name=spelled)
        self._intrinsics[key] = function
        return function


class _GlobalContext:
    """What ``constant_value`` needs to report an error for a global's initializer."""

    def __init__(self, op: Operation):
        self.op = op

    def error(self, op: Operation, message: str) -> TileoptError:
        return error_at(op, message)


class FunctionEmitter:
    """Translates the body of one ``llvm.func``; the ``e`` every op converter receives."""

    def __init__(self, translation: ModuleTranslation, op: llvm.FuncOp, function: ir.Function):
        self.translation = translation
        self.op = op
        self.function = function
        self.module = translation.module
        self.builder = ir.IRBuilder()
        self.values: dict[SSAValue, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        self.subprogram = None
        self.function_file = None
        if translation.debug is not None:
            self.subprogram = translation.debug.subprogram(op.sym_name.data, op.location)
            if self.subprogram is not None:
                function.set_metadata("dbg", self.subprogram)
                self.function_file = file_location(op.location).filename.data

    # ----------------------------------------------------------------- API for op converters

    @property
    def target(self) -> GPUTarget | None:
        return self.translation.target

    def value(self, ssa: SSAValue) -> ir.Value:
        return self.values[ssa]

    def operands(self, op: Operation) -> list[ir.Value]:
        return [self.values[v] for v in op.operands]

    def set_result(self, op: Operation, value: ir.Value, index: int = 0) -> None:
        self.values[op.results[index]] = value

    def type(self, op: Operation, attr: Attribute) -> ir.Type:
        try:
            return convert_type(attr)
        except UnsupportedType as err:
            raise self.error(op, str(err)) from None

    def result_type(self, op: Operation, index: int = 0) -> ir.Type:
        return self.type(op, op.results[index].type)

    def insert(self, instruction: ir.Instruction) -> ir.Instruction:
        self.builder._insert(instruction)  # llvmlite's own builder methods do the same
        return instruction

    def error(self, op: Operation, message: str) -> TileoptError:
        return error_at(op, f"cannot translate '{op_name(op)}' to LLVM IR: {message}")

    def call_intrinsic(self, name: str, return_type: ir.Type, args: list[ir.Value],
                       fastmath: list[str] | tuple[str, ...] = ()) -> ir.Instruction:
        fn_type = ir.FunctionType(return_type, [a.type for a in args])
        return self.builder.call(self.translation.intrinsic(name, fn_type), args,
                                 fastmath=fastmath)

    def global_value(self, op: Operation, name: str) -> ir.Value:
        if name not in self.module.globals:
            raise self.error(op, f"no global or function named @{name}")
        return self.module.globals[name]

    def callee(self, op: Operation, name: str) -> ir.Function:
        value = self.global_value(op, name)
        if not isinstance(value, ir.Function):
            raise self.error(op, f"@{name} is not a function")
        return value

    def block(self, block: Block) -> ir.Block:
        return self.blocks[block]

    def add_incoming(self, successor: Block, arguments) -> None:
        """Branch arguments become incoming values of the successor's phis."""
        for arg, value in zip(successor.args, arguments, strict=True):
            self.values[arg].add_incoming(self.values[value], self.builder.block)

    # ----------------------------------------------------------------- the walk

    def emit(self) -> None:
        blocks = list(self.op.body.blocks)
        for index, block in enumerate(blocks):
            self.blocks[block] = self.function.append_basic_block(name=f"bb{index}" if index else "")
        for arg, llvm_arg in zip(blocks[0].args, self.function.args, strict=True):
            self.values[arg] = llvm_arg
        for block in blocks[1:]:
            self.builder.position_at_end(self.blocks[block])
            for arg in block.args:
                self.values[arg] = self.builder.phi(self.type(self.op, arg.type))
        for block in blocks:
            self.builder.position_at_end(self.blocks[block])
            for op in block.ops:
                self._emit_op(op)

    def _emit_op(self, op: Operation) -> None:
        llvm_block = self.builder.block
        first_new = len(llvm_block.instructions)
        try:
            converter = CONVERTERS.get(op.name)
            if converter is not None:
                converter(op, self)
            elif not (convert_intrinsic_op(op, self) or convert_matrix_op(op, self)):
                raise self.error(op, "no translation for this op")
        except TileoptError:
            raise
        except KeyError as err:
            raise self.error(op, f"operand {err} is not defined before its use") from None
        except Exception as err:  # llvmlite's type checks: mismatched operand types etc.
            raise self.error(op, f"{type(err).__name__}: {err}") from None
        new_instructions = llvm_block.instructions[first_new:]
        for instruction in new_instructions:
            self.translation.origins[id(instruction)] = (instruction, op)
        if self.subprogram is not None:
            self._attach_location(op, new_instructions)

    def _attach_location(self, op: Operation, instructions: list[ir.Instruction]) -> None:
        if not instructions:
            return
        location = self.translation.debug.location(op.location, self.subprogram, self.function_file)
        if location is None:
            return
        for instruction in instructions:
            if "dbg" not in instruction.metadata:
                instruction.set_metadata("dbg", location)


def _resolve_target(module: builtin.ModuleOp, target: GPUTarget | str | None) -> GPUTarget | None:
    if isinstance(target, str):
        return parse_arch(target)
    if target is not None:
        return target
    value = module.attributes.get("ttg.target")
    return target_from_module_attr(value.data if isinstance(value, builtin.StringAttr) else None)


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
    translation = ModuleTranslation(module, _resolve_target(module, target), debug_info)
    text = str(translation.translate())
    try:
        parsed = llvm_backend.parse(text, "<translated LLVM IR>")
    except TileoptError as err:
        raise _blame_op(translation, text, err) from None
    parsed.name = MODULE_NAME
    _unname_values(parsed)
    return str(parsed)


def _blame_op(translation: ModuleTranslation, text: str, err: TileoptError) -> TileoptError:
    """LLVM rejected the translated IR at some line: report it at the op that made it."""
    if err.line is not None:
        line = text.splitlines()[err.line - 1].strip()
        for instruction, op in translation.origins.values():
            if str(instruction).strip() == line:
                return error_at(op, f"LLVM rejects the translation of '{op_name(op)}': "
                                    f"{err.message.removeprefix('invalid LLVM IR: ')}")
    return TileoptError(f"internal error: LLVM rejects the translated IR: {err.message}")


def _unname_values(module) -> None:
    """Drop llvmlite's ``%.12`` names so LLVM numbers values as mlir-translate's output does."""
    for function in module.functions:
        for arg in function.arguments:
            arg.name = ""
        for block in function.blocks:
            block.name = ""
            for instruction in block.instructions:
                instruction.name = ""
