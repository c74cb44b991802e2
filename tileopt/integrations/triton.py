"""Make Triton 3.6 compile every kernel of the process through a tileopt YAML pipeline.

In a script::

    import tileopt.integrations.triton as tileopt_triton
    tileopt_triton.use("nvidia-sm90")        # or a .yaml file, or "nvidia-sm90{num-stages=2}"

or, with no change to the script (also reaches Inductor's compile worker processes, which
inherit the environment)::

    TRITON_CACHE_MANAGER=tileopt.integrations.triton:CacheManager \\
    TILEOPT_TRITON_PIPELINE=nvidia-sm90 python train.py

How: Triton's CUDA backend builds a dict of stages (``ttir``, ``ttgir``, ``llir``, ``ptx``,
``cubin``) for each kernel and hands it to ``triton.knobs.runtime.add_stages_inspection_hook``.
The hook here replaces the first four: the first of them that runs takes the Triton module's
text (the frontend's TTIR, or the ``.ttgir``/``.ttir`` file a user compiles), runs the pipeline
from that stage to the LLVM dialect in-process, translates it to LLVM IR and PTX, and the
stages hand those texts back one by one. Triton's own ``cubin`` stage (ptxas) and launcher run
the result. What the launcher needs (``shared``, ``num_warps``, ``num_ctas``, the scratch
sizes, the kernel's name) is read from tileopt's output module and PTX.

A kernel tileopt cannot compile (an unsupported op, a failing pass, ptxas rejecting the PTX)
is compiled by Triton's own stages instead, from the untouched frontend module, and recorded
(``records()``; a log line on the ``tileopt.triton`` logger; one JSON line in
``$TILEOPT_TRITON_LOG`` when set, from every process; the text tileopt was given, as
``NAME-HASH.STAGE.mlir`` in the directory ``$TILEOPT_TRITON_DUMP_FAILED`` when set).
``use(..., fallback=False)`` (or ``TILEOPT_TRITON_FALLBACK=0``) raises instead.

Triton caches compiled kernels on disk under a key that does not know about this hook, so
tileopt's kernels are kept apart: ``use`` installs ``CacheManager``, Triton's file cache with
its keys salted by the pipeline and by tileopt's own source files (a change to either compiles
again; Triton's own kernels never mix with tileopt's).

This is the one module of tileopt that imports ``triton``, and only when a hook is installed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from tileopt.driver.library import load_pipeline, run_stages
from tileopt.ir import TileoptError
from tileopt.target import translate
from tileopt.target.gpu_target import target_of_module

ENV_PIPELINE = "TILEOPT_TRITON_PIPELINE"
ENV_LOG = "TILEOPT_TRITON_LOG"
ENV_FALLBACK = "TILEOPT_TRITON_FALLBACK"
ENV_DUMP = "TILEOPT_TRITON_DUMP_FAILED"
CACHE_MANAGER = f"{__name__}:CacheManager"

# The stages tileopt makes, in Triton's order; ``cubin`` (ptxas) stays Triton's.
STAGES = ("ttir", "ttgir", "llir", "ptx")
# The YAML pipeline's stage each Triton stage starts the run at (``ptx`` is made after it).
_PIPELINE_STAGE = {"ttir": "ttir", "ttgir": "ttgir", "llir": "llir"}

log = logging.getLogger("tileopt.triton")


@dataclass
class KernelRecord:
    """How one kernel compile went (one per ``triton.compile`` that ran the stages)."""

    name: str
    compiled_by: str  # "tileopt" or "triton" (the fallback)
    pipeline: str | None
    reason: str | None = None  # first line of why tileopt's result was not used
    failed_at: str | None = None  # "pipeline", "ptx", "ptxas" or "hook" (not attempted)
    seconds: float = 0.0  # tileopt's compile time (pipeline + LLVM IR + PTX)
    has_dot: bool = False  # the TTIR has a tt.dot (a GEMM template kernel)
    num_warps: int | None = None
    shared: int | None = None
    pid: int = 0


@dataclass
class _Settings:
    pipeline: str | None  # None: by the GPU (``default_pipeline``)
    fallback: bool


_lock = threading.RLock()  # tileopt's pass diagnostics are process-global: one compile at a time
_settings: _Settings | None = None
_previous_hook = None
_records: list[KernelRecord] = []


def use(pipeline: str | None = None, *, fallback: bool = True, log_path: str | None = None
        ) -> None:
    """Compile every Triton kernel of this process (and of the processes it starts) through
    ``pipeline``: a YAML pipeline name, ``NAME{param=value ...}`` or a ``.yaml`` path; None
    picks one by the GPU (``nvidia-sm90`` for sm_90, ``nvidia-sm80`` for sm_80..sm_89).

    Call it before the first kernel compiles (for ``torch.compile``: before the first
    compiled call, so that Inductor's compile workers start with the setting). Every
    process appends its kernels to ``log_path`` (default: a new temporary file), which
    ``records()`` reads.
    """
    current = os.environ.get("TRITON_CACHE_MANAGER")
    if current not in (None, "", CACHE_MANAGER):
        raise TileoptError(f"TRITON_CACHE_MANAGER is already set to '{current}'; tileopt "
                           f"needs its own ({CACHE_MANAGER}) to keep its kernels apart")
    if pipeline is not None:
        load_pipeline(pipeline)  # a bad name or parameter fails here, not in every kernel
        name, brace, rest = pipeline.partition("{")
        if Path(name.strip()).is_file():  # workers may start elsewhere
            pipeline = str(Path(name.strip()).resolve()) + brace + rest
        os.environ[ENV_PIPELINE] = pipeline
    else:
        os.environ.pop(ENV_PIPELINE, None)
    os.environ[ENV_FALLBACK] = "1" if fallback else "0"
    if log_path is None:
        handle, log_path = tempfile.mkstemp(prefix="tileopt-triton-", suffix=".jsonl")
        os.close(handle)
    os.environ[ENV_LOG] = str(log_path)
    os.environ["TRITON_CACHE_MANAGER"] = CACHE_MANAGER
    _install(_settings_from_environment())


def stop() -> None:
    """Undo ``use``: Triton compiles with its own passes again (its own cache, too)."""
    global _settings
    from triton import knobs

    with _lock:
        if _settings is not None:
            knobs.runtime.add_stages_inspection_hook = _previous_hook
            _settings = None
    for name in (ENV_PIPELINE, ENV_FALLBACK, ENV_LOG):
        os.environ.pop(name, None)
    if os.environ.get("TRITON_CACHE_MANAGER") == CACHE_MANAGER:
        del os.environ["TRITON_CACHE_MANAGER"]


def records() -> list[KernelRecord]:
    """The kernels compiled since ``use``: from ``$TILEOPT_TRITON_LOG`` when it is set (every
    process's, compile workers' included), else this process's."""
    path = os.environ.get(ENV_LOG)
    if not path or not os.path.exists(path):
        with _lock:
            return list(_records)
    fields = set(KernelRecord.__dataclass_fields__)
    found = []
    with open(path) as log_file:
        for line in log_file:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # cut short by a process that was killed
            if isinstance(entry, dict) and "name" in entry and set(entry) <= fields:
                found.append(KernelRecord(**entry))
    return found


def default_pipeline(capability: int) -> str | None:
    """The built-in pipeline for a CUDA compute capability (90 -> nvidia-sm90)."""
    if capability == 90:
        return "nvidia-sm90"
    if 80 <= capability < 90:
        return "nvidia-sm80"
    return None


def _settings_from_environment() -> _Settings:
    return _Settings(os.environ.get(ENV_PIPELINE) or None,
                     os.environ.get(ENV_FALLBACK, "1") != "0")


def _install(settings: _Settings) -> None:
    global _settings, _previous_hook
    from triton import knobs

    with _lock:
        if _settings is None:
            hook = knobs.runtime.add_stages_inspection_hook
            _previous_hook = None if isinstance(hook, _StagesHook) else hook
            knobs.runtime.add_stages_inspection_hook = _StagesHook()
        _settings = settings


class _StagesHook:
    """What Triton's ``add_stages`` calls: swaps the stages of each CUDA Triton kernel."""

    def __call__(self, backend, stages, options, language, capability):
        if _previous_hook is not None:
            _previous_hook(backend, stages, options, language, capability)
        settings = _settings
        if settings is None or getattr(backend.target, "backend", None) != "cuda":
            return
        kernel = KernelCompile(dict(stages), options, capability, settings,
                               language_ok=getattr(language, "name", "TRITON") == "TRITON")
        for stage in (*STAGES, "cubin"):
            if stage in stages:
                stages[stage] = kernel.stage(stage)


class KernelCompile:
    """One kernel's compile: tileopt's outputs, or Triton's stages when tileopt failed.

    ``original`` holds Triton's stage functions (``ttir`` ... ``cubin``). The first stage
    that runs compiles everything with tileopt; later stages hand out its texts. The Triton
    module the first stage receives is only printed, never changed, so Triton's own stages
    can still start from it if anything fails (as late as ptxas).
    """

    def __init__(self, original: dict, options, capability: int, settings: _Settings,
                 language_ok: bool = True):
        self.original = original
        self.options = options
        self.capability = capability
        self.settings = settings
        self.language_ok = language_ok
        self.first_stage: str | None = None
        self.source = None  # the Triton module the first stage received
        self.outputs: dict[str, str] | None = None
        self.metadata: dict[str, object] = {}
        self.record: KernelRecord | None = None
        self.recorded = False
        self.use_triton = False

    def stage(self, name: str):
        return lambda src, metadata: self.run(name, src, metadata)

    def run(self, stage: str, src, metadata: dict):
        if stage == "cubin":
            return self._cubin(src, metadata)
        if self.first_stage is None:
            self._start(stage, src)
        if self.use_triton:
            return self.original[stage](src, metadata)
        assert self.outputs is not None
        if stage == "llir":
            metadata.update(self.metadata)
        elif stage == "ttgir":
            metadata["tensordesc_meta"] = []
        elif stage == "ptx":
            metadata["name"] = self.metadata["name"]
        return self.outputs[stage]

    def _start(self, stage: str, src) -> None:
        self.first_stage, self.source = stage, src
        text = str(src)
        name = _kernel_name(text)
        pipeline = self.settings.pipeline or default_pipeline(self.capability)
        self.record = KernelRecord(name, "tileopt", pipeline, has_dot="tt.dot " in text,
                                   pid=os.getpid())
        reason = self._not_attempted(stage, text, pipeline)
        if reason is not None:
            self._use_triton("hook", reason)
            return
        start = time.perf_counter()
        try:
            with _lock:
                self.outputs, self.metadata = compile_text(
                    text, pipeline, stage, _pipeline_params(self.options),
                    fp_fusion=self.options.enable_fp_fusion,
                    libdevice=dict(self.options.extern_libs or ()).get("libdevice"),
                    filename=f"{name}.{stage}")
        except Exception as err:  # noqa: BLE001 - any failure means Triton compiles it
            self.record.seconds = time.perf_counter() - start
            failed_at = "ptx" if getattr(err, "tileopt_phase", None) == "ptx" else "pipeline"
            self._use_triton(failed_at, _first_line(err), err)
            return
        self.record.seconds = time.perf_counter() - start
        self.record.num_warps = self.metadata.get("num_warps")
        self.record.shared = self.metadata.get("shared")

    def _not_attempted(self, stage: str, text: str, pipeline: str | None) -> str | None:
        if stage not in _PIPELINE_STAGE:
            return f"the input is already past the pipeline (it starts at {stage})"
        if not self.language_ok:
            return "not a Triton-language kernel (Gluon)"
        if pipeline is None:
            return f"no tileopt pipeline for sm_{self.capability} (name one)"
        if "!tt.tensordesc" in text:
            return "tensor descriptor arguments (the hook does not pass their metadata)"
        if self.options.maxnreg is not None:
            return "maxnreg is set (the hook does not pass it on)"
        return None

    def _cubin(self, ptx: str, metadata: dict):
        try:
            if self.use_triton or self.first_stage is None:
                return self.original["cubin"](ptx, metadata)
            try:
                return self.original["cubin"](ptx, metadata)
            except Exception as err:  # noqa: BLE001 - ptxas rejected tileopt's PTX
                self._use_triton("ptxas", _first_line(err), err)
            # Triton's stages from the frontend module, which nothing has changed.
            module = self.source
            for stage in STAGES[STAGES.index(self.first_stage):]:
                if stage in self.original:
                    module = self.original[stage](module, metadata)
            return self.original["cubin"](module, metadata)
        finally:
            self.finish()

    def _use_triton(self, failed_at: str, reason: str, err: Exception | None = None) -> None:
        record = self.record
        assert record is not None
        if not self.settings.fallback and err is not None:
            self.finish()
            raise err
        self.use_triton = True
        record.compiled_by, record.failed_at, record.reason = "triton", failed_at, reason
        if err is not None:
            self._dump_input()
        log.warning("tileopt: %s compiled by Triton instead (%s: %s)", record.name,
                    failed_at, reason)

    def _dump_input(self) -> None:
        folder = os.environ.get(ENV_DUMP)
        if not folder or self.source is None or self.record is None:
            return
        text = str(self.source)
        digest = hashlib.sha256(text.encode()).hexdigest()[:10]
        os.makedirs(folder, exist_ok=True)
        path = Path(folder) / f"{self.record.name}-{digest}.{self.first_stage}.mlir"
        path.write_text(text)

    def finish(self) -> None:
        """Record the kernel (once: in ``records()`` and in ``$TILEOPT_TRITON_LOG``)."""
        if self.record is not None and not self.recorded:
            self.recorded = True
            _finish(self.record)


def compile_text(text: str, pipeline: str, start_at: str, params: dict[str, object], *,
                 fp_fusion: bool = True, libdevice: str | None = None,
                 filename: str = "<triton>") -> tuple[dict[str, str], dict[str, object]]:
    """Run ``pipeline`` over Triton IR from ``start_at`` to PTX.

    Returns the text of each Triton stage from ``start_at`` on (``ttir``/``ttgir``: MLIR;
    ``llir``: LLVM IR; ``ptx``) and the metadata Triton's launcher needs, read from the
    output: ``shared``, ``num_warps``, ``num_ctas``, ``tmem_size``, the scratch sizes and
    alignments, and ``name``.
    """
    staged = run_stages(text, _pipeline(pipeline, tuple(sorted(params.items()))),
                        filename=filename, start_at=_PIPELINE_STAGE[start_at])
    module = staged.module
    if not any(op.name == "llvm.func" for op in module.body.walk()):
        raise TileoptError(f"pipeline '{pipeline}' stops before the LLVM dialect")
    target = target_of_module(module)
    if target is None or not target.is_nvidia:
        raise TileoptError("the output module has no NVIDIA ttg.target")
    outputs = dict(staged.texts)
    outputs["llir"] = llvm_ir = translate(module, emit="llvm-ir")
    if libdevice and not os.environ.get("TILEOPT_LIBDEVICE"):
        os.environ["TILEOPT_LIBDEVICE"] = libdevice  # Triton's own copy
    try:
        outputs["ptx"] = ptx = translate(llvm_ir, emit="ptx", arch=target, opt_level=3,
                                         fp_fusion=fp_fusion, filename=filename)
    except Exception as err:
        err.tileopt_phase = "ptx"  # type: ignore[attr-defined]
        raise
    return {s: outputs[s] for s in STAGES[STAGES.index(start_at):]}, \
        metadata_of(module, ptx)


def metadata_of(module, ptx: str) -> dict[str, object]:
    """The fields Triton's ``make_llir``/``make_ptx`` put in a kernel's metadata, read from
    tileopt's LLVM-dialect module and PTX."""

    def attr(name: str) -> int | None:
        value = module.attributes.get(name)
        return None if value is None else int(value.value.data)

    names = re.findall(r"^\s*\.visible\s+\.entry\s+([\w$]+)", ptx, re.MULTILINE)
    if len(names) != 1:
        raise TileoptError(f"the PTX has {len(names)} kernel entries, Triton needs one")
    return {
        "name": names[0],
        "num_warps": attr("ttg.total-num-warps") or attr("ttg.num-warps"),
        "num_ctas": attr("ttg.num-ctas") or 1,
        "shared": attr("ttg.shared") or 0,
        "tmem_size": attr("ttg.tensor_memory_size") or 0,
        "global_scratch_size": attr("ttg.global_scratch_memory_size") or 0,
        "global_scratch_align": attr("ttg.global_scratch_memory_alignment") or 1,
        "profile_scratch_size": attr("ttg.profile_scratch_memory_size") or 0,
        "profile_scratch_align": attr("ttg.profile_scratch_memory_alignment") or 1,
    }


@lru_cache(maxsize=64)
def _pipeline(spec: str, params: tuple[tuple[str, object], ...]):
    return load_pipeline(spec, dict(params))


def _pipeline_params(options) -> dict[str, object]:
    """Triton's compile options under the YAML parameters' names."""
    return {"num-warps": options.num_warps, "num-ctas": options.num_ctas,
            "num-stages": options.num_stages}


def _kernel_name(text: str) -> str:
    found = re.search(r"tt\.func\s+public\s+@([\w$.]+)", text) or \
        re.search(r"(?:tt|llvm)\.func\s+@([\w$.]+)", text)
    return found.group(1) if found else "<kernel>"


def _first_line(err: BaseException) -> str:
    text = err.format() if isinstance(err, TileoptError) else f"{type(err).__name__}: {err}"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(err).__name__


def _finish(record: KernelRecord) -> None:
    with _lock:
        _records.append(record)
    path = os.environ.get(ENV_LOG)
    if path:
        # One write per line with O_APPEND: lines from worker processes do not interleave.
        line = json.dumps(asdict(record)) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


# The cache --------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _tileopt_fingerprint() -> str:
    """Changes whenever a tileopt source file or built-in pipeline changes."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".yaml") and path.is_file():
            stat = path.stat()
            digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};"
                          .encode())
    return digest.hexdigest()


def salted_key(key: str, pipeline: str | None) -> str:
    """Triton's cache key made specific to tileopt, its pipeline (and the YAML file's
    contents, when it is a file) and its sources; same shape as Triton's."""
    extra = pipeline or "<by GPU>"
    name = (pipeline or "").split("{", 1)[0].strip()
    if name.endswith((".yaml", ".yml")) and Path(name).is_file():
        extra += hashlib.sha256(Path(name).read_bytes()).hexdigest()
    digest = hashlib.sha256(f"{key}|tileopt|{extra}|{_tileopt_fingerprint()}".encode())
    return base64.b32encode(digest.digest()).decode().rstrip("=")


def _make_cache_manager():
    from triton.runtime.cache import FileCacheManager

    class CacheManager(FileCacheManager):
        """Triton's file cache with keys salted for tileopt (``salted_key``). Triton makes
        one before it builds a kernel's stages: this is where a process that only has
        ``TRITON_CACHE_MANAGER`` set (a compile worker, a script left unchanged) installs
        the hook."""

        def __init__(self, key, override=False, dump=False):
            if not (override or dump):
                settings = _settings_from_environment()
                _install(settings)
                key = salted_key(key, settings.pipeline)
            super().__init__(key, override=override, dump=dump)

    CacheManager.__module__ = __name__
    return CacheManager


def __getattr__(name: str):
    # Triton imports ``CacheManager`` by name from TRITON_CACHE_MANAGER; it subclasses
    # Triton's, so it is made on first use and this module imports without Triton.
    if name == "CacheManager":
        cls = _make_cache_manager()
        globals()["CacheManager"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
