"""How the command-line tools report a failure: a diagnostic for bad input, a one-line
internal error for a bug in tileopt, the traceback only with ``--debug``."""

from __future__ import annotations

import os
import sys
import traceback

from tileopt.driver.pass_manager import InternalPassError
from tileopt.ir import TileoptError


def debug_enabled(flag: bool = False) -> bool:
    return flag or os.environ.get("TILEOPT_DEBUG", "") not in ("", "0")


def report_failure(err: Exception, debug: bool) -> int:
    """Print ``err`` on stderr and return the exit code (1)."""
    debug = debug_enabled(debug)
    if debug:
        traceback.print_exception(err.error if isinstance(err, InternalPassError) else err)
    hint = "" if debug else " (run with --debug for the traceback)"
    if isinstance(err, TileoptError):
        print(err.format(), file=sys.stderr)
    elif isinstance(err, InternalPassError):
        print(f"error: {err}{hint}", file=sys.stderr)
    else:  # a bug in tileopt, not in the input
        print(f"error: internal error: {type(err).__name__}: {err}{hint}", file=sys.stderr)
    sys.stderr.flush()
    return 1
