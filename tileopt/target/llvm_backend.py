"""LLVM itself, through ``llvmlite.binding``: parse, verify, link, optimise, emit code.

Everything here turns LLVM's failures into ``TileoptError``s. Parsing and verification
report errors as exceptions; instruction selection does not: an intrinsic the target lacks
(``llvm.amdgcn.*`` in NVPTX, wgmma on sm_80) ends in ``LLVM ERROR: Cannot select`` and
``abort()``. So optimisation and code generation run in a forked child process, the LLVM
worker (``run_isolated``: forked at the first use and kept for the next ones); if LLVM
kills it, the parent reports LLVM's last message instead of dying with it, and the next
call forks a new worker. (``TILEOPT_LLVM_IN_PROCESS=1`` runs them in-process, for
debugging.)

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

import atexit
import faulthandler
import os
import pickle
import re
import resource
import signal
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import cache

from tileopt.ir import TileoptError
from tileopt.ir.diagnostics import did_you_mean
from tileopt.target.gpu_target import GPUTarget

_LOCATION = re.compile(r"<string>:(\d+):(\d+): error: (.*)")


class _LLVMOnFirstUse:
    """``llvmlite.binding``, loaded when first used: loading LLVM's library costs about 45 ms
    CPU, which a process whose LLVM work all runs in its worker (``llvm_call``) never pays;
    the worker pays it while the process runs its passes (``start_worker``)."""

    def __getattr__(self, name: str):
        global llvm
        import llvmlite.binding

        llvm = llvmlite.binding
        return getattr(llvm, name)


llvm = _LLVMOnFirstUse()


def loaded_here() -> bool:
    """Whether this process has loaded LLVM's library."""
    return "llvmlite.binding" in sys.modules


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

    # The module was verified; flags on float operations cannot make it invalid.
    return parse(_FLOAT_OP.sub(flag, str(module)), "<module before code generation>",
                 verified=True, current_debug_info=True)


def parse(text: str, filename: str = "<llvm-ir>", *, verified: bool = False,
          current_debug_info: bool = False) -> llvm.ModuleRef:
    """Parse and verify LLVM IR text (``verified``: known valid, not verified again);
    errors carry the line and column LLVM reports.

    ``current_debug_info``: the text is LLVM's or the translation's, whose debug info has
    LLVM's current version; LLVM's parser then skips its debug info upgrade, which would
    verify the whole module once more (about a quarter of the parse)."""
    initialize()
    _upgrade_debug_info(not current_debug_info)
    try:
        module = llvm.parse_assembly(text)
    except RuntimeError as err:
        message = str(err)
        if match := _LOCATION.search(message):
            raise TileoptError(f"invalid LLVM IR: {match.group(3)}", filename,
                               int(match.group(1)), int(match.group(2))) from None
        raise TileoptError(f"invalid LLVM IR: {message.strip()}", filename) from None
    if not verified:
        verify(module, filename)
    return module


_UPGRADING_DEBUG_INFO = [True]
"""The state of LLVM's process-wide ``-disable-auto-upgrade-debug-info`` (negated)."""


def _upgrade_debug_info(enabled: bool) -> None:
    if _UPGRADING_DEBUG_INFO[0] != enabled:
        llvm.set_option("tileopt", f"-disable-auto-upgrade-debug-info={str(not enabled).lower()}")
        _UPGRADING_DEBUG_INFO[0] = enabled


TRANSLATED = "<translated LLVM IR>"
"""The file named by LLVM's errors in a translation's text (the translation blames the op)."""


@dataclass(frozen=True)
class TranslatedIR:
    """A translation's LLVM IR as llvmlite prints it (every value named), and the llvmlite
    module it came from: code generation reads the declared functions off the module and
    hands the text to the LLVM worker, which parses, verifies and unnames it (``read``),
    so that this process neither parses it nor prints LLVM's form of it."""

    text: str
    module: object  # llvmlite.ir.Module


