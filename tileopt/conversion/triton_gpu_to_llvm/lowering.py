"""What the TritonGPU -> LLVM patterns work with: the pattern table and the lowering state.

MLIR's dialect conversion replaces ops one at a time and keeps every tensor as an
``!llvm.struct`` between them, with ``unrealized_conversion_cast`` glue. Here each
``tt.func`` is rebuilt into a fresh ``llvm.func`` in one walk over its blocks: every
TritonGPU SSA value maps to the *Python list* of LLVM values one thread holds (see
``type_converter``), patterns read their operands' lists and record their results' lists,
and nothing is packed until a value crosses a block boundary (then each element is one
block argument) or a function boundary (one struct, as in Triton's signatures). The IR is
built once, small, in order, so the old function can simply be dropped at the end.

A pattern is a function ``pattern(fl: FunctionLowering, op)`` registered for op names
with :func:`lowers`; it emits through ``fl.b`` (an :class:`LLVMBuilder`) and records
results with ``fl.set(result, values)``. Family modules (``elementwise``, ``load_store``,
``reduce``...) register theirs on import. The driver, ``module_lowering.py``, imports them
all and walks the module; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerType, ModuleOp, StringAttr, i8
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tileopt.analysis.axis_info import AxisInfoAnalysis
from tileopt.conversion.indexing import HardwareIds
from tileopt.conversion.llvm_builder import LLVMBuilder, ptr_type
from tileopt.conversion.shared_memory import SharedMemoryPlan
from tileopt.conversion.target_hooks import TargetHooks
from tileopt.conversion.type_converter import (
    TensorLayouts,
    UnsupportedType,
    bit_width,
    boundary_types,
    convert_scalar_type,
    element_type,
    is_packed_parameter,
    parameter_type,
)
from tileopt.dialects.ttg import num_ctas, num_warps, threads_per_warp
from tileopt.ir import TileoptError
from tileopt.layouts.linear_layout import LayoutError
from tileopt.passes import PassFailure

MAX_VALUES_PER_THREAD = 16384
"""Far above any real kernel (a thread has at most 255 registers on NVIDIA GPUs)."""

Pattern = Callable[["FunctionLowering", Operation], None]
PATTERNS: dict[str, Pattern] = {}


def lowers(*names: str) -> Callable[[Pattern], Pattern]:
    """Register a pattern for the ops called ``names``."""

    def register(pattern: Pattern) -> Pattern:
        PATTERNS.update(dict.fromkeys(names, pattern))
        return pattern

    return register


def is_kernel(func: Operation) -> bool:
    """A public ``tt.func`` is a kernel; a private one a device function (``tt.call``)."""
    visibility = func.properties.get("sym_visibility")
    return visibility is None or visibility.data == "public"


def return_type(types: Sequence[Attribute]) -> Attribute:
    """What an ``llvm.func`` returning values of LLVM ``types`` (one per result) returns."""
    if not types:
        return llvm.LLVMVoidType()
    return types[0] if len(types) == 1 else llvm.LLVMStructType.from_type_list(list(types))


class LoweringError(PassFailure):
    """An op the lowering cannot handle; reported at the op's location."""


