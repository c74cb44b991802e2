"""The driver of the TritonGPU -> LLVM lowering: one walk that rebuilds each function.

MLIR's dialect conversion replaces ops one at a time and keeps every tensor as an
``!llvm.struct`` between them, with ``unrealized_conversion_cast`` glue. Here each
``tt.func`` is rebuilt into a fresh ``llvm.func`` in one walk over its blocks (see
``lowering.py`` for how patterns see values), and the old function is dropped at the end.

A public ``tt.func`` is a kernel: it gets the target's kernel attributes (on NVIDIA
``nvvm.kernel`` and ``nvvm.reqntid = num-warps x 32``, which tileopt/target turns into
the ``ptx_kernel`` convention and launch bound) and, after its own parameters, the extra
parameters Triton 3.6 appends to every kernel (two scratch pointers on NVIDIA), so that
a launcher built for Triton's signature runs it unchanged. A private ``tt.func`` is a
device function that ``tt.call`` reaches (see ``_build_llvm_func``). Parameters may be
tensors and memdescs (Triton's lit tests write kernels so too), each one struct of the
thread's values, as Triton's type converter makes them; parameter attributes
(``tt.divisibility``...) are kept, as Triton keeps them.

A file of several top-level modules read without ``-split-input-file`` is one unnamed
module around them (MLIR's parser makes it); each module inside is lowered on its own
(``lowering_units``), with its own attributes and ``@global_smem``.

Importing this module imports every pattern family, which registers its patterns.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    i1,
)
from xdsl.ir import Attribute, Block, Operation

# Each family registers its patterns in lowering.PATTERNS when imported.
from tileopt.conversion.triton_gpu_to_llvm import (  # noqa: F401
    async_copy,
    atomics,
    barrier_assume,
    calls,
    control_flow,
    convert_layout,
    dot,
    elementwise,
    gather_histogram,
    global_scratch,
    load_store,
    memory,
    print_assert,
    program_id,
    reduce,
    scan,
    shared_view,
    view_ops,
)
from tileopt.conversion.llvm_builder import drop_unused, ptr_type
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    LoweringError,
    ModuleState,
    is_kernel,
    return_type,
)
from tileopt.conversion.type_converter import UnsupportedType
from tileopt.passes import PassFailure


class ModuleLowering(ModuleState):
    """Lowers every ``tt.func`` of a module and adds the module-level LLVM globals."""

    def run(self) -> None:
        _check_module_level(self.module)
        funcs = [op for op in self.module.ops if op.name == "tt.func"]
        for func in funcs:
            new_func = self._lower_function(func)
            self.module.body.block.insert_op_before(new_func, func)
            func.detach()
            func.erase(safe_erase=False)
        self._add_shared_memory_global()
        block = self.module.body.block
        for op in self._module_ops:
            op.location = self.module.location
            block.insert_op_before(op, block.first_op) if block.first_op else block.add_op(op)
        self.shared.record_total(self.module)

    def _lower_function(self, func: Operation) -> llvm.FuncOp:
        new_func, entry = self._build_llvm_func(func)
        lowering = FunctionLowering(self, func, entry)
        lowering.b.location = func.location
        for arg, param in zip(func.regions[0].blocks.first.args, entry.args):
            lowering.set_packed(arg, param)
        if not is_kernel(func):
            lowering.shared_frame = entry.args[-1]
        lowering.lower_body(func.regions[0], new_func.body)
        drop_unused(new_func.body)
        return new_func

    def _build_llvm_func(self, func: Operation) -> tuple[llvm.FuncOp, Block]:
        """The empty ``llvm.func`` for ``func`` and its entry block (arguments in place).

        Every function takes one parameter per argument (``ModuleState.parameter_type``:
        a tensor or memdesc is a struct, as Triton's) with its attributes
        (``tt.divisibility``...). A kernel then takes the target's extra parameters; a
        device function (a private ``tt.func``, reached by ``tt.call``) the shared memory
        its frame starts at (``FunctionLowering.shared_frame``), and it returns its
        results in the same form (several in a struct)."""
        fn_type = func.properties["function_type"]
        assert isinstance(fn_type, FunctionType)
        kernel = is_kernel(func)
        if kernel and fn_type.outputs.data:
            raise LoweringError(func, "a kernel cannot return values")
        try:
            inputs = [self.parameter_type(ty) for ty in fn_type.inputs.data]
            outputs = [self.parameter_type(ty) for ty in fn_type.outputs.data]
        except UnsupportedType as err:
            raise LoweringError(func, f"cannot lower the signature: {err}") from None
        extra = (self.hooks.extra_kernel_arguments() if kernel
                 else [ptr_type(self.hooks.shared_address_space)])
        arg_attrs = func.properties.get("arg_attrs")
        new_arg_attrs = None
        if isinstance(arg_attrs, ArrayAttr):
            new_arg_attrs = ArrayAttr([*arg_attrs.data, *[DictionaryAttr({})] * len(extra)])
        entry = Block(arg_types=[*inputs, *extra])
        if kernel:
            attributes = {"noinline": IntegerAttr(0, i1)}
            attributes.update(self.hooks.kernel_attributes(self.num_warps, self.warp_size))
            result: Attribute = llvm.LLVMVoidType()
        else:
            noinline = func.attributes.get("noinline")
            inline_never = isinstance(noinline, IntegerAttr) and noinline.value.data != 0
            attributes = {"noinline": IntegerAttr(int(inline_never), i1)}
            result = return_type(outputs)
        new_func = llvm.FuncOp(
            func.properties["sym_name"],
            llvm.LLVMFunctionType([*inputs, *extra], result),
            linkage=llvm.LinkageAttr("external" if kernel else "internal"),
            other_props={"arg_attrs": new_arg_attrs},
            extra_attrs=attributes,
        )
        new_func.location = func.location
        return new_func, entry

    def _add_shared_memory_global(self) -> None:
        name = self.hooks.shared_memory_symbol
        for op in self.module.ops:
            if isinstance(op, llvm.GlobalOp) and op.sym_name.data == name:
                return
        array = llvm.LLVMArrayType(IntAttr(0), IntegerType(8))
        glob = llvm.GlobalOp(array, name, "external", addr_space=self.hooks.shared_address_space,
                             alignment=16)
        glob.location = self.module.location
        first = self.module.body.block.first_op
        if first is None:
            self.module.body.block.add_op(glob)
        else:
            self.module.body.block.insert_op_before(glob, first)


def lowering_units(module: ModuleOp) -> list[ModuleOp]:
    """The modules a lowering pass lowers one by one: ``module`` itself, unless it holds
    modules; then those (in order, each by this rule), and ``module`` after them only if
    it holds functions of its own."""
    nested = [op for op in module.ops if isinstance(op, ModuleOp)]
    if not nested:
        return [module]
    _check_module_level(module)
    units = [unit for inner in nested for unit in lowering_units(inner)]
    if any(op.name == "tt.func" for op in module.ops):
        units.append(module)
    return units


def _check_module_level(module: ModuleOp) -> None:
    """Refuse an op the lowering does not know at module level (an LLVM function or
    global already there stays, as in Triton's lit inputs)."""
    for op in module.ops:
        if op.name not in ("tt.func", "llvm.func", "llvm.mlir.global", "builtin.module"):
            raise PassFailure(op, f"cannot lower '{op.name}' at module level")


__all__ = ["ModuleLowering", "lowering_units"]
