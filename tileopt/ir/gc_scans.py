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


def heap_frozen(work: _F) -> _F:
    """``work`` (a function) run with the objects alive at its start frozen."""

    @wraps(work)
    def run(*args, **kwargs):
        if gc.get_freeze_count() or not gc.isenabled():
            return work(*args, **kwargs)
        gc.freeze()
        try:
            return work(*args, **kwargs)
        finally:
            gc.unfreeze()

    return run  # type: ignore[return-value]
