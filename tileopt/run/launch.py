"""The Python API of tileopt-run: compile if asked, then launch a kernel on the CPU.

``run_kernel(text, args, grid)`` takes an LLVM-dialect module (or a ``.ttir``/``.ttgir``
with ``pass_pipeline``, run first, or LLVM IR text), turns it into LLVM IR with
``tileopt-translate``'s own translation, and runs the kernel over the grid with the
interpreter of ``interp.py`` and the vendor target the module's triple names.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from tileopt.driver import ir_io
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import TileoptError, make_context
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.run import values as V
from tileopt.run.interp import Executor, Target
from tileopt.run.llvm_text import Function, IRReadError, Module, read_module
from tileopt.run.memory import REGION_SHIFT, Buffer, Lanes, Memory
from tileopt.run.amdgpu import AmdgpuTarget
from tileopt.run.nvidia import NvidiaTarget
from tileopt.target import llvm_backend, looks_like_llvm_ir, translate
from tileopt.target.gpu_target import GPUTarget, parse_arch, target_of_module
from tileopt.target.nvptx import link_libdevice
from tileopt.target.function_emitter import error_at

# Threads run at once (all blocks of a chunk share each interpreter step).
LANES_PER_CHUNK = 1 << 15
# Shared memory a kernel given as LLVM IR may use: it does not say (sm_90's largest; the
# LDS of a work-group on CDNA3 and RDNA3).
DEFAULT_SHARED_BYTES = 232448
AMD_LDS_BYTES = 65536


@dataclass
class Compiled:
    llvm_ir: str
    module: Module
    shared_bytes: int
    threads: int | None
    target: GPUTarget | None = None


@dataclass
class RunResult:
    outputs: dict[int, np.ndarray]          # argument position -> its array after the launch
    reports: list[str]                      # races and uninitialised shared reads
    report_count: int
    kernel: str
    grid: tuple[int, int, int]
    threads: int
    seconds: float
    llvm_ir: str = field(repr=False, default="")


def compile_source(text: str, filename: str = "<input>", pass_pipeline: str | None = None,
                   opt_level: int = 0, start_at: str | None = None,
                   arch: str | None = None) -> Compiled:
    """The kernel's LLVM IR: ``text`` itself if it is LLVM IR, else the LLVM-dialect module
    (after ``pass_pipeline``, from its stage ``start_at`` if given, as ``tileopt
    --start-at``) translated as tileopt-translate does; with ``opt_level`` > 0,
    after LLVM's -O<n> pipeline, the IR that code generation would get. ``arch``
    (``gfx942``) names the GPU where the module does not (Triton's AMD LLVM IR), or must
    agree with the one it names."""
    if looks_like_llvm_ir(text):
        if pass_pipeline:
            raise TileoptError("--pass-pipeline needs MLIR input, not LLVM IR", filename)
        cpu = re.search(r'"target-cpu"="([\w-]+)"', text)
        target = _agreed(parse_arch(cpu.group(1)) if cpu else None, arch, filename)
        shared = AMD_LDS_BYTES if target is not None and target.is_amd else DEFAULT_SHARED_BYTES
        text = with_libdevice(text, target, filename)
        compiled = Compiled(text, _read(text, filename), shared, None, target)
        return optimized(compiled, opt_level, filename) if opt_level else compiled
    ctx = make_context()
    module = ir_io.parse(text, filename, ctx)
    if pass_pipeline:
        pipeline = resolve_pass_pipeline(pass_pipeline)
        if start_at:
            pipeline = slice_stages(pipeline, start_at, None)
        PassManager(pipeline, filename).run(ctx, module)
    foreign = next((op for op in module.ops if not op.name.startswith("llvm.")), None)
    if foreign is not None:
        hint = "" if pass_pipeline else " (compile it first: --pass-pipeline=nvidia-sm90, for instance)"
        raise error_at(foreign, f"'{foreign.name}' is not in the LLVM dialect{hint}")
    shared = _int_attr(module, "ttg.shared")
    warps = _int_attr(module, "ttg.num-warps")
    per_warp = _int_attr(module, "ttg.threads-per-warp") or 32
    target = _agreed(target_of_module(module), arch, filename)
    llvm_ir = with_libdevice(translate(module, emit="llvm-ir", filename=filename), target,
                             filename)
    compiled = Compiled(llvm_ir, _read(llvm_ir, f"<LLVM IR of {filename}>"),
                        DEFAULT_SHARED_BYTES if shared is None else shared,
                        warps * per_warp if warps else None, target)
    return optimized(compiled, opt_level, filename) if opt_level else compiled


# libdevice's functions are run from their bitcode: the module gets them as NVPTX code
# generation does (linked, inlined, the unused dropped; not optimised, so that the rest of
# the IR is as translated: __nvvm_reflect is answered by the interpreter).
_CALLS_LIBDEVICE = re.compile(r"^declare [^@]*@__nv_", re.M)


def with_libdevice(llvm_ir: str, target: GPUTarget | None, filename: str) -> str:
    """``llvm_ir`` with the libdevice functions it calls linked in (NVIDIA only)."""
    if not _CALLS_LIBDEVICE.search(llvm_ir) or (target is not None and not target.is_nvidia):
        return llvm_ir
    target = target or parse_arch("sm_90a")
    module = llvm_backend.parse(llvm_ir, filename)
    llvm_backend.prepare_for_target(module, target)
    link_libdevice(module)
    llvm_backend.inline_everything(module)
    llvm_backend.optimize(module, llvm_backend.target_machine(target), 0, drop_unused=True)
    return str(module)


def _agreed(named: GPUTarget | None, arch: str | None, filename: str) -> GPUTarget | None:
    """The module's GPU, or ``arch`` where it names none; both must agree."""
    given = parse_arch(arch) if arch else None
    if named is not None and given is not None and (named.vendor, named.arch) != \
            (given.vendor, given.arch):
        raise TileoptError(f"--arch {arch} disagrees with the module's target {named.arch}",
                           filename)
    return named or given


def _read(llvm_ir: str, filename: str) -> Module:
    """The IR read; an error in it is at its line of ``filename``."""
    try:
        return read_module(llvm_ir)
    except IRReadError as err:
        err.file = filename
        raise


def optimized(compiled: Compiled, level: int, filename: str = "<llvm-ir>") -> Compiled:
    """The kernel after LLVM's -O<level> pipeline, as tileopt-translate runs it before
    code generation."""
    target = compiled.target
    if target is None:
        raise TileoptError("an optimisation level needs the GPU, which the module does not name "
                           "(ttg.target, or \"target-cpu\" in LLVM IR)", filename)
    module = llvm_backend.parse(compiled.llvm_ir, filename)
    llvm_backend.prepare_for_target(module, target)
    llvm_backend.inline_everything(module)
    llvm_backend.optimize(module, llvm_backend.target_machine(target), level)
    return with_llvm_ir(compiled, str(module))


def with_llvm_ir(compiled: Compiled, llvm_ir: str) -> Compiled:
    """The same kernel with its LLVM IR replaced (e.g. mutated), launch facts kept."""
    return Compiled(llvm_ir, read_module(llvm_ir), compiled.shared_bytes, compiled.threads,
                    compiled.target)


def _int_attr(module: ModuleOp, name: str) -> int | None:
    attr = module.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def target_of(compiled: Compiled) -> Target:
    """The vendor target the module's triple names (NVIDIA where it names none)."""
    for line in compiled.llvm_ir.splitlines()[:8]:
        if line.startswith("target triple"):
            if "nvptx" in line:
                sm = compiled.target.capability if compiled.target is not None else None
                return NvidiaTarget(sm or 90)
            if "amdgcn" in line:
                if compiled.target is None or not compiled.target.is_amd:
                    raise TileoptError("an AMDGPU module runs with its architecture, which gives "
                                       "the wave size: --arch gfx942 or gfx1100 (the module "
                                       "does not name it)")
                return AmdgpuTarget(compiled.target)
            raise TileoptError(f"tileopt-run cannot run this target yet ({line.split('=')[1].strip()})")
    return NvidiaTarget()


def block_size(func: Function) -> int:
    """Threads per block, as the kernel declares them: NVVM's ``reqntid``, or the maximum of
    AMDGPU's ``amdgpu-flat-work-group-size`` (Triton sets it to num_warps * wave size); 0
    when the kernel does not say."""
    if "nvvm.reqntid" in func.attrs:
        return int(func.attrs["nvvm.reqntid"].split(",")[0] or 0)
    flat = func.attrs.get("amdgpu-flat-work-group-size", "")
    return int(flat.split(",")[-1]) if flat else 0


def pick_kernel(module: Module, name: str | None) -> Function:
    kernels = module.kernels()
    if name is not None:
        for k in kernels:
            if k.name == name:
                return k
        raise TileoptError(f"no kernel named '{name}' (the module defines: "
                           f"{', '.join(k.name for k in kernels) or 'none'})")
    if len(kernels) != 1:
        raise TileoptError(f"the module defines {len(kernels)} kernels "
                           f"({', '.join(k.name for k in kernels)}): pick one with --kernel")
    return kernels[0]


# Triton 3.6 kernels take a global-scratch and a profile-scratch pointer after their own.
SCRATCH_POINTERS = 2


def _params(func: Function, args: list, names: list[str]):
    """Kernel parameters from the user's arguments; the scratch pointers, unless given,
    are null."""
    params, buffers = [], []
    for pos, ((_, ty), arg) in enumerate(zip(func.params, args)):
        what = f"argument {pos} ({names[pos]})"
        if ty.kind == "ptr":
            if not isinstance(arg, np.ndarray):
                raise TileoptError(f"{what}: the kernel takes a pointer here, give a .npy array")
            buffers.append(Buffer(names[pos], np.ascontiguousarray(arg).reshape(-1).view(np.uint8).copy()))
            params.append(np.int64(len(buffers) << REGION_SHIFT))
        else:
            if isinstance(arg, np.ndarray):
                raise TileoptError(f"{what}: the kernel takes a {ty} here, give a number")
            params.append(_scalar(arg, ty, what))
    tail = func.params[-SCRATCH_POINTERS:]
    scratch = SCRATCH_POINTERS if len(tail) == SCRATCH_POINTERS and \
        all(ty.kind == "ptr" for _, ty in tail) else 0
    own = len(func.params) - scratch
    if not own <= len(args) <= len(func.params):
        shown = ", ".join(str(ty) for _, ty in func.params[:own])
        more = f", then {scratch} scratch pointers (null unless given)" if scratch else ""
        raise TileoptError(f"kernel '{func.name}' takes {own} arguments ({shown}){more}; "
                           f"got {len(args)}")
    params += [np.int64(0)] * (len(func.params) - len(args))
    return params, buffers


def _scalar(arg, ty, what):
    if ty.kind == "int":
        if isinstance(arg, float) and not float(arg).is_integer():
            raise TileoptError(f"{what}: the kernel takes an {ty} here, got {arg}")
        v = int(arg)
        lo, hi = -(1 << (ty.bits - 1)), (1 << ty.bits) - 1
        if not lo <= v <= hi:
            raise TileoptError(f"{what}: {v} does not fit in {ty}")
        return V.const_array(v, ty)
    if ty.kind == "float":
        return V.dtype(ty).type(float(arg))
    raise TileoptError(f"{what}: parameters of type {ty} are not supported")


def _module_globals(module: Module, buffers: list[Buffer]) -> dict[str, int]:
    """The module's globals with an initializer (outside shared memory), appended to
    ``buffers`` as regions of their own: name -> region."""
    regions = {}
    for name, value in module.initializers.items():
        ty, space = module.globals[name]
        if space != 3:
            buffers.append(Buffer(name, V.const_bytes(value.value, ty), is_global=True))
            regions[name] = len(buffers)
    return regions


def run_kernel(source: str | Compiled, args: list, grid, *, kernel: str | None = None,
               pass_pipeline: str | None = None, filename: str = "<input>",
               arg_names: list[str] | None = None, checks: bool = True) -> RunResult:
    compiled = source if isinstance(source, Compiled) else \
        compile_source(source, filename, pass_pipeline)
    func = pick_kernel(compiled.module, kernel)
    grid = tuple(int(g) for g in (tuple(grid) + (1, 1, 1))[:3])
    if any(g < 1 for g in grid):
        raise TileoptError(f"grid {grid} has an empty dimension")
    threads = block_size(func) or compiled.threads
    if not threads:
        raise TileoptError(f"kernel '{func.name}' does not say its block size")
    names = arg_names or [f"arg{i}" for i in range(len(args))]
    params, buffers = _params(func, args, names)
    target = target_of(compiled)
    mem = Memory(buffers, compiled.shared_bytes, checks)
    mem.global_regions = _module_globals(compiled.module, buffers)
    total = grid[0] * grid[1] * grid[2]
    per_chunk = max(1, LANES_PER_CHUNK // threads)
    start = time.perf_counter()
    for first in range(0, total, per_chunk):
        lanes = Lanes(first, min(per_chunk, total - first), threads, grid)
        mem.start_chunk(lanes)
        Executor(compiled.module, func, target, mem, lanes, params).run()
    seconds = time.perf_counter() - start
    outputs = {}
    k = 0
    for pos, arg in enumerate(args):
        if isinstance(arg, np.ndarray):
            outputs[pos] = buffers[k].data.view(arg.dtype).reshape(arg.shape)
            k += 1
    return RunResult(outputs, mem.reports, mem.report_count, func.name, grid, threads, seconds,
                     compiled.llvm_ir)
