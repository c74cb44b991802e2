"""LLVM itself, through ``llvmlite.binding``: parse, verify, link, optimise, emit code.

Everything here turns LLVM's failures into ``TileoptError``s. Parsing and verification
report errors as exceptions; instruction selection does not: an intrinsic the target lacks
(``llvm.amdgcn.*`` in NVPTX, wgmma on sm_80) ends in ``LLVM ERROR: Cannot select`` and
``abort()``. So optimisation and code generation run in a forked child process; if LLVM
kills the child, the parent reports LLVM's last message instead of dying with it.
(``TILEOPT_LLVM_IN_PROCESS=1`` runs them in-process, for debugging.)

Process-wide LLVM options are those Triton sets for every compilation:
``-nvptx-short-ptr`` (32-bit shared/local pointers, the ``p3:32:32`` data layout),
``-nvptx-mad-wide-opt`` (``mad.wide`` for address arithmetic), and ``-nvptx-fma-level``
standing in for Triton's ``AllowFPOpFusion = Fast`` (llvmlite cannot set target options).
That option alone only reaches NVPTX's own multiply-add combine, which declines an
``fmul`` with several users; LLVM's generic combine fuses those too under ``Fast``, but
without it only where both instructions carry ``contract``: ``with_contraction`` gives every
float operation that flag just before code generation (not before ``-O3``, which Triton
runs without it), so that the fused multiply-adds and their rounding are Triton's.
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import re
import sys
import tempfile
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from functools import cache

import llvmlite.binding as llvm

from tileopt.ir import TileoptError
from tileopt.ir.diagnostics import did_you_mean
from tileopt.target.gpu_target import GPUTarget

_LOCATION = re.compile(r"<string>:(\d+):(\d+): error: (.*)")


@cache
def initialize() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.set_option("tileopt", "-nvptx-short-ptr")
    llvm.set_option("tileopt", "-nvptx-mad-wide-opt")


def set_fp_fusion(enabled: bool) -> None:
    """Allow (Triton's default) or forbid fusing float multiply-adds in NVPTX code generation."""
    llvm.set_option("tileopt", f"-nvptx-fma-level={2 if enabled else 0}")


_FLOAT_OP = re.compile(r"(= (?:fadd|fsub|fmul|fneg))((?: (?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc))*)")


def with_contraction(module: llvm.ModuleRef) -> llvm.ModuleRef:
    """``module`` with ``contract`` on every ``fadd``/``fsub``/``fmul``/``fneg`` (see the
    module docstring); the flags already there are kept."""

    def flag(match: re.Match) -> str:
        flags = match.group(2)
        return match.group(0) if " contract" in flags or " fast" in flags else \
            f"{match.group(1)}{flags} contract"

    return parse(_FLOAT_OP.sub(flag, str(module)), "<module before code generation>")


def parse(text: str, filename: str = "<llvm-ir>") -> llvm.ModuleRef:
    """Parse and verify LLVM IR text; errors carry the line and column LLVM reports."""
    initialize()
    try:
        module = llvm.parse_assembly(text)
    except RuntimeError as err:
        message = str(err)
        if match := _LOCATION.search(message):
            raise TileoptError(f"invalid LLVM IR: {match.group(3)}", filename,
                               int(match.group(1)), int(match.group(2))) from None
        raise TileoptError(f"invalid LLVM IR: {message.strip()}", filename) from None
    verify(module, filename)
    return module


def verify(module: llvm.ModuleRef, filename: str = "<llvm-ir>") -> None:
    try:
        module.verify()
    except RuntimeError as err:
        raise TileoptError(f"LLVM IR does not verify: {_first_lines(str(err))}", filename) from None
    unknown = [f.name for f in module.functions
               if f.is_declaration and f.name.startswith("llvm.") and not list(f.attributes)]
    if unknown:
        # Intrinsic declarations get their attributes from LLVM's intrinsic table; a name
        # LLVM does not know has none and would be emitted as a call of a missing function.
        raise TileoptError(f"unknown LLVM intrinsic: @{', @'.join(sorted(unknown))}", filename)


def _first_lines(text: str, count: int = 6) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return "\n".join(lines[:count])


_KNOWN_PROCESSORS: set[tuple[str, str]] = set()
"""(triple, processor) pairs LLVM has accepted in this process."""

EXAMPLE_PROCESSORS = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120",
                      "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1101", "gfx1200", "gfx1201")


