"""A cache of compiled regular expressions across commands, for the commands' start-up.

The modules a command imports (xDSL's lexers and parsers, ``tokenize``, which
``dataclasses`` reaches through ``inspect.signature``, tileopt's own lexers, ``logging``,
``textwrap``, ...) compile about a hundred regular expressions at import or first use:
parsing each pattern and generating its matcher code is 4% of a run without passes
(callgrind, issue 14). ``re`` keeps them for the process only. ``install`` gives ``re``
a compiler that keeps, per pattern text and flags, exactly the arguments
``re._compiler.compile`` hands to ``_sre.compile`` (the final flags, the matcher code, the
group count and names) in this package's ``__pycache__``; a later command builds the
pattern object from them without parsing: the same call with the same arguments, so the
same pattern. Like ``code_cache`` (whose file sits beside it), the file is keyed by the
interpreter (``_sre``'s code format changes between versions), read on the first
compilation, written at exit when something new was compiled, and not under
``PYTHONDONTWRITEBYTECODE``; a file that cannot be read or written is ignored.

Only the console commands install it (``code_cache.install``), before anything imports
xDSL. Patterns compiled with ``re.DEBUG``, and compiled pattern objects passed again,
go to ``re``'s own code.

Upstream: CPython keeps no such cache (a pattern object is not marshallable); nothing to
propose to xDSL.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

from tileopt import cache_path, read_entries, write_entries

# Past this many patterns the file starts over with what this run compiled.
MAX_ENTRIES = 5_000

_stored: dict | None = None
"""(pattern, flags) -> (flags, code, groups, groupindex, indexgroup); None until read"""
_used: set = set()
_new = 0
_installed = False


def cache_file():
    import _sre

    tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}"
    return cache_path(__file__, f"regex-code-v1.{tag}.marshal")


def _arguments(pattern, flags: int) -> tuple:
    """What ``re._compiler.compile`` passes to ``_sre.compile`` after the pattern (the
    same steps, kept marshallable: its opcodes are ``int`` subclasses)."""
    from re import _compiler, _parser

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (int(flags | parsed.state.flags), [int(word) for word in code],
            parsed.state.groups - 1, groupindex, tuple(indexgroup))


def _cached_compile(pattern, flags: int, original: Callable, build: Callable):
    global _stored, _new
    if not isinstance(pattern, (str, bytes)) or flags & 128:  # re.DEBUG prints as it goes
        return original(pattern, flags)
    if _stored is None:  # on first use: a run that compiles nothing reads no file
        _stored = read_entries(cache_file())
    key = (pattern, flags)
    _used.add(key)
    arguments = _stored.get(key)
    if arguments is not None:
        try:
            return build(pattern, *arguments)
        except (TypeError, ValueError, RuntimeError):  # a damaged entry: made again
            pass
    arguments = _arguments(pattern, flags)
    _stored[key] = arguments
    _new += 1
    return build(pattern, *arguments)


def save() -> None:
    """Write the cache if this run compiled a new pattern (at exit)."""
    global _new
    if not _new or sys.dont_write_bytecode or _stored is None:
        return
    entries = _stored
    if len(entries) > MAX_ENTRIES:  # start over with what this run used
        entries = {key: entries[key] for key in _used}
    write_entries(cache_file(), entries)
    _new = 0


def install() -> None:
    """Give ``re`` the caching compiler (once per process)."""
    global _installed
    if _installed:
        return
    _installed = True
    import _sre
    import atexit
    from re import _compiler

    original, build = _compiler.compile, _sre.compile

    def compile(pattern, flags=0):
        return _cached_compile(pattern, flags, original, build)

    _compiler.compile = compile
    atexit.register(save)