def source_module(source: str | TranslatedIR, filename: str):
    """What code generation reads the declared functions off (``.functions``, each with
    ``.name`` and ``.is_declaration``): a translation's llvmlite module, else the LLVM IR
    text parsed and verified (its errors found here, with their location)."""
    if isinstance(source, TranslatedIR):
        return source.module
    if loaded_here():
        return parse(source, filename)
    # Parsed and verified in the worker (a process that never loaded LLVM keeps it so):
    # what comes back is the functions' names and whether each is a declaration.
    listed = run_isolated(_functions_of, (source, filename), "the parse of the LLVM IR")
    return _Functions([_Function(line[2:], line[0] == "1")
                       for line in listed.decode().splitlines()])


@dataclass(frozen=True)
class _Function:
    name: str
    is_declaration: bool


@dataclass(frozen=True)
class _Functions:
    functions: list[_Function]


def _functions_of(text: str, filename: str) -> bytes:
    return "\n".join(f"{int(f.is_declaration)} {f.name}"
                     for f in parse(text, filename).functions).encode()


def worker_source(source: str | TranslatedIR) -> tuple[str, bool]:
    """(text, whether it is a translation's) for ``read`` in the LLVM worker."""
    return (source.text, True) if isinstance(source, TranslatedIR) else (source, False)


def read(text: str, translated: bool, filename: str) -> llvm.ModuleRef:
    """The module code generation starts from (in the LLVM worker): LLVM IR text that
    ``source_module`` parsed and verified, or a translation's text, parsed and verified here
    (errors name ``TRANSLATED``) with its values unnamed, as ``module_to_llvm_ir`` gives it."""
    if not translated:
        return parse(text, filename, verified=True)
    module = parse(text, TRANSLATED, current_debug_info=True)
    drop_value_names(module)
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


_MACHINES: dict[tuple[GPUTarget, int], llvm.TargetMachine] = {}


def target_machine(target: GPUTarget, opt_level: int = 3) -> llvm.TargetMachine:
    """The target machine Triton builds: PIC, ``-O3`` code generation, verbose assembly.

    One per target and level, kept for the next modules (a target machine serves module
    after module; making one cost 0.5 to 1 ms, twice per kernel). A processor LLVM does not
    know is an error here: LLVM itself only warns (on stderr, once per use) and goes on
    with a generic processor that then cannot select GPU intrinsics."""
    machine = _MACHINES.get((target, opt_level))
    if machine is None:
        machine = _MACHINES[(target, opt_level)] = _new_target_machine(target, opt_level)
    return machine


def _new_target_machine(target: GPUTarget, opt_level: int) -> llvm.TargetMachine:
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


@cache
def data_layout(target: GPUTarget) -> str:
    """The target's data layout, asked where LLVM is (``llvm_call``): the translation to LLVM
    IR needs it before LLVM has seen the module."""
    return llvm_call(_data_layout_bytes, (target,), f"the data layout of {target.arch}").decode()


def _data_layout_bytes(target: GPUTarget) -> bytes:
    return str(target_machine(target).target_data).encode()


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


def drop_value_names(module: llvm.ModuleRef) -> None:
    """Drop the names of arguments, blocks and instructions, so that LLVM numbers them (as
    in mlir-translate's output: llvmlite names every value); global names stay.

    LLVM's ``strip-nondebug`` pass does it in one walk (setting each name from Python is a
    foreign call per value, 5 us each); it also drops the names of globals with local
    linkage, put back here, and of named struct types, which the translation never makes."""
    local = [(value, value.name) for value in (*module.global_variables, *module.functions)
             if value.linkage in (llvm.Linkage.internal, llvm.Linkage.private)]
    manager = llvm.create_new_module_pass_manager()
    manager.add_strip_non_debug_symbols_pass()
    manager.run(module, llvm.create_pass_builder(None, llvm.create_pipeline_tuning_options()))
    for value, name in local:
        value.name = name


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


