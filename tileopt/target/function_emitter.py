"""What every op converter of the translation to LLVM IR works with.

:class:`FunctionEmitter` translates one ``llvm.func`` body: the converters registered in
``conversion_table`` (by ``llvm_ops``, ``nvvm_ops``, ``rocdl_ops``) receive it as ``e`` and
read operands, build instructions and record results through it. It asks its
:class:`TranslationState` (``llvm_ir.ModuleTranslation``) to convert each op, so this
module knows no converter and no converter module imports ``llvm_ir``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from llvmlite import ir
from xdsl.dialects import builtin, llvm
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileopt.ir import TileoptError
from tileopt.ir.parse import source_position
from tileopt.target.debug_info import DebugInfoBuilder, file_location
from tileopt.target import llvmlite_additions as add
from tileopt.target.gpu_target import GPUTarget
from tileopt.target.llvm_types import UnsupportedType, convert_type

_I32 = ir.IntType(32)


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
    position = source_position(op)
    return TileoptError(message, *position) if position else TileoptError(message)


class TranslationState(ABC):
    """What the functions of one module share: the ``llvmlite`` module, the target, debug
    information, intrinsic declarations and the op each instruction came from."""

    def __init__(self, module: ir.Module, target: GPUTarget | None,
                 debug: DebugInfoBuilder | None):
        self.module = module
        self.target = target
        self.debug = debug
        # The instructions each op made, to blame the op if LLVM rejects the result.
        self.origins: list[tuple[list[ir.Instruction], Operation]] = []
        self._intrinsics: dict[tuple[str, str], ir.Function] = {}

    @abstractmethod
    def convert_op(self, op: Operation, e: FunctionEmitter) -> bool:
        """Translate ``op`` at ``e``'s insertion point; False if no converter knows it."""

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


class FunctionEmitter:
    """Translates the body of one ``llvm.func``; the ``e`` every op converter receives."""

    def __init__(self, translation: TranslationState, op: llvm.FuncOp, function: ir.Function):
        self.translation = translation
        self.op = op
        self.function = function
        self.module = translation.module
        self.builder = ir.IRBuilder()
        add.use_fast_names(function)
        self.values: dict[SSAValue, ir.Value] = {}
        # id(type attribute) -> (it, its llvmlite type): without hashing the attribute
        self._types: dict[int, tuple[Attribute, ir.Type]] = {}
        self._i32: dict[int, ir.Constant] = {}
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

    def i32(self, value: int) -> ir.Constant:
        """The ``i32`` constant ``value``, one object per value (a constant is printed once
        per object: GEPs repeat a few indices thousands of times)."""
        constant = self._i32.get(value)
        if constant is None:
            constant = self._i32[value] = ir.Constant(_I32, value)
        return constant

    def operands(self, op: Operation) -> list[ir.Value]:
        values = self.values
        return [values[v] for v in op._operands]  # noqa: SLF001 - xDSL 0.74's operand tuple

    def set_result(self, op: Operation, value: ir.Value, index: int = 0) -> None:
        self.values[op.results[index]] = value

    def type(self, op: Operation, attr: Attribute) -> ir.Type:
        known = self._types.get(id(attr))
        if known is not None:
            return known[1]
        try:
            converted = convert_type(attr)
        except UnsupportedType as err:
            raise self.error(op, str(err)) from None
        self._types[id(attr)] = (attr, converted)
        return converted

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
            op = block.first_op
            while op is not None:  # (xDSL's ``block.ops`` iterator costs a call per op)
                self._emit_op(op)
                op = op.next_op

    def _emit_op(self, op: Operation) -> None:
        llvm_block = self.builder.block
        first_new = len(llvm_block.instructions)
        try:
            if not self.translation.convert_op(op, self):
                raise self.error(op, "no translation for this op")
        except TileoptError:
            raise
        except KeyError as err:
            raise self.error(op, f"operand {err} is not defined before its use") from None
        except Exception as err:  # llvmlite's type checks: mismatched operand types etc.
            raise self.error(op, f"{type(err).__name__}: {err}") from None
        new_instructions = llvm_block.instructions[first_new:]
        self.translation.origins.append((new_instructions, op))
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


__all__ = ["FunctionEmitter", "TranslationState", "error_at", "op_name"]
