"""The end of a console command without the interpreter's teardown (issue 14).

After a command's work, CPython's finalisation still clears every module and class and
frees the IR object by object: about 7 ms of a run over a small file, for a process that
is about to go. :func:`end_command` does the exit steps that make a difference outside
the process, in Python's order (waiting for threads, the exit handlers, flushing the
standard streams), then ends the process with the status. A status Python would print
(not an int), or a standard output that cannot be flushed, is left to Python's own exit,
which then says what it always says; the exit handlers do not run twice
(``atexit._run_exitfuncs`` clears them).

Only the console entry points call it (``tileopt/cli.py``); the compile server's child
ends with the same steps (:func:`exit_steps`) and its own ``os._exit``; a command run
in-process (tests, a library user) ends as before.
"""

from __future__ import annotations

import atexit
import os
import sys


def exit_steps() -> BaseException | None:
    """Python's exit steps short of the teardown, in its order: wait for the non-daemon
    threads, run the exit handlers (which clears them), flush the standard output, then the
    standard error. The error of flushing the standard output, if it failed (the standard
    error is then left as it is: the caller reports the error as Python would, and the
    status becomes 120); else None. The compile server's child ends with these steps too."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # non-daemon threads first, as at Python's exit
    atexit._run_exitfuncs()
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except Exception as err:  # noqa: BLE001 - reported by the caller
        return err
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except Exception:  # noqa: BLE001 - Python ignores it too
        pass
    return None


def end_command(status: object) -> None:
    """End the process with ``status`` (an int or None) as ``sys.exit`` would, less the
    teardown; return without ending it where Python's exit must speak."""
    if status is None:
        status = 0
    if not isinstance(status, int):
        return
    if exit_steps() is not None:
        return  # Python's exit reports the standard output's error and exits with 120
    os._exit(status)