@contextmanager
def _native_stderr_captured(into: list[str]):
    """What C++ code (LLVM) writes on file descriptor 2 meanwhile, kept off the terminal."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            into.append(capture.read().decode(errors="replace"))


def target_machine(target: GPUTarget, opt_level: int = 3) -> llvm.TargetMachine:
    """The target machine Triton builds: PIC, ``-O3`` code generation, verbose assembly.

    A processor LLVM does not know is an error here: LLVM itself only warns (on stderr, once
    per use) and goes on with a generic processor that then cannot select GPU intrinsics."""
    initialize()
    first_use = (target.triple, target.arch) not in _KNOWN_PROCESSORS
    said: list[str] = []
    try:
        llvm_target = llvm.Target.from_triple(target.triple)
        with _native_stderr_captured(said) if first_use else nullcontext():
            machine = llvm_target.create_target_machine(
                cpu=target.arch, features=target.features, opt=opt_level, reloc="pic",
                codemodel="default")
    except RuntimeError as err:
        raise TileoptError(f"LLVM has no target machine for {target.arch}: {err}") from None
    if first_use:
        if "is not a recognized processor" in "".join(said):
            raise TileoptError(f"unknown GPU architecture '{target.arch}': LLVM has no such "
                               f"{'AMD' if target.vendor == 'amd' else 'NVIDIA'} processor"
                               + did_you_mean(target.arch, EXAMPLE_PROCESSORS,
                                                          " (e.g. sm_90a, gfx942)"))
        _KNOWN_PROCESSORS.add((target.triple, target.arch))
    machine.set_asm_verbosity(True)
    return machine


def data_layout(target: GPUTarget) -> str:
    return str(target_machine(target).target_data)


def prepare_for_target(module: llvm.ModuleRef, target: GPUTarget) -> None:
    module.triple = target.triple
    module.data_layout = data_layout(target)


def inline_everything(module: llvm.ModuleRef) -> None:
    """Triton inlines every function not marked ``noinline`` before code generation."""
    for function in module.functions:
        if not function.is_declaration and "noinline" not in _attribute_words(function):
            function.add_function_attribute("alwaysinline")


def _attribute_words(function: llvm.ValueRef) -> set[str]:
    words: set[str] = set()
    for attr in function.attributes:
        words.update((attr.decode() if isinstance(attr, bytes) else str(attr)).split())
    return words


def optimize(module: llvm.ModuleRef, machine: llvm.TargetMachine | None, opt_level: int,
             drop_unused: bool = False) -> None:
    """LLVM's default ``-O<n>`` pipeline (loop unrolling and vectorisers on, as in Triton)
    for ``machine`` (the GPU's: see docs/lowering.md); at ``-O0`` only the always-inliner
    (Triton's ``translate_to_asm``), and the removal of unused internal functions if
    ``drop_unused`` (after linking a device library)."""
    tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    tuning.loop_unrolling = True
    tuning.loop_interleaving = True
    tuning.loop_vectorization = True
    tuning.slp_vectorization = True
    builder = llvm.create_pass_builder(machine, tuning)
    if opt_level > 0:
        builder.getModulePassManager().run(module, builder)
    else:
        manager = llvm.create_new_module_pass_manager()
        manager.add_always_inliner_pass()
        if drop_unused:
            manager.add_global_dead_code_eliminate_pass()
        manager.add_verifier()
        manager.run(module, builder)


def drop_unused(module: llvm.ModuleRef, machine: llvm.TargetMachine) -> None:
    """Remove the internal functions and discardable globals nothing uses (after linking a
    device library: only what the kernel calls stays)."""
    manager = llvm.create_new_module_pass_manager()
    manager.add_global_dead_code_eliminate_pass()
    manager.run(module, llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options()))


def link_bitcode(module: llvm.ModuleRef, path: str) -> list[str]:
    """Link a bitcode library into ``module``; its functions become internal so that the
    optimiser inlines the ones used and drops the rest. Returns the linked function names."""
    try:
        with open(path, "rb") as handle:
            library = llvm.parse_bitcode(handle.read())
    except (OSError, RuntimeError) as err:
        raise TileoptError(f"cannot read the device library {path}: {err}") from None
    library.triple = module.triple
    library.data_layout = module.data_layout
    defined = {f.name for f in library.functions if not f.is_declaration}
    try:
        module.link_in(library)
    except RuntimeError as err:
        raise TileoptError(f"cannot link the device library {path}: {err}") from None
    # The linker leaves out the library's linkonce functions that nothing calls.
    linked = [f for f in module.functions if f.name in defined and not f.is_declaration]
    for function in linked:
        function.linkage = "internal"
    return [f.name for f in linked]


def run_isolated(work: Callable[[], bytes], what: str) -> bytes:
    """Run ``work`` (LLVM code generation) in a forked child; LLVM aborts become errors."""
    if not hasattr(os, "fork") or os.environ.get("TILEOPT_LLVM_IN_PROCESS") == "1":
        return work()
    read_end, write_end = os.pipe()
    with tempfile.TemporaryFile() as stderr_file:
        pid = os.fork()
        if pid == 0:  # child: never returns
            status = 0
            try:
                os.close(read_end)
                os.dup2(stderr_file.fileno(), 2)
                # An abort is expected here; no Python traceback on the parent's terminal.
                faulthandler.disable()
                try:
                    payload = b"\0" + work()
                except TileoptError as err:
                    fields = (err.message, err.file, err.line, err.col)
                    payload, status = b"\1" + pickle.dumps(fields), 1
                except BaseException as err:  # noqa: BLE001 - reported to the parent
                    payload, status = b"\2" + f"{type(err).__name__}: {err}".encode(), 1
                with os.fdopen(write_end, "wb") as out:
                    out.write(payload)
            finally:
                os._exit(status)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as incoming:
            payload = incoming.read()
        _, status = os.waitpid(pid, 0)
        if payload[:1] == b"\0" and os.waitstatus_to_exitcode(status) == 0:
            return payload[1:]
        if payload[:1] == b"\1":
            raise TileoptError(*pickle.loads(payload[1:]))
        if payload[:1] == b"\2":
            raise TileoptError(f"{what} failed: {payload[1:].decode(errors='replace')}")
        stderr_file.seek(0)
        return _crashed(what, stderr_file.read().decode(errors="replace"), status)


def _crashed(what: str, stderr: str, status: int) -> bytes:
    lines = [line for line in stderr.splitlines() if line.strip()]
    llvm_lines = [line for line in lines if line.startswith("LLVM ERROR")]
    detail = (llvm_lines or lines or [f"exit status {os.waitstatus_to_exitcode(status)}"])[-1]
    detail = detail.removeprefix("LLVM ERROR: ")
    raise TileoptError(f"LLVM failed during {what}: {detail}")