class FunctionLowering:
    """The state of lowering one ``tt.func``: value map, builder, ids, analyses."""

    def __init__(self, module: ModuleState, func: Operation, new_entry: Block):
        self.module = module
        self.func = func
        self.hooks: TargetHooks = module.hooks
        self.layouts: TensorLayouts = module.layouts
        self.axis: AxisInfoAnalysis = module.axis
        self.num_warps: int = module.num_warps
        self.warp_size: int = module.warp_size
        self.b = LLVMBuilder(new_entry)
        self.ids = HardwareIds(self.b, self.hooks, self.num_warps)
        self.values: dict[SSAValue, list[SSAValue]] = {}
        self.region: Region | None = None  # the new function's body
        self.blocks: dict[Block, Block] = {}  # old block -> new block (cf input)
        self.shared_memory_used = False
        # A device function's shared memory starts where its caller says (a parameter).
        self.shared_frame: SSAValue | None = None

    def begin_shared_memory_use(self, op: Operation) -> None:
        """Sync before ``op`` reuses shared memory, unless a barrier analysis does that."""
        if self.module.shared.barrier_before_use(op, self.shared_memory_used):
            self.hooks.barrier(self.b)
        self.shared_memory_used = True

    # ------------------------------------------------------------------ values

    def get(self, value: SSAValue) -> list[SSAValue]:
        """The per-thread LLVM values of a lowered TritonGPU value."""
        found = self.values.get(value)
        if found is None:
            raise KeyError(value)
        return found

    def scalar(self, value: SSAValue) -> SSAValue:
        [single] = self.get(value)
        return single

    def set(self, result: SSAValue, values: Sequence[SSAValue]) -> None:
        values = list(values)
        expected = self.layouts.num_registers(result.type)
        if len(values) != expected:
            raise AssertionError(f"lowering produced {len(values)} values for "
                                 f"{result.type}, which holds {expected} per thread")
        self.values[result] = values

    def llvm_type(self, ty: Attribute) -> Attribute:
        """The LLVM type of one element of ``ty``."""
        return convert_scalar_type(element_type(ty))

    def flat_types(self, ty: Attribute) -> list[Attribute]:
        """The LLVM types a value of ``ty`` is spelled with at a block boundary."""
        return self.module.flat_types(ty)

    def error(self, op: Operation, message: str) -> LoweringError:
        return LoweringError(op, message)

    # ------------------------------------------------------------------ blocks and regions

    def new_block(self, arg_types: Sequence[Attribute] = ()) -> Block:
        """A block, not yet placed in the function (see :meth:`place`)."""
        return Block(arg_types=list(arg_types))

    def place(self, block: Block) -> None:
        """Append ``block`` to the function body and emit into it from now on: blocks are
        placed in the order the walk reaches them, which keeps every definition before its
        uses."""
        assert self.region is not None and self.b.entry.parent is self.region
        self.b.place(block)

    def set_flat(self, results: Sequence[SSAValue], flat: Sequence[SSAValue]) -> None:
        """Record the element lists of ``results`` from ``flat``, laid out as
        :meth:`flatten` lays them out (a block's arguments, say)."""
        start = 0
        for result in results:
            count = self.layouts.num_registers(result.type)
            self.set(result, flat[start:start + count])
            start += count

    def pack(self, value: SSAValue) -> SSAValue:
        """``value`` as one LLVM value of its ``ModuleState.parameter_type`` (what a
        function takes and returns): a struct of its list, or its single value."""
        values = self.get(value)
        if not is_packed_parameter(value.type):
            [single] = values
            return single
        packed = self.b.undef(self.module.parameter_type(value.type))
        for i, element in enumerate(values):
            packed = self.b.insert_value(packed, element, i)
        return packed

    def set_packed(self, result: SSAValue, packed: SSAValue) -> None:
        """Record ``result`` from an LLVM value that :meth:`pack` made (a parameter, a
        call's result): the fields of a struct are its list."""
        if not is_packed_parameter(result.type):
            self.set(result, [packed])
            return
        types = self.flat_types(result.type)
        self.set(result, [self.b.extract_value(packed, i, t) for i, t in enumerate(types)])

    def bind_block_args(self, old: Block, new: Block) -> None:
        """Map ``old``'s arguments onto ``new``'s, element lists in order."""
        self.set_flat(old.args, new.args)

    def flatten(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        """The LLVM values of TritonGPU ``values``, concatenated (branch operands)."""
        flat: list[SSAValue] = []
        for value in values:
            flat += self.get(value)
        return flat

    def lower_ops(self, ops: Sequence[Operation] | Block) -> None:
        for op in list(ops):
            self.lower_op(op)

    def lower_op(self, op: Operation) -> None:
        pattern = PATTERNS.get(op.name)
        if pattern is None:
            raise self.error(op, f"no lowering to LLVM for '{op.name}'")
        self._check_register_count(op)
        saved = self.b.location
        self.b.location = op.location
        try:
            if self.module.shared.needs_barrier_before(op):
                self.hooks.barrier(self.b)
            pattern(self, op)
        except (TileoptError, PassFailure):
            raise
        except UnsupportedType as err:
            raise self.error(op, f"cannot lower '{op.name}': {err}") from None
        except NotImplementedError as err:  # a hook the target does not have
            raise self.error(op, f"cannot lower '{op.name}' on this target: {err}") from None
        except LayoutError as err:  # a layout the verifier let through but no math fits
            raise self.error(op, f"cannot lower: {err}") from None
        finally:
            self.b.location = saved

    def _check_register_count(self, op: Operation) -> None:
        """A layout may give each thread any number of elements (``sizePerThread =
        [33554432]`` parses); refuse before emitting millions of ops."""
        for result in op.results:
            try:
                count = self.layouts.num_registers(result.type)
            except UnsupportedType:
                continue  # the pattern reports unsupported types itself
            if count > MAX_VALUES_PER_THREAD:
                raise self.error(op, f"{result.type} gives each thread {count} elements, "
                                     f"more than the {MAX_VALUES_PER_THREAD} tileopt lowers "
                                     "(check the layout's sizePerThread)")

    def inline_region(self, region: Region, args: Sequence[SSAValue],
                      terminator: str) -> list[SSAValue]:
        """Lower a single-block region (a reduce/scan combiner) on scalar ``args``; the
        scalar values its ``terminator`` yields."""
        block = region.block
        for arg, value in zip(block.args, args, strict=True):
            self.values[arg] = [value]
        for op in block.ops:
            if op.name == terminator:
                return [self.scalar(v) for v in op.operands]
            self.lower_op(op)
        raise self.error(region.parent_op(), f"region has no '{terminator}'")

    # ------------------------------------------------------------------ function body

    def lower_body(self, old_region: Region, new_region: Region) -> None:
        self.region = new_region
        old_blocks = list(old_region.blocks)
        entry = self.b.entry
        new_region.add_block(entry)
        self.blocks[old_blocks[0]] = entry
        for old in old_blocks[1:]:
            types: list[Attribute] = []
            for arg in old.args:
                types += self.flat_types(arg.type)
            self.blocks[old] = self.new_block(types)
        for old in old_blocks:
            new = self.blocks[old]
            if new is entry:
                self.b.block = entry
            else:
                self.place(new)
                self.bind_block_args(old, new)
            self.lower_ops(old.ops)


class ModuleState:
    """The module-level state of one lowering run: the target's hooks, layouts and
    analyses, and the globals and declarations patterns add (the ``ModuleSymbols`` of
    ``target_hooks``). ``module_lowering.ModuleLowering`` adds the walk."""

    def __init__(self, module: ModuleOp, hooks: TargetHooks):
        self.module = module
        self.hooks = hooks
        self.layouts = TensorLayouts()
        self.num_warps = num_warps(module)
        self.warp_size = threads_per_warp(module, hooks.warp_size)
        if num_ctas(module) != 1:
            raise PassFailure(module, "num-ctas > 1 (thread block clusters) is not supported")
        self.axis = AxisInfoAnalysis(module)
        self.shared = SharedMemoryPlan(module)
        self._strings: dict[str, str] = {}          # text -> global name
        self._module_ops: list[Operation] = []      # globals and declarations to add
        self._declared: set[str] = set()
        self._string_texts: dict[SSAValue, str] = {}

    def flat_types(self, ty: Attribute) -> list[Attribute]:
        """The LLVM types of a value of ``ty``: one per register a thread holds, or a
        memdesc's/token's handle (``type_converter.boundary_types``)."""
        handle = boundary_types(ty, self.hooks.shared_address_space)
        if handle is not None:
            return handle
        return [convert_scalar_type(element_type(ty))] * self.layouts.num_registers(ty)

    def parameter_type(self, ty: Attribute) -> Attribute:
        """The LLVM type of a function parameter or result of type ``ty``
        (``type_converter.parameter_type``)."""
        return parameter_type(ty, self.flat_types(ty))

    def add_string(self, prefix: str, text: str) -> str:
        """The name of a module-level constant holding ``text`` (bytes, as given)."""
        name = self._strings.get(text)
        if name is None:
            name = f"{prefix}{len(self._strings)}"
            size = len(text.encode())
            glob = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(size), IntegerType(8)), name,
                                 "internal", constant=True, value=StringAttr(text))
            self._module_ops.append(glob)
            self._strings[text] = name
        return name

    def string(self, b: LLVMBuilder, prefix: str, text: str) -> SSAValue:
        """A pointer to a NUL-terminated module-level copy of ``text``, made in ``b``'s
        prologue (once per function)."""
        name = self.add_string(prefix, text + "\x00")
        value = b.prologue_value(f"string:{name}",
                                 lambda pb: pb.address_of(name, llvm.LLVMPointerType()))
        self._string_texts[value] = text
        return value

    def text_of(self, value: SSAValue) -> str | None:
        """The text behind a pointer :meth:`string` made, else None."""
        return self._string_texts.get(value)

    def declare(self, name: str, inputs: list[Attribute], output: Attribute | None) -> None:
        """Declare an external function (``vprintf``...) once."""
        if name in self._declared:
            return
        self._declared.add(name)
        fn_type = llvm.LLVMFunctionType(inputs, output if output is not None else
                                        llvm.LLVMVoidType())
        self._module_ops.append(llvm.FuncOp(name, fn_type, linkage=llvm.LinkageAttr("external")))


