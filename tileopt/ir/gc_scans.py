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
"""

from __future__ import annotations

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


def heap_frozen(work: _F) -> _F:
    """``work`` (a function) run with the objects alive at its start frozen."""

    @wraps(work)
    def run(*args, **kwargs):
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
