"""Which Triton version's text a module is read as, printed as, and compiled like.

tileopt reads and writes the text of two Triton releases, 3.6 (the default: what PyTorch
2.11 ships) and 3.9. Most of it is the same; where 3.9 spells something differently (an
``amdg.buffer_load`` that prints its pointer type, ``#ttg.amd_wmma`` with a ``ctaLayout``,
``rocdl.sched.barrier`` with named masks) the parser accepts both spellings and the
printer writes the one of the module's version. How a run decides the version is
``docs/triton-versions.md``: ``--triton-version``, else the YAML pipeline's
``triton-version``, else what the input's own text shows, else 3.6.

The version lives beside the module, not in it (it would print as an attribute): a
weak table from module to version, set by the parser (from the spellings it met), the
pass manager (from the pipeline) and the driver (from the flag). While a module prints,
``printing_version()`` says which spelling to write; while text parses, a parser that
meets a version's own spelling calls ``note_spelling``.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.ir import Operation

TRITON_VERSIONS = ("3.6", "3.9")
DEFAULT_VERSION = "3.6"

# Module attributes only one version writes: the input shows its version through them.
_MODULE_ATTRIBUTE_VERSIONS = {"ttng.two-ctas": "3.9"}

_printing: ContextVar[str] = ContextVar("tileopt_triton_printing", default=DEFAULT_VERSION)
_seen: ContextVar[set[str] | None] = ContextVar("tileopt_triton_spellings", default=None)
_module_versions: weakref.WeakKeyDictionary[Operation, str] = weakref.WeakKeyDictionary()


def check_version(text: str) -> str:
    """``text`` if it names a supported version (``3.9``, also ``3.9.0``), else ValueError."""
    version = ".".join(str(text).strip().split(".")[:2])
    if version not in TRITON_VERSIONS:
        raise ValueError(f"unsupported Triton version '{text}' (supported: "
                         f"{', '.join(TRITON_VERSIONS)})")
    return version


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def at_least(version: str, floor: str) -> bool:
    """Whether ``version`` is ``floor`` or newer."""
    return _key(version) >= _key(floor)


# --- printing ------------------------------------------------------------------------


def printing_version() -> str:
    """The version whose spelling the printer writes now."""
    return _printing.get()


def prints_39() -> bool:
    """Whether the printer writes Triton 3.9's spelling now."""
    return at_least(printing_version(), "3.9")


@contextmanager
def printing_as(version: str) -> Iterator[None]:
    token = _printing.set(check_version(version))
    try:
        yield
    finally:
        _printing.reset(token)


# --- parsing -------------------------------------------------------------------------


def note_spelling(version: str) -> None:
    """Called by a parser that met a spelling only ``version`` writes."""
    seen = _seen.get()
    if seen is not None:
        seen.add(version)


@contextmanager
def recording_spellings() -> Iterator[set[str]]:
    """Collect the versions whose own spellings the text parsed inside meets."""
    seen: set[str] = set()
    token = _seen.set(seen)
    try:
        yield seen
    finally:
        _seen.reset(token)


def detected_version(module: Operation, spellings: set[str]) -> str | None:
    """The newest version the parsed text showed (its spellings, its module attributes),
    None where it showed none (the text reads the same in every version)."""
    shown = set(spellings)
    for name, version in _MODULE_ATTRIBUTE_VERSIONS.items():
        if name in module.attributes:
            shown.add(version)
    if not shown:
        return None
    return max(shown, key=_key)


# --- the module's version ------------------------------------------------------------


def set_module_version(module: Operation, version: str) -> None:
    _module_versions[module] = check_version(version)


def module_version(op: Operation) -> str:
    """The version of the module ``op`` is in (3.6 where none was set)."""
    top = op
    while top.parent_op() is not None:
        top = top.parent_op()
    return _module_versions.get(top, DEFAULT_VERSION)


def is_version_39(op: Operation) -> bool:
    """Whether ``op``'s module is compiled as Triton 3.9 (or newer) compiles it."""
    return at_least(module_version(op), "3.9")
