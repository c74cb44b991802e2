"""A byte-code cache for the methods ``dataclasses`` generates, for the commands' start-up.

xDSL makes every attribute and type class a frozen dataclass, and ``dataclasses`` writes
each class's ``__eq__``, ``__hash__``, ``__repr__``, ``__setattr__`` and ``__delattr__`` as
source text and compiles it with ``exec``: about 1,450 compilations (820 distinct texts)
for a run over a small Triton file, a third of that run's CPU time (issue 14). ``install``
gives the ``dataclasses`` module an ``exec`` that compiles each distinct text once and keeps
the code objects in this package's ``__pycache__``, as Python keeps modules' byte
code: a later command loads them instead of compiling (each from its marshalled bytes when
first used: a run defines only some of the classes the file has seen). The key is the whole
source text,
so a changed class (or another Python) only misses the cache, and the functions are those
``exec`` of the same text makes (compiled without inheriting this module's ``__future__``
flags, as ``dataclasses`` compiles them). Like Python's own cache it is not written under
``PYTHONDONTWRITEBYTECODE`` (``sys.dont_write_bytecode``), and a file that cannot be read
or written is ignored.

Only the console commands install it (``tileopt.cli``), before anything imports xDSL: a
process that imports tileopt as a library keeps its ``dataclasses`` untouched. ``install``
also installs the compiled-pattern cache (``regex_cache``), has ``dataclasses`` make doc
strings on first read (``dataclass_docs``), has xDSL's ``.irdl`` finder imported as a
stand-in (``xdsl_dialect_finder``) and pauses the garbage
collector for the command's start-up (``tileopt/ir/gc_scans.py``'s
``pause_for_start_up``), the other things a command does first.

Upstream (xDSL): no patch yet; what to propose is in docs/upstream/README.md.
"""

from __future__ import annotations

import builtins
import marshal
import sys
from pathlib import Path
from types import CodeType

from tileopt import cache_path, read_entries, write_entries

# Past this many texts the file starts over with what this run used (a bound on growth).
MAX_ENTRIES = 20_000

_code: dict[str, object] = {}
_stored: dict[str, bytes] = {}
"""the file's entries: source text -> its code object, marshalled"""
_new: list[str] = []
_installed = False
_loaded = False


def cache_file() -> Path:
    tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-O{sys.flags.optimize}"
    return cache_path(__file__, f"dataclass-code-v2.{tag}.marshal")


def _cached_exec(source, globals=None, locals=None, /, *args, **kwargs):
    global _loaded
    if isinstance(source, str):
        if not _loaded:  # on first use: a run that defines no class reads no file
            _loaded = True
            _stored.update(read_entries(cache_file()))
        code = _code.get(source)
        if code is None:
            blob = _stored.get(source)
            code = None if blob is None else _unmarshal(blob)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                _new.append(source)
            _code[source] = code
        source = code
    return builtins.exec(source, globals, locals, *args, **kwargs)


def _unmarshal(blob: object) -> CodeType | None:
    try:
        code = marshal.loads(blob)  # type: ignore[arg-type]
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def save() -> None:
    """Write the cache if this run compiled something new (at exit)."""
    if not _new or sys.dont_write_bytecode:
        return
    path = cache_file()
    entries = read_entries(path)
    if len(entries) + len(_new) > MAX_ENTRIES:  # start over with what this run used
        entries = {source: marshal.dumps(code) for source, code in _code.items()}
    else:
        entries.update((source, marshal.dumps(_code[source])) for source in _new)
    write_entries(path, entries)
    _new.clear()


def installed() -> bool:
    """Whether this process is a command that keeps its caches (``install`` was called)."""
    return _installed


def install() -> None:
    """Give ``dataclasses`` the caching ``exec`` (once per process); the file is read
    when the first class is defined."""
    global _installed
    if _installed:
        return
    _installed = True
    from tileopt.driver import dataclass_docs, regex_cache, xdsl_dialect_finder

    regex_cache.install()  # first: the imports below compile patterns
    xdsl_dialect_finder.install()
    import atexit
    import dataclasses

    dataclass_docs.install()

    from tileopt.ir import gc_scans

    gc_scans.pause_for_start_up()

    dataclasses.exec = _cached_exec  # a module global shadows the builtin it calls
    atexit.register(save)
