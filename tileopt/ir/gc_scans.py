"""Fewer garbage-collector scans of the IR while tileopt parses, transforms or emits it.

xDSL's IR is a web of reference cycles (ops, blocks, regions and uses point at each
other), so CPython's collector traverses every live op whenever it makes a full
collection, and a pass that allocates many objects triggers many of them: about a fifth
of a pipeline's time on the corpus kernels (issue 14's profile). :func:`heap_frozen`
moves the objects alive when the work starts out of the collector's view
(``gc.freeze``) and back when it ends (``gc.unfreeze``): the garbage the work makes is
still collected as it goes, while what was already there (the input IR) is traversed
again only after the work, once. Nested uses, and a caller who froze the heap or turned
the collector off, are left as they are.

A console command also spares the collector its start-up and its exit (issue 14):
:func:`pause_for_start_up`, its first act, stops automatic collection while it imports
(xDSL and the dialects make a hundred thousand objects that live as long as the process,
and the collector, run every 700 allocations, traversed the young ones again and again),
until the first work on the IR (any :func:`heap_frozen` function: parse, print, a
pipeline, a translation) resumes it. At exit, once every other exit handler has run, it
freezes the heap: CPython's last full collection over every class and the whole IR, a
fifth of a run over a small file, then has nothing to traverse. Objects in reference
cycles are then left to the operating system, not finalized; nothing tileopt writes
depends on that (outputs are written and closed before, ``tempfile``'s clean-ups are exit
handlers of their own, the interpreter flushes the standard streams). A process that
imports tileopt as a library (a server, Triton's hook) does not call it, and a collector
the process turned off stays off.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

_F = TypeVar("_F", bound=Callable)
_one_shot = False


def one_shot_process() -> None:
    """This process runs one command on a heap the compile server froze before forking
    it (``driver/server.py``): freeze at every start and never thaw (a thaw would hand
    the server's warm heap back to the collector, which would then scan and copy it)."""
    global _one_shot
    _one_shot = True


_paused = False


def pause_for_start_up() -> None:
    """At a console command's start: no automatic collection until the first work on the
    IR, and the heap frozen at exit (module doc)."""
    global _paused
    if not _paused and gc.isenabled():
        gc.disable()
        _paused = True
    atexit.register(gc.freeze)  # the command's first handler: it runs after the others


def _resume() -> None:
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def heap_frozen(work: _F) -> _F:
    """``work`` (a function) run with the objects alive at its start frozen (and a
    start-up pause over)."""

    @wraps(work)
    def run(*args, **kwargs):
        if _paused:
            _resume()
        if _one_shot and gc.isenabled():
            gc.freeze()
            return work(*args, **kwargs)
        if gc.get_freeze_count() or not gc.isenabled():
            return work(*args, **kwargs)
        gc.freeze()
        try:
            return work(*args, **kwargs)
        finally:
            gc.unfreeze()

    return run  # type: ignore[return-value]