def shared_memory_base(fl: FunctionLowering) -> SSAValue:
    """The address this function's shared-memory offsets count from: ``@global_smem`` in
    a kernel, the frame its caller passed in a device function."""
    if fl.shared_frame is not None:
        return fl.shared_frame
    hooks = fl.hooks
    return fl.b.prologue_value("smem", lambda b: b.address_of(
        hooks.shared_memory_symbol, ptr_type(hooks.shared_address_space)))


def operand_arrays(op: Operation, count: int) -> tuple[list[int], int]:
    """The scratch layout of ``operand_scratch``: the byte offset of each operand's array
    of ``count`` elements (each 16-byte aligned, side by side) and the total bytes. The
    reduce and scan scratch rules call it too, so the allocation is what the pattern uses."""
    offsets, total = [], 0
    for value in op.operands:
        total = (total + 15) // 16 * 16
        offsets.append(total)
        total += count * max(1, bit_width(convert_scalar_type(element_type(value.type))) // 8)
    return offsets, total


def operand_scratch(fl: FunctionLowering, op: Operation,
                    count: int) -> Callable[[SSAValue, int], SSAValue]:
    """Shared-memory scratch of ``op``: an array of ``count`` elements per operand
    (:func:`operand_arrays`). Gives ``slot(index, operand)``: the address of element
    ``index`` (an i32) of that operand's array."""
    b = fl.b
    types = [fl.llvm_type(v.type) for v in op.operands]
    offsets, total = operand_arrays(op, count)
    base_offset = fl.module.shared.offset(op, total)
    fl.begin_shared_memory_use(op)
    base = shared_memory_base(fl)

    def slot(index: SSAValue, operand: int) -> SSAValue:
        ptr = b.gep(base, b.i32(base_offset + offsets[operand]), i8)
        return b.gep(ptr, index, types[operand])

    return slot


__all__ = ["FunctionLowering", "ModuleState", "LoweringError", "lowers", "PATTERNS",
           "is_kernel", "return_type",
           "operand_arrays", "operand_scratch", "shared_memory_base"]
