"""CPython's garbage collector during a command's start-up and at its exit (issue 14).

A command (``tileopt``, ``tileopt-translate``) starts by importing: xDSL and the dialects
make a hundred thousand objects that live as long as the process, and the collector, run
every 700 allocations, traverses the young ones again and again for nothing. At exit,
after the exit handlers, CPython makes a full collection of everything still alive (the
classes, the IR), and frees it, for memory the operating system takes back anyway: a
fifth of a run over a small file. So, for the console commands only:

- :func:`pause` (at the command's start): no automatic collection until :func:`resume`,
  which the driver calls where its work on the IR starts (from there the IR's garbage is
  collected as usual, with ``tileopt/ir/gc_scans.py``'s ``heap_frozen``);
- at exit, once every other exit handler has run, the objects alive are frozen
  (``gc.freeze``): the last collection has nothing to traverse. Objects in reference
  cycles are then left to the operating system, not finalized: nothing tileopt writes
  depends on that (outputs are written and closed before, ``tempfile``'s clean-ups are exit
  handlers of their own, standard streams are flushed by the interpreter).

A process that imports tileopt as a library (a server, Triton's hook) never calls
:func:`pause`, and :func:`resume` leaves its collector as it is.
"""

from __future__ import annotations

import atexit
import gc

_paused = False


def pause() -> None:
    """At a console command's start: no automatic collection until :func:`resume`, and
    the heap frozen at exit."""
    global _paused
    if not _paused and gc.isenabled():
        gc.disable()
        _paused = True
    atexit.register(gc.freeze)  # the first registered: it runs after the others


def resume() -> None:
    """Where the work on the IR starts: collect as usual again (if :func:`pause` stopped it)."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