def run_isolated(function: Callable[..., bytes], args: tuple, what: str) -> bytes:
    """``function(*args)`` (LLVM optimisation and code generation) in this process's LLVM
    worker; an LLVM abort kills only the worker and becomes an error naming ``what``.

    ``function`` is a module-level function and ``args`` are picklable: the worker is a
    child forked at the first call and kept for the next ones, so it reads nothing of this
    process's state from after that fork but what the call passes. Forking a child per
    call cost about 10 ms CPU per kernel (copy-on-write faults on both sides of the fork,
    LLVM's lazily built tables built again in every child)."""
    if not hasattr(os, "fork") or os.environ.get("TILEOPT_LLVM_IN_PROCESS") == "1":
        return function(*args)
    with _WORKER_LOCK:  # one call at a time on the worker's pipes
        status, payload = _Worker.current().call(function, args)
    if status == 0:
        return payload
    if status == 1:
        raise TileoptError(*pickle.loads(payload)) from None
    if status == 2:
        raise TileoptError(f"{what} failed: {payload.decode(errors='replace')}")
    return _crashed(what, payload.decode(errors="replace"), status - 3)


def llvm_call(function: Callable[..., bytes], args: tuple, what: str) -> bytes:
    """``function(*args)`` where LLVM is: here if this process has loaded LLVM's library,
    else in the LLVM worker (``run_isolated``), so that a process whose LLVM work all goes
    through here never loads the library itself (its worker does, in parallel)."""
    if loaded_here():
        return function(*args)
    return run_isolated(function, args, what)


def start_worker() -> None:
    """Fork the LLVM worker now, so that it loads LLVM's library (about 45 ms) while this
    process goes on (the command does this as soon as it knows it will emit code, before it
    runs any pass). Nothing to gain where LLVM is loaded already (a compile server's child)
    or runs in-process: the worker, if any, is forked at its first call then."""
    if hasattr(os, "fork") and os.environ.get("TILEOPT_LLVM_IN_PROCESS") != "1" \
            and not loaded_here():
        with _WORKER_LOCK:
            _Worker.current()


def worker_cpu_seconds() -> float:
    """CPU seconds the live LLVM worker has used (user + system): a waited-for child's time
    is in ``RUSAGE_CHILDREN``, the worker's is not until it ends (then it moves there)."""
    worker = _Worker.live
    return worker.cpu if worker is not None and worker.parent == os.getpid() else 0.0


_WORKER_LOCK = threading.Lock()
_LENGTH = struct.Struct("<Q")
_REPLY = struct.Struct("<Bd")  # status (0 result, 1 TileoptError, 2 other error), CPU


def _send(fd: int, message: bytes) -> None:
    with memoryview(_LENGTH.pack(len(message)) + message) as view:
        while view:
            view = view[os.write(fd, view):]


