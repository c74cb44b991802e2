"""How the command-line tools report a failure: a diagnostic for bad input, a one-line
internal error for a bug in tileopt, the traceback only with ``--debug``."""

from __future__ import annotations

import os
import sys
import traceback

from tileopt.ir import TileoptError


class InternalPassError(Exception):
    """A Python exception escaped from a pass: a bug in tileopt (or a plugin)."""

    def __init__(self, pass_name: str, error: BaseException):
        super().__init__(f"internal error in pass '{pass_name}': {type(error).__name__}: {error}")
        self.pass_name = pass_name
        self.error = error


def debug_enabled(flag: bool = False) -> bool:
    return flag or os.environ.get("TILEOPT_DEBUG", "") not in ("", "0")


def report_failure(err: Exception, debug: bool) -> int:
    """Print ``err`` on stderr and return the exit code (1)."""
    debug = debug_enabled(debug)
    if debug:
        traceback.print_exception(err.error if isinstance(err, InternalPassError) else err)
    hint = "" if debug else " (run with --debug for the traceback)"
    if isinstance(err, TileoptError):
        print(err.format(excerpt=True), file=sys.stderr)
    elif isinstance(err, InternalPassError):
        print(f"error: {err}{hint}", file=sys.stderr)
    else:  # a bug in tileopt, not in the input
        print(f"error: internal error: {type(err).__name__}: {err}{hint}", file=sys.stderr)
    sys.stderr.flush()
    return 1
