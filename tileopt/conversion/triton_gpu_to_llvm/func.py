"""``tt.func`` -> ``llvm.func`` and ``tt.return`` -> ``llvm.return``.

A public ``tt.func`` is a kernel: it gets the target's kernel attributes (on NVIDIA
``nvvm.kernel`` and ``nvvm.reqntid = num-warps x 32``, which tileopt/target turns into
the ``ptx_kernel`` convention and launch bound) and, after its own parameters, the extra
parameters Triton 3.6 appends to every kernel (two scratch pointers on NVIDIA), so that
a launcher built for Triton's signature runs it unchanged. Parameter attributes
(``tt.divisibility``...) are kept, as Triton keeps them.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, IntegerAttr, i1
from xdsl.ir import Block, Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers


def build_llvm_func(module, func: Operation) -> tuple[llvm.FuncOp, Block]:
    """The empty ``llvm.func`` for ``func`` and its entry block (arguments in place)."""
    fn_type = func.properties["function_type"]
    assert isinstance(fn_type, FunctionType)
    if fn_type.outputs.data:
        raise module_error(func, "functions returning values are not supported yet")
    visibility = func.properties.get("sym_visibility")
    is_kernel = visibility is None or visibility.data == "public"
    if not is_kernel:
        raise module_error(func, "non-kernel functions (tt.call) are not supported yet")
    inputs = []
    for ty in fn_type.inputs.data:
        if module.layouts.num_registers(ty) != 1 or hasattr(ty, "encoding"):
            raise module_error(func, f"kernel parameter of type {ty} is not a scalar")
        from tileopt.conversion.type_converter import convert_scalar_type

        inputs.append(convert_scalar_type(ty))
    extra = module.hooks.extra_kernel_arguments()
    arg_attrs = func.properties.get("arg_attrs")
    new_arg_attrs = None
    if isinstance(arg_attrs, ArrayAttr):
        new_arg_attrs = ArrayAttr([*arg_attrs.data, *(DictionaryAttr({}) for _ in extra)])
    entry = Block(arg_types=[*inputs, *extra])
    attributes = {"noinline": IntegerAttr(0, i1)}
    attributes.update(module.hooks.kernel_attributes(module.num_warps, module.warp_size))
    new_func = llvm.FuncOp(
        func.properties["sym_name"],
        llvm.LLVMFunctionType([*inputs, *extra], llvm.LLVMVoidType()),
        linkage=llvm.LinkageAttr("external"),
        other_props={"arg_attrs": new_arg_attrs},
        extra_attrs=attributes,
    )
    new_func.location = func.location
    for old, new in zip(func.regions[0].blocks.first.args, entry.args):
        new.name_hint = old.name_hint
    return new_func, entry


def module_error(op: Operation, message: str):
    from tileopt.conversion.triton_gpu_to_llvm.lowering import LoweringError

    return LoweringError(op, message)


@lowers("tt.return")
def _return(fl: FunctionLowering, op: Operation) -> None:
    if op.operands:
        raise fl.error(op, "returning values is not supported yet")
    fl.b.insert(llvm.ReturnOp())