def _receive(fd: int) -> bytes | None:
    """One message, or None at the end of the stream (the other side is gone)."""
    chunks, wanted, header = [], _LENGTH.size, True
    while True:
        while wanted:
            chunk = os.read(fd, min(wanted, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            wanted -= len(chunk)
        data = b"".join(chunks)
        if not header:
            return data
        header, chunks, (wanted,) = False, [], _LENGTH.unpack(data)
        if not wanted:
            return b""


class _Worker:
    """A child forked from this process that runs LLVM work, call after call."""

    live: _Worker | None = None

    @classmethod
    def current(cls) -> _Worker:
        worker = cls.live
        if worker is not None and (worker.parent != os.getpid() or worker.exited()):
            worker = None  # a forked copy of this process, or a worker that was killed
        if worker is None:
            worker = cls.live = cls()
        return worker

    def __init__(self) -> None:
        self.parent = os.getpid()
        self.cpu = 0.0
        self.calls = 0
        self.stderr = tempfile.TemporaryFile()
        requests, self.requests = os.pipe()
        self.replies, replies = os.pipe()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the worker: never returns
            try:
                os.close(self.requests)
                os.close(self.replies)
                os.dup2(self.stderr.fileno(), 2)
                # An abort is expected here; no Python traceback on the parent's terminal.
                faulthandler.disable()
                # Ctrl-C is for the parent; the worker ends when the parent closes the pipe.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                _serve(requests, replies)
            finally:
                os._exit(0)
        os.close(requests)
        os.close(replies)

    def call(self, function: Callable[..., bytes], args: tuple) -> tuple[int, bytes]:
        """(status, payload); status 3 + the exit status when the worker died, with what
        it wrote on stderr as the payload."""
        self.calls += 1
        try:
            _send(self.requests, pickle.dumps((function, args)))
            reply = _receive(self.replies)
        except BrokenPipeError:
            reply = None
        except BaseException:
            # Interrupted (Ctrl-C) mid-call: its reply would answer the next call.
            self.close(kill=True)
            raise
        if reply is None:
            self.stderr.seek(0)
            said = self.stderr.read()
            return 3 + self.close(), said
        status, self.cpu = _REPLY.unpack_from(reply)
        return status, reply[_REPLY.size:]

    def exited(self) -> bool:
        if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
            return False
        self.pid = None  # reaped
        self.close()
        return True

    def close_pipes(self) -> None:
        """Close this side's ends of the pipes (the worker stops when its requests end)."""
        for fd in (self.requests, self.replies):
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self, kill: bool = False) -> int:
        """End the worker (it stops when its requests pipe closes, or at once with
        ``kill``); its exit status."""
        if kill and self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)
        self.close_pipes()
        self.stderr.close()
        if _Worker.live is self:
            _Worker.live = None
        if self.pid is None:
            return 0
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        return status


def _serve(requests: int, replies: int) -> None:
    """The worker's loop: run each request, reply with its result and the CPU used so far;
    what LLVM writes on stderr (fd 2, a file) is kept for the current request only.
    LLVM's library is loaded first: a worker started early (``start_worker``) loads it
    while its parent still runs passes."""
    initialize()
    while (message := _receive(requests)) is not None:
        os.ftruncate(2, 0)
        os.lseek(2, 0, os.SEEK_SET)
        try:
            function, args = pickle.loads(message)
            status, payload = 0, function(*args)
        except TileoptError as err:
            status, payload = 1, pickle.dumps((err.message, err.file, err.line, err.col,
                                               err.notes))
        except BaseException as err:  # noqa: BLE001 - reported to the parent
            status, payload = 2, f"{type(err).__name__}: {err}".encode()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        _send(replies, _REPLY.pack(status, usage.ru_utime + usage.ru_stime) + payload)


@atexit.register
def _end_worker() -> None:
    # Waited for, so that the worker's CPU time counts in this process's children's.
    worker = _Worker.live
    if worker is not None and worker.parent == os.getpid():
        # One started early for a run that failed before its code generation is not
        # waited for while it loads LLVM.
        worker.close(kill=worker.calls == 0)


def _forget_worker_in_forked_child() -> None:
    # A fork of this process must not talk to this process's worker, nor keep its pipe
    # open (the worker ends when the pipe closes).
    worker = _Worker.live
    if worker is not None:
        worker.close_pipes()
        _Worker.live = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_worker_in_forked_child)


def _crashed(what: str, stderr: str, status: int) -> bytes:
    lines = [line for line in stderr.splitlines() if line.strip()]
    llvm_lines = [line for line in lines if line.startswith("LLVM ERROR")]
    detail = (llvm_lines or lines or [f"exit status {os.waitstatus_to_exitcode(status)}"])[-1]
    detail = detail.removeprefix("LLVM ERROR: ")
    raise TileoptError(f"LLVM failed during {what}: {detail}")
