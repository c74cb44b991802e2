"""Function-level LLVM IR of an ``llvm.func``: linkage, calling convention, attributes.

What MLIR's translation does for the attributes an ``llvm.func`` carries, plus what
Triton 3.6's ``make_llir`` adds on top for each vendor:

- NVIDIA: ``nvvm.kernel`` makes a ``ptx_kernel`` function; ``nvvm.reqntid``/``maxntid``/
  ``cluster_dim``/``minctasm``/``maxnreg`` become the ``"nvvm.reqntid"="128"``-style
  function attributes LLVM 22's NVPTX back end reads.
- AMD: the kernel gets the ``amdgpu_kernel`` convention, ``"amdgpu-flat-work-group-size"=
  "1,<warps x wave size>"``, ``"amdgpu-waves-per-eu"="0, 0"`` (no limit),
  ``"denormal-fp-math-f32"="ieee"``, ``"uniform-work-group-size"="true"`` and ``inreg``
  arguments (the firmware preloads them
  into SGPRs), exactly as Triton's AMD back end sets them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from llvmlite import ir
from xdsl.dialects import builtin, llvm

from tileopt.dialects.ttg import num_warps, threads_per_warp
from tileopt.target.gpu_target import GPUTarget
from tileopt.target.llvmlite_additions import use_extended_attributes

# nvvm function attributes whose value (an int or an array of ints) LLVM 22 expects as a
# comma-separated string attribute of the same name.
_NVVM_STRING_ATTRS = {
    "nvvm.reqntid": "nvvm.reqntid",
    "nvvm.maxntid": "nvvm.maxntid",
    "nvvm.cluster_dim": "nvvm.cluster_dim",
    "nvvm.minctasm": "nvvm.minctasm",
    "nvvm.maxnreg": "nvvm.maxnreg",
    "nvvm.cluster_max_blocks": "nvvm.maxclusterrank",
}

# ``llvm.*`` parameter attributes MLIR accepts on function arguments, as LLVM spells them.
_ARG_FLAGS = {
    "llvm.noalias": "noalias", "llvm.nonnull": "nonnull", "llvm.noundef": "noundef",
    "llvm.inreg": "inreg", "llvm.nocapture": "captures(none)", "llvm.nofree": "nofree",
    "llvm.readonly": "readonly", "llvm.writeonly": "writeonly", "llvm.readnone": "readnone",
    "llvm.signext": "signext", "llvm.zeroext": "zeroext", "llvm.returned": "returned",
    "nvvm.grid_constant": '"nvvm.grid_constant"',
}
_ARG_INTS = {"llvm.align": "align", "llvm.dereferenceable": "dereferenceable",
             "llvm.dereferenceable_or_null": "dereferenceable_or_null"}

# AMD denormal modes Triton chooses: flushing only when the user allows it.
AMD_DENORMAL_MODE = "ieee"
AMD_WAVES_PER_EU = "0, 0"


@dataclass(frozen=True)
class ModuleLaunchInfo:
    """What the module says about the launch: ``ttg.num-warps`` x ``ttg.threads-per-warp``."""

    num_warps: int | None = None
    threads_per_warp: int | None = None

    @staticmethod
    def of(module: builtin.ModuleOp) -> ModuleLaunchInfo:
        return ModuleLaunchInfo(num_warps(module, None), threads_per_warp(module, None))


def _int_list(attr: builtin.Attribute) -> list[int] | None:
    if isinstance(attr, builtin.IntegerAttr):
        return [attr.value.data]
    if isinstance(attr, builtin.DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, builtin.ArrayAttr):
        return [a.value.data for a in attr.data if isinstance(a, builtin.IntegerAttr)]
    return None


def _truthy(attr: builtin.Attribute | None) -> bool:
    if attr is None:
        return False
    if isinstance(attr, builtin.IntegerAttr):
        return attr.value.data != 0
    return True


def is_kernel(op: llvm.FuncOp) -> bool:
    attrs = op.attributes
    return (_truthy(attrs.get("nvvm.kernel")) or _truthy(attrs.get("rocdl.kernel"))
            or op.CConv.convention.data in ("ptx_kernel", "amdgpu_kernel"))


def apply_function_attributes(fn: ir.Function, op: llvm.FuncOp, target: GPUTarget | None,
                              launch: ModuleLaunchInfo) -> None:
    use_extended_attributes(fn)
    linkage = op.linkage.linkage.data
    if linkage != "external":
        fn.linkage = linkage
    cconv = op.CConv.convention.data
    if cconv != "ccc":
        fn.calling_convention = cconv
    _apply_argument_attributes(fn, op)
    _apply_generic_attributes(fn, op)
    kernel = is_kernel(op)
    if target is not None and target.is_amd:
        if kernel:
            _make_amd_kernel(fn, op, target, launch)
        return
    if kernel:
        fn.calling_convention = "ptx_kernel"
    for name, llvm_name in _NVVM_STRING_ATTRS.items():
        if (attr := op.attributes.get(name)) is not None and (values := _int_list(attr)):
            fn.attributes.add_string(llvm_name, ",".join(str(v) for v in values))


def _apply_argument_attributes(fn: ir.Function, op: llvm.FuncOp) -> None:
    if op.arg_attrs is None:
        return
    for arg, attrs in zip(fn.args, op.arg_attrs.data):
        for name, value in attrs.data.items():
            if name in _ARG_FLAGS:
                arg.attributes.add(_ARG_FLAGS[name])
            elif name in _ARG_INTS and isinstance(value, builtin.IntegerAttr):
                setattr(arg.attributes, _ARG_INTS[name], value.value.data)


def _apply_generic_attributes(fn: ir.Function, op: llvm.FuncOp) -> None:
    props = op.properties
    attrs = op.attributes
    if props.get("no_inline") is not None or _truthy(attrs.get("noinline")):
        fn.attributes.add("noinline")
    if props.get("no_unwind") is not None:
        fn.attributes.add("nounwind")
    if props.get("optimize_none") is not None:
        fn.attributes.add("optnone")
    if (cpu := props.get("target_cpu")) is not None:
        fn.attributes.add_string("target-cpu", cpu.data)
    if (features := props.get("target_features")) is not None:
        fn.attributes.add_string("target-features",
                                 ",".join(f.data for f in features.features.data))
    for name, llvm_name in (("denormal_fp_math", "denormal-fp-math"),
                            ("denormal_fp_math_f32", "denormal-fp-math-f32")):
        value = attrs.get(name)
        if isinstance(value, builtin.StringAttr):
            fn.attributes.add_string(llvm_name, value.data)
    passthrough = props.get("passthrough") or attrs.get("passthrough")
    if isinstance(passthrough, builtin.ArrayAttr):
        for entry in passthrough.data:
            if isinstance(entry, builtin.StringAttr):
                fn.attributes.add(entry.data)
            elif isinstance(entry, builtin.ArrayAttr) and len(entry.data) == 2:
                key, value = entry.data
                fn.attributes.add_string(key.data, value.data)


def _flat_work_group_size(op: llvm.FuncOp, launch: ModuleLaunchInfo,
                          target: GPUTarget) -> str | None:
    attr = op.attributes.get("rocdl.flat_work_group_size")
    if isinstance(attr, builtin.StringAttr):
        return attr.data
    if launch.num_warps is not None:
        return f"1,{launch.num_warps * (launch.threads_per_warp or target.warp_size)}"
    for name in ("rocdl.reqd_work_group_size", "nvvm.reqntid", "nvvm.maxntid"):
        if values := _int_list(op.attributes.get(name)):
            return f"1,{math.prod(values)}"
    return None


def _make_amd_kernel(fn: ir.Function, op: llvm.FuncOp, target: GPUTarget,
                     launch: ModuleLaunchInfo) -> None:
    fn.calling_convention = "amdgpu_kernel"
    if (size := _flat_work_group_size(op, launch, target)) is not None:
        fn.attributes.add_string("amdgpu-flat-work-group-size", size)
    waves = op.attributes.get("rocdl.waves_per_eu")
    fn.attributes.add_string("amdgpu-waves-per-eu",
                             str(waves.value.data) if isinstance(waves, builtin.IntegerAttr)
                             else AMD_WAVES_PER_EU)
    if "denormal-fp-math-f32" not in fn.attributes.strings:
        fn.attributes.add_string("denormal-fp-math-f32", AMD_DENORMAL_MODE)
    # Every launch's grid is a multiple of the block (Triton launches whole blocks).
    fn.attributes.add_string("uniform-work-group-size", "true")
    for arg in fn.args:
        arg.attributes.add("inreg")
