"""Loaded pipeline definitions kept across commands, so that a command whose YAML pipeline
has not changed neither imports PyYAML nor reads the file's nodes again.

Importing PyYAML (its regular expressions are compiled at import) and composing a built-in
pipeline cost a ``tileopt --pass-pipeline=nvidia-sm90`` command about a twentieth of its
start-up (issue 14). ``loader.load_definition`` asks ``lookup`` first and gives ``store``
what it loaded: the ``Definition`` (pickled), keyed by the pipeline file's path as given
and the working folder (its messages name files relative to it), with the path,
modification time and size of every file it was read from (the file and the files
it ``extends``) and of the loader's own sources. A definition whose chain names
``plugins:`` is not kept (loading it registers passes), nor is a file that failed to load.

Only the console commands use it (``enable``, from ``tileopt.cli``), as they use
``driver/code_cache.py``: tileopt imported as a library reads every pipeline file. Like
Python's byte-code cache it lives in this package's ``__pycache__`` (or under
``sys.pycache_prefix``), is not written under ``PYTHONDONTWRITEBYTECODE``, and a file that
cannot be read or written is ignored.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tileopt import cache_path

VERSION = 1
MAX_ENTRIES = 200  # past this many pipeline files the cache starts over

_enabled = False
_SOURCES = ("loader.py", "model.py", "definition_cache.py", "../passes/index.py")


def enable() -> None:
    global _enabled
    _enabled = True


def cache_file() -> Path:
    tag = f"{sys.implementation.cache_tag}-O{sys.flags.optimize}"
    return cache_path(__file__, f"pipeline-definitions-v{VERSION}.{tag}.pickle")


def _stamps(files: list[Path]) -> tuple | None:
    """(path, mtime, size) of ``files`` and of the loader's sources; None if one is gone."""
    here = Path(__file__).resolve().parent
    stamps = []
    for path in [*files, *(here / name for name in _SOURCES)]:
        try:
            status = os.stat(path)
        except OSError:
            return None
        stamps.append((str(path), status.st_mtime_ns, status.st_size))
    return tuple(stamps)


def _entries() -> dict:
    import pickle

    try:
        with open(cache_file(), "rb") as handle:
            data = pickle.load(handle)
    except Exception:  # noqa: BLE001 - an unreadable or stale cache is no cache
        return {}
    if not (isinstance(data, tuple) and len(data) == 2 and data[0] == (VERSION, sys.version)
            and isinstance(data[1], dict)):
        return {}
    return data[1]


def _key(path: Path) -> str:
    return f"{os.getcwd()}\0{path}"


def lookup(path: Path):
    """The ``Definition`` kept for the pipeline file ``path`` if none of the files it was
    loaded from changed since; else None."""
    if not _enabled:
        return None
    entry = _entries().get(_key(path))
    if entry is None:
        return None
    stamps, definition = entry
    files = [Path(stamp[0]) for stamp in stamps[:len(stamps) - len(_SOURCES)]]
    return definition if _stamps(files) == stamps else None


def store(path: Path, files: list[Path], definition) -> None:
    """Keep ``definition``, loaded from the pipeline file ``path`` and from ``files``."""
    if not _enabled or sys.dont_write_bytecode:
        return
    stamps = _stamps(files)
    if stamps is None:
        return
    import pickle

    entries = _entries()
    if len(entries) >= MAX_ENTRIES:
        entries = {}
    entries[_key(path)] = (stamps, definition)
    target = cache_file()
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as handle:
            pickle.dump(((VERSION, sys.version), entries), handle)
        os.replace(temporary, target)  # atomic: a parallel command reads the old or the new
    except (OSError, pickle.PicklingError):
        try:
            temporary.unlink()
        except OSError:
            pass
