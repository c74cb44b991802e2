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

Each definition has a file of its own (named by a checksum of its key, which the file also
holds), so that a command reads only its pipeline's entry. Only the console commands use
it (``enable``, from ``driver/opt.py`` once ``driver/code_cache.py`` is installed):
tileopt imported as a library reads every pipeline file. Like Python's byte-code cache it
lives in this package's ``__pycache__`` (or under ``sys.pycache_prefix``), is not written
under ``PYTHONDONTWRITEBYTECODE``, and a file that cannot be read or written is ignored.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tileopt import cache_path, write_cache

VERSION = 2
MAX_ENTRIES = 200  # past this many kept definitions the folder starts over

_enabled = False
_SOURCES = ("loader.py", "model.py", "definition_cache.py", "../passes/index.py")


def enable() -> None:
    global _enabled
    _enabled = True


def cache_folder() -> Path:
    tag = f"{sys.implementation.cache_tag}-O{sys.flags.optimize}"
    return cache_path(__file__, f"pipeline-definitions-v{VERSION}.{tag}")


def _file(key: str) -> Path:
    import zlib

    return cache_folder() / f"{zlib.crc32(key.encode()):08x}.pickle"


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


def _key(path: Path) -> str:
    return f"{os.getcwd()}\0{path}"


def lookup(path: Path):
    """The ``Definition`` kept for the pipeline file ``path`` if none of the files it was
    loaded from changed since; else None."""
    if not _enabled:
        return None
    import pickle

    key = _key(path)
    try:
        with open(_file(key), "rb") as handle:
            entry = pickle.load(handle)
    except Exception:  # noqa: BLE001 - a missing, unreadable or stale entry is no entry
        return None
    if not (isinstance(entry, tuple) and len(entry) == 4 and entry[:2] == (sys.version, key)):
        return None  # another Python, or another key with the same checksum
    stamps, definition = entry[2:]
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

    key = _key(path)
    try:
        data = pickle.dumps((sys.version, key, stamps, definition))
        kept = list(cache_folder().glob("*.pickle"))
        if len(kept) >= MAX_ENTRIES:
            for old in kept:
                old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError):
        return
    write_cache(_file(key), data)
